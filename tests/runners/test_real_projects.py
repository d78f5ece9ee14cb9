"""Real projects fetched at test time, one per runner, each with a bug planted in one function that
fails at least 20 tests: the raw red output's size, the compact answer (<= 800 B, failed count, exit
code), the root-cause cluster, and the same exit code as the raw run. Figures are printed (-s)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from realproj import CACHE, REPO, answer_line, env_for, git_init, need, plant, shell, sidekit

from testing.pretool import rewritten

pytestmark = pytest.mark.slow

GO_MODULE = "github.com/ettle/strcase@v0.2.0"
CRATE = ("semver", "1.0.23")


def fetch_go_module(module: str) -> Path:
    need("go")
    env = env_for(Path("."), GOMODCACHE=str(CACHE / "gomod"), GOFLAGS="-mod=mod")
    done = subprocess.run(
        ["go", "mod", "download", "-json", module],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=str(CACHE.parent),
    )
    assert done.returncode == 0, done.stderr + done.stdout
    return Path(json.loads(done.stdout)["Dir"])


def copy_tree(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    git_init(target)
    return target


# (file, text, planted) and the function the failing tests call: a bug in ToGoCase (called by
# TestAll) fails 44 tests, one in toUpper (called by TestAll only through ToSnake... ToGoCase) fails
# 50.
GO_PLANTS = {
    "called": (
        "strcase.go",
        "convertWithGoInitialisms(s, delimiter, wordCase)",
        "convertWithGoInitialisms(s, '_', wordCase)",
    ),
    "deep": (
        "unicode.go",
        "return r - 32",
        "return r - 31",
    ),  # toUpper: every upper-cased rune is off by one
}


@pytest.mark.parametrize("plant_kind", ["called", "deep"])
def test_a_go_module_red_run_is_compact_with_its_exit_code(tmp_path: Path, plant_kind: str) -> None:
    project = copy_tree(fetch_go_module(GO_MODULE), tmp_path / "strcase")
    planted, old, new = GO_PLANTS[plant_kind]
    plant(project / planted, old, new)
    env = env_for(project, GOFLAGS="-count=1")
    raw = shell(project, "go test ./...", env)
    command = rewritten(project, "go test ./...", env)
    assert (
        command == f"go test ./... -exec '/bin/sh {REPO / 'sidekit_hooks/runners/go/goexec.sh'} "
        f"{sys.executable}'"
    )
    compact = shell(project, command, env)
    answer = answer_line(compact.output)
    print(
        f"\ngo {GO_MODULE} ({planted}): raw {raw.size:,} B exit {raw.exit}; compacted "
        f"{compact.size} B exit "
        f"{compact.exit}; wall {compact.secs / raw.secs:.2f}x cpu "
        f"{compact.cpu / max(raw.cpu, 1e-3):.2f}x; {answer}"
    )
    assert raw.exit == compact.exit == 1
    assert raw.size > 10_000 and compact.size <= 800
    assert answer["runner"] == "go" and answer["exit"] == 1 and answer["failed"] >= 20
    assert compact.output.rstrip().endswith("FAIL")  # go's own verdict lines follow ours
    found, code = sidekit(project, env, "test")
    assert (
        code == 1
        and found["runner"] == "go"
        and found["exit"] == 1
        and found["failed"] == answer["failed"]
    )
    assert len(json.dumps(found, separators=(",", ":"))) <= 800
    # t.Fail() and t.Errorf carry no stack: a failure is placed at the package function its test
    # calls last before the assertion (here TestAll's ToGoCase), the test's own spot kept in
    # `checks`
    top = found["clusters"][0]
    assert (
        top["at"] == "strcase.go:79" and top["checks"] == "ToGoCase, asserted at strcase_test.go:26"
    )
    assert top["message"].startswith("failed without a message (t.Fail); printed: { input:")
    assert answer["clusters"][0]["at"] == "strcase.go:79"  # the compacted raw run says the same
    if plant_kind == "called":
        assert top["affected"] == found["failed"] == 44 and "moreClusters" not in found
        return
    # toUpper is reached through ToGoCase: its callers' failures sit at ToGoCase (a text scan
    # follows no call graph), its own tests' failure at toUpper in the planted file
    assert top["affected"] == 45
    listed, _ = sidekit(project, env, "failures")
    spots = {(c["at"], c.get("checks", "")) for c in listed["clusters"]}
    assert ("unicode.go:32", "toUpper, asserted at unicode_test.go:94") in spots
    assert (
        "caser.go:24",
        "NewCaser, asserted at caser_test.go:9",
    ) in spots  # its c.ToSnake(...) are methods
    assert ("assert.go:21", "") in spots  # a helper in a non-test file keeps its own line


def fetch_crate(name: str, version: str) -> Path:
    need("cargo")
    fetcher = CACHE / f"fetch-{name}-{version}"
    (fetcher / "src").mkdir(parents=True, exist_ok=True)
    (fetcher / "src" / "lib.rs").write_text("")
    (fetcher / "Cargo.toml").write_text(
        '[package]\nname = "fetcher"\nversion = "0.1.0"\nedition = '
        f'"2021"\n\n[dependencies]\n{name} = "={version}"\n'
    )
    done = subprocess.run(
        ["cargo", "metadata", "--format-version", "1"],
        cwd=fetcher,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    package = next(p for p in json.loads(done.stdout)["packages"] if p["name"] == name)
    return Path(package["manifest_path"]).parent


def test_a_crate_red_run_is_compact_with_its_exit_code_and_the_planted_file(tmp_path: Path) -> None:
    project = copy_tree(fetch_crate(*CRATE), tmp_path / "semver")
    plant(
        project / "src" / "parse.rs",
        "fn dot(input: &str, pos: Position) -> Result<&str, Error> {\n",
        "fn dot(input: &str, pos: Position) -> Result<&str, Error> {\n"
        '    assert!(input.len() < 3, "dot() got {} bytes", input.len());\n',
    )
    env = env_for(project, RUST_BACKTRACE="1")
    assert (
        shell(project, "cargo test --no-run", env).exit == 0
    )  # compile once: the runs below test, not build
    failed = {}
    for written in ("cargo test", "cargo test --no-fail-fast"):
        raw = shell(project, written, env)
        command = rewritten(project, written, env)
        assert command.startswith(written + ' --config \'target."cfg(all())".runner=["/bin/sh",')
        compact = shell(project, command, env)
        answers = [json.loads(line) for line in compact.output.splitlines() if line.startswith("{")]
        print(
            f"\n{written} ({CRATE}): raw {raw.size:,} B exit {raw.exit}; compacted "
            f"{compact.size:,} B exit "
            f"{compact.exit}; wall {compact.secs / raw.secs:.2f}x cpu "
            f"{compact.cpu / max(raw.cpu, 1e-3):.2f}x"
        )
        assert raw.exit == compact.exit == 101
        assert raw.size > 10_000 and compact.size <= 800, compact.output
        assert len(answers) == 1 and answers[0]["exit"] == 101, (
            compact.output
        )  # one answer for the whole run
        assert [c["at"] for c in answers[0]["clusters"]] == ["src/parse.rs:204"]
        assert answers[0]["clusters"][0]["affected"] == answers[0]["failed"]
        failed[written] = answers[0]["failed"]
    # fail-fast: cargo stops at the first red binary (10 failed); all of them: 10 + 11 + 3 failing
    # doc tests
    assert failed == {"cargo test": 10, "cargo test --no-fail-fast": 24}
    found, code = sidekit(project, env, "test")
    print(f"sidekit test: {len(json.dumps(found, separators=(',', ':')))} B {json.dumps(found)}")
    assert (
        code == 101
        and found["runner"] == "cargo"
        and found["exit"] == 101
        and found["failed"] >= 20
    )
    assert len(json.dumps(found, separators=(",", ":"))) <= 800
    top = found["clusters"][0]
    assert top["at"] == "src/parse.rs:204" and top["affected"] >= 20


STRSIM = ("strsim", "0.11.1")
ABORT = ("    fn hamming_empty() {\n", "    fn hamming_empty() {\n        std::process::abort();\n")


def test_a_crate_whose_test_binary_aborts_is_red_in_the_answer_and_the_cache_through_filtered_runs(
    tmp_path: Path,
) -> None:
    project = copy_tree(fetch_crate(*STRSIM), tmp_path / "strsim")
    plant(project / "src" / "lib.rs", *ABORT)
    env = env_for(project)
    assert shell(project, "cargo test --no-run", env).exit == 0
    for written in ("cargo test --no-fail-fast", "cargo test"):
        raw = shell(project, written, env)
        compact = shell(project, rewritten(project, written, env), env)
        answers = [json.loads(line) for line in compact.output.splitlines() if line.startswith("{")]
        print(
            f"\n{written} (strsim, abort): raw exit {raw.exit}, compacted {compact.size:,} B "
            f"{answers}"
        )
        assert raw.exit == compact.exit == 101
        assert all(answer["exit"] == 101 for answer in answers), compact.output  # never "exit":0
        if answers:  # the crash, from the lib binary: its signal
            crash = answers[-1]["clusters"][0]
            assert crash["type"] == "crash" and crash["first"] == "src/lib.rs"
            assert crash["message"].startswith("signal 6 (SIGABRT)")
        status, _ = sidekit(project, env, "status")
        assert (
            status["state"] == "failed" and status["clusters"][0]["message"] == "signal: 6, SIGABRT"
        )
    # runs that do not run hamming_empty keep the crash: none at all, other tests of the lib binary
    for written in ("cargo test nosuchtestxyz", "cargo test jaro"):
        compact = shell(project, rewritten(project, written, env), env)
        assert compact.exit == 0
        status, _ = sidekit(project, env, "status")
        assert (status["state"], status["collectErrors"]) == ("failed", 1), written


def test_a_crate_red_run_whose_failures_are_each_at_their_own_line_keeps_its_top_clusters(
    tmp_path: Path,
) -> None:
    project = copy_tree(fetch_crate(*STRSIM), tmp_path / "strsim")
    plant(project / "src" / "lib.rs", "            / 3.0\n", "            / 3.1\n")
    env = env_for(project)
    assert shell(project, "cargo test --no-run", env).exit == 0
    compact = shell(project, rewritten(project, "cargo test --no-fail-fast", env), env)
    answer = answer_line(compact.output)
    print(f"\nstrsim jaro bug: compacted {compact.size:,} B {answer}")
    assert compact.exit == 101 and compact.size <= 800
    assert answer["exit"] == 101 and answer["failed"] == 24
    assert answer["clusters"][0]["at"].startswith("src/lib.rs:")


POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>demo</groupId><artifactId>demo</artifactId><version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.apache.commons</groupId><artifactId>commons-lang3</artifactId><version>3.14.0</version></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version>
      <scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
    <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
  </plugins></build>
</project>
"""
TEXT = """package demo;

import org.apache.commons.lang3.StringUtils;

public final class Text {
    private Text() {}

    public static String title(String words) {
        return StringUtils.capitalize(StringUtils.normalizeSpace(words));
    }
}
"""
WORDS = [
    "hello",
    "world",
    "java",
    "maven",
    "tests",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
]
TEXT_TEST = """package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TextTest {
    @ParameterizedTest
    @CsvSource({%s, "'  x  y ',X y"})
    void titles(String input, String expected) {
        assertEquals(expected, Text.title(input));
    }
}
""".replace("%s", ", ".join(f'"{w},{w.capitalize()}"' for w in WORDS))


def maven_project(root: Path) -> Path:
    need("mvn")
    (root / "src" / "main" / "java" / "demo").mkdir(parents=True)
    (root / "src" / "test" / "java" / "demo").mkdir(parents=True)
    (root / "pom.xml").write_text(POM)
    (root / "src" / "main" / "java" / "demo" / "Text.java").write_text(TEXT)
    (root / "src" / "test" / "java" / "demo" / "TextTest.java").write_text(TEXT_TEST)
    git_init(root)
    return root


def test_a_maven_project_red_run_is_read_from_its_fresh_surefire_reports(tmp_path: Path) -> None:
    project = maven_project(tmp_path / "demo")
    env = env_for(project)
    found, code = sidekit(project, env, "test")
    assert (found["runner"], found["exit"], found["passed"], code) == ("junit", 0, 24, 0), found
    plant(
        project / "src" / "main" / "java" / "demo" / "Text.java",
        "        return StringUtils",
        '        if (words.length() > 3) throw new IllegalStateException("no title for " + '
        "words);\n"
        "        return StringUtils",
    )
    assert (
        rewritten(project, "mvn test", env) == ""
    )  # left alone: no option makes Maven's console compact
    raw = shell(project, "mvn -B test", env)
    found, code = sidekit(project, env, "test")
    print(
        f"\nmaven: raw {raw.size:,} B exit {raw.exit}; sidekit test {len(json.dumps(found))} B: "
        f"{json.dumps(found)}"
    )
    assert (
        raw.exit == code == 1
        and found["exit"] == 1
        and found.get("failed", 0) + found.get("errors", 0) >= 20
    )
    assert "buildErrors" not in found
    assert len(json.dumps(found, separators=(",", ":"))) <= 800
    top = found["clusters"][0]
    assert top["at"] == "src/main/java/demo/Text.java:9" and top["type"] == "IllegalStateException"
    assert top["affected"] >= 20
