"""A Gas City item leaves the city before it is printed (nudges/city.py `hand_over`): no lock lost
after the print, and no process killed at any step, says it twice or loses it.

The hooks here are the real UserPromptSubmit hook with one step made to fail: a wrapper patches
one function, then runs `hook.main`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sidekit_hooks.core import hook_table
from sidekit_hooks.nudges import city, city_handoff, queue, session_queue
from testing.city import city_env, gc_item, make_city, read_state
from testing.hooks import REPO, context_of, payload

SESSION = "sess-1"

# The hook as hooks/user_prompt_submit.py runs it, after `PATCH` (code that sees `hook`, `city`,
# `root`: the city) changed one step.
WRAPPER = """
import fcntl, os, sys
sys.path.insert(0, sys.argv[1])
from sidekit_hooks.pipeline import hook
from sidekit_hooks.nudges import city
root = sys.argv[2]
exec(sys.argv[3])
sys.exit(hook.main("UserPromptSubmit"))
"""

# After the print, someone else holds the city's lock (a loaded machine: the ack's wait runs out).
LOCK_AFTER_PRINT = """
city.SETTLE_WAIT = 0.05  # the ack's wait, where the ack waits after the print
printed = hook._emit
def emit(output):
    printed(output)
    held = os.open(city.lock_path(root), os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)  # another open file: the ack's own flock cannot have it
hook._emit = emit
"""

KILLED_BEFORE_PRINT = "hook._emit = lambda output: os._exit(9)"

# Once the city's items are claimed, someone else holds its lock for 1.5 s: past the hook's deadline.
LOCK_PAST_THE_DEADLINE = """
import threading
claimed = city.claim
def claim(*args, **kwargs):
    taken = claimed(*args, **kwargs)
    if taken:
        held = os.open(city.lock_path(root), os.O_RDWR)
        fcntl.flock(held, fcntl.LOCK_EX)
        threading.Timer(1.5, os.close, [held]).start()
    return taken
city.claim = claim
"""

# Once the city's items are claimed, someone else holds its lock: the hand-over cannot have it.
LOCK_AFTER_CLAIM = """
claimed = city.claim
def claim(*args, **kwargs):
    taken = claimed(*args, **kwargs)
    if taken:
        held = os.open(city.lock_path(root), os.O_RDWR)
        fcntl.flock(held, fcntl.LOCK_EX)
    return taken
city.claim = claim
"""

# The hand-over's state write is the second write of the call (the claim's is the first).
KILLED_BEFORE_THE_STATE_IS_REPLACED = """
written = city._write
calls = []
def write(path, state):
    calls.append(path)
    if len(calls) == 2:
        os._exit(9)
    written(path, state)
city._write = write
"""

KILLED_AFTER_THE_STATE_IS_REPLACED = "city._promote = lambda staged, claimed: os._exit(9)"

# The hook's deadline fires right after the hand-over replaced the state file, before it could say so.
DEADLINE_AFTER_THE_STATE_IS_REPLACED = """
written = city._write
calls = []
def write(path, state):
    calls.append(path)
    written(path, state)
    if len(calls) == 2:
        raise hook.DeadlineExceeded()
city._write = write
"""


def env_of(clean_env: dict[str, str], project: Path, root: Path) -> dict[str, str]:
    return city_env(clean_env, project, root, root / "home", "gc-sess-1")


def run_hook(env: dict[str, str], project: Path, root: Path, patch: str = "") -> tuple[int, str]:
    """(exit code, what the model reads) of one UserPromptSubmit hook with `patch` applied."""
    body = json.dumps(payload("UserPromptSubmit", project, prompt="go"))
    done = subprocess.run(
        [sys.executable, "-S", "-c", WRAPPER, str(REPO), str(root), patch],
        input=body,
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    return done.returncode, context_of(done.stdout)


def folder_of(project: Path) -> Path:
    return project / ".runtime" / "nudge_queue" / SESSION


def files_in(project: Path) -> list[str]:
    """The session's queue folder, each name by its kind: queued, claimed or staged."""
    folder = folder_of(project)
    names = sorted(os.listdir(folder)) if folder.is_dir() else []
    return [
        "claimed" if ".claimed." in n else "staged" if n.endswith(city.STAGED) else "queued"
        for n in names
    ]


def after_the_lease(root: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What a drain of the same agent claims once every lease taken now has run out."""
    for name in ("GC_CITY", "GC_AGENT", "GC_SESSION_ID"):
        monkeypatch.setenv(name, env[name])
    later = datetime.now(UTC) + timedelta(seconds=city.CLAIM_TTL + 1)
    taken = city.claim(str(root), time.monotonic() + 5, at=later)
    return [held.nudge.message for held in taken]


def test_an_ack_that_cannot_have_the_lock_after_the_print_never_says_it_again(
    tmp_path: Path, project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "check the build", source="d")]})
    env = env_of(clean_env, project, root)
    assert run_hook(env, project, root, LOCK_AFTER_PRINT) == (0, "[from d] check the build")
    assert after_the_lease(root, env, monkeypatch) == []  # never said a second time
    assert read_state(root) == {}  # acked before the print: nothing was left in flight
    assert run_hook(env, project, root) == (0, "")
    assert files_in(project) == []


def test_a_hand_over_without_the_lock_prints_only_what_needs_none(
    tmp_path: Path, project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "check the build", source="d")]})
    env = env_of(clean_env, project, root)
    file_queue = str(project / ".runtime" / "nudge_queue")
    queue.enqueue(file_queue, SESSION, queue.Nudge("from the file queue", sender="mayor"))
    code, text = run_hook(env, project, root, LOCK_AFTER_CLAIM)
    # its ack would have needed the lock after the print: counted in the tail, not said
    assert (code, text) == (0, "[from mayor] from the file queue\n(+1 more queued)")
    assert [i["id"] for i in read_state(root)["in_flight"]] == ["n-1"]
    assert files_in(project) == []
    assert after_the_lease(root, env, monkeypatch) == ["check the build"]  # said once, later


def test_the_hand_over_waits_for_a_busy_lock_past_the_hooks_deadline(
    tmp_path: Path, project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "check the build", source="d")]})
    env = dict(env_of(clean_env, project, root), **{hook_table.DEADLINE_ENV: "0"})  # its own 0.8 s
    began = time.monotonic()
    assert run_hook(env, project, root, LOCK_PAST_THE_DEADLINE) == (0, "[from d] check the build")
    assert 1.5 < time.monotonic() - began < 1.5 + session_queue.HAND_OVER_WAIT
    assert read_state(root) == {}
    assert after_the_lease(root, env, monkeypatch) == []
    assert files_in(project) == []


def test_a_hook_killed_before_the_print_loses_nothing(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "check the build", source="d")]})
    env = env_of(clean_env, project, root)
    assert run_hook(env, project, root, KILLED_BEFORE_PRINT) == (9, "")
    assert read_state(root) == {}
    assert files_in(project) == ["claimed"]  # the item's one copy, held by the killed hook
    assert run_hook(env, project, root) == (0, "")  # a fresh claim is not taken from its holder
    (claimed,) = folder_of(project).iterdir()
    stale = time.time() - queue.STALE_CLAIM - 1
    os.utime(claimed, (stale, stale))  # as Gas Town's sweep finds an abandoned claim
    assert run_hook(env, project, root) == (0, "[from d] check the build")
    assert run_hook(env, project, root) == (0, "")
    assert files_in(project) == []


def test_a_hand_over_killed_before_the_state_is_replaced_leaves_the_item_in_the_city(
    tmp_path: Path, project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "check the build", source="d")]})
    env = env_of(clean_env, project, root)
    assert run_hook(env, project, root, KILLED_BEFORE_THE_STATE_IS_REPLACED) == (9, "")
    assert [i["id"] for i in read_state(root)["in_flight"]] == ["n-1"]
    assert files_in(project) == ["staged"]
    assert run_hook(env, project, root) == (0, "")  # still leased: the staged copy goes
    assert files_in(project) == []
    assert after_the_lease(root, env, monkeypatch) == ["check the build"]  # once, from the city


def test_a_hand_over_killed_after_the_state_is_replaced_delivers_the_staged_copy(
    tmp_path: Path, project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "check the build", source="d")]})
    env = env_of(clean_env, project, root)
    assert run_hook(env, project, root, KILLED_AFTER_THE_STATE_IS_REPLACED) == (9, "")
    assert read_state(root) == {}
    assert files_in(project) == ["staged"]  # the only copy: it left the city
    # queued by the next call's claim of the city, and delivered by its drain
    assert run_hook(env, project, root) == (0, "[from d] check the build")
    assert run_hook(env, project, root) == (0, "")
    assert after_the_lease(root, env, monkeypatch) == []
    assert files_in(project) == []


def test_a_deadline_right_after_the_state_is_replaced_still_delivers_once(
    tmp_path: Path, project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "check the build", source="d")]})
    env = env_of(clean_env, project, root)
    run = run_hook(env, project, root, DEADLINE_AFTER_THE_STATE_IS_REPLACED)
    assert run == (0, "[from d] check the build")  # the deadline's fail-open prints what it holds
    assert read_state(root) == {}
    assert files_in(project) == []
    assert run_hook(env, project, root) == (0, "")
    assert after_the_lease(root, env, monkeypatch) == []


def test_the_hand_off_worker_never_leaves_an_item_in_both_queues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str]
) -> None:
    import fcntl

    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "one"), gc_item("n-2", "two")]})
    monkeypatch.setenv("GC_AGENT", "mayor")
    monkeypatch.setenv("GC_SESSION_ID", "gc-sess-1")
    monkeypatch.setattr(city_handoff, "CLAIM_WAIT", 0.1)
    claimed = city.claim
    holders: list[int] = []

    def claim_then_lose_the_lock(*args: object, **kwargs: object) -> list[city.CityClaim]:
        taken = claimed(*args, **kwargs)  # type: ignore[arg-type]
        holders.append(os.open(city.lock_path(str(root)), os.O_RDWR))
        fcntl.flock(holders[-1], fcntl.LOCK_EX)
        return taken

    monkeypatch.setattr(city, "claim", claim_then_lose_the_lock)
    file_queue = str(tmp_path / "p" / ".runtime" / "nudge_queue")
    try:
        with pytest.raises(city.CityQueueError):
            city_handoff.hand_off(str(root), file_queue, SESSION)
    finally:
        os.close(holders[0])
    monkeypatch.setattr(city, "claim", claimed)
    in_file_queue = [nudge.message for _, nudge in queue.pending(file_queue, SESSION)]
    later = datetime.now(UTC) + timedelta(seconds=city.CLAIM_TTL + 1)
    from_city = city.claim(str(root), time.monotonic() + 5, at=later)
    assert sorted(in_file_queue + [held.nudge.message for held in from_city]) == ["one", "two"]
