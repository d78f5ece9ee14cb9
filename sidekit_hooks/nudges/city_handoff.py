"""A Gas City state file too big for a hook's deadline, drained by a detached worker.

A hook parses and rewrites at most `city.HOOK_STATE` bytes of `state.json` (about 50 ms). When the
file is bigger, the hook starts this worker (`python -P -S -m sidekit_hooks.nudges.city_handoff CITY
QUEUE_ROOT SESSION PROJECT`) and goes on without the city's items this turn. The worker, with the
time a hook does not have, claims this session's due items (Gas City's semantics, the whole file
read, up to `city.MAX_STATE`), and moves them into the session's own file queue (Gas Town's format,
which the next hook drains in one folder listing) with their ack in the city under the same hold of
the lock (`city.hand_over`). An item it could not move stays in flight until its lease ends. Nothing
is lost or doubled; at most one worker runs per project (a lock).
Standard library only.
"""

from __future__ import annotations

import os
import sys
import time

from sidekit_hooks.core import background, hooklog, workspace
from sidekit_hooks.nudges import city, queue

LOCK_FILE = "city-handoff.lock"  # under the project's .sidekit/
CLAIM_WAIT = 10.0  # seconds the worker waits for the city's lock


def start(city_root: str, queue_root: str, session: str, project: str) -> None:
    """Start the worker, detached (the hook never waits for it); raises OSError when it cannot
    start."""
    background.spawn_module(
        "sidekit_hooks.nudges.city_handoff", [city_root, queue_root, session, project]
    )


def hand_off(city_root: str, queue_root: str, session: str) -> int:
    """Move this session's due city items into its file queue (as many as it has room for: its cap
    must never drop one of them); how many moved. The ack and the writes are one step under the
    city's lock (`city.hand_over`): a lock lost after the claim leaves them in flight, written
    nowhere, until their lease ends; never in both places."""
    room = queue.MAX_DEPTH - len(queue.pending_names(queue.session_folder(queue_root, session)))
    if room <= 0:
        return 0  # the file queue is full: the city keeps them until the next turn's worker
    claims = city.claim(
        city_root,
        time.monotonic() + CLAIM_WAIT,
        limit=room,
        staged_in=queue.session_folder(queue_root, session),
    )
    if not claims:
        return 0
    moved = city.hand_over(
        claims, queue_root, session, time.monotonic() + CLAIM_WAIT, claimed=False
    )
    return len(moved)


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        return 2
    city_root, queue_root, session, project = argv
    lock = os.path.join(workspace.state_dir(project), LOCK_FILE)
    try:
        if not background.take_lock(lock):
            return 0  # one is at it already
    except OSError as exc:
        hooklog.error(project, "background", "city-handoff", exc)
        return 0
    try:
        hand_off(city_root, queue_root, session)
    except Exception as exc:  # noqa: BLE001 - a detached worker logs and ends; nobody waits for it
        hooklog.error(project, "background", "city-handoff", exc)
    finally:
        background.release_lock(lock)
    return 0


if __name__ == "__main__":
    background.wall_clock_cap()
    sys.exit(main(sys.argv[1:]))
