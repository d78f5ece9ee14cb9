"""Selection on real projects with planted bugs: the tests `sidekit select` picks catch >= 95% of
the failures the full run catches. Each project is fetched at test time from its registry with its
own client (tests/code/realprojects.py; cached under tests/code/.cache, ignored by git), laid out as
a git repository with its own tests, and run with its own runner.

A planted bug is one operator flipped in one source file (` == ` to ` != `, ` && ` to ` || `, `return true`
to `return false`, `!== ` to `=== ` and back), in files taken in a fixed order; a flip the full run does not catch is
skipped (it proves nothing about selection), until BUGS flips have been caught. Slow: registries, real runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from testing import requires
from testing.code import GIT

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "code"))
import realprojects  # noqa: E402  (tests/code's fetcher)

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

Failures = set[tuple[str, str]]  # (test file or package, test name)


def laid_out(key: str, files: dict[str, bytes]) -> Path:
    """`files` as a committed git repository under the cache (made once)."""
    root = realprojects.CACHE / "selection" / key
    if (root / ".git").is_dir():
        subprocess.run([*GIT, "checkout", "-q", "--", "."], cwd=root, check=True)
        return root
    if root.exists():
        shutil.rmtree(root)
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    (root / ".gitignore").write_text(".sidekit/\nnode_modules\n")
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", key]):
        subprocess.run([*GIT, *argv], cwd=root, check=True, capture_output=True)
    return root


def candidates(
    root: Path, sources: list[str], kinds: tuple[tuple[str, str], ...] = FLIPS
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


def measure(
    root: Path,
    sources: list[str],
    full: Callable[[], Failures],
    selected: Callable[[], Failures],
    kinds: tuple[tuple[str, str], ...] = FLIPS,
) -> dict[str, object]:
    caught = bugs = 0
    rows: list[dict[str, object]] = []
    for path, old, new in candidates(root, sources, kinds)[:MAX_TRIES]:
        original = (root / path).read_text()
        (root / path).write_text(original.replace(old, new, 1))
        try:
            everything = full()
            if not everything:
                continue
            picked = selected()
        finally:
            (root / path).write_text(original)
        bugs += 1
        caught_here = len(everything & picked)
        caught += caught_here
        rows.append(
            {
                "file": path,
                "flip": f"{old.strip()} -> {new.strip()}",
                "full": len(everything),
                "selected": caught_here,
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
        "rows": rows,
    }


def report(name: str, found: dict[str, object]) -> None:
    print(f"\n{name}: " + json.dumps(found))
    assert found["bugs"] == BUGS, found
    assert float(str(found["recall"])) >= RECALL, found


# -- Go: github.com/spf13/cobra (root package and doc/, which imports it)
# ---------------------------------

GO_PROJECT = next(
    p for p in realprojects.TUNING if p.coordinate.startswith("github.com/spf13/cobra@")
)
GO_ENV = {"GOFLAGS": "-mod=mod", "GO111MODULE": "on", "GOWORK": "off"}


def go_env() -> dict[str, str]:
    return {**os.environ, **GO_ENV, "GOMODCACHE": str(realprojects.CACHE / "gomod")}


def go_failures(root: Path, patterns: list[str]) -> Failures:
    done = subprocess.run(
        ["go", "test", "-json", "-count=1", *patterns],
        cwd=root,
        env=go_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    failed: Failures = set()
    for line in done.stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("Action") == "fail" and event.get("Test"):
            failed.add((str(event.get("Package", "")), str(event.get("Test", ""))))
    if done.returncode != 0 and not failed:  # a build failure: no JSON for the tests
        failed.add(
            ("build", done.stderr.strip().splitlines()[0] if done.stderr.strip() else "failed")
        )
    return failed


def test_go_selection_catches_what_the_full_run_catches() -> None:
    if not shutil.which("go"):
        requires.missing("go is needed for the Go project", "install Go from go.dev")
    from sidekit_hooks.runners.go import graph as go_graph

    realprojects.CACHE.mkdir(parents=True, exist_ok=True)
    root = laid_out(GO_PROJECT.key, realprojects._go(GO_PROJECT))
    subprocess.run(
        ["go", "mod", "download"],
        cwd=root,
        env=go_env(),
        check=True,
        capture_output=True,
        timeout=600,
    )
    # What fails before any bug (a test expecting a read-only file to refuse a write fails as root)
    # is not a catch.
    baseline = go_failures(root, ["./..."])
    sources = [
        p
        for p in sorted(q.relative_to(root).as_posix() for q in root.rglob("*.go"))
        if not p.endswith("_test.go")
    ]

    def selected() -> Failures:
        patterns, head = go_graph.selection(str(root), None)
        assert head["basis"] == "imports", head
        return go_failures(root, patterns) - baseline

    report(
        "go cobra",
        measure(root, sources, lambda: go_failures(root, ["./..."]) - baseline, selected),
    )


# -- TypeScript: @tanstack/query-core (vitest; its npm package ships src/ with src/__tests__/)
# ----------------

TS_PROJECT = next(
    p for p in realprojects.TUNING if p.coordinate.startswith("@tanstack/query-core@")
)
TS_TOOLCHAIN = [
    "vitest@2",
    "@testing-library/react@16",
    "@testing-library/dom@10",
    "react@18",
    "react-dom@18",
    "jsdom@25",
]


def ts_toolchain() -> Path:
    """node_modules for query-core's tests, installed once per machine (under a lock) beside the JS
    runners'."""
    import fcntl

    from testing.js import cache_root

    if not shutil.which("node") or not shutil.which("npm"):
        requires.missing(
            "node and npm are needed for the TypeScript project", "install Node.js with npm"
        )
    folder = cache_root() / "tanstack-query"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "node_modules" / ".bin" / "vitest").exists():
            (folder / "package.json").write_text('{"name":"sidekit-js-cache","private":true}\n')
            argv = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", *TS_TOOLCHAIN]
            subprocess.run(argv, cwd=folder, check=True, capture_output=True, timeout=900)
    return folder / "node_modules"


def vitest_failures(root: Path) -> Failures:
    report_file = root.parent / f"{root.name}-vitest.json"
    subprocess.run(
        [
            "node_modules/.bin/vitest",
            "run",
            "--environment",
            "jsdom",
            "--reporter=json",
            f"--outputFile={report_file}",
        ],
        cwd=root,
        capture_output=True,
        timeout=900,
        env={k: v for k, v in os.environ.items() if k != "CI"},
    )
    found = json.loads(report_file.read_text())
    failed: Failures = set()
    for result in found["testResults"]:
        path = Path(result["name"]).relative_to(root).as_posix()
        names = [a["fullName"] for a in result["assertionResults"] if a["status"] == "failed"]
        failed |= {(path, name) for name in names} or (
            {(path, "")} if result["status"] == "failed" else set()
        )
    return failed


def test_typescript_selection_catches_what_the_full_run_catches() -> None:
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.impact import changes, scripts

    realprojects.CACHE.mkdir(parents=True, exist_ok=True)
    root = laid_out(TS_PROJECT.key, realprojects._npm(TS_PROJECT))
    if not (root / "node_modules").exists():
        (root / "node_modules").symlink_to(ts_toolchain())
    baseline = vitest_failures(root)
    sources = sorted(
        p.relative_to(root).as_posix()
        for p in (root / "src").glob("*.ts")
        if p.name != "index.ts" and not p.name.endswith(".d.ts")
    )
    last: dict[str, Failures] = {}

    def full() -> Failures:
        last["run"] = vitest_failures(root) - baseline
        return last["run"]

    def selected() -> Failures:
        # vitest runs each test file in isolation, so the selected files' failures in the full run
        # are the failures a run of those files alone shows: one run per bug instead of two.
        with Index.open(str(root)) as index:
            head = scripts.selection(
                str(root), index, changes.changed_files(str(root), "HEAD"), "vitest"
            )
        assert head["basis"] == "imports", head
        return {(path, name) for path, name in last["run"] if path in set(head["files"])}

    report("ts query-core", measure(root, sources, full, selected))


# -- Rust: semver (crates.io; src/ and its integration tests in tests/)
# ----------------------------------

RUST_PROJECT = next(p for p in realprojects.TUNING if p.coordinate.startswith("semver@"))


def cargo_failures(root: Path) -> Failures:
    """(the test's file, its name) for every failing test of `cargo test`, read from its console:
    each binary's `Running <source>` line names the file of its tests; a unit test's module path
    names its file."""
    done = subprocess.run(
        ["cargo", "test", "--offline", "--no-fail-fast"],
        cwd=root,
        env={
            **os.environ,
            "CARGO_TARGET_DIR": str(realprojects.CACHE / "cargo" / "target-selection"),
        },
        stdout=subprocess.PIPE,
        # `Running` goes to stderr, the results to stdout: one stream keeps the order
        stderr=subprocess.STDOUT,
        text=True,
        timeout=900,
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


def test_rust_selection_catches_what_the_full_run_catches() -> None:
    if not shutil.which("cargo"):
        requires.missing("cargo is needed for the Rust project", "install Rust with rustup")
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.impact import changes, rust

    realprojects.CACHE.mkdir(parents=True, exist_ok=True)
    root = laid_out(RUST_PROJECT.key, realprojects._cargo(RUST_PROJECT))
    baseline = cargo_failures(root)
    for argv in (
        ["add", "-A"],
        ["commit", "-qm", "Cargo.lock", "--allow-empty"],
    ):  # the first build's lock file
        subprocess.run([*GIT, *argv], cwd=root, check=True, capture_output=True)
    sources = sorted(p.relative_to(root).as_posix() for p in (root / "src").glob("*.rs"))
    last: dict[str, Failures] = {}

    def full() -> Failures:
        last["run"] = cargo_failures(root) - baseline
        return last["run"]

    def selected() -> Failures:
        # One `cargo test` per bug: the selected files' failures are read from the full run (each
        # integration test is its own binary; a unit test's failure is its file's).
        with Index.open(str(root)) as index:
            head = rust.selection(
                str(root), index, changes.changed_files(str(root), "HEAD"), "cargo"
            )
        assert head["basis"] == "imports", head
        return {(path, name) for path, name in last["run"] if path in set(head["files"])}

    # semver's src/ has fewer of the common flips: comparisons and off-by-one too (Rust only, so the
    # Go and TypeScript bugs stay as measured)
    kinds = (*FLIPS, (" < ", " <= "), (" > ", " >= "), (" + 1", " + 2"))
    report("rust semver", measure(root, sources, full, selected, kinds))
