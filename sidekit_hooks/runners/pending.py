"""Cache writers still at work after a compacted run has ended.

A runner whose adapter declares `PENDING` leaves files under `.sidekit/<runner>/` until its writer
is done: a compacted `cargo test` is written into the cache by one detached writer once cargo has
ended (cargo/run.py), and so are the short green binaries of a compacted `go test` (spool.spool).
Between the end of the run and the end of its writer, the cache still holds the run before: an
answer read from it then could be greener than the run the agent has just seen. So the answers that
read the cache (`status`, `failures`) wait for such writers, briefly: a run still going is not
waited for (its result is not due yet), and the files of a writer that died are not waited for once
they are FRESH seconds old.
"""

from __future__ import annotations

import os
import time

WAIT = 5.0  # seconds an answer waits at most for the writers of runs that have ended
# a run's newest file older than this, its process gone: its writer died, nothing to wait for
FRESH = 30.0
POLL = 0.05


def folders() -> list[tuple[str, tuple[str, ...], str | None]]:
    """(runner, the name prefixes of the files its pending run leaves under .sidekit/<runner>/, the
    prefix of its writer's claim or None: every such file claims) for each adapter that declares
    them."""
    from sidekit_hooks import runners

    return [
        (adapter.NAME, tuple(adapter.PENDING), getattr(adapter, "PENDING_CLAIM", None))
        for adapter in runners.adapters()
        if getattr(adapter, "PENDING", None)
    ]


def wait(root: str, timeout: float = WAIT) -> bool:
    """Wait (at most `timeout` seconds) until no writer of an ended run is at work; False if one
    still is."""
    deadline = time.monotonic() + timeout
    while pending_runs(root):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True


def pending_runs(root: str) -> list[str]:
    """The runs (`<pid>-<start>`) that have ended and whose writer has not finished."""
    from sidekit_hooks.runners import spool

    now = time.time()
    found: list[str] = []
    for runner, prefixes, claim in folders():
        newest, claimed = _runs(os.path.join(root, ".sidekit", runner), prefixes, claim)
        found += [
            key
            for key, changed in newest.items()
            if key in claimed and now - changed < FRESH and not spool.run_alive(key)
        ]
    return found


def _runs(
    folder: str, prefixes: tuple[str, ...], claim: str | None
) -> tuple[dict[str, float], set[str]]:
    """Each run's newest file time in `folder`, and the runs a writer has claimed (all, without
    `claim`)."""
    newest: dict[str, float] = {}
    claimed: set[str] = set()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return newest, claimed
    for entry in entries:
        key = _run_of(entry.name, prefixes)
        if not key:
            continue
        if claim is None or entry.name.startswith(claim):
            claimed.add(key)
        try:
            newest[key] = max(newest.get(key, 0.0), entry.stat(follow_symlinks=False).st_mtime)
        except OSError:
            continue
    return newest, claimed


def _run_of(name: str, prefixes: tuple[str, ...]) -> str:
    """`<pid>-<start>` from `run-<pid>-<start>.N.out`, `spool-<pid>-<start>-<n>`,
    `writer-<pid>-<start>`."""
    for prefix in prefixes:
        if name.startswith(prefix):
            pid, _, rest = name[len(prefix) :].partition("-")
            start = rest.split(".", 1)[0].split("-", 1)[0]
            if pid.isdigit() and start.isdigit():
                return f"{pid}-{start}"
    return ""
