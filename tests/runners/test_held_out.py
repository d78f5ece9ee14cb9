"""Held-out projects (docs/runners.md, *Projects tuned on, and held out*): chosen before issue #33's
changes and never used to tune a rule. Each gets one planted bug that fails at least 20 tests; what
reaches the model is at most 800 B (the runner's own lines, the count and the exit code included),
with at most 3 clusters, the top one at the planted file. Figures are printed (-s)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from realproj import CACHE, REPO, answer_line, env_for, git_init, need, plant, shell, sidekit
from test_real_projects import copy_tree, fetch_crate, fetch_go_module

from testing import js
from testing.pretool import rewritten

pytestmark = pytest.mark.slow

MODEL_LIMIT = 800
MAX_CLUSTERS = 3
GO_MODULE = "github.com/shopspring/decimal@v1.4.0"
# NewFromString drops one digit of the fraction's exponent: "1.5" reads as 15 (every parsed decimal
# is off).
GO_PLANT = (
    "decimal.go",
    "expInt := -len(value[pIndex+1:])",
    "expInt := -len(value[pIndex+1:]) + 1",
)


@dataclass(frozen=True)
class HeldOut:
    """One red run of a held-out project: what reached the model and what sidekit made of it."""

    planted: str
    raw_exit: int
    exit: int
    model: int  # bytes: the output the client returns plus its `Exit code N` line
    answer: dict[str, Any]

    @property
    def clusters(self) -> int:
        return len(self.answer.get("clusters") or []) + int(self.answer.get("moreClusters", 0))

    @property
    def top(self) -> dict[str, Any]:
        return dict((self.answer.get("clusters") or [{}])[0])


def check_within_budget_at_the_planted_file(run: HeldOut) -> None:
    assert run.raw_exit == run.exit != 0  # the raw run's exit code (go, jest 1; cargo 101)
    assert run.answer["exit"] == run.exit and run.answer["failed"] >= 20
    assert run.model <= MODEL_LIMIT, run.answer
    assert str(run.top.get("at", "")).split(":")[0] == run.planted, run.answer
    assert int(run.top.get("affected", 1)) >= 0.8 * int(run.answer["failed"]), (
        run.answer
    )  # most, in one


@pytest.fixture(scope="module")
def go_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = copy_tree(fetch_go_module(GO_MODULE), tmp_path_factory.mktemp("go") / "decimal")
    planted, old, new = GO_PLANT
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
    run = HeldOut(
        planted, raw.exit, compact.exit, compact.size + len(f"Exit code {compact.exit}\n"), answer
    )
    print(
        f"\ngo {GO_MODULE}: raw {raw.size:,} B; model {run.model} B; {run.clusters} clusters; "
        f"{answer}"
    )
    return run


def test_go_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    go_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(go_held_out)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: 6 clusters; 5 single failures reach NewFromString through "
    "methods "
    "(json.Unmarshal -> UnmarshalJSON) or through New, which no text scan follows",
)
def test_go_held_out_planted_bug_is_at_most_3_clusters(go_held_out: HeldOut) -> None:
    assert go_held_out.clusters <= MAX_CLUSTERS, go_held_out.answer


NPM_PACKAGE = "deep-diff@1.0.2"
NPM_TEST_DEPS = ["expect.js@0.3.1"]  # what its test/tests.js requires
# Every edit reads as a new property: kind 'E' becomes 'N' in the one constructor all diffs go
# through.
NPM_PLANT = ("index.js", "      value: kind,", "      value: kind === 'E' ? 'N' : kind,")


def fetch_npm_package(spec: str, test_deps: list[str]) -> tuple[Path, Path]:
    """The package's published files (`npm pack`, unpacked once) and node_modules with its test
    deps."""
    folder = CACHE / "npm" / spec.replace("/", "+")
    deps = CACHE / "npm" / f"{spec.replace('/', '+')}-deps"
    if not (folder / "package" / "package.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["npm", "pack", "--silent", spec],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        with tarfile.open(folder / done.stdout.strip().splitlines()[-1]) as packed:
            packed.extractall(folder, filter="data")
    if not (deps / "node_modules").is_dir():
        deps.mkdir(parents=True, exist_ok=True)
        (deps / "package.json").write_text('{"name":"held-out-deps","private":true}\n')
        argv = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *test_deps]
        done = subprocess.run(argv, cwd=deps, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    return folder / "package", deps / "node_modules"


def jest_project(root: Path) -> Path:
    """deep-diff's own files and tests, run by jest (the cached toolchain), its test deps on jest's
    path."""
    source, deps = fetch_npm_package(NPM_PACKAGE, NPM_TEST_DEPS)
    shutil.copytree(source, root)
    (root / "node_modules").symlink_to(js.toolchain("jest"))
    manifest = json.loads((root / "package.json").read_text())
    manifest["scripts"] = {"test": "jest"}
    manifest["jest"] = {"testMatch": ["<rootDir>/test/tests.js"], "modulePaths": [str(deps)]}
    (root / "package.json").write_text(json.dumps(manifest))
    (root / ".git").mkdir()
    return root


@pytest.fixture(scope="module")
def jest_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = jest_project(tmp_path_factory.mktemp("jest") / "deep-diff")
    planted, old, new = NPM_PLANT
    plant(project / planted, old, new)
    raw = js.run(["npx", "jest"], project)
    compact = js.run(js.compact_command("jest", ["npx", "jest"], project), project)
    head, _, body = compact.output.partition("\n")
    assert head.startswith("sidekit: "), compact.output[:600]
    answer = json.loads(body)
    run = HeldOut(
        planted, raw.exit, compact.exit, compact.size + len(f"Exit code {compact.exit}\n"), answer
    )
    print(
        f"\njest {NPM_PACKAGE}: raw {raw.size:,} B; model {run.model} B; {run.clusters} clusters; "
        f"{answer}"
    )
    return run


def test_jest_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    jest_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(jest_held_out)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: 4 clusters; 2 failures stay at expect.js: their tests call "
    "the module itself "
    "(deep(lhs, rhs, prefilter), bound by a UMD factory's parameter); jest's own 'Tests cannot be "
    "nested' is one more",
)
def test_jest_held_out_planted_bug_is_at_most_3_clusters(jest_held_out: HeldOut) -> None:
    assert jest_held_out.clusters <= MAX_CLUSTERS, jest_held_out.answer


CRATE = ("humantime", "2.1.0")
# two_digits reads its second digit against '1': a zero there underflows (a panic), any other digit
# is off by one.
CRATE_PLANT = ("src/date.rs", "(b2 - b'0')) as u64)", "(b2 - b'1')) as u64)")


@pytest.fixture(scope="module")
def cargo_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = copy_tree(fetch_crate(*CRATE), tmp_path_factory.mktemp("cargo") / "humantime")
    planted, old, new = CRATE_PLANT
    plant(project / planted, old, new)
    env = env_for(project)
    assert (
        shell(project, "cargo test --no-run", env).exit == 0
    )  # compile once: the runs below test, not build
    written = "cargo test --no-fail-fast"  # the doc tests too: one of them parses a timestamp
    raw = shell(project, written, env)
    command = rewritten(project, written, env)
    assert command.startswith(written + " --config "), command
    compact = shell(project, command, env)
    answer = answer_line(compact.output)
    run = HeldOut(
        planted, raw.exit, compact.exit, compact.size + len(f"Exit code {compact.exit}\n"), answer
    )
    print(
        f"\ncargo {CRATE}: raw {raw.size:,} B; model {run.model} B; {run.clusters} clusters; "
        f"{answer}"
    )
    print(compact.output)
    return run


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: about 2,150 B; rustc's two `unexpected cfg` warnings (about "
    "1.5 KB), which cargo prints (and replays from its cache) before any test binary runs, reach the model whole",
)
def test_cargo_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    cargo_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(cargo_held_out)


@pytest.mark.xfail(
    strict=False,
    reason="issue #33, not met on every run: 3 or 4 clusters, by humantime's random inputs; the "
    "tests that read a wrong value without a zero digit fail at their own assert lines in src/date.rs's test module",
)
def test_cargo_held_out_planted_bug_is_at_most_3_clusters(cargo_held_out: HeldOut) -> None:
    assert cargo_held_out.clusters <= MAX_CLUSTERS, cargo_held_out.answer


VITEST_PACKAGE = "numeral@2.0.6"
# toFixed writes one decimal too many: every formatted number is off (format, currency,
# percentage...).
VITEST_PLANT = ("numeral.js", ".toFixed(boundedPrecision);", ".toFixed(boundedPrecision + 1);")
# numeral's tests are mocha's (`before`, `after`); vitest's globals take them, under mocha's names.
VITEST_CONFIG = "export default { test: { globals: true, include: ['tests/**/*.js'], setupFiles: ['./mocha.mjs'] } }\n"
MOCHA_NAMES = "globalThis.before = beforeAll\nglobalThis.after = afterAll\n"


def vitest_project(root: Path) -> Path:
    """numeral's own files and tests (chai's `expect`, found in vitest's own dependencies), run by
    vitest."""
    source, _ = fetch_npm_package(VITEST_PACKAGE, [])
    shutil.copytree(source, root)
    (root / "node_modules").symlink_to(js.toolchain("vitest"))
    (root / "vitest.config.mjs").write_text(VITEST_CONFIG)
    (root / "mocha.mjs").write_text(MOCHA_NAMES)
    (root / ".git").mkdir()
    return root


@pytest.fixture(scope="module")
def vitest_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = vitest_project(tmp_path_factory.mktemp("vitest") / "numeral")
    assert js.run(["npx", "vitest", "run"], project).exit == 0  # green before the plant: 174 tests
    planted, old, new = VITEST_PLANT
    plant(project / planted, old, new)
    raw = js.run(
        ["npx", "vitest", "run"], project, {"CLAUDECODE": "1"}
    )  # the agent's raw run: vitest's agent reporter
    compact = js.run(
        js.compact_command("vitest", ["npx", "vitest", "run"], project),
        project,
        {"CLAUDECODE": "1"},
    )
    head, _, body = compact.output.partition("\n")
    assert head.startswith("sidekit: "), compact.output[:600]
    answer = json.loads(body)
    run = HeldOut(
        planted, raw.exit, compact.exit, compact.size + len(f"Exit code {compact.exit}\n"), answer
    )
    print(
        f"\nvitest {VITEST_PACKAGE}: raw {raw.size:,} B; model {run.model} B; {run.clusters} "
        f"clusters; {answer}"
    )
    return run


def test_vitest_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    vitest_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(vitest_held_out)


def test_vitest_held_out_planted_bug_is_at_most_3_clusters(vitest_held_out: HeldOut) -> None:
    assert vitest_held_out.clusters <= MAX_CLUSTERS, vitest_held_out.answer


PYPI_PACKAGE = ("Unidecode", "1.3.8")
# Each character's place in its table is read modulo 255, not 256: most transliterations come out
# wrong.
PYPI_PLANT = ("unidecode/__init__.py", "position = codepoint % 256", "position = codepoint % 255")


def fetch_sdist(name: str, version: str) -> Path:
    """The package's sdist from the package index (pip download), unpacked once."""
    folder = CACHE / "pypi" / f"{name}-{version}"
    if not (folder / "setup.py").exists() and not (folder / "pyproject.toml").exists():
        download = CACHE / "pypi" / "downloads"
        argv = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:"]
        done = subprocess.run(
            [*argv, "-d", str(download), f"{name}=={version}"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        [packed] = [
            p
            for p in download.glob("*.tar.gz")
            if p.name.lower() == f"{name}-{version}.tar.gz".lower()
        ]
        with tarfile.open(packed) as archive:
            archive.extractall(download, filter="data")
        (download / packed.name[: -len(".tar.gz")]).rename(folder)
    return folder


@pytest.fixture(scope="module")
def pytest_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = copy_tree(fetch_sdist(*PYPI_PACKAGE), tmp_path_factory.mktemp("pytest") / "unidecode")
    planted, old, new = PYPI_PLANT
    plant(project / planted, old, new)
    # the agent's `python` is an environment with pytest and sidekit's plugin (this one)
    env = env_for(project, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    written = "python -m pytest"
    raw = shell(project, written, env)
    command = rewritten(project, written, env)
    assert command == written + " -o sidekit_compact=true"
    compact = shell(project, command, env)
    answer = answer_line(compact.output)
    run = HeldOut(
        planted, raw.exit, compact.exit, compact.size + len(f"Exit code {compact.exit}\n"), answer
    )
    print(
        f"\npytest {PYPI_PACKAGE}: raw {raw.size:,} B; model {run.model} B; {run.clusters} "
        f"clusters; {answer}"
    )
    return run


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: about 750 B, top at unidecode/__init__.py:35 "
    "(unidecode_expect_ascii), but with "
    "20 of 34: the 10 tests of the class bound to unidecode_expect_nonascii are a second cluster "
    "at line 68 (both "
    "call the broken _unidecode, which no failure's frame reaches)",
)
def test_pytest_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    pytest_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(pytest_held_out)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: 6 clusters (14 before the pytest subject): the two public "
    "functions, and "
    "tests/test_utility.py's 4 runs of the command line in a subprocess, each at its own assert "
    "line",
)
def test_pytest_held_out_planted_bug_is_at_most_3_clusters(pytest_held_out: HeldOut) -> None:
    assert pytest_held_out.clusters <= MAX_CLUSTERS, pytest_held_out.answer


MAVEN_ARTIFACT = "org.apache.commons:commons-csv:1.11.0"
# print writes the delimiter before a record's first value instead of between values.
MAVEN_PLANT = (
    "src/main/java/org/apache/commons/csv/CSVFormat.java",
    "        if (!newRecord) {\n            out.append(getDelimiterString());",
    "        if (newRecord) {\n            out.append(getDelimiterString());",
)
# commons-csv's own build inherits commons-parent (and its benchmarks need JMH): this pom builds its
# main and test sources with the test libraries they import.
MAVEN_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>held-out</groupId><artifactId>commons-csv</artifactId><version>1.11.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>commons-io</groupId><artifactId>commons-io</artifactId><version>2.15.1</version></dependency>
    <dependency><groupId>commons-codec</groupId><artifactId>commons-codec</artifactId><version>1.16.1</version></dependency>
{test_deps}
  </dependencies>
  <build><plugins>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
  </plugins></build>
</project>
""".replace(
    "{test_deps}",
    "\n".join(
        f"    <dependency><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version><scope>test</scope>"
        "</dependency>"
        for g, a, v in [
            ("org.apache.commons", "commons-lang3", "3.14.0"),
            ("org.junit.jupiter", "junit-jupiter", "5.10.2"),
            ("org.mockito", "mockito-core", "5.11.0"),
            ("org.hamcrest", "hamcrest", "2.2"),
            ("com.h2database", "h2", "2.2.224"),
        ]
    ),
)
NOT_TESTS = (
    "org/apache/commons/csv/perf/",
    "org/apache/commons/csv/CSVBenchmark.java",
)  # JMH, a 20 MB file


def fetch_maven_sources(artifact: str) -> tuple[Path, Path]:
    """The artifact's sources and test-sources jars, through Maven (dependency:copy)."""
    folder = CACHE / "maven" / artifact.replace(":", "+")
    jars = {
        kind: folder / f"{artifact.split(':')[1]}-{artifact.split(':')[2]}-{kind}.jar"
        for kind in ("sources", "test-sources")
    }
    for kind, jar in jars.items():
        if not jar.exists():
            argv = [
                "mvn",
                "-q",
                "-B",
                "dependency:copy",
                f"-Dartifact={artifact}:jar:{kind}",
                f"-DoutputDirectory={folder}",
            ]
            done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0 and jar.exists(), done.stdout[-2000:]
    return jars["sources"], jars["test-sources"]


def maven_held_out_project(root: Path) -> Path:
    sources, tests = fetch_maven_sources(MAVEN_ARTIFACT)
    for jar, java, other in (
        (sources, "src/main/java", ""),
        (tests, "src/test/java", "src/test/resources"),
    ):
        with zipfile.ZipFile(jar) as packed:
            for name in packed.namelist():
                if name.endswith("/") or name.startswith(("META-INF/", *NOT_TESTS)):
                    continue
                folder = java if name.endswith(".java") or not other else other
                (root / folder / name).parent.mkdir(parents=True, exist_ok=True)
                (root / folder / name).write_bytes(packed.read(name))
    (root / "pom.xml").write_text(MAVEN_POM)
    git_init(root)
    return root


@pytest.fixture(scope="module")
def junit_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    need("mvn")
    project = maven_held_out_project(tmp_path_factory.mktemp("junit") / "commons-csv")
    planted, old, new = MAVEN_PLANT
    plant(project / planted, old, new)
    env = env_for(project)
    written = "mvn -B test"
    assert (
        rewritten(project, written, env) == ""
    )  # left alone: the model reads Maven's console as it is
    raw = shell(project, written, env, timeout=900)
    found, code = sidekit(project, env, "test", timeout=900)
    size = len(json.dumps(found, separators=(",", ":")))
    run = HeldOut(planted, raw.exit, code, size, found)
    print(
        f"\njunit {MAVEN_ARTIFACT}: raw {raw.size:,} B; sidekit test {size} B; {run.clusters} "
        f"clusters; {found}"
    )
    return run


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: 788 B, but the top cluster is at CSVParserTest.java:1398 (an "
    "assertArrayEquals): no frame of a failing assert reaches CSVFormat.java",
)
def test_junit_held_out_planted_bug_is_within_800_bytes_at_the_planted_file(
    junit_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(junit_held_out)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met yet: 123 clusters, one per failing assert line",
)
def test_junit_held_out_planted_bug_is_at_most_3_clusters(junit_held_out: HeldOut) -> None:
    assert junit_held_out.clusters <= MAX_CLUSTERS, junit_held_out.answer
