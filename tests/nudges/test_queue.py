from __future__ import annotations

import json
import os
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from sidekit_hooks.core.workspace import UnsafeSessionName, queue_root, session_queue_dir
from sidekit_hooks.nudges import queue


def gastown_file(
    folder: Path,
    message: str,
    *,
    sender: str = "gastown/crew/max",
    priority: str = "normal",
    offset_ns: int = 0,
    expires_in: float = 1800,
    deliver_after: str = "0001-01-01T00:00:00Z",
) -> Path:
    """A nudge exactly as Gas Town's Go code writes it: pretty-printed, nanoseconds, local
    offset."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.time_ns() + offset_ns
    zone = timezone(timedelta(hours=-4))
    when = datetime.now(zone)
    body = {
        "sender": sender,
        "message": message,
        "priority": priority,
        "timestamp": when.strftime("%Y-%m-%dT%H:%M:%S.") + "123456789-04:00",
        "expires_at": (when + timedelta(seconds=expires_in)).strftime("%Y-%m-%dT%H:%M:%S.")
        + "123456789-04:00",
        "deliver_after": deliver_after,
    }
    path = folder / f"{stamp}-{os.urandom(4).hex()}.json"
    path.write_text(json.dumps(body, indent=2))
    return path


def test_enqueue_writes_gas_town_format(tmp_path: Path) -> None:
    path = Path(
        queue.enqueue(
            str(tmp_path), "sess/1", queue.Nudge("[sidecar:scope] hi", sender="sidekit/scope")
        )
    )
    assert path.parent == tmp_path / "sess_1"
    stem, suffix = path.name[:-5].split("-")
    assert stem.isdigit() and len(suffix) == 8 and path.name.endswith(".json")
    data = json.loads(path.read_text())
    assert list(data) == ["sender", "message", "priority", "timestamp", "expires_at"]
    assert (data["sender"], data["message"], data["priority"]) == (
        "sidekit/scope",
        "[sidecar:scope] hi",
        "normal",
    )
    created = datetime.fromisoformat(data["timestamp"])
    assert created.tzinfo is not None
    assert datetime.fromisoformat(data["expires_at"]) - created == timedelta(minutes=30)


def test_urgent_nudges_live_two_hours(tmp_path: Path) -> None:
    path = queue.enqueue(str(tmp_path), "s", queue.Nudge("x", priority="urgent"))
    data = json.loads(Path(path).read_text())
    assert datetime.fromisoformat(data["expires_at"]) - datetime.fromisoformat(
        data["timestamp"]
    ) == timedelta(hours=2)


def test_claim_is_fifo_and_reads_gas_town_files(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    gastown_file(folder, "first", offset_ns=-2000)
    queue.enqueue(str(tmp_path), "s", queue.Nudge("second"))
    claims = queue.claim(str(tmp_path), "s")
    assert [c.nudge.message for c in claims] == ["first", "second"]
    assert claims[0].nudge.sender == "gastown/crew/max" and claims[0].nudge.deliver_after is None
    assert all(".json.claimed." in c.path for c in claims)
    assert queue.claim(str(tmp_path), "s") == []  # claimed ones are not claimable twice
    queue.commit(claims)
    assert os.listdir(folder) == []


def test_release_puts_nudges_back_under_their_names(tmp_path: Path) -> None:
    queue.enqueue(str(tmp_path), "s", queue.Nudge("a"))
    claims = queue.claim(str(tmp_path), "s")
    queue.release(claims)
    assert sorted(os.listdir(tmp_path / "s")) == [claims[0].name]


def test_expired_nudges_are_dropped(tmp_path: Path) -> None:
    gastown_file(tmp_path / "s", "old", expires_in=-5)
    dropped: list[tuple[str, str]] = []
    assert queue.claim(str(tmp_path), "s", on_discard=lambda n, why: dropped.append((n, why))) == []
    assert [why for _, why in dropped] == ["expired"] and os.listdir(tmp_path / "s") == []


def test_deliver_after_in_the_future_is_put_back(tmp_path: Path) -> None:
    later = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    path = gastown_file(tmp_path / "s", "later", deliver_after=later)
    assert queue.claim(str(tmp_path), "s") == []
    assert path.exists()
    claims = queue.claim(str(tmp_path), "s", at=datetime.now(UTC) + timedelta(minutes=6))
    assert [c.nudge.message for c in claims] == ["later"]


def test_stale_claims_are_recovered_fresh_ones_are_not(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    stale = gastown_file(folder, "stale")
    fresh = gastown_file(folder, "fresh", offset_ns=1000)
    stale_claim = stale.with_name(stale.name + ".claimed.deadbeef")
    fresh_claim = fresh.with_name(fresh.name + ".claimed.cafebabe")
    stale.rename(stale_claim)
    fresh.rename(fresh_claim)
    old = time.time() - 301
    os.utime(stale_claim, (old, old))
    claims = queue.claim(str(tmp_path), "s")
    assert [c.nudge.message for c in claims] == ["stale"]
    assert fresh_claim.exists()


def test_a_claim_refreshes_its_mtime(tmp_path: Path) -> None:
    path = gastown_file(tmp_path / "s", "enqueued long ago")
    old = time.time() - 3600
    os.utime(path, (old, old))
    [held] = queue.claim(str(tmp_path), "s")
    assert time.time() - os.stat(held.path).st_mtime < 60  # another drainer must not think it stale


def test_malformed_files_are_left_while_fresh_then_quarantined(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    bad = folder / f"{time.time_ns()}-00000000.json"
    bad.write_text('{"sender": "half-writ')
    assert queue.claim(str(tmp_path), "s") == [] and bad.exists()  # maybe still being written
    # Aged by the time in its name (claims refresh the mtime, so the mtime would never age).
    aged = folder / f"{time.time_ns() - 10 * 10**9}-00000001.json"
    bad.rename(aged)
    why: list[str] = []
    assert queue.claim(str(tmp_path), "s", on_discard=lambda n, w: why.append(w)) == []
    assert why == [f"malformed; moved to .quarantine/{aged.name}.malformed"] and not aged.exists()
    assert (
        folder / ".quarantine" / f"{aged.name}.malformed"
    ).read_text() == '{"sender": "half-writ'


def test_depth_cap_drops_oldest_normal_first(tmp_path: Path) -> None:
    urgent = queue.enqueue(str(tmp_path), "s", queue.Nudge("urgent-0", priority="urgent"))
    for i in range(1, 50):
        queue.enqueue(str(tmp_path), "s", queue.Nudge(f"n-{i}"))
    dropped: list[str] = []
    queue.enqueue(
        str(tmp_path), "s", queue.Nudge("n-50"), on_drop=lambda name, n: dropped.append(n.message)
    )
    assert dropped == ["n-1"]
    left = [n.message for _, n in queue.pending(str(tmp_path), "s")]
    assert len(left) == 50 and left[0] == "urgent-0" and "n-1" not in left and Path(urgent).exists()


def test_temp_names_are_invisible_to_drainers(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / ".tmp-123-abcdef01").write_text("{}")
    (folder / ".lock").write_text("")
    assert queue.pending_names(str(folder)) == [] and queue.claim(str(tmp_path), "s") == []


@pytest.mark.parametrize("name", ["..", ".", "", "a\x00b", "x" * 10_000])
def test_hostile_session_names_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(UnsafeSessionName):
        session_queue_dir(str(tmp_path), name)


@pytest.mark.parametrize(
    "name, expected",
    [("../..", ".._.."), ("/etc/passwd", "_etc_passwd"), ("a/b", "a_b"), ("..\\..", ".._..")],
)
def test_slashes_cannot_leave_the_queue_root(tmp_path: Path, name: str, expected: str) -> None:
    path = Path(session_queue_dir(str(tmp_path), name))
    assert path.parent == tmp_path and path.name == expected


def test_queue_root_follows_gas_town(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("GT_TOWN_ROOT", "GT_ROOT"):
        monkeypatch.delenv(var, raising=False)
    assert queue_root("/proj") == "/proj/.runtime/nudge_queue"
    monkeypatch.setenv("GT_ROOT", "/town2")
    assert queue_root("/proj") == "/town2/.runtime/nudge_queue"
    monkeypatch.setenv("GT_TOWN_ROOT", "/town")
    assert queue_root("/proj") == "/town/.runtime/nudge_queue"


@pytest.mark.parametrize(
    "text, seconds", [("30m", 1800), ("2h", 7200), ("90s", 90), ("1d", 86400), ("15", 15)]
)
def test_parse_ttl(text: str, seconds: float) -> None:
    assert queue.parse_ttl(text) == seconds


def test_the_sidecar_travels_as_a_field_not_as_text_to_parse(tmp_path: Path) -> None:
    root = str(tmp_path)
    queue.enqueue(
        root,
        "s",
        queue.Nudge("[sidecar:scope] x", sender="sidekit/scope", extra={"sidecar": "scope"}),
    )
    (written,) = os.listdir(session_queue_dir(root, "s"))
    assert (
        json.loads((Path(session_queue_dir(root, "s")) / written).read_text())["sidecar"] == "scope"
    )
    (held,) = queue.claim(root, "s")
    assert held.nudge.sidecar == "scope"
    assert queue.Nudge("hi", sender="mayor/").sidecar == ""  # Gas Town's own nudges name no sidecar


def test_one_listing_serves_the_writes_and_the_drain(tmp_path: Path) -> None:
    root, folder = str(tmp_path), tmp_path / "s"
    old = gastown_file(folder, "from before")
    stale = folder / f"{time.time_ns()}-0000abcd.json.claimed.deadbeef"
    stale.write_text(json.dumps({"message": "abandoned"}))
    os.utime(stale, (time.time() - queue.STALE_CLAIM - 5,) * 2)
    seen: list[str] = []
    first = Path(queue.enqueue(root, "s", queue.Nudge("one"), seen=seen))
    second = Path(queue.enqueue(root, "s", queue.Nudge("two"), seen=seen))
    assert sorted(seen) == sorted([old.name, stale.name, first.name, second.name])
    os.rename(
        old, str(old) + ".claimed.0badf00d"
    )  # another drainer wins this one after the listing
    claims = queue.claim(root, "s", names=seen)
    assert [held.nudge.message for held in claims] == [
        "abandoned",
        "one",
        "two",
    ]  # the stale claim came back


def test_the_depth_cap_counts_what_the_listing_saw(tmp_path: Path) -> None:
    seen: list[str] = []
    for i in range(3):
        queue.enqueue(str(tmp_path), "s", queue.Nudge(f"n{i}"), max_depth=2, seen=seen)
    assert sorted(seen) == sorted(os.listdir(tmp_path / "s")) and len(seen) == 2
    assert [nudge.message for _, nudge in queue.pending(str(tmp_path), "s")] == ["n1", "n2"]
