"""Gas City's queue (nudges/city.py): detection, claim/ack/put-back with Gas City's semantics,
producing, the wake socket, the drain owner, and a locked or corrupt state file under a hook's
deadline."""

from __future__ import annotations

import fcntl
import json
import os
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from sidekit_hooks.nudges import city
from testing.city import city_env, gc_item, make_city, read_state
from testing.hooks import HOOK_SCRIPTS, context_of, payload

T0 = datetime(2026, 12, 2, 5, 0, 0, tzinfo=UTC)


@pytest.fixture
def agent(monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str]) -> None:
    monkeypatch.setenv("GC_AGENT", "mayor")
    monkeypatch.setenv("GC_SESSION_ID", "gc-sess-1")


def test_the_city_comes_from_the_environment_never_from_a_folder_the_project_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str]
) -> None:
    town = make_city(tmp_path / "town", {"pending": []})
    deep = town / "rigs" / "app"
    deep.mkdir(parents=True)
    assert (
        city.find_city(str(deep)) == ""
    )  # a `.gc/` above (or committed in) the project is not a city
    assert city.find_city(str(town)) == ""
    for name in ("GC_CITY_ROOT", "GC_CITY_PATH", "GC_CITY"):  # the first one set wins
        monkeypatch.setenv(name, str(town))
        assert city.find_city(str(tmp_path)) == str(town)
    monkeypatch.setenv("GC_CITY", str(tmp_path / "gone"))
    assert city.find_city(str(deep)) == ""


def test_the_queue_folder_is_the_one_gc_uses_unless_the_other_holds_the_state(
    tmp_path: Path,
) -> None:
    # gc's citylayout: `.gc` is the runtime root
    assert city.nudges_dir(str(tmp_path)) == str(tmp_path / ".gc" / "nudges")
    make_city(tmp_path, {"pending": []})  # .gc/runtime/nudges/state.json (docs/fleets.md)
    assert city.nudges_dir(str(tmp_path)) == str(tmp_path / ".gc" / "runtime" / "nudges")


def test_items_fenced_to_another_continuation_epoch_are_left(
    tmp_path: Path, agent: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GC_CONTINUATION_EPOCH", "2")
    root = make_city(
        tmp_path,
        {
            "pending": [
                gc_item("n-old", "x", continuation_epoch="1"),
                gc_item("n-now", "y", continuation_epoch="2"),
            ]
        },
    )
    assert [c.name for c in city.claim(str(root), time.monotonic() + 1)] == ["n-now"]
    assert city.new_item("m", "mayor", "gc-sess-1")["continuation_epoch"] == "2"


def test_claim_takes_due_items_of_this_agent_and_session_only(tmp_path: Path, agent: None) -> None:
    later = gc_item("n-later", "later", deliver_after="2026-12-02T06:00:00Z")
    other = gc_item("n-other", "for someone else", agent="deacon")
    fenced = gc_item("n-fenced", "old session", session_id="gc-sess-0")
    state = {
        "pending": [gc_item("n-1", "hello", extra_key="kept"), later, other, fenced],
        "dispatch_skips": {"mayor": 2},
    }
    root = make_city(tmp_path, state)
    claims = city.claim(str(root), time.monotonic() + 1, at=T0)
    assert [(c.name, c.nudge.message, c.nudge.sender) for c in claims] == [("n-1", "hello", "mail")]
    after = read_state(root)
    assert after["dispatch_skips"] == {"mayor": 2}
    assert [i["id"] for i in after["pending"]] == [
        "n-fenced",
        "n-other",
        "n-later",
    ]  # Gas City's order
    (flight,) = after["in_flight"]
    assert (flight["claimed_at"], flight["lease_until"], flight["extra_key"]) == (
        "2026-12-02T05:00:00Z",
        "2026-12-02T05:02:00Z",
        "kept",
    )
    city.settle(claims, delivered=True)
    assert "in_flight" not in read_state(root)


def test_expired_items_go_dead_and_lapsed_leases_come_back(tmp_path: Path, agent: None) -> None:
    expired = gc_item("n-old", "stale", expires_at="2026-12-02T03:00:00Z")
    lapsed = gc_item(
        "n-lapsed", "again", claimed_at="2026-12-02T04:50:00Z", lease_until="2026-12-02T04:52:00Z"
    )
    root = make_city(tmp_path, {"pending": [expired], "in_flight": [lapsed]})
    claims = city.claim(str(root), time.monotonic() + 1, at=T0)
    assert [c.name for c in claims] == ["n-lapsed"]
    (dead,) = read_state(root)["dead"]
    assert (dead["id"], dead["dead_at"], dead["last_error"]) == (
        "n-old",
        "2026-12-02T05:00:00Z",
        "expired",
    )


def test_put_back_without_error_is_not_an_attempt_and_with_one_counts_and_retries(
    tmp_path: Path, agent: None
) -> None:
    root = make_city(
        tmp_path, {"pending": [gc_item("n-1", "one"), gc_item("n-2", "two", attempts=4)]}
    )
    claims = city.claim(str(root), time.monotonic() + 1)
    city.settle(claims[:1], delivered=False)
    city.settle(claims[1:], delivered=False, error="print failed: BrokenPipeError")
    after = read_state(root)
    (back,) = after["pending"]
    assert (back["id"], back.get("attempts"), back["claimed_at"]) == ("n-1", None, city.ZERO_TIME)
    (dead,) = after["dead"]  # the fifth failed attempt
    assert (dead["id"], dead["attempts"], dead["last_error"]) == (
        "n-2",
        5,
        "print failed: BrokenPipeError",
    )


def test_a_failed_print_retries_after_the_delay(tmp_path: Path, agent: None) -> None:
    root = make_city(tmp_path, {"pending": [gc_item("n-1", "one")]})
    claims = city.claim(str(root), time.monotonic() + 1)
    before = datetime.now(UTC)
    city.settle(claims, delivered=False, error="print failed")
    (item,) = read_state(root)["pending"]
    due = datetime.fromisoformat(item["deliver_after"])
    assert item["attempts"] == 1 and timedelta(seconds=14) < due - before < timedelta(seconds=16)
    assert city.claim(str(root), time.monotonic() + 1) == []  # not due yet


def test_new_item_has_gas_citys_shape(agent: None) -> None:
    item = city.new_item(
        "[sidecar:scope] x",
        "mayor",
        "gc-sess-1",
        finding="scope:k",
        sidecar="scope",
        rule="r1",
        at=T0,
    )
    assert list(item) == [
        "id",
        "agent",
        "session_id",
        "source",
        "message",
        "reference",
        "created_at",
        "deliver_after",
        "expires_at",
        "last_attempt_at",
        "claimed_at",
        "lease_until",
        "dead_at",
        "sidekit",
    ]
    assert item["id"].startswith("nudge-") and len(item["id"]) == 18
    assert (item["source"], item["reference"], item["expires_at"]) == (
        "sidekit",
        {"kind": "sidekit", "id": "scope:k"},
        "2026-12-03T05:00:00Z",
    )


def test_enqueue_pokes_the_wake_socket(tmp_path: Path, agent: None) -> None:
    root = make_city(tmp_path / "c")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    where = city.wake_socket(str(root))  # under /tmp when the test's folder is long (pytest -n)
    os.makedirs(os.path.dirname(where), exist_ok=True)
    server.bind(where)
    server.listen(1)
    server.settimeout(2)
    try:
        city.enqueue(str(root), [city.new_item("hi", "mayor", "")], time.monotonic() + 1)
        conn, _ = server.accept()
        conn.close()
    finally:
        server.close()
    assert [i["message"] for i in read_state(root)["pending"]] == ["hi"]


def test_long_city_paths_use_the_tmp_socket(tmp_path: Path) -> None:
    deep = tmp_path / ("x" * 120)
    import hashlib

    digest = hashlib.sha256(str(deep).encode()).hexdigest()[:16]
    assert city.wake_socket(str(deep)) == f"/tmp/gascity-nudge/{digest}.sock"


def test_own_items_over_the_cap_give_way_oldest_first(tmp_path: Path, agent: None) -> None:
    root = make_city(tmp_path)
    items = [city.new_item(f"m{i}", "mayor", "") for i in range(city.MAX_OWN_PENDING + 2)]
    dropped = city.enqueue(str(root), items, time.monotonic() + 1)
    assert [d["message"] for d in dropped] == ["m0", "m1"]
    assert len(read_state(root)["pending"]) == city.MAX_OWN_PENDING


def test_gc_owns_the_drain_when_its_hook_is_wired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str]
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    root = make_city(tmp_path / "c")
    assert not city.gc_drains(str(root), str(root))
    (root / ".gc" / "settings.json").write_text(
        '{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "gc nudge '
        'drain --inject"}]}]}}'
    )
    assert city.gc_drains(str(root), str(root))
    monkeypatch.setenv("SIDEKIT_GC_DRAIN", "sidekit")
    assert not city.gc_drains(str(root), str(root))


def hook_env(clean_env: dict[str, str], project: Path, root: Path) -> dict[str, str]:
    return city_env(clean_env, project, root, root / "home", "gc-sess-1")


def run_hook(env: dict[str, str], project: Path, timeout: float = 10) -> tuple[str, float]:
    body = json.dumps(payload("UserPromptSubmit", project, prompt="go"))
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-S", str(HOOK_SCRIPTS["UserPromptSubmit"])],
        input=body,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
    assert done.returncode == 0
    return context_of(done.stdout), time.monotonic() - began


def test_the_real_hook_delivers_a_city_nudge_once(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    root = make_city(
        tmp_path / "c", {"pending": [gc_item("n-1", "check the build", source="deacon")]}
    )
    env = hook_env(clean_env, project, root)
    assert run_hook(env, project)[0] == "[from deacon] check the build"
    assert run_hook(env, project)[0] == ""
    assert read_state(root) == {}


def test_the_real_hook_leaves_the_drain_to_gc_when_gc_owns_it(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "check the build")]})
    (root / ".gc" / "settings.json").write_text('{"command": "gc nudge drain --inject"}')
    assert run_hook(hook_env(clean_env, project, root), project)[0] == ""
    assert [i["id"] for i in read_state(root)["pending"]] == ["n-1"]


def test_a_locked_state_file_never_holds_a_hook_past_its_deadline(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    root = make_city(tmp_path / "c", {"pending": [gc_item("n-1", "waits")]})
    fd = os.open(root / ".gc" / "runtime" / "nudges" / "state.lock", os.O_CREAT | os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        text, took = run_hook(hook_env(clean_env, project, root), project)
    finally:
        os.close(fd)
    assert text == "" and took < 1.5  # waits 0.25 s for the lock, once
    errors = (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
    assert errors.count("state.lock is held past this hook's deadline") == 1
    assert "hard deadline" not in errors
    assert [i["id"] for i in read_state(root)["pending"]] == ["n-1"]


def test_a_corrupt_state_file_is_logged_and_left_alone(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    root = make_city(tmp_path / "c")
    state = root / ".gc" / "runtime" / "nudges" / "state.json"
    state.write_text('{"pending": [')
    text, took = run_hook(hook_env(clean_env, project, root), project)
    assert text == "" and took < 2.0
    assert state.read_text() == '{"pending": ['
    assert "state.json is not JSON" in (project / ".sidekit" / "log" / "hooks.jsonl").read_text()


def test_direct_claim_gives_up_at_the_deadline(tmp_path: Path, agent: None) -> None:
    root = make_city(tmp_path, {"pending": [gc_item("n-1", "x")]})
    fd = os.open(root / ".gc" / "runtime" / "nudges" / "state.lock", os.O_CREAT | os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        began = time.monotonic()
        with pytest.raises(city.CityQueueError):
            city.claim(str(root), began + 0.1)
        assert time.monotonic() - began < 0.3
    finally:
        os.close(fd)


def test_city_items_join_the_gas_town_queue_in_one_delivery(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    from sidekit_hooks.nudges import queue

    root = make_city(
        tmp_path / "c", {"pending": [gc_item("n-1", "from the city", source="deacon")]}
    )
    file_queue = str(project / ".runtime" / "nudge_queue")
    queue.enqueue(file_queue, "sess-1", queue.Nudge("[sidecar:scope] from the file queue"))
    text, _ = run_hook(hook_env(clean_env, project, root), project)
    assert text == "[sidecar:scope] from the file queue\n[from deacon] from the city"


def test_what_does_not_fit_goes_back_pending_without_an_attempt(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    items = [gc_item(f"n-{n}", f"{n} " + "x" * 250, source="w") for n in range(5)]
    root = make_city(tmp_path / "c", {"pending": items})
    text, _ = run_hook(hook_env(clean_env, project, root), project)
    assert [line[:12] for line in text.split("\n")] == [
        "[from w] 0 x",
        "[from w] 1 x",
        "[from w] 2 x",
        "(+2 more que",
    ]
    left = read_state(root)
    assert [(i["id"], i.get("attempts"), i["claimed_at"]) for i in left["pending"]] == [
        ("n-3", None, city.ZERO_TIME),
        ("n-4", None, city.ZERO_TIME),
    ]
    assert "in_flight" not in left


def test_one_id_is_claimed_once_and_its_doubles_go_dead(tmp_path: Path, agent: None) -> None:
    root = make_city(
        tmp_path,
        {
            "pending": [
                gc_item("n-1", "first"),
                gc_item("n-1", "second"),
                gc_item("n-2", "other agent's", agent="w"),
            ],
            "in_flight": [gc_item("n-3", "held elsewhere", lease_until="2099-01-01T00:00:00Z")],
        },
    )
    state = read_state(root)
    state["pending"].append(gc_item("n-3", "a double of one in flight"))
    (root / ".gc" / "runtime" / "nudges" / "state.json").write_text(json.dumps(state))
    taken = city.claim(str(root), time.monotonic() + 5, at=T0)
    assert [(held.name, held.nudge.message) for held in taken] == [("n-1", "first")]
    after = read_state(root)
    assert sorted((i["id"], i["message"], i["last_error"]) for i in after["dead"]) == [
        ("n-1", "second", "duplicate id"),
        ("n-3", "a double of one in flight", "duplicate id"),
    ]
    assert [i["id"] for i in after["pending"]] == ["n-2"]  # not ours: left as it was


def test_a_state_file_over_the_callers_bound_is_not_read(tmp_path: Path, agent: None) -> None:
    root = make_city(tmp_path, {"pending": [gc_item("n-1", "x" * 2000)]})
    with pytest.raises(city.StateTooLarge) as raised:
        city.claim(str(root), time.monotonic() + 5, max_bytes=1000)
    assert raised.value.size > 1000
    assert [i["id"] for i in read_state(root)["pending"]] == ["n-1"]


def test_the_hand_off_moves_this_sessions_items_to_its_file_queue(
    tmp_path: Path, agent: None
) -> None:
    from sidekit_hooks.nudges import city_handoff, queue

    root = make_city(
        tmp_path / "c", {"pending": [gc_item("n-1", "one", source="deacon"), gc_item("n-2", "two")]}
    )
    file_queue = str(tmp_path / "p" / ".runtime" / "nudge_queue")
    assert city_handoff.hand_off(str(root), file_queue, "sess-1") == 2
    assert read_state(root) == {}  # acked only once written
    moved = [(nudge.sender, nudge.message) for _, nudge in queue.pending(file_queue, "sess-1")]
    assert moved == [("deacon", "one"), ("mail", "two")]
