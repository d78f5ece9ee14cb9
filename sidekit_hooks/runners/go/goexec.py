"""One package's test binary, compacted: what runners/go/goexec.sh hands over (go runs that sh
wrapper).

`goexec.py --captured FILE STATUS VERBOSE STARTED [UNFILTERED]`: the binary ran in the sh wrapper
with `-test.v=test2json` (the framing `go test -json` reads), its output is in FILE (a spool under
`.sidekit/go/`, after goexec.sh's header line). `goexec.py BINARY ARGS...` (the wrapper found no
usable project folder): the binary runs here. Either way its tests go into the shared cache. When
what the binary would have printed is short (<= SHORT bytes, for the whole run) it is printed as it
was; otherwise two lines: what happened and where the raw output is, then the compact answer. The
exit status is the binary's own (a signal is re-raised), so go's verdict and exit code are
unchanged. Anything unexpected here: the output is printed as it was. `goexec.py --write-run FOLDER
RUN`: the run's one cache writer (spool.spool), detached. goexec.sh starts these through
goexec_start.py, which imports this module (not compiled at each start).
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from sidekit_hooks.runners import Result

SHORT = 2048  # bytes printed as they are (answer.SHORT, without importing it on the short path)
GO_LINES = 110  # bytes go prints after a failing package's output
# Runs whose output is the point, and runs go already converts to JSON (-json, GOFLAGS=-json): as
# they are.
PASS_THROUGH = ("-test.list", "-test.fuzz", "-test.bench", "-test.v=test2json")
FILTERS = ("-test.run", "-test.skip", "-test.failfast")  # a run with one of these leaves tests out


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: goexec BINARY [ARGS...]", file=sys.stderr)
        return 2
    if argv[0] == "--captured":  # from goexec.sh: the binary ran there, its output is in a file
        return captured(argv[1], int(argv[2]), argv[3] == "1", float(argv[4]), argv[5:6] == ["1"])
    if argv[0] == "--write-run":  # from goexec.sh: the run's one cache writer, detached
        from sidekit_hooks.runners import spool

        spool.write_run(argv[1], argv[2], "go")
        return 0
    binary, args = argv[0], argv[1:]
    if os.environ.get("SIDEKIT_RAW", "") not in ("", "0") or any(
        a.startswith(PASS_THROUGH) for a in args
    ):
        os.execv(binary, [binary, *args])
    from sidekit_hooks.runners import spool

    verbose = any(a in ("-test.v", "-test.v=true") for a in args)
    run_args = (
        [a for a in args if not a.startswith("-test.v")]
        + ["-test.v=test2json"]
        + _test_log(binary, args)
    )
    started = time.time()
    data, code = spool.run_binary([binary, *run_args])
    unfiltered = not any(a.startswith(FILTERS) and a != "-test.failfast=false" for a in args)
    return finish(data.decode("utf-8", "surrogateescape"), verbose, started, code, unfiltered)


def captured(
    path: str, status: int, verbose: bool, started: float, unfiltered: bool = False
) -> int:
    """The output goexec.sh kept in `path` (taken away here), with the binary's status as goexec.sh
    judged it: its exit code (130 is exit 130), or minus the signal that ended it. `unfiltered`: no
    FILTERS among the binary's arguments (goexec.sh's word; without it, none of the package's cached
    tests is taken as gone)."""
    from sidekit_hooks.core import safepath

    try:
        data = safepath.read_bytes(path, 1 << 30).partition(b"\n")[
            2
        ]  # without goexec.sh's spool header
    except (
        OSError
    ):  # gone (a sweep, a hand): the binary's status still stands, with what is left to say
        data = b""
    try:
        os.unlink(path)
    except OSError:  # what was read is said all the same
        pass
    code = status if -65 < status else 1  # a signal number out of range is not one: a plain failure
    return finish(
        data.decode("utf-8", "surrogateescape"), verbose, _born(started), code, unfiltered
    )


def _born(fallback: float) -> float:
    """When this process started (the sh wrapper, same pid, just before the binary): sh's clock says
    whole seconds only."""
    try:
        with open("/proc/self/stat", "rb") as handle:  # bytes: no codec to import
            ticks = int(handle.read().rpartition(b")")[2].split()[19])
        with open("/proc/uptime", "rb") as handle:
            uptime = float(handle.read().split()[0])
        return time.time() - max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return fallback


def finish(text: str, verbose: bool, started: float, code: int, unfiltered: bool = False) -> int:
    """Print what the binary's output becomes (printed back byte for byte), end as the binary
    did."""
    root = ""
    later = None
    try:
        root, out, later = render(text, verbose, started, code, unfiltered)
    # never less than the run said: its own words, without test2json's marks
    except Exception:  # noqa: BLE001
        out = _fallback(text, verbose)
    from sidekit_hooks.runners import spool

    if later is None:
        return spool.relay(out, code)
    work = later
    return spool.relay(out, code, lambda: spool.detach(root, "go", work))


def render(
    text: str, verbose: bool, started: float, code: int, unfiltered: bool = False
) -> tuple[str, str, Callable[[], None] | None]:
    """(project root, what to print, work left for after it). What to print: the output as it was
    when the run's output stays short (the cache write left to the run's writer, see spool.spool),
    else the compact answer, read from the run itself (its failures marked new against the cache,
    no generation: as cargo's answer); the cache is merged and written, and the raw output kept, by
    a detached child once the answer is out (spool.detach)."""
    from sidekit_hooks.runners import spool
    from sidekit_hooks.runners.go import adapter as go
    from sidekit_hooks.status import cache

    here = os.getcwd()
    root = cache.workspace_root(here)
    if root == here:  # no project marker above: the module's folder, not the package's
        root = _module_root(here) or here
    pkgdir = os.path.relpath(here, root).replace(os.sep, "/")
    if pkgdir.startswith(".."):
        pkgdir = here
    events = go.parse_framed(text, pkgdir)
    plain = _plain(text, verbose, events)
    size = len(plain.encode("utf-8", "replace"))
    if size + spool.printed_before(root, "go", size) <= SHORT:
        spool.spool(
            root, "go", [root, pkgdir, repr(started), str(code), str(int(unfiltered))], text
        )
        return root, plain, None
    from sidekit_hooks.runners import compact, store

    result = _result(text, events, root, pkgdir, started, code, unfiltered)
    raw = store.raw_path(root, "go", pkgdir)

    def later() -> None:
        store.save(root, result, compact=True)
        store.write_raw(raw, text.replace("\x16", ""))

    try:
        summary, table = store.run_view(root, result)
        shown = as_seen(raw)
        # room for go's own lines after ours (`FAIL\t<import path>\t0.01s`, `FAIL`), so the whole
        # stays <= 800 B
        exit_code = (
            1 if code else 0
        )  # go's own, for any failing binary (a panic or a timeout exits 2)
        if spool.answers_before(
            root, "go"
        ):  # several red packages: one answer, then a line for each other
            return (
                root,
                compact.later_package(
                    "go test", pkgdir, plain, shown, exit_code, summary, table, result
                ),
                later,
            )
        budget = compact.head_budget("go test", plain, shown, exit_code) - len(pkgdir) - GO_LINES
        found = compact.run_answer(summary, table, result, budget, {"package": pkgdir})
        found["exit"] = exit_code
        return root, compact.compacted("go test", plain, shown, exit_code, found), later
    # no answer: the run's own words, and the run still goes into the cache
    except Exception:  # noqa: BLE001
        return root, _fallback(text, verbose), later


def _result(
    text: str,
    events: list[dict[str, object]],
    root: str,
    pkgdir: str,
    started: float,
    code: int,
    unfiltered: bool,
) -> Result:
    """One binary's records. The package is `covered` (its cached tests this run lacks are gone)
    when the binary ran unfiltered and ended on its own: its last line testing's own PASS or FAIL,
    exit 0 or 1 (a panic or a timeout exits 2 before the tests after it ran)."""
    from sidekit_hooks.runners.go import adapter as go

    events = [*events, {"Action": "fail" if code else "pass", "Package": pkgdir}]
    last = next((ln for ln in reversed(text.splitlines()) if ln.strip()), "")
    whole = unfiltered and code in (0, 1) and last in ("\x16PASS", "\x16FAIL")
    result = go.from_events(events, root, started, code, lambda name: name, whole)
    result.last_words = last.strip()
    result.args = [pkgdir]  # this binary's package: never a whole run of the project (record.merge)
    return result


def save_spooled(fields: list[str], text: str) -> None:
    """The run's writer (spool.spool): one binary's output into the cache."""
    from sidekit_hooks.runners import store
    from sidekit_hooks.runners.go import adapter as go

    root, pkgdir, started, code = fields[0], fields[1], float(fields[2]), int(fields[3])
    unfiltered = fields[4:5] == ["1"]
    store.save(
        root, _result(text, go.parse_framed(text, pkgdir), root, pkgdir, started, code, unfiltered)
    )


def _test_log(binary: str, args: list[str]) -> list[str]:
    """`-test.testlogfile` where go reads it after the run, so a passing package's result is cached
    as without -exec (go passes the flag only when it runs the binary itself; its cache key names
    -exec)."""
    folder = os.path.dirname(binary)
    if (
        any(a.startswith("-test.testlogfile") for a in args)
        or not os.path.basename(folder)[1:].isdigit()
    ):
        return []
    return ["-test.testlogfile=" + os.path.join(folder, "testlog.txt")]


def as_seen(path: str) -> str:
    """`path` relative to go's own folder (where the agent ran the command), when that is
    shorter."""
    try:
        base = os.readlink(f"/proc/{os.getppid()}/cwd")
    except OSError:
        return path
    shown = os.path.relpath(path, base)
    return shown if len(shown) < len(path) and not shown.startswith("../..") else path


def _module_root(folder: str) -> str:
    while True:
        if os.path.isfile(os.path.join(folder, "go.mod")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return ""
        folder = parent


def _plain(text: str, verbose: bool, events: list[dict[str, object]] | None = None) -> str:
    """What the binary prints without `-test.v=test2json`: with -v, its verbose text; without, each
    failing top-level test's report when it ends (`--- FAIL` headers, nested and indented, with the
    tests' logs), and what tests print themselves where they print it."""
    if verbose or events is None:
        return "".join(
            line
            for line in text.replace("\x16", "").splitlines(keepends=True)
            if line.rstrip() != "=== NAME"
        )  # test2json's own marker for "no test"
    failed = {
        str(e["Test"]): float(str(e.get("Elapsed") or 0))
        for e in events
        if e.get("Action") == "fail" and e.get("Test")
    }
    logs: dict[str, list[str]] = {}
    out: list[str] = []
    logging: dict[str, bool] = {}
    for event in events:
        action, test = event.get("Action"), str(event.get("Test") or "")
        if action == "fail" and test and "/" not in test:
            out += _report(test, 0, failed, logs)
        if action != "output":
            continue
        line = str(event.get("Output", ""))
        if line.startswith(
            ("=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- FAIL", "--- SKIP")
        ):
            continue
        is_log = _is_log(line) or (logging.get(test, False) and line.startswith("        "))
        if test and is_log:
            logs.setdefault(test, []).append(line)
        else:
            out.append(line)
        logging[test] = is_log
    return "".join(out)


def _is_log(line: str) -> bool:
    """A t.Log/t.Error line as -v prints it: `    name_test.go:12: ` (what `^    [\\w.-]+\\.go:\\d+: ` matches)."""
    if not line.startswith("    ") or line[4:5].isspace():
        return False
    name, sep, rest = line[4:].partition(".go:")
    number, colon, _ = rest.partition(": ")
    return bool(
        sep
        and colon
        and name
        and number.isdigit()
        and all(c.isalnum() or c in "_.-" for c in name)
        and number.isascii()
    )


def _fallback(text: str, verbose: bool) -> str:
    try:
        from sidekit_hooks.runners.go import adapter as go

        return _plain(text, verbose, go.parse_framed(text, "."))
    except Exception:  # noqa: BLE001
        return text.replace("\x16", "")


def _report(
    test: str, depth: int, failed: dict[str, float], logs: dict[str, list[str]]
) -> list[str]:
    from sidekit_hooks.runners.go.adapter import parent_of

    lines = ["    " * depth + f"--- FAIL: {test} ({failed[test]:.2f}s)\n"]
    lines += ["    " * (depth + 1) + line[4:] for line in logs.get(test, [])]
    for child in failed:
        if child.startswith(test + "/") and parent_of(child, failed) == test:
            lines += _report(child, depth + 1, failed, logs)
    return lines


def run(argv: list[str]) -> None:
    """`main`, then the process ends at once: all said and written, no interpreter teardown (go
    waits for this process)."""
    status = main(argv)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if (
    __name__ == "__main__"
):  # run as a file (goexec.sh runs goexec_start.py): find our package by path
    sys.path.insert(
        0,
        os.path.dirname(
            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        ),
    )
    run(sys.argv[1:])
