"""Selection on real projects with planted bugs: the tests `sidekit select` picks catch >= 95% of
the failures the full run catches, in every language, on a tuning project and on a held-out one.

Each project is fetched at test time from its registry with its own client (tests/code/realprojects.py;
cached under tests/code/.cache, ignored by git), laid out as a git repository with its own tests, and
run with its own runner, read through its machine-readable output: `go test -json`, libtest's
`test x ... FAILED` lines, vitest's and jest's JSON reporters, Surefire's XML reports.

A planted bug is one operator flipped in one source file (` == ` to ` != `, ` && ` to ` || `,
`return true` to `return false`, `!== ` to `=== ` and back), in files taken in a fixed order; a flip
the full run does not catch is skipped (it proves nothing about selection), until BUGS flips have been
caught. Each bug costs one full run: the selected tests' failures are read from it, which is what a
run of them alone shows (vitest and jest run each test file in isolation, each cargo integration test
is its own binary, Go's unit is the package, Surefire runs a class's tests together), and the
selection is asked as the user asks it: the runner's adapter after `sidekit select`'s detection, its
answer's basis and count checked against the CLI's. Go reuses its test cache (packages the bug cannot
reach are not run again); Maven runs offline after the first resolve.

The selection projects (SELECTION, recorded in docs/code-index.md): the index's tuning projects
where their package ships tests; where it does not (axios, gson; express, @trpc/server and
commons-lang3 held out), another whose package does, chosen before any measure. Slow.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from testing import requires
from testing.code import GIT

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "code"))
import realprojects  # noqa: E402  (tests/code's fetcher)
from realprojects import Project  # noqa: E402

pytestmark = pytest.mark.slow

BUGS = 10
RECALL = 0.95
MAX_TRIES = 40  # flips tried per project before giving up on finding BUGS caught ones
FLIPS = (
    ("!== ", "=== "),
    (" == ", " != "),
    (" && ", " || "),
    ("return true", "return false"),
    (" === ", " !== "),
)
# For projects whose sources hold few of the common flips: comparisons and off-by-one too.
MORE_FLIPS = (*FLIPS, (" < ", " <= "), (" > ", " >= "), (" + 1", " + 2"))
RUN_TIMEOUT = 900

Failures = set[tuple[str, str]]  # (test file, or Go package, test name)


# -- laying out --------------------------------------------------------------------------------


def laid_out(key: str, files: dict[str, bytes]) -> Path:
    """`files` as a committed git repository under the cache (made once, reset to it after)."""
    root = realprojects.CACHE / "selection" / key
    if (root / ".git").is_dir():
        subprocess.run([*GIT, "checkout", "-q", "--", "."], cwd=root, check=True)
        return root
    if root.exists():
        shutil.rmtree(root)
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    (root / ".gitignore").write_text(".sidekit/\nnode_modules\ntarget/\n")
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    commit(root, key)
    return root


def commit(root: Path, message: str) -> None:
    for argv in (["add", "-A"], ["commit", "-qm", message, "--allow-empty"]):
        subprocess.run([*GIT, *argv], cwd=root, check=True, capture_output=True)


def tree(root: Path, pattern: str, keep: Callable[[str], bool]) -> list[str]:
    return sorted(
        path
        for path in (p.relative_to(root).as_posix() for p in root.glob(pattern))
        if "node_modules/" not in path and keep(path)
    )


# -- Go: `go test -json` -----------------------------------------------------------------------

GO_TIMEOUT = "120s"  # a bug that makes a test spin fails it, as Go's own 10 minutes would
GO_ENV = {"GOFLAGS": "-mod=mod", "GO111MODULE": "on", "GOWORK": "off"}


def go_env() -> dict[str, str]:
    return {**os.environ, **GO_ENV, "GOMODCACHE": str(realprojects.CACHE / "gomod")}


def go_setup(project: Project) -> Path:
    requires.program("go", "install Go from go.dev")
    root = laid_out(project.key, realprojects._go(project))
    for argv in (["go", "mod", "download"], ["go", "list", "-test", "./..."]):
        subprocess.run(argv, cwd=root, env=go_env(), check=True, capture_output=True)
    commit(root, "go.mod as the go command writes it")  # else every selection is `all`
    return root


def go_failures(root: Path) -> Failures:
    """(package, test) of every failing test of `go test ./...`. The test cache stays on: a package
    the bug cannot reach answers from it, as it does for the user's own full run."""
    done = subprocess.run(
        ["go", "test", "-json", f"-timeout={GO_TIMEOUT}", "./..."],
        cwd=root,
        env=go_env(),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    failed: Failures = set()
    packages: set[str] = set()  # failed as a whole: a timeout, a panic outside a test
    for line in done.stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("Action") == "fail":
            package = str(event.get("Package", ""))
            if event.get("Test"):
                failed.add((package, str(event["Test"])))
            else:
                packages.add(package)
    failed |= {(p, "") for p in packages if not any(unit == p for unit, _ in failed)}
    if done.returncode != 0 and not failed:  # a build failure: no JSON for the tests
        failed.add(("build", (done.stderr.strip().splitlines() or ["failed"])[0]))
    return failed


def go_units(root: Path, files: list[str]) -> set[str]:
    """The import paths of the package patterns Go's selection names (`.`, `./doc`)."""
    module = re.search(r"^module\s+(\S+)", (root / "go.mod").read_text(), re.M)
    assert module, root
    return {module.group(1) + ("" if f == "." else f[1:]) for f in files}


def go_sources(root: Path) -> list[str]:
    return tree(root, "**/*.go", lambda p: not p.endswith("_test.go"))


# -- TypeScript and JavaScript: vitest's and jest's JSON reporters -------------------------------


def node_toolchain(name: str, packages: list[str], program: str) -> Path:
    """node_modules holding `packages`, installed once per machine (under a lock) beside the JS
    runners' toolchains."""
    from testing.js import cache_root

    requires.program("node", "install Node.js with npm")
    requires.program("npm", "install Node.js with npm")
    folder = cache_root() / name
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "node_modules" / ".bin" / program).exists():
            (folder / "package.json").write_text('{"name":"sidekit-js-cache","private":true}\n')
            argv = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *packages]
            subprocess.run(argv, cwd=folder, check=True, capture_output=True, timeout=900)
    return folder


def npm_setup(project: Project, toolchain: Callable[[], Path]) -> Path:
    root = laid_out(project.key, realprojects._npm(project))
    if not (root / "node_modules").exists():
        (root / "node_modules").symlink_to(toolchain() / "node_modules")
    return root


def json_report_failures(root: Path, report_file: Path) -> Failures:
    """(test file, full name) of each failed test in a vitest or jest JSON report (the same shape);
    a file that failed with no test failing (it did not load) as (file, "")."""
    found = json.loads(report_file.read_text())
    failed: Failures = set()
    for result in found["testResults"]:
        path = Path(result["name"]).relative_to(root).as_posix()
        names = [a["fullName"] for a in result["assertionResults"] if a["status"] == "failed"]
        failed |= {(path, name) for name in names} or (
            {(path, "")} if result["status"] == "failed" else set()
        )
    return failed


def js_run(root: Path, argv: list[str]) -> Failures:
    report_file = root.parent / f"{root.name}-report.json"
    report_file.unlink(missing_ok=True)
    subprocess.run(
        [*argv, f"--outputFile={report_file}"],
        cwd=root,
        capture_output=True,
        timeout=RUN_TIMEOUT,
        env={k: v for k, v in os.environ.items() if k != "CI"},
    )
    return json_report_failures(root, report_file)


def vitest_failures(root: Path) -> Failures:
    vitest = ["node_modules/.bin/vitest", "run", "--environment", "jsdom", "--reporter=json"]
    return js_run(root, vitest)


# The JavaScript project's tests are mocha's `describe`/`it`/`before`/`after`; jest has all but the
# last two under other names. And one shuffles with Math.random (order-by-first-call.test.js fails on
# some orders, with or without a bug): seeded, every run draws the same, so a failure is the bug's.
# Kept beside the toolchain, outside the repository.
JEST_SETUP = """globalThis.before = beforeAll;
globalThis.after = afterAll;
let seed = 1;
Math.random = () => {
  seed = (seed * 16807) % 2147483647;
  return (seed - 1) / 2147483646;
};
"""


def jest_failures(root: Path) -> Failures:
    setup = Path(os.path.realpath(root / "node_modules")).parent / "jest-setup.js"
    setup.write_text(JEST_SETUP)
    jest = ["node_modules/.bin/jest", "--rootDir", ".", "--setupFilesAfterEnv", str(setup)]
    return js_run(root, [*jest, "--json"])


QUERY_TOOLCHAIN = [
    "vitest@2",
    "@testing-library/react@16",
    "@testing-library/dom@10",
    "react@18",
    "react-dom@18",
    "jsdom@25",
]


def query_toolchain() -> Path:
    return node_toolchain("tanstack-query", QUERY_TOOLCHAIN, "vitest")


def sinon_toolchain() -> Path:
    packages = [
        "jest@29",
        "@sinonjs/referee-sinon@10",
        "jsverify@0.8.4",
        "knuth-shuffle@1",
        "type-detect@4.0.8",
    ]
    return node_toolchain("sinonjs-commons", packages, "jest")


def ts_sources(root: Path) -> list[str]:
    return tree(root, "src/*.ts", lambda p: not p.endswith(("/index.ts", ".d.ts")))


def js_sources(root: Path) -> list[str]:
    return tree(root, "lib/**/*.js", lambda p: not p.endswith((".test.js", "/index.js")))


# -- Rust: libtest's lines -------------------------------------------------------------------


def cargo_env() -> dict[str, str]:
    return {
        **os.environ,
        "CARGO_TARGET_DIR": str(realprojects.CACHE / "cargo" / "target-selection"),
    }


def cargo_setup(project: Project) -> Path:
    requires.program("cargo", "install Rust with rustup")
    root = laid_out(project.key, realprojects._cargo(project))
    if not (root / "Cargo.lock").exists():  # the dev-dependencies, fetched once, then offline
        subprocess.run(
            ["cargo", "fetch"], cwd=root, env=cargo_env(), check=True, capture_output=True
        )
        commit(root, "Cargo.lock")
    return root


def cargo_failures(root: Path) -> Failures:
    """(the test's file, its name) for every failing test of `cargo test`: each binary's `Running
    <source>` line names the file of its tests; a unit test's module path names its file."""
    done = subprocess.run(
        ["cargo", "test", "--offline", "--no-fail-fast"],
        cwd=root,
        env=cargo_env(),
        stdout=subprocess.PIPE,
        # `Running` goes to stderr, the results to stdout: one stream keeps the order
        stderr=subprocess.STDOUT,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    failed: Failures = set()
    source = ""
    for line in done.stdout.splitlines():
        words = line.split()
        if line.strip().startswith("Running") and len(words) >= 2:
            source = words[2] if words[1] == "unittests" and len(words) > 2 else words[1]
        elif len(words) >= 4 and words[0] == "test" and words[-1] == "FAILED":
            name = words[1]
            failed.add((unit_file(root, name) if source.startswith("src/") else source, name))
    if done.returncode != 0 and not failed:
        failed.add(("build", "failed"))
    return failed


def unit_file(root: Path, name: str) -> str:
    parts = name.split("::")[:-1]
    while parts:
        for candidate in ("src/" + "/".join(parts) + ".rs", "src/" + "/".join(parts) + "/mod.rs"):
            if (root / candidate).is_file():
                return candidate
        parts.pop()
    return "src/lib.rs"


def rust_sources(root: Path) -> list[str]:
    return tree(root, "src/**/*.rs", lambda p: True)


# -- Java: Maven, Surefire's XML reports --------------------------------------------------------

# A build of the project's own sources and tests with JUnit 5 (the published pom's parent brings
# release plugins a test run does not need). Short-lived JVMs start faster without the optimising
# compiler: a run takes a seventh of the time. 2 GB of heap: a test that asks for more when the heap
# allows it (commons-codec's Base64Test wants 5 GB) skips itself, as on a small machine, instead of
# killing the fork.
JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx2g"
POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>selection</groupId>
  <artifactId>{artifact}</artifactId>
  <version>0</version>
  <properties>
    <maven.compiler.release>8</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>{dependencies}
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
        <!-- false: only the changed file is compiled again (a flip changes no signature) -->
        <configuration><useIncrementalCompilation>false</useIncrementalCompilation></configuration>
      </plugin>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
        <configuration><argLine>{jvm}</argLine></configuration>
      </plugin>
    </plugins>
  </build>
</project>
"""
DEPENDENCY = """
    <dependency>
      <groupId>{0}</groupId><artifactId>{1}</artifactId><version>{2}</version><scope>test</scope>
    </dependency>"""
JUNIT = "org.junit.jupiter:junit-jupiter:5.10.2"
COMMONS_IO = "commons-io:commons-io:2.16.1"
# What each project's published pom names for its tests.
CLI_TESTS = (JUNIT, COMMONS_IO, "org.mockito:mockito-core:4.11.0")


def maven_files(project: Project, test_dependencies: tuple[str, ...]) -> dict[str, bytes]:
    """The sources jar under src/main/java, the test-sources jar under src/test/java (its other
    files under src/test/resources), and a pom.xml."""
    folder = realprojects.CACHE / "maven"
    folder.mkdir(parents=True, exist_ok=True)
    group, artifact, version = project.coordinate.split(":")
    found: dict[str, bytes] = {}
    for classifier, java, other in (
        ("sources", "src/main/java/", ""),
        ("test-sources", "src/test/java/", "src/test/resources/"),
    ):
        jar = folder / f"{artifact}-{version}-{classifier}.jar"
        if not jar.exists():
            realprojects.run(
                [
                    "mvn",
                    "-q",
                    "-B",
                    "dependency:copy",
                    f"-Dartifact={project.coordinate}:jar:{classifier}",
                    f"-DoutputDirectory={folder}",
                ],
                folder,
            )
        with zipfile.ZipFile(jar) as archive:
            for name in archive.namelist():
                if name.endswith("/") or name.startswith("META-INF/"):
                    continue
                if name.endswith(".java"):
                    found[java + name] = archive.read(name)
                elif other:
                    found[other + name] = archive.read(name)
    dependencies = "".join(DEPENDENCY.format(*d.split(":")) for d in test_dependencies)
    pom = POM.format(artifact=artifact, dependencies=dependencies, jvm=JVM)
    found["pom.xml"] = pom.encode()
    return found


def maven_env() -> dict[str, str]:
    return {**os.environ, "MAVEN_OPTS": JVM}


def maven_setup(project: Project, test_dependencies: tuple[str, ...]) -> Path:
    requires.program("mvn", "install Maven and a JDK")
    root = laid_out(project.key, maven_files(project, test_dependencies))
    marker = root / "target" / ".resolved"
    if not marker.exists():  # the first build resolves the plugins and JUnit; offline after it
        subprocess.run(
            ["mvn", "-B", "-q", "test", "-Dmaven.test.failure.ignore=true"],
            cwd=root,
            env=maven_env(),
            check=True,
            capture_output=True,
            timeout=RUN_TIMEOUT,
        )
        marker.write_text("")
    return root


def maven_failures(root: Path) -> Failures:
    """(test file, method) of every failing or erroring test, from Surefire's TEST-*.xml."""
    reports = root / "target" / "surefire-reports"
    shutil.rmtree(reports, ignore_errors=True)
    done = subprocess.run(
        ["mvn", "-o", "-B", "-q", "test", "-Dmaven.test.failure.ignore=true"],
        cwd=root,
        env=maven_env(),
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    failed: Failures = set()
    for report in sorted(reports.glob("TEST-*.xml")):
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                outer = case.get("classname", "").split("$")[0]
                path = "src/test/java/" + outer.replace(".", "/") + ".java"
                failed.add((path, case.get("name", "")))
    if done.returncode != 0 and not failed:  # a compile error: no reports
        failed.add(("build", (done.stdout.strip().splitlines() or ["failed"])[-1]))
    return failed


def java_sources(root: Path) -> list[str]:
    return tree(root, "src/main/java/**/*.java", lambda p: not p.endswith("package-info.java"))


# -- the table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    project: Project
    held_out: bool
    setup: Callable[[Project], Path]  # laid out, its toolchain in place
    full: Callable[[Path], Failures]  # one run of the whole suite
    sources: Callable[[Path], list[str]]  # where bugs are planted, in order
    runner: str = ""  # $SIDEKIT_RUNNER, when the project's files do not say it
    kinds: tuple[tuple[str, str], ...] = FLIPS
    units: Callable[[Path, list[str]], set[str]] = field(default=lambda root, files: set(files))
    known_miss: str = ""  # a held-out project below a floor, as measured once: a strict xfail

    @property
    def name(self) -> str:
        return ("held-out " if self.held_out else "") + self.project.coordinate


def tuning(coordinate: str) -> Project:
    return next(p for p in realprojects.TUNING if p.coordinate == coordinate)


def held_out(coordinate: str) -> Project:
    return next(p for p in realprojects.HELD_OUT if p.coordinate == coordinate)


SELECTION = [
    Case(tuning("github.com/spf13/cobra@v1.8.1"), False, go_setup, go_failures, go_sources,
         units=go_units),
    Case(held_out("github.com/google/uuid@v1.6.0"), True, go_setup, go_failures, go_sources,
         units=go_units,
         known_miss="measured once: 9 bugs of 10 in 40 flips (one package: a flip fails a test "
         "or nothing), recall 1.000 (14 of 14)"),
    Case(tuning("@tanstack/query-core@5.59.0"), False,
         lambda p: npm_setup(p, query_toolchain), vitest_failures, ts_sources, "vitest"),
    Case(Project("js", "npm", "@sinonjs/commons@3.0.1", "lib", (".js",)), False,
         lambda p: npm_setup(p, sinon_toolchain), jest_failures, js_sources, "jest", MORE_FLIPS),
    Case(tuning("semver@1.0.23"), False, cargo_setup, cargo_failures, rust_sources,
         kinds=MORE_FLIPS),
    Case(held_out("anyhow@1.0.86"), True, cargo_setup, cargo_failures, rust_sources,
         kinds=MORE_FLIPS,
         known_miss="measured once: 4 bugs of 10 in 40 flips (most flips land where no test "
         "fails), recall 0.96 (24 of 25; the 25th a compile error, counted as caught since)"),
    Case(Project("java", "maven", "commons-cli:commons-cli:1.9.0", "", (".java",)), False,
         lambda p: maven_setup(p, CLI_TESTS), maven_failures, java_sources, kinds=MORE_FLIPS),
]  # fmt: skip


# -- measuring ----------------------------------------------------------------------------------


def candidates(
    root: Path, sources: list[str], kinds: tuple[tuple[str, str], ...]
) -> list[tuple[str, str, str]]:
    """(file, old, new): the first flip each source file allows, then its second, ... in a fixed
    order."""
    found: list[tuple[str, str, str]] = []
    for round_ in range(len(kinds)):
        for path in sources:
            text = (root / path).read_text()
            flips = [(old, new) for old, new in kinds if old in text]
            if round_ < len(flips):
                found.append((path, *flips[round_]))
    return found


def selected_units(case: Case, root: Path) -> set[str]:
    """What `sidekit select` selects for the working tree's change, as the user asks it: the runner
    its detection finds (or $SIDEKIT_RUNNER), that adapter's selection, checked against the CLI's
    answer."""
    from sidekit_hooks import runners

    adapter = runners.load(runners.detect(str(root)))
    assert adapter is not None, root
    if hasattr(adapter, "selection"):
        head = adapter.selection(str(root), None)[1]
    else:
        head = adapter.graph_selection(str(root), None)
    done = subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", "select"],
        cwd=root,
        env={**os.environ, "CLAUDE_PROJECT_DIR": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    said = json.loads(done.stdout)
    files = list(head["files"])
    assert head["basis"] == said["basis"] == "imports", (head, said)
    listed = len(said.get("files") or ()) + (said.get("moreFiles") or 0)  # none: no key
    assert listed == len(files), (said, files)
    return case.units(root, files)


def measure(case: Case, root: Path) -> dict[str, object]:
    started = time.monotonic()
    baseline = case.full(root)  # what fails before any bug (e.g. cobra's read-only file as root)
    caught = bugs = 0
    rows: list[dict[str, object]] = []
    for path, old, new in candidates(root, case.sources(root), case.kinds)[:MAX_TRIES]:
        original = (root / path).read_text()
        (root / path).write_text(original.replace(old, new, 1))
        try:
            everything = case.full(root) - baseline
            if not everything:
                continue
            units = selected_units(case, root)
        finally:
            (root / path).write_text(original)
        # A bug that stops the build (no test ran) stops the selected tests' build too.
        picked = {(u, name) for u, name in everything if u in units or (u == "build" and units)}
        bugs += 1
        caught += len(picked)
        rows.append(
            {
                "file": path,
                "flip": f"{old.strip()} -> {new.strip()}",
                "full": len(everything),
                "selected": len(picked),
                "missed": sorted(f"{u}::{n}" for u, n in everything - picked)[:3],
            }
        )
        if bugs == BUGS:
            break
    total = sum(int(str(r["full"])) for r in rows)
    return {
        "bugs": bugs,
        "fullCatches": total,
        "selectedCatches": caught,
        "recall": round(caught / max(1, total), 4),
        "seconds": round(time.monotonic() - started),
        "rows": rows,
    }


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, marks=[pytest.mark.xfail(strict=True, reason=c.known_miss)])
        if c.known_miss
        else c
        for c in SELECTION
    ],
    ids=lambda case: case.name,
)
def test_selection_catches_what_the_full_run_catches(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    if case.runner:  # as the user says it when the project's files do not
        monkeypatch.setenv("SIDEKIT_RUNNER", case.runner)
    realprojects.CACHE.mkdir(parents=True, exist_ok=True)
    root = case.setup(case.project)
    found = measure(case, root)
    print(f"\n{case.name}: " + json.dumps(found))
    assert found["bugs"] == BUGS, found
    assert float(str(found["recall"])) >= RECALL, found
