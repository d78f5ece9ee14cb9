"""Held-out projects (docs/runners.md, *Projects tuned on, and held out*). Each gets one planted
bug that fails at least 20 tests; what reaches the model is at most 800 B (the runner's own lines,
the count and the exit code included), with at most 3 clusters, the top one at the planted file.
The first project of each runner (decimal, deep-diff, numeral, humantime, commons-csv, Unidecode)
was chosen before issue #33's changes and has since been tuned on; commons-codec (junit) and
jmespath (pytest) were chosen after the rule changes and measured once. unicode-width (cargo), chosen
so too, was then tuned on (its 24 clusters made the cargo placement, runners/cargo/exercised.py),
and heck's red run with it; arrayvec (cargo) was chosen after that and measured once.
Figures are printed (-s)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from realproj import CACHE, REPO, answer_line, env_for, git_init, need, plant, shell, sidekit
from test_real_projects import copy_tree, fetch_crate, fetch_go_module

from testing import js
from testing.agent_shell import Ran
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


@dataclass(frozen=True)
class Runs:
    """How a held-out project is run raw and compacted, and what the model reads of the latter."""

    raw: Callable[[], Ran]
    compact: Callable[[], Ran]
    answer: Callable[[str], dict[str, Any]] = answer_line  # the answer in the compacted output
    exit_line: bool = True  # a Bash call: the client adds its `Exit code N` line for the model


def measured(label: str, project: Path, planting: tuple[str, str, str], runs: Runs) -> HeldOut:
    """Plant the bug, run the project raw then compacted, and measure what reached the model (the
    figures are printed, -s)."""
    planted, old, new = planting
    plant(project / planted, old, new)
    raw = runs.raw()
    compact = runs.compact()
    answer = runs.answer(compact.output)
    model = compact.size + (len(f"Exit code {compact.exit}\n") if runs.exit_line else 0)
    run = HeldOut(planted, raw.exit, compact.exit, model, answer)
    print(f"\n{label}: raw {raw.size:,} B; model {run.model} B; {run.clusters} clusters; {answer}")
    print(compact.output)
    return run


def hook_runs(
    project: Path,
    written: str,
    env: dict[str, str],
    rewrite_is: Callable[[str], bool],
    build: str = "",
) -> Runs:
    """`written` as the agent's Bash tool runs it, then as the PreToolUse hook rewrites it (which
    `rewrite_is` checks); `build` first, when given, so that neither run spends its time building."""

    def raw() -> Ran:
        if build:
            assert shell(project, build, env).exit == 0
        return shell(project, written, env)

    def compact() -> Ran:
        command = rewritten(project, written, env)
        assert rewrite_is(command), command
        return shell(project, command, env)

    return Runs(raw, compact)


def reporter_answer(output: str) -> dict[str, Any]:
    """The answer sidekit's vitest or jest reporter prints: a `sidekit: ` line, then the JSON."""
    head, _, body = output.partition("\n")
    assert head.startswith("sidekit: "), output[:600]
    return dict(json.loads(body))


def js_runs(
    project: Path, runner: str, words: list[str], env: dict[str, str] | None = None
) -> Runs:
    """`words` raw, then with the options the runner's adapter appends (its reporter's answer)."""
    return Runs(
        lambda: js.run(words, project, env),
        lambda: js.run(js.compact_command(runner, words, project), project, env),
        reporter_answer,
    )


@pytest.fixture(scope="module")
def go_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    project = copy_tree(fetch_go_module(GO_MODULE), tmp_path_factory.mktemp("go") / "decimal")
    goexec = f"/bin/sh {REPO / 'sidekit_hooks/runners/go/goexec.sh'} {sys.executable}"
    env = env_for(project, GOFLAGS="-count=1")
    runs = hook_runs(
        project, "go test ./...", env, lambda command: command == f"go test ./... -exec '{goexec}'"
    )
    return measured(f"go {GO_MODULE}", project, GO_PLANT, runs)


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
    runs = js_runs(project, "jest", ["npx", "jest"])
    return measured(f"jest {NPM_PACKAGE}", project, NPM_PLANT, runs)


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


def run_cargo_held_out(
    root: Path, crate: tuple[str, str], planting: tuple[str, str, str]
) -> HeldOut:
    """One red `cargo test --no-fail-fast` (the doc tests too) of a crate with its plant, raw and
    compacted: what the model reads of the compacted one. Its output is not folded after the run
    (runners/cargo/noise.py): a red call's output cannot be replaced, so rustc's warnings count."""
    project = copy_tree(fetch_crate(*crate), root)
    written = "cargo test --no-fail-fast"
    runs = hook_runs(
        project,
        written,
        env_for(project),
        lambda command: command.startswith(written + " --config "),
        build="cargo test --no-run",  # compile once: the runs below test, not build
    )
    return measured(f"cargo {crate}", project, planting, runs)


@pytest.fixture(scope="module")
def cargo_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    # the doc tests too: one of them parses a timestamp
    return run_cargo_held_out(tmp_path_factory.mktemp("cargo") / "humantime", CRATE, CRATE_PLANT)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met: 2,149 B (2,007 B with the placement's one cluster); rustc's two "
    "`unexpected cfg` warnings (about 1.3 KB), which cargo prints (and replays from its cache) before any test binary runs, reach the model "
    "whole on a red run: the fold after the run (runners/cargo/noise.py; 830 B here) is for green "
    "calls only, the client ignores a red call's replaced output",
)
def test_cargo_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    cargo_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(cargo_held_out)


# 3 or 4 clusters before the cargo placement (runners/cargo/exercised.py), by humantime's random
# inputs: the tests that read a wrong value without a zero digit failed at their own assert lines in
# src/date.rs's test module. They now join the overflow panic's line in `two_digits`: 1 cluster.
def test_cargo_held_out_planted_bug_is_at_most_3_clusters(cargo_held_out: HeldOut) -> None:
    assert cargo_held_out.clusters <= MAX_CLUSTERS, cargo_held_out.answer


# Chosen for issue #33's cargo noise fold (runners/cargo/noise.py) after it was made on heck and
# humantime, and measured once: 24 clusters, one per failing test's line in tests/tests.rs. Since
# tuned on: the cargo placement (runners/cargo/exercised.py) was made for it.
WIDTH_CRATE = ("unicode-width", "0.1.14")
# str_width starts counting at 1: every string is one column wider than it is (`"".width()` is 1).
WIDTH_PLANT = (
    "src/tables.rs",
    "            (0, WidthInfo::DEFAULT),",
    "            (1, WidthInfo::DEFAULT),",
)


@pytest.fixture(scope="module")
def cargo_width_tuned(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    root = tmp_path_factory.mktemp("cargo") / "unicode-width"
    return run_cargo_held_out(root, WIDTH_CRATE, WIDTH_PLANT)


def test_cargo_width_planted_bug_is_within_800_bytes_at_the_planted_file(
    cargo_width_tuned: HeldOut,
) -> None:
    """Each test's `assert_width!` panics at its own line of tests/tests.rs (687 B, top cluster
    tests/tests.rs:595 with 1 of 24, before the placement); the failing tests call `.width()` on
    strings, whose trait method forwards to `tables::str_width`."""
    check_within_budget_at_the_planted_file(cargo_width_tuned)
    assert cargo_width_tuned.top["at"] == "src/tables.rs:401", cargo_width_tuned.answer


def test_cargo_width_planted_bug_is_at_most_3_clusters(cargo_width_tuned: HeldOut) -> None:
    assert cargo_width_tuned.clusters <= MAX_CLUSTERS, cargo_width_tuned.answer


HECK_CRATE = ("heck", "0.5.0")
# lowercase writes upper case: every snake, kebab, title, train and camel case is off.
HECK_PLANT = (
    "src/lib.rs",
    'write!(f, "{}", c.to_lowercase())?;',
    'write!(f, "{}", c.to_uppercase())?;',
)


@pytest.fixture(scope="module")
def cargo_heck_tuned(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    return run_cargo_held_out(tmp_path_factory.mktemp("cargo") / "heck", HECK_CRATE, HECK_PLANT)


def test_cargo_heck_planted_bug_is_one_cluster_at_the_function_transform_is_handed(
    cargo_heck_tuned: HeldOut,
) -> None:
    """heck's tests are written by a `t!` macro in each case module's test module, each failing at
    its own line (93 clusters for 99 failures before the placement); they reach `lowercase` through
    `to_string`, `Display::fmt` and `transform(s, lowercase, ..)`. Its bytes are not checked here:
    rustc's `unexpected cfg` warning reaches the model with a red run (1,163 B)."""
    run = cargo_heck_tuned
    assert run.raw_exit == run.exit == run.answer["exit"] == 101 and run.answer["failed"] >= 20
    assert (run.clusters, run.top["at"]) == (1, "src/lib.rs:161"), run.answer
    assert run.top["affected"] == run.answer["failed"]


# Chosen after the cargo placement was tuned on unicode-width and heck, by someone who had not read
# the cargo runner, and measured once: arrayvec's own tests/tests.rs (49) and doc tests (42).
ARRAYVEC_CRATE = ("arrayvec", "0.7.6")
# as_slice leaves out the last element (and overflows on an empty vector): every read through Deref
# is one short (30 of 93 tests fail: 16 in tests/tests.rs, 14 doc tests).
ARRAYVEC_PLANT = (
    "src/arrayvec_impl.rs",
    "slice::from_raw_parts(self.as_ptr(), len)",
    "slice::from_raw_parts(self.as_ptr(), len - 1)",
)


@pytest.fixture(scope="module")
def cargo_arrayvec_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    root = tmp_path_factory.mktemp("cargo") / "arrayvec"
    return run_cargo_held_out(root, ARRAYVEC_CRATE, ARRAYVEC_PLANT)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met when measured once: 1,886 B (rustc's two "
    "`mismatched_lifetime_syntaxes` warnings 1,268 B, the rest 604 B), top at src/arrayvec.rs:114 "
    "(ArrayVec::len, 22 of 30 failed; first a doc test of drain), not src/arrayvec_impl.rs; "
    "raw 442,168 B; exit 101 / 101",
)
def test_cargo_arrayvec_held_out_planted_bug_is_within_800_bytes_at_the_planted_file(
    cargo_arrayvec_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(cargo_arrayvec_held_out)
    top_file = str(cargo_arrayvec_held_out.top.get("at", "")).split(":")[0]
    assert top_file == "src/arrayvec_impl.rs", cargo_arrayvec_held_out.answer


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met when measured once: 6 clusters (1 shown, moreClusters 5, "
    "moreFailures 8) for 30 failed of 93",
)
def test_cargo_arrayvec_held_out_planted_bug_is_at_most_3_clusters(
    cargo_arrayvec_held_out: HeldOut,
) -> None:
    assert cargo_arrayvec_held_out.clusters <= MAX_CLUSTERS, cargo_arrayvec_held_out.answer


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
    # the agent's runs: the raw one with vitest's agent reporter
    runs = js_runs(project, "vitest", ["npx", "vitest", "run"], {"CLAUDECODE": "1"})
    return measured(f"vitest {VITEST_PACKAGE}", project, VITEST_PLANT, runs)


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


def run_pytest_held_out(
    root: Path, package: tuple[str, str], plant_spec: tuple[str, str, str], written: str
) -> HeldOut:
    """The planted sdist's raw run and its compact run, as the agent's Bash tool returns them."""
    project = copy_tree(fetch_sdist(*package), root)
    # the agent's `python` is an environment with pytest and sidekit's plugin (this one)
    env = env_for(project, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    runs = hook_runs(
        project, written, env, lambda command: command == written + " -o sidekit_compact=true"
    )
    return measured(f"pytest {package}", project, plant_spec, runs)


@pytest.fixture(scope="module")
def pytest_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    root = tmp_path_factory.mktemp("pytest") / "unidecode"
    return run_pytest_held_out(root, PYPI_PACKAGE, PYPI_PLANT, "python -m pytest")


def test_pytest_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    pytest_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(pytest_held_out)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met: 5 clusters (14 before the pytest subject, 6 before the shared "
    "function): 30 of 34 at unidecode/__init__.py:117 (_unidecode), and tests/test_utility.py's 4 "
    "runs of the command line in a subprocess (`python -c 'from unidecode.util import main'`), each "
    "at its own assert line: no call of the test reaches the code the subprocess runs",
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
POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>held-out</groupId><artifactId>{artifact}</artifactId><version>{version}</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
{deps}
  </dependencies>
  <build><plugins>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
  </plugins></build>
</project>
"""


def maven_pom(
    artifact: str, main: list[tuple[str, str, str]], test: list[tuple[str, str, str]]
) -> str:
    """A pom that builds an artifact's main and test sources with the libraries they import (the
    project's own build inherits a parent and plugins these runs do not need)."""
    _, name, version = artifact.split(":")
    deps = [
        f"    <dependency><groupId>{g}</groupId><artifactId>{a}</artifactId><version>{v}</version>"
        f"{'<scope>test</scope>' if scope else ''}</dependency>"
        for scope, libraries in ((False, main), (True, test))
        for g, a, v in libraries
    ]
    return POM.format(artifact=name, version=version, deps="\n".join(deps))


# commons-csv's own build inherits commons-parent (and its benchmarks need JMH): this pom builds its
# main and test sources with the test libraries they import.
MAVEN_POM = maven_pom(
    MAVEN_ARTIFACT,
    [("commons-io", "commons-io", "2.15.1"), ("commons-codec", "commons-codec", "1.16.1")],
    [
        ("org.apache.commons", "commons-lang3", "3.14.0"),
        ("org.junit.jupiter", "junit-jupiter", "5.10.2"),
        ("org.mockito", "mockito-core", "5.11.0"),
        ("org.hamcrest", "hamcrest", "2.2"),
        ("com.h2database", "h2", "2.2.224"),
    ],
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


def maven_held_out_project(
    root: Path,
    artifact: str = MAVEN_ARTIFACT,
    pom: str = MAVEN_POM,
    not_tests: tuple[str, ...] = NOT_TESTS,
) -> Path:
    """The artifact's main and test sources (its test resources beside them), built by `pom`."""
    sources, tests = fetch_maven_sources(artifact)
    for jar, java, other in (
        (sources, "src/main/java", ""),
        (tests, "src/test/java", "src/test/resources"),
    ):
        with zipfile.ZipFile(jar) as packed:
            for name in packed.namelist():
                if name.endswith("/") or name.startswith(("META-INF/", *not_tests)):
                    continue
                folder = java if name.endswith(".java") or not other else other
                (root / folder / name).parent.mkdir(parents=True, exist_ok=True)
                (root / folder / name).write_bytes(packed.read(name))
    (root / "pom.xml").write_text(pom)
    git_init(root)
    return root


def run_junit_held_out(
    root: Path,
    artifact: str,
    pom: str,
    plant_spec: tuple[str, str, str],
    not_tests: tuple[str, ...] = (),
) -> HeldOut:
    """The planted project's raw `mvn -B test` and `sidekit test`: what reaches the model is the
    latter's answer (Maven's console is left as written)."""
    need("mvn")
    project = maven_held_out_project(root, artifact, pom, not_tests)
    env = env_for(project)
    written = "mvn -B test"

    def raw() -> Ran:
        # left alone: the model reads Maven's console as it is
        assert rewritten(project, written, env) == ""
        return shell(project, written, env, timeout=900)

    def sidekit_test() -> Ran:
        found, code = sidekit(project, env, "test", timeout=900)
        return Ran(code, json.dumps(found, separators=(",", ":")), 0.0, 0.0)

    runs = Runs(raw, sidekit_test, json.loads, exit_line=False)  # an answer, not a Bash call
    return measured(f"junit {artifact}", project, plant_spec, runs)


@pytest.fixture(scope="module")
def junit_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    root = tmp_path_factory.mktemp("junit") / "commons-csv"
    return run_junit_held_out(root, MAVEN_ARTIFACT, MAVEN_POM, MAVEN_PLANT, NOT_TESTS)


def test_junit_held_out_planted_bug_is_within_800_bytes_at_the_planted_file(
    junit_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(junit_held_out)


def test_junit_held_out_planted_bug_is_at_most_3_clusters(junit_held_out: HeldOut) -> None:
    assert junit_held_out.clusters <= MAX_CLUSTERS, junit_held_out.answer


# Chosen for issue #33's JUnit rule (runners/junit/subject.py) after it was made on commons-csv, and
# measured once: a project whose failing asserts carry no frame in main code.
CODEC_ARTIFACT = "commons-codec:commons-codec:1.16.1"
# encodeHex writes each byte's two hex digits in the wrong order (every hex string is off).
CODEC_PLANT = (
    "src/main/java/org/apache/commons/codec/binary/Hex.java",
    "            out[j++] = toDigits[(0xF0 & data[i]) >>> 4];\n"
    "            out[j++] = toDigits[0x0F & data[i]];",
    "            out[j++] = toDigits[0x0F & data[i]];\n"
    "            out[j++] = toDigits[(0xF0 & data[i]) >>> 4];",
)
CODEC_POM = maven_pom(
    CODEC_ARTIFACT,
    [],
    [
        ("org.junit.jupiter", "junit-jupiter", "5.10.2"),
        ("org.apache.commons", "commons-lang3", "3.14.0"),
        ("commons-io", "commons-io", "2.15.1"),
    ],
)


@pytest.fixture(scope="module")
def junit_codec_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    root = tmp_path_factory.mktemp("junit") / "commons-codec"
    return run_junit_held_out(root, CODEC_ARTIFACT, CODEC_POM, CODEC_PLANT)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met when measured once: 812 B, top at cli/Digest.java:78 "
    "(Digest.println, 171 of 489); Hex.java:139 is third (26). A call resolved by its name alone "
    "(`out.println(`, `x.encode(`) reaches every method of that name, so most failing tests "
    "'reach' the command line's printer; 38 errors are NoClassDefFoundError in PhoneticEngine "
    "(the sources jar's rule files land in src/main/java, which Maven does not copy)",
)
def test_junit_codec_held_out_planted_bug_is_within_800_bytes_at_the_planted_file(
    junit_codec_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(junit_codec_held_out)


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met when measured once: 167 clusters (417 failed, 72 errors)",
)
def test_junit_codec_held_out_planted_bug_is_at_most_3_clusters(
    junit_codec_held_out: HeldOut,
) -> None:
    assert junit_codec_held_out.clusters <= MAX_CLUSTERS, junit_codec_held_out.answer


# Chosen for issue #33's shared-function rule (runners/pytest/exercised.py) after it was made on
# Unidecode, and measured once (natsort 8.4.0, chosen first, errs in 53 tests' setup on a machine
# without the en_US and de_DE locales, before any plant).
JMESPATH_PACKAGE = ("jmespath", "1.0.1")
# The lexer drops an unquoted identifier's first letter: `foo.bar` reads as `oo.ar`.
JMESPATH_PLANT = (
    "jmespath/lexer.py",
    "                buff = self._current\n                while self._next() in self.VALID_IDENTIFIER:",
    "                buff = ''\n                while self._next() in self.VALID_IDENTIFIER:",
)


@pytest.fixture(scope="module")
def pytest_jmespath_held_out(tmp_path_factory: pytest.TempPathFactory) -> HeldOut:
    root = tmp_path_factory.mktemp("pytest") / "jmespath"
    return run_pytest_held_out(root, JMESPATH_PACKAGE, JMESPATH_PLANT, "python -m pytest")


@pytest.mark.xfail(
    strict=True,
    reason="issue #33, not met when measured once: 721 B, 3 clusters, but the top one is at "
    "jmespath/visitor.py:79 (_Expression.visit, 19 of 24), not lexer.py: the passing tests reach "
    "the lexer as often as the failing ones (every expression is tokenized), so by the run's "
    "verdicts the visitor is more suspicious; 4 more at compat.py:17, 1 TypeError in the visitor",
)
def test_pytest_jmespath_held_out_planted_bug_reaches_the_model_within_800_bytes_at_the_planted_file(
    pytest_jmespath_held_out: HeldOut,
) -> None:
    check_within_budget_at_the_planted_file(pytest_jmespath_held_out)


def test_pytest_jmespath_held_out_planted_bug_is_at_most_3_clusters(
    pytest_jmespath_held_out: HeldOut,
) -> None:
    assert pytest_jmespath_held_out.clusters <= MAX_CLUSTERS, pytest_jmespath_held_out.answer
