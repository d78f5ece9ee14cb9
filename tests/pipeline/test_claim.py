"""Exactly one of an event's two handlers (the command hook, the warm server) acts on it."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from sidekit_hooks.pipeline import claim

EVENT = {"session_id": "sess-1", "tool_use_id": "toolu_0001", "cwd": "/p"}


def key(tool_use_id: str = "toolu_0001") -> str:
    return claim.event_key("PostToolUse", {**EVENT, "tool_use_id": tool_use_id})


def dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    return int(done.stdout)


def test_the_key_names_one_occurrence_of_one_event() -> None:
    assert key() == key() and len(key()) == 32
    assert key("toolu_0002") != key()
    assert claim.event_key("PostToolUseFailure", EVENT) != key()
    assert claim.event_key("PostToolUse", {**EVENT, "agent_id": "a1"}) != key()
    prompt = {"session_id": "sess-1", "prompt_id": "p-1"}
    assert claim.event_key("UserPromptSubmit", prompt) != ""
    # events the warm path leaves to the command hook: nothing names one occurrence of them
    assert claim.event_key("Stop", prompt) == ""
    assert claim.event_key("SessionStart", EVENT) == ""
    assert claim.event_key("PostToolUse", {"session_id": "sess-1"}) == ""


def test_the_warm_answer_silences_the_command_hook(tmp_path: Path) -> None:
    assert claim.claim(str(tmp_path), key(), claim.WARM)
    assert not claim.claim(str(tmp_path), key(), claim.COMMAND)
    assert claim.commit(str(tmp_path), key())
    started = time.monotonic()
    assert claim.settle(str(tmp_path), key()) is False
    assert time.monotonic() - started < 0.5  # said already: no waiting


def test_the_command_hook_that_won_silences_the_warm_server(tmp_path: Path) -> None:
    assert claim.claim(str(tmp_path), key(), claim.COMMAND)
    assert not claim.claim(str(tmp_path), key(), claim.WARM)
    # a second command hook of the same event (a retry) does not answer twice
    assert claim.settle(str(tmp_path), key(), seconds=0.05) is False


def test_a_warm_server_that_died_after_claiming_leaves_the_event_to_the_command_hook(
    tmp_path: Path,
) -> None:
    here = Path(claim.folder(str(tmp_path), key()))
    here.mkdir(parents=True)
    (here / claim.TAKEN).write_text(f"{claim.WARM} {dead_pid()}\n")
    started = time.monotonic()
    assert claim.settle(str(tmp_path), key(), seconds=5.0) is True
    assert time.monotonic() - started < 1.0  # not the whole wait: the owner is gone
    assert sorted(p.name for p in here.iterdir()) == [claim.STOLEN]


def test_a_warm_server_too_slow_is_taken_over_and_then_says_nothing(tmp_path: Path) -> None:
    assert claim.claim(str(tmp_path), key(), claim.WARM)  # this process: alive
    assert claim.settle(str(tmp_path), key(), seconds=0.05) is True
    assert claim.commit(str(tmp_path), key()) is False


def test_a_warm_server_that_failed_gives_the_event_back_at_once(tmp_path: Path) -> None:
    assert claim.claim(str(tmp_path), key(), claim.WARM)
    claim.release(str(tmp_path), key())
    started = time.monotonic()
    assert claim.settle(str(tmp_path), key(), seconds=5.0) is True
    assert time.monotonic() - started < 1.0


def test_racing_handlers_act_exactly_once_per_event(tmp_path: Path) -> None:
    """Both handlers of 200 events start together; on every fifth the warm one does not commit
    until its command hook has given up waiting and taken the event over. Every event is acted on
    by exactly one of them, and each slow one by the command hook."""
    acted: list[tuple[str, str]] = []
    lock = threading.Lock()
    names = [f"toolu_{n:04d}" for n in range(200)]
    slow = set(names[::5])
    settled = {name: threading.Event() for name in names}

    def warm(name: str) -> None:
        if claim.claim(str(tmp_path), key(name), claim.WARM):
            if name in slow:
                settled[name].wait(10)
            if claim.commit(str(tmp_path), key(name)):
                with lock:
                    acted.append((name, "warm"))

    def command(name: str) -> None:
        try:
            mine = claim.claim(str(tmp_path), key(name), claim.COMMAND)
            if mine or claim.settle(str(tmp_path), key(name), seconds=0.04):
                with lock:
                    acted.append((name, "command"))
        finally:
            settled[name].set()

    threads = [
        threading.Thread(target=target, args=(name,))
        for name in names
        for target in (warm, command)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(name for name, _ in acted) == names
    assert {name for name, who in acted if who == "command"} >= slow


def test_sweep_removes_only_old_claims(tmp_path: Path) -> None:
    import os

    assert claim.claim(str(tmp_path), key("old"), claim.WARM)
    assert claim.commit(str(tmp_path), key("old"))
    assert claim.claim(str(tmp_path), key("new"), claim.WARM)
    old = claim.folder(str(tmp_path), key("old"))
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    assert claim.sweep(str(tmp_path)) == 1
    assert not os.path.exists(old) and os.path.exists(claim.folder(str(tmp_path), key("new")))


def test_tally_says_which_path_answered(tmp_path: Path) -> None:
    project = str(tmp_path)
    assert claim.tally(project) == ({who: 0 for who in claim.ANSWERED_BY.values()}, "")
    assert claim.claim(project, key("a"), claim.WARM) and claim.commit(project, key("a"))
    assert claim.claim(project, key("b"), claim.WARM) and claim.commit(project, key("b"))
    assert claim.claim(project, key("c"), claim.WARM)
    assert claim.settle(project, key("c"), seconds=0.01)
    time.sleep(0.01)
    assert claim.claim(project, key("d"), claim.COMMAND)
    counts, last = claim.tally(project)
    assert counts == {
        "the warm server": 2,
        "the command hook": 1,
        "the command hook, taken over from the warm server": 1,
        "nobody yet (given back by the warm server)": 0,
    }
    assert last == "the command hook"
