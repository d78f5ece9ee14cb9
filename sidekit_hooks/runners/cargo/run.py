"""The writer of one compacted `cargo test` run: once cargo has ended, the whole run into the cache.

cargo_tee.sh leaves each unit of the run (a test binary, a doc-test run) in `.sidekit/cargo/` as
RUN.N.head (cargo's `Running` line), RUN.N.out (its output) and RUN.N.meta (kind, exit status,
source), RUN being `run-<cargo pid>-<start>`, and RUN.argv (cargo's command line, to tell a filtered
run). The run's first speaker starts this writer detached (`python -I -S FILE .sidekit/cargo/RUN`);
it waits for that cargo process to end, parses the units as cargo's own output once
(runners/cargo.parse), merges the result into the cache and removes the run's files. Off the run's
path: nothing here is waited for.
"""

from __future__ import annotations

import os
import sys
import time

WAIT = 3600.0  # seconds to wait for cargo to end before writing what there is
POLL = 0.1
STALE = 86_400.0  # run files older than this (their writer died) are removed


# Seconds the answer's placing step may take in all (its scan stops at exercised.MAX_SECONDS; this
# is the backstop for anything else), and what the writer may take once cargo has ended.
PLACE_SECONDS = 10
WRITE_SECONDS = 300


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--place":
        _end_after(PLACE_SECONDS)  # the agent's `cargo test` waits for this step
        place(os.path.abspath(argv[1]))
        return 0
    if len(argv) != 1:
        print("usage: cargo_run [--place] .sidekit/cargo/RUN", file=sys.stderr)
        return 2
    from sidekit_hooks.runners import spool

    run = os.path.abspath(argv[0])
    key = os.path.basename(run).removeprefix("run-")  # cargo's pid and start time, as spool.run_key
    deadline = time.time() + WAIT
    while time.time() < deadline and spool.run_alive(key):
        time.sleep(POLL)
    _end_after(WRITE_SECONDS)
    write(run)
    spool.report_cpu("cargo")
    return 0


def write(run: str) -> None:
    """The run (`<root>/.sidekit/cargo/run-…`, its files' prefix) into the cache of `<root>`."""
    from sidekit_hooks.runners import store
    from sidekit_hooks.runners.cargo import adapter as cargo

    state = os.path.dirname(run)
    root = os.path.dirname(os.path.dirname(state))
    text, code, started = units(run)
    if started:
        result = cargo.parse(text, root, started, code, "")
        result.args = cargo.filter_words(cargo_args(run))
        store.save(root, result, compact=os.path.exists(run + ".compact"))
    prefix = os.path.basename(run) + "."
    for name in os.listdir(state):
        if name.startswith(prefix):
            try:
                os.unlink(os.path.join(state, name))
            except OSError:
                pass
    forget_old(state)


def _end_after(seconds: int) -> None:
    """SIGALRM's default action after `seconds`: this process ends, whatever it is doing; and
    SIGTERM's default action, whatever the shell that started it ignored."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(seconds)


def place(run: str) -> None:
    """RUN.placed: for cargo_answer.awk, each failure of the run so far that panicked in test code
    and is placed at the crate function the failing tests share (runners/cargo/exercised.py), as
    `test id<TAB>path:line` lines; written whole (an empty file: nothing moved)."""
    from sidekit_hooks.core import workspace
    from sidekit_hooks.runners.cargo import adapter as cargo

    state = os.path.dirname(run)
    root = os.path.dirname(os.path.dirname(state))
    text, code, started = units(run)
    result = cargo.parse(text, root, started, code, "")
    rows = [
        f"{test}\t{entry['f']['at']}\n"
        for test, entry in sorted(result.tests.items())
        if entry.get("o") == "failed"
        and entry["f"].get("checks")
        and "\t" not in test + entry["f"]["at"]
        and "\n" not in test + entry["f"]["at"]
    ]
    workspace.atomic_write(run + ".placed", "".join(rows))


def cargo_args(run: str) -> list[str]:
    """The words after `test` of the run's cargo command line, as cargo_tee.sh kept it (RUN.argv,
    /proc's NUL-separated cmdline); [] when it was not kept or is not a `cargo test`."""
    from sidekit_hooks.core import (
        safepath,
    )  # run as a file: the package is on the path once main() runs

    try:
        argv = safepath.read_bytes(run + ".argv", 65536).decode("utf-8", "replace").split("\0")
    except OSError:
        return []
    from sidekit_hooks.runners.cargo import adapter as cargo

    return cargo.cargo_test_args(argv[:-1] if argv and argv[-1] == "" else argv) or []


def units(run: str) -> tuple[str, int, float]:
    """(the run's output as cargo would have printed it, cargo's exit code, when its first unit
    ended)."""
    prefix = os.path.basename(run) + "."
    numbers = sorted(
        int(digits)
        for name in os.listdir(os.path.dirname(run))
        if name.startswith(prefix)
        and name.endswith(".meta")
        and (digits := name[len(prefix) : -5]).isdigit()
    )
    from sidekit_hooks.core import safepath

    parts: list[str] = []
    code, started = 0, 0.0
    for number in numbers:
        base = f"{run}.{number}"
        try:
            fields = (
                safepath.read_bytes(base + ".meta", 65536)
                .decode("utf-8", "replace")
                .rstrip("\n")
                .split("\t")
            )
            for suffix in (".head", ".out"):
                parts.append(
                    safepath.read_tail(base + suffix, safepath.MAX_OUTPUT).decode(
                        "utf-8", "replace"
                    )
                )
            started = started or os.path.getmtime(base + ".head")
        except OSError:
            continue
        if fields[1:2] != ["0"]:
            code = 101  # cargo's own code for a failed test target
            parts.append(_caused_by(fields))
    return "".join(parts), code, started


def _caused_by(fields: list[str]) -> str:
    """What cargo says (on its own stderr, which the unit's files lack) of a unit that ended red:
    how it ended, a signal's name in it, so that a crash is told by its own signal."""
    import signal

    status = fields[1] if len(fields) > 1 and fields[1].isdigit() else "1"
    how = f"exit status: {status}"
    if 128 < int(status) < 160:
        number = int(status) - 128
        try:
            how = f"signal: {number}, {signal.Signals(number).name}"
        except ValueError:
            how = f"signal: {number}"
    source = fields[2] if len(fields) > 2 else "test"
    return f"error: test failed\n\nCaused by:\n  process didn't exit successfully: `{source}` ({how})\n"


def forget_old(state: str) -> None:
    """Run files whose writer never came (older than a day), and raw outputs past the newest
    kept."""
    from sidekit_hooks.runners.store import KEEP_RAW

    cutoff = time.time() - STALE
    raws = []
    for entry in os.scandir(state):
        try:
            if entry.name.startswith("run-"):
                if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                    os.unlink(entry.path)
            elif entry.name.startswith("raw-") and entry.name.endswith(".txt"):
                raws.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
        except OSError:
            continue
    for _, path in sorted(raws)[:-KEEP_RAW]:
        try:
            os.unlink(path)
        except OSError:
            pass


if (
    __name__ == "__main__"
):  # run as a file (`python -I -S .../runners/cargo/run.py`): find our package by path
    sys.path.insert(
        0,
        os.path.dirname(
            os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        ),
    )
    sys.exit(main(sys.argv[1:]))
