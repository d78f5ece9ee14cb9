"""The queue for a session (nudges/session_queue.py): the file queue outside a Gas City, the city's
state file inside one, behind one interface; the runtime never asks which it got."""

from __future__ import annotations

import ast
import fcntl
import json
import os
import time
from pathlib import Path

import pytest

from sidekit_hooks.core.workspace import queue_root
from sidekit_hooks.nudges import city, queue, session_queue

RUNTIME = Path(session_queue.__file__).resolve().parents[1] / "pipeline" / "runtime.py"


def nudge(message: str) -> queue.Nudge:
    return queue.Nudge(
        message, sender="sidekit/scope", extra={"sidecar": "scope", "rule": "r1", "finding": "k1"}
    )


@pytest.fixture
def in_city(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str]) -> Path:
    root = tmp_path / "city"
    (root / ".gc" / "runtime" / "nudges").mkdir(parents=True)
    (root / ".gc" / "runtime" / "nudges" / "state.json").write_text('{"pending": []}\n')
    monkeypatch.setenv("GC_CITY", str(root))
    monkeypatch.setenv("GC_AGENT", "mayor")
    monkeypatch.setenv("GC_SESSION_ID", "gc-sess-1")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv(city.OWNER_ENV, raising=False)
    return root


def test_outside_a_city_the_session_has_its_file_queue(
    project: Path, clean_env: dict[str, str]
) -> None:
    found = session_queue.for_session(str(project), "sess-1", "PostToolUse", time.monotonic() + 1)
    assert type(found) is session_queue.SessionQueue
    assert found.enqueue(nudge("said once"))
    assert [
        name.endswith(".json")
        for name in os.listdir(queue.session_folder(queue_root(str(project)), "sess-1"))
    ] == [True]
    claims = found.claim()
    assert [(type(held), held.nudge.message) for held in claims] == [(queue.Claim, "said once")]


def test_inside_a_city_findings_go_to_its_state_file_and_a_drain_claims_both_queues(
    project: Path, in_city: Path
) -> None:
    found = session_queue.for_session(str(project), "sess-1", "PostToolUse", time.monotonic() + 1)
    assert isinstance(found, session_queue.CityQueue)
    queue.enqueue(
        queue_root(str(project)), "sess-1", queue.Nudge("from the file queue", sender="gt")
    )
    assert found.enqueue(nudge("into the city"))
    state = json.loads((in_city / ".gc" / "runtime" / "nudges" / "state.json").read_text())
    [item] = state["pending"]
    assert (item["agent"], item["source"], item["message"], item["reference"]) == (
        "gc-sess-1",  # the first of the session's names (city.identity)
        "sidekit",
        "into the city",
        {"kind": "sidekit", "id": "k1"},
    )
    assert item["sidekit"] == {"sidecar": "scope", "rule": "r1"}
    assert (
        os.listdir(queue.session_folder(queue_root(str(project)), "sess-1")) != []
    )  # only gt's file
    claims = found.claim()
    assert [(type(held).__name__, held.nudge.message) for held in claims] == [
        ("Claim", "from the file queue"),
        ("CityClaim", "into the city"),
    ]


def test_when_gc_drains_the_city_the_session_claims_only_its_files(
    project: Path, in_city: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(city.OWNER_ENV, "gc")
    found = session_queue.for_session(str(project), "sess-1", "PostToolUse", time.monotonic() + 1)
    assert found.enqueue(nudge("gc delivers this one"))
    assert found.claim() == []
    monkeypatch.setenv(city.OWNER_ENV, "sidekit")
    mine = session_queue.for_session(str(project), "sess-1", "PostToolUse", time.monotonic() + 1)
    assert [held.nudge.message for held in mine.claim()] == ["gc delivers this one"]


def test_a_city_locked_past_the_deadline_is_waited_for_once_per_call(
    project: Path, in_city: Path
) -> None:
    lock = os.open(city.lock_path(str(in_city)), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        found = session_queue.for_session(
            str(project), "sess-1", "PostToolUse", time.monotonic() + 5
        )
        started = time.monotonic()
        assert found.claim() == []
        assert (
            time.monotonic() - started > session_queue.CITY_CLAIM_WAIT / 2
        )  # waited for the lock, a while only
        started = time.monotonic()
        assert found.enqueue(nudge("not written")) is False  # busy: not waited for a second time
        assert time.monotonic() - started < session_queue.CITY_CLAIM_WAIT / 2
    finally:
        os.close(lock)
    log = (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
    assert '"where":"city-drain"' in log


def test_the_runtime_never_asks_which_queue_it_has() -> None:
    """The runtime reaches Gas City only through the session's queue: it imports neither `city` nor
    its hand-off, and names no city at all."""
    tree = ast.parse(RUNTIME.read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "sidekit_hooks.nudges"
        for alias in node.names
    }
    assert imported & {"city", "city_handoff"} == set()
    assert "city" not in {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}


def test_the_hand_over_pauses_the_main_threads_alarm_and_leaves_other_threads_alone() -> None:
    import signal
    import threading

    previous = signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        from_thread: list[float] = []
        worker = threading.Thread(target=lambda: from_thread.append(session_queue._pause_alarm()))
        worker.start()
        worker.join()
        assert from_thread == [0.0] and signal.getitimer(signal.ITIMER_REAL)[0] > 4.0
        left = session_queue._pause_alarm()
        assert 4.0 < left <= 5.0 and signal.getitimer(signal.ITIMER_REAL)[0] == 0.0
        session_queue._resume_alarm(left)
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 4.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
