"""Cache writers still at work after a compacted go or cargo run has ended.

A compacted `cargo test` is written into the cache by one detached writer once cargo has ended
(cargo_run.py), and so are the short green binaries of a compacted `go test` (ledger.spool). Between
the end of the run and the end of its writer, the cache still holds the run before: an answer read
from it then could be greener than the run the agent has just seen. So the answers that read the cache
(`status`, `failures`) wait for such writers, briefly: a run still going is not waited for (its result
is not due yet), and the files of a writer that died are not waited for once they are FRESH seconds old.
"""

from __future__ import annotations

import os
import time

WAIT = 5.0  # seconds an answer waits at most for the writers of runs that have ended
FRESH = 30.0  # a run's newest file older than this, its process gone: its writer died, nothing to wait for
POLL = 0.05
# Under .sidekit/: the files a pending run leaves. A go run's spools always have a writer's claim beside
# them once printed (one without was not, a wrapper killed: nothing will write it).
FOLDERS = {"cargo": ("run-",), "go": ("writer-",)}


def wait(root: str, timeout: float = WAIT) -> bool:
    """Wait (at most `timeout` seconds) until no writer of an ended run is at work; False if one still is."""
    deadline = time.monotonic() + timeout
    while pending_runs(root):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True


def pending_runs(root: str) -> list[str]:
    """The runs (`<pid>-<start>` of go or cargo) that have ended and whose writer has not finished."""
    from sidekit_hooks.runners import ledger

    newest: dict[str, float] = {}
    for runner, prefixes in FOLDERS.items():
        folder = os.path.join(root, ".sidekit", runner)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            key = _run_of(entry.name, prefixes)
            if key:
                try:
                    newest[key] = max(newest.get(key, 0.0), entry.stat(follow_symlinks=False).st_mtime)
                except OSError:
                    continue
    now = time.time()
    return [key for key, changed in newest.items() if now - changed < FRESH and not ledger.run_alive(key)]


def _run_of(name: str, prefixes: tuple[str, ...]) -> str:
    """`<pid>-<start>` from `run-<pid>-<start>.N.out`, `spool-<pid>-<start>-<n>`, `writer-<pid>-<start>`."""
    for prefix in prefixes:
        if name.startswith(prefix):
            pid, _, rest = name[len(prefix) :].partition("-")
            start = rest.split(".", 1)[0].split("-", 1)[0]
            if pid.isdigit() and start.isdigit():
                return f"{pid}-{start}"
    return ""
