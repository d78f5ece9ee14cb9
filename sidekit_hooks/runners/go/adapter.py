"""go test: `go test -json` events (or a test binary's `-test.v=test2json` output) into cache
records.

Test ids are `<package dir>::<Test>` (`internal/calc::TestAdd/negative`); only the leaves of a
subtest tree are kept, so a failing table-driven case counts once. Never greener than the run:
a package that fails without a failing test (build or vet failure, setup failure, a panic in init,
a timeout, `TestMain` exiting non-zero) is recorded as that package's error; tests that were running
when a package died (panic, `test timed out`) fail with the package's cause.

The raw-run compaction appends `-exec '/bin/sh <package>/runners/go/goexec.sh <python>'`: go then
runs each package's test binary through that wrapper, which keeps the binary's output under
`.sidekit/go/`, prints a passing binary's short output itself, and hands anything else to
runners/go/goexec.py (the output as it was, or the compact answer when it is long). Same prefix,
same exit code.
"""

from __future__ import annotations

import os
import sys

from sidekit_hooks.core import safepath, textscan
from sidekit_hooks.runners import Result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container, Iterable
    from typing import Any

NAME = "go"
FEED = "wrapper"  # each test binary runs under goexec.sh, which feeds the cache (runners/spool.py)
PENDING = (
    "spool-",
    "writer-",
)  # a run's spooled binaries and its writer's claim, under .sidekit/go/
# A go run is pending only with a writer's claim: a printed spool always has one beside it (a spool
# without is a killed wrapper's, which nothing will write); its newest file says whether it is
# fresh.
PENDING_CLAIM = "writer-"
# the module whose save_spooled caches a spool (ledger)
SPOOL_SAVER = "sidekit_hooks.runners.go.goexec"
MAX_GO_MOD = 1 << 20  # bytes of go.mod read at most (its `module` line is near the top)
COMMAND = ["go", "test", "-json", "./..."]
# go test flags after which the run is not one to compact: output the user asked for as it is, a
# binary that is not run, or an -exec/-json of their own.
LEAVE_ALONE = (
    "-json",
    "-exec",
    "-args",
    "-c",
    "-o",
    "-list",
    "-fuzz",
    "-bench",
    "-h",
    "-help",
    "--help",
    "-i",
    "-cpuprofile",
    "-memprofile",
    "-trace",
    "-blockprofile",
    "-mutexprofile",
    "-coverprofile",
    "-n",
)
VALUE_FLAGS = frozenset(
    {
        "run",
        "skip",
        "bench",
        "benchtime",
        "count",
        "cpu",
        "parallel",
        "timeout",
        "tags",
        "p",
        "coverpkg",
        "covermode",
        "shuffle",
        "fuzztime",
        "mod",
        "vet",
        "ldflags",
        "gcflags",
        "exec",
        "o",
        "outputdir",
        "fullpath",
        "list",
        "fuzz",
        "failfast",
        "C",
    }
)
STARTED_HEADS = ("=== RUN", "=== PAUSE", "=== CONT", "=== NAME")  # then one space or more
ENDED_HEADS = ("--- PASS: ", "--- FAIL: ", "--- SKIP: ")
OUTCOMES = {"pass": "passed", "fail": "failed", "skip": "skipped"}


def command(project: str, args: list[str] | None = None) -> list[str]:
    """What `sidekit test [ARGS]` runs: `go test -json`, on ./... unless ARGS name packages."""
    args = [a for a in args or [] if a != "--"]
    named = any(_is_package(word, before) for before, word in zip(["", *args], args, strict=False))
    return ["go", "test", "-json", *([] if named else ["./..."]), *args]


def _is_package(word: str, before: str) -> bool:
    """A package pattern (`./calc`, `./...`, `example.com/m/calc`), not a flag or a flag's value."""
    takes_value = before.startswith("-") and "=" not in before and before.lstrip("-") in VALUE_FLAGS
    return (
        not word.startswith("-")
        and not takes_value
        and (word.startswith((".", "/")) or "/" in word)
    )


def detect(project: str) -> bool:
    return os.path.isfile(os.path.join(project, "go.mod")) or os.path.isfile(
        os.path.join(project, "go.work")
    )


def matches(words: list[str]) -> bool:
    return len(words) >= 2 and words[0].rsplit("/", 1)[-1] == "go" and words[1] == "test"


def compact_words(words: list[str], project: str) -> list[str] | None:
    for word in words[2:]:
        if word.startswith("-") and "-" + word.lstrip("-").partition("=")[0] in LEAVE_ALONE:
            return None
    wrapper = wrapper_command()
    return [*words, "-exec", wrapper] if wrapper else None


def wrapper_command() -> str:
    """What go runs each test binary through: the POSIX sh wrapper (no Python start-up for a passing
    binary), given this interpreter for what needs Python (started -I -S: without site or the cwd's
    modules; goexec.py found by its path, so the hook's interpreter need not have sidekit
    installed). '' when a path would need quoting inside go's -exec value."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "goexec.sh")
    words = ("/bin/sh", script, sys.executable)
    return "" if any(c in w for w in words for c in " '\"\t\n") else " ".join(words)


def collect(project: str, started: float, exit_code: int, raw_output_path: str) -> Result:
    """The records of one `go test -json` run whose output is in `raw_output_path`."""
    lines = (
        safepath.read_tail(raw_output_path, safepath.MAX_OUTPUT)
        .decode("utf-8", "replace")
        .splitlines()
    )
    return from_events(
        parse_json_lines(lines), project, started, exit_code, package_locator(project)
    )


def parse_json_lines(lines: Iterable[str]) -> list[dict[str, Any]]:
    """`go test -json` lines as events; a line that is not JSON (stderr text) becomes package
    output."""
    import json

    events: list[dict[str, Any]] = []
    for line in lines:
        if not line.startswith("{"):
            if line.strip():
                events.append({"Action": "output", "Package": "", "Output": line + "\n"})
            continue
        try:
            event = json.loads(line)
        except ValueError:
            events.append({"Action": "output", "Package": "", "Output": line + "\n"})
            continue
        if isinstance(event, dict):
            events.append(event)
    return events


def parse_framed(text: str, package: str) -> list[dict[str, Any]]:
    """A test binary's `-test.v=test2json` output as go test -json events (what test2json does)."""
    events: list[dict[str, Any]] = [{"Action": "start", "Package": package}]
    current = ""
    for line in text.splitlines(keepends=True):
        found = framing(line.rstrip("\n")) if "\x16" in line else None
        if found:
            head, name, elapsed = found[0], found[1].strip(), found[2]
            if head.startswith("==="):
                current = name
                if head.startswith("=== RUN"):
                    events.append({"Action": "run", "Package": package, "Test": name})
                events.append(
                    {
                        "Action": "output",
                        "Package": package,
                        "Test": name,
                        "Output": line.replace("\x16", ""),
                    }
                )
                continue
            action = head[4:8].lower()
            events.append(
                {
                    "Action": "output",
                    "Package": package,
                    "Test": name,
                    "Output": line.replace("\x16", ""),
                }
            )
            events.append(
                {"Action": action, "Package": package, "Test": name, "Elapsed": float(elapsed or 0)}
            )
            continue
        stripped = line.replace("\x16", "")
        if stripped.rstrip("\n") in ("PASS", "FAIL") and "\x16" in line:
            events.append({"Action": "output", "Package": package, "Output": stripped})
            continue
        event: dict[str, Any] = {"Action": "output", "Package": package, "Output": stripped}
        if current:
            event["Test"] = current
        events.append(event)
    return events


def framing(line: str) -> tuple[str, str, str | None] | None:
    r"""(head, name, elapsed or None) of a test2json framing line: the groups of
    `^\s*\x16(=== (?:RUN|PAUSE|CONT|NAME) +|--- (?:PASS|FAIL|SKIP): )(.*?)(?: \((\d+\.\d+)s\))?$`."""
    body = line.lstrip()
    if not body.startswith("\x16"):
        return None
    body = body[1:]
    if body.startswith(ENDED_HEADS):
        head = body[:10]
    else:
        word = next((w for w in STARTED_HEADS if body.startswith(w)), "")
        spaces = len(body) - len(body[len(word) :].lstrip(" "))
        if not word or spaces == len(word):
            return None
        head = body[:spaces]
    rest = textscan.line_rest(body[len(head) :])
    if rest is None:
        return None
    cut = rest.rfind(" (")
    number = rest[cut + 2 : -2] if cut >= 0 and rest.endswith("s)") else ""
    whole, dot, fraction = number.partition(".")
    if dot and whole.isdecimal() and fraction.isdecimal():
        return head, rest[:cut], number
    return head, rest, None


def package_locator(project: str) -> Callable[[str], str]:
    """Import path -> package folder relative to the project (via go.mod's `module` line)."""
    module = ""
    for line in (safepath.read_project_text(project, "go.mod", MAX_GO_MOD) or "").splitlines():
        if line.startswith("module ") and len(line.split()) > 1:
            module = line.split()[1].strip('"')
            break

    def locate(import_path: str) -> str:
        path = import_path.split(" [", 1)[0]  # `m/p [m/p.test]`
        if module and path == module:
            return "."
        if module and path.startswith(module + "/"):
            return path[len(module) + 1 :]
        return path or "."

    return locate


def parent_of(test: str, names: Container[str]) -> str:
    """The test among `names` that `test` is a subtest of ('' for none): the longest of its `/`
    prefixes there. Not simply the part before the last `/`: a subtest's own name may hold one
    (`t.Run("Comparer/Nil", ...)` in TestDiff is `TestDiff/Comparer/Nil`, with no
    `TestDiff/Comparer`)."""
    prefix = test
    while "/" in prefix:
        prefix = prefix.rpartition("/")[0]
        if prefix in names:
            return prefix
    return ""


def build_failures(
    root: str, cwd: str, output: str, started: float, exit_code: int
) -> Result | None:
    """The packages a (compacted) `go test` printed as `FAIL <import path> [build failed]` (or
    `[setup failed]`), each an error with its compiler lines (`# <import path>` and what follows),
    or None. Package folders as goexec.py names them: relative to `root`, the module found from
    `cwd` up."""
    module = cwd
    while not os.path.isfile(os.path.join(module, "go.mod")) and os.path.dirname(module) != module:
        module = os.path.dirname(module)
    if not os.path.isfile(os.path.join(module, "go.mod")):
        module = root
    locate = package_locator(module)
    base = os.path.relpath(module, root).replace(os.sep, "/")
    blocks: dict[str, list[str]] = {}
    block: list[str] = []
    failed: list[str] = []
    for line in output.splitlines():
        if line.startswith("# "):
            block = blocks.setdefault(line[2:].split(" [", 1)[0].strip(), [])
        elif line.startswith(("FAIL\t", "ok  \t")):
            path, _, rest = line[5:].strip().partition(" ")
            if rest in ("[build failed]", "[setup failed]"):
                failed.append(path)
            block = []
        else:
            block.append(line)
    if not failed or base.startswith(".."):
        return None
    from sidekit_hooks.runners import frames

    result = Result(NAME, started, exit_code)
    for path in failed:
        pkgdir = locate(path)
        pkgdir = pkgdir if base == "." else (base if pkgdir == "." else f"{base}/{pkgdir}")
        result.errors[pkgdir] = frames.go_build_failure(
            [_from(cwd, line) for line in blocks.get(path, [])], root
        )
    result.args = sorted(result.errors)  # these packages only: never a whole run of the project
    return result


def _from(cwd: str, line: str) -> str:
    """A compiler line's file (`./q_test.go:6:14: ...`, relative to where go ran) made absolute."""
    head, colon, rest = line.partition(":")
    if not colon or not head.endswith(".go") or os.path.isabs(head) or head != head.strip():
        return line
    return os.path.normpath(os.path.join(cwd, head)) + colon + rest


class _Package:
    __slots__ = (
        "output",
        "build",
        "outcome",
        "failed_build",
        "tests",
        "order",
        "test_output",
        "elapsed",
        "paused",
    )

    def __init__(self) -> None:
        self.output: list[str] = []
        self.build: list[str] = []
        self.outcome = ""
        self.failed_build = False
        self.tests: dict[str, str] = {}
        self.order: list[str] = []
        self.test_output: dict[str, list[str]] = {}
        self.elapsed: dict[str, float] = {}
        self.paused: set[str] = (
            set()
        )  # parallel tests waiting for their turn (=== PAUSE, no === CONT yet)


def from_events(
    events: list[dict[str, Any]],
    root: str,
    started: float,
    exit_code: int,
    locate: Callable[[str], str],
    whole: bool = False,
) -> Result:
    """Cache records from go test events: tests, and the packages that failed without a failing
    test.

    `whole`: the binaries ran unfiltered (no -run, -skip or -failfast) and ended on their own (their
    final PASS or FAIL, no panic or timeout): each package with every test ended is then
    `covered`."""
    from sidekit_hooks.runners import frames

    frames.forget_go_sources()
    packages: dict[str, _Package] = {}
    stray: list[str] = []
    for event in events:
        action = str(event.get("Action", ""))
        if action in ("build-output", "build-fail"):
            package = _package(packages, locate(str(event.get("ImportPath", ""))))
            if action == "build-output":
                package.build.append(str(event.get("Output", "")))
            else:
                package.failed_build = True
            continue
        name = str(event.get("Package", ""))
        if not name:
            stray.append(str(event.get("Output", "")))
            continue
        package = _package(packages, locate(name))
        test = str(event.get("Test", ""))
        if action == "output":
            line = str(event.get("Output", ""))
            (package.test_output.setdefault(test, []) if test else package.output).append(line)
            if test and line.startswith(
                ("=== PAUSE", "=== CONT")
            ):  # test2json's own pause/cont events too
                action = "pause" if line.startswith("=== PAUSE") else "cont"
        if action == "pause" and test:
            package.paused.add(test)
        elif action == "cont" and test:
            package.paused.discard(test)
        elif action == "run" and test:
            package.tests.setdefault(test, "")
            package.order.append(test)
        elif action in OUTCOMES:
            if test:
                package.tests[test] = OUTCOMES[action]
                package.elapsed[test] = float(event.get("Elapsed") or 0.0)
            else:
                package.outcome = OUTCOMES[action]
                package.failed_build = package.failed_build or bool(event.get("FailedBuild"))
    result = Result(NAME, started, exit_code)
    for pkgdir, package in packages.items():
        _package_records(pkgdir, package, root, result, frames)
        if whole and pkgdir not in result.errors and all(package.tests.values()):
            result.covered.add(pkgdir)
    if exit_code and not result.tests and not result.errors:
        text = [line for line in stray if line.strip()]
        result.errors["."] = (
            frames.go_build_failure(text, root)
            if text
            else frames.with_shape(
                {"type": "go test failed", "message": f"exit code {exit_code}, no test reported"}
            )
        )
    result.last_words = next((ln.strip() for ln in reversed(stray) if ln.strip()), "")
    return result


def _package(packages: dict[str, _Package], pkgdir: str) -> _Package:
    """The package's record, made at its first event (not one per event, as `setdefault` would)."""
    package = packages.get(pkgdir)
    if package is None:
        package = packages[pkgdir] = _Package()
    return package


def _package_records(
    pkgdir: str, package: _Package, root: str, result: Result, frames: Any
) -> None:
    prefix = "" if pkgdir == "." else pkgdir
    if package.failed_build or (
        package.build and package.outcome == "failed" and not package.tests
    ):
        result.errors[prefix or "."] = frames.go_build_failure(package.build + package.output, root)
        return
    parents = {parent_of(t, package.tests) for t in package.tests if "/" in t}
    died = (
        frames.go_failure(_dump(package), pkgdir, root, "package failed")
        if package.outcome == "failed"
        else None
    )
    failed_any = False
    for test, outcome in package.tests.items():
        if test in parents:
            continue
        key = f"{prefix or '.'}::{test}"
        entry: dict[str, Any] = {"d": package.elapsed.get(test, 0.0)}
        lines = package.test_output.get(test, [])
        if not outcome:  # running when the package died (timeout, panic in another goroutine)
            if (
                died is None or test in package.paused
            ):  # a parallel test still waiting to start: never ran
                continue
            outcome = "failed"
            entry["f"] = dict(died)
        elif outcome == "failed":
            crashed = any(
                line.startswith("panic: ") for line in package.output
            )  # a panic's dump is the package's
            entry["f"] = frames.go_failure(
                lines + (package.output if crashed else []), pkgdir, root, test=test
            )
        entry["o"] = outcome
        if outcome == "failed":
            entry["p"] = "call"
            failed_any = True
        result.tests[key] = entry
    if failed_any:  # the tests that check a caller of the broken function join it
        from sidekit_hooks.runners.go import subject as go_subject

        placed = [
            e["f"]
            for k, e in result.tests.items()
            if k.startswith(f"{prefix or '.'}::") and "f" in e
        ]
        go_subject.join_callers(
            placed, frames._folder(pkgdir, root), prefix + "/" if prefix else ""
        )
    if (
        died is not None
        and not failed_any
        and not any(o == "failed" for t, o in package.tests.items() if t in parents)
    ):
        result.errors[prefix or "."] = died


def _dump(package: _Package) -> list[str]:
    """What ended a failed package: its own output, or the panic a test's output holds (the framing
    puts a panic after `--- FAIL: TestX` under TestX), so the tests it cut short fail with its
    message."""
    if any(line.startswith("panic: ") for line in package.output):
        return package.output
    for lines in package.test_output.values():
        for index, line in enumerate(lines):
            if line.startswith("panic: "):
                return lines[index:]
    return package.output


def selection(project: str, base: str | None) -> tuple[list[str], dict[str, Any]]:
    """Its tests selected by the change against `base`: the package graph `go list` draws
    (graph.py)."""
    from sidekit_hooks.runners.go import graph

    return graph.selection(project, base)


def tests_for(project: str, path: str) -> dict[str, Any]:
    """The packages whose tests reach `path` (relative to the cwd, or absolute)."""
    from sidekit_hooks.runners.go import graph

    return graph.tests_for(project, graph.relative(project, path))


def needs_feed(cwd: str, output: str, code: int, since_ns: int) -> bool:
    """Whether a compacted run needs the feed after it (runners/junit/feed.py): a package failed to
    build, so its test binary (and the wrapper around it) never ran; or go answered a package from
    its own cache (`ok <path> (cached)`: no binary ran) while the cache holds failing tests (the run
    before the fix was red: its failures would stay). Every binary that ran fed the cache itself."""
    if build_failed(output):
        return True
    if not cached_ok(output):
        return False
    from sidekit_hooks.status import cache

    root = cache.workspace_root(cwd)
    return int(cache.read(cache.summary_path(root)).data.get("failing", 0) or 0) > 0


def cached_ok(output: str) -> list[str]:
    """The import paths go printed as passing from its test cache: `ok  \t<path>\t(cached)`."""
    found = []
    for line in output.splitlines():
        if line.startswith("ok  \t") and line.rstrip().endswith("(cached)"):
            found.append(line[4:].strip().split("\t")[0].strip())
    return found


def build_failed(output: str) -> bool:
    """Whether go's output says a package failed to build (or vet, or set up): its `FAIL` line."""
    return " [build failed]" in output or " [setup failed]" in output


def feed_after(job: dict[str, Any]) -> Result | None:
    """The packages that failed to build, as errors of the run, and those go answered from its cache
    as passing, whose cached failures are now passes (None: nothing to record)."""
    root = str(job["root"])
    cwd = str((job.get("payload") or {}).get("cwd") or root)
    output, started, code = str(job.get("output", "")), float(job["started"]), int(job["exit"])
    result = build_failures(root, cwd, output, started, code)
    passed = (
        cached_passes(root, cwd, output)
        if runs_every_test([str(w) for w in job.get("args") or []])
        else []
    )
    if not passed:
        return result
    if result is None:
        result = Result(NAME, started, code)
    for test in passed:
        result.tests[test] = {"o": "passed", "d": 0.0}
    result.args = sorted(
        {*result.args, *(test.partition("::")[0] for test in passed)}
    )  # these packages only
    return result


# Flags of `go test` that never narrow which tests run: a cached `ok` under them was a run of every
# test.
WHOLE_RUN_FLAGS = frozenset(
    {"-v", "-race", "-cover", "-count", "-timeout", "-p", "-vet", "-mod", "-tags"}
)
WHOLE_RUN_WITH_VALUE = frozenset({"-count", "-timeout", "-p", "-vet", "-mod", "-tags"})


def runs_every_test(args: list[str]) -> bool:
    """Whether `go test ARGS` (`args` from `test` on) runs every test of the packages it names:
    package patterns and flags that narrow nothing (`-run`, `-skip`, `-short`, `-failfast`...
    narrow, so a cached `ok` under them says nothing of the other tests)."""
    words = args[1:] if args[:1] == ["test"] else args
    value_next = False
    for word in words:
        if value_next:
            value_next = False
            continue
        if not word.startswith("-"):
            continue  # a package pattern
        name = word.lstrip("-").partition("=")[0]
        if "-" + name not in WHOLE_RUN_FLAGS:
            return False
        value_next = "=" not in word and "-" + name in WHOLE_RUN_WITH_VALUE
    return True


def cached_passes(root: str, cwd: str, output: str) -> list[str]:
    """The cached failing tests of the packages go answered `ok (cached)`: go ran none of their
    binaries because their inputs are those of a run where every test passed, so each of these tests
    passes again."""
    paths = cached_ok(output)
    if not paths:
        return []
    from sidekit_hooks.status import cache

    module = cwd
    while not os.path.isfile(os.path.join(module, "go.mod")) and os.path.dirname(module) != module:
        module = os.path.dirname(module)
    if not os.path.isfile(os.path.join(module, "go.mod")):
        module = root
    base = os.path.relpath(module, root).replace(os.sep, "/")
    if base.startswith(".."):
        return []
    locate = package_locator(module)
    folders = set()
    for path in paths:
        folder = locate(path)
        folders.add(folder if base == "." else (base if folder == "." else f"{base}/{folder}"))
    tests = cache.read(cache.table_path(root)).data.get("tests") or {}
    return sorted(
        test
        for test, entry in tests.items()
        if isinstance(entry, dict)
        and entry.get("o") in ("failed", "error")
        and test.partition("::")[0] in folders
    )
