"""Gas City's nudge queue: one `state.json` per city, under an exclusive `flock` on `state.lock`.

Gas City (the successor of Gas Town) keeps every deferred nudge of a city in one `state.json`
(`<city>/.gc/nudges/` as gc writes it, or `<city>/.gc/runtime/nudges/`), in buckets `pending`,
`in_flight` and `dead`. This module reads and writes that file with Gas City's own semantics
(docs/fleets.md): a drain claims the due items of this session/agent into `in_flight` with a
two-minute lease and puts back what it will not print. What it will print leaves the city before the
print, in the same hold of the lock as its ack (`hand_over`): it goes to the session's own file queue
as a claim, removed once printed. So no ack waits for the lock after the print, where giving up would
leave a printed item in flight for its lease to say again. Items and keys sidekit does not know are
kept.

Standard library only (hook hot path); `json` is imported only once a state file has something in
it. The lock wait is bounded by the caller's deadline: a locked or corrupt file costs a log line,
never the hook.
"""

from __future__ import annotations

import fcntl
import os
import time

from sidekit_hooks.core import safepath

# Which city and which agent this session is (city_env.py: what the choice of a session's queue
# reads).
from sidekit_hooks.nudges.city_env import CITY_VARIABLES, epoch, find_city, identity
from sidekit_hooks.nudges.queue import Claim, Nudge, parse_time

__all__ = [
    "CITY_VARIABLES",
    "epoch",
    "find_city",
    "identity",
]  # and the state file's own functions below

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from datetime import datetime
    from typing import Any

# Where the queue lives under the city: gc (at a46ccb1c) writes `.gc/nudges/`
# (citylayout.RuntimeRoot is `.gc`); `.gc/runtime/nudges/` is the other layout docs/fleets.md names.
# The one holding a state.json wins, then the one that exists, then gc's own.
NUDGES_SUBDIRS = (os.path.join(".gc", "nudges"), os.path.join(".gc", "runtime", "nudges"))
CLAIM_TTL = 120.0  # seconds; Gas City's claim lease (defaultQueuedNudgeClaimTTL)
RETRY_DELAY = 15.0  # seconds before a failed delivery is tried again (defaultQueuedNudgeRetryDelay)
MAX_ATTEMPTS = 5  # then the item goes to `dead` (defaultQueuedNudgeMaxAttempts)
DEFAULT_TTL = 24 * 3600.0  # an item enqueued without its own expiry (defaultQueuedNudgeTTL)
# Seconds at most between two non-blocking lock attempts. gc (a46ccb1c) blocks on the lock, so under
# heavy load a poller can lose the race to it for a while: a hand-over that gives up leaves its items
# in flight until their lease ends (a delay, never a second delivery).
LOCK_POLL = 0.01
# Seconds a `settle` (a put-back, a moot item's ack, a failed print's attempt) waits for the lock.
# None of them follows a print (`hand_over` acks before it): one that gives up leaves the item in
# flight until its lease ends, and it is said then, for the first time.
SETTLE_WAIT = 2.0
MAX_STATE = (
    64 * 1024 * 1024
)  # bytes of state.json read (by the hand-off worker); a bigger file is left as it is
# Bytes of state.json a hook parses and rewrites within its deadline (about 50 ms). A bigger file is
# drained by a detached worker instead (nudges/city_handoff.py), which hands this session's items to
# its file queue for the next turn: nothing is lost, the hook stays on time.
HOOK_STATE = 1024 * 1024
BUCKETS = ("pending", "in_flight", "dead")
MAX_OWN_PENDING = 50  # sidekit's own pending items per agent; older ones give way (logged)
WAKE_TIMEOUT = 0.05  # seconds to connect to the wake socket (gc's dispatcher listens there)
MAX_SOCKET_PATH = 100  # bytes; longer unix socket paths move under /tmp, as gc does
ZERO_TIME = "0001-01-01T00:00:00Z"  # Go's zero time.Time, which `omitempty` does not omit
SOURCE = "sidekit"
OWNER_ENV = "SIDEKIT_GC_DRAIN"  # "sidekit" or "gc": who drains the city queue (default: detected)


class CityQueueError(OSError):
    """The state file is locked past the deadline, or unreadable: the caller logs it and goes on."""


class StateTooLarge(CityQueueError):
    """The state file is over what this caller may read in its time (`size`): drain it elsewhere."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(
            f"state.json is {size} bytes, over the {limit} read here; left to a worker"
        )
        self.size = size


class CityClaim(Claim):
    """A city item this process moved to `in_flight`; `name` is its id, `path` the state file."""

    __slots__ = ("city", "claimed_at")

    def __init__(self, city: str, item: dict[str, Any], claimed_at: str) -> None:
        found = item.get("reference")
        reference: dict[str, Any] = found if isinstance(found, dict) else {}
        extra: dict[str, Any] = {}
        if reference.get("kind") == SOURCE and isinstance(reference.get("id"), str):
            extra["finding"] = reference[
                "id"
            ]  # ties the delivery back to the finding (Stop, report)
        own = item.get("sidekit")
        if isinstance(own, dict):
            extra.update(
                {
                    k: v
                    for k, v in own.items()
                    if k in ("sidecar", "rule", "recheck") and isinstance(v, str) and v
                }
            )
        nudge = Nudge(
            str(item.get("message", "")),
            sender=str(item.get("source") or "gc"),
            timestamp=parse_time(item.get("created_at")),
            expires_at=parse_time(item.get("expires_at")),
            extra=extra,
        )
        super().__init__(str(item.get("id", "")), state_path(city), nudge)
        self.city = city
        self.claimed_at = claimed_at

    @classmethod
    def settle_all(cls, claims: list[Claim], delivered: bool, error: str) -> None:
        settle(claims, delivered, error)


def nudges_dir(city: str) -> str:
    """The city's queue folder (see NUDGES_SUBDIRS)."""
    folders = [os.path.join(city, sub) for sub in NUDGES_SUBDIRS]
    for folder in folders:
        if os.path.isfile(os.path.join(folder, "state.json")):
            return folder
    for folder in folders:
        if os.path.isdir(folder):
            return folder
    return folders[0]


def state_path(city: str) -> str:
    return os.path.join(nudges_dir(city), "state.json")


def lock_path(city: str) -> str:
    return os.path.join(nudges_dir(city), "state.lock")


def addressed_to(item: dict[str, Any], session: str, keys: list[str]) -> bool:
    """Gas City's match: the item's agent is one of ours, and a session-fenced item is for this
    session."""
    if item.get("agent") not in keys:
        return False
    fence = item.get("session_id") or ""
    if fence and fence != session:
        return False
    fenced_epoch = item.get("continuation_epoch") or ""
    return not fenced_epoch or fenced_epoch == epoch()


def gc_time(moment: datetime) -> str:
    """Go's RFC 3339 nano form in UTC (trailing zeros of the fraction dropped)."""
    from datetime import UTC

    utc = moment.astimezone(UTC)
    fraction = f".{utc.microsecond:06d}".rstrip("0") if utc.microsecond else ""
    return utc.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"


def _now() -> datetime:
    from datetime import UTC, datetime

    return datetime.now(UTC)


def _plus(moment: datetime, seconds: float) -> str:
    from datetime import timedelta

    return gc_time(moment + timedelta(seconds=seconds))


def _due(value: object, moment: datetime) -> bool:
    """Zero/absent times are due; so is anything at or before `moment`."""
    when = parse_time(value)
    return when is None or when <= moment


def _expired(item: dict[str, Any], moment: datetime) -> bool:
    when = parse_time(item.get("expires_at"))
    return when is not None and when <= moment


def _items(state: dict[str, Any], bucket: str) -> list[dict[str, Any]]:
    value = state.get(bucket)
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def _store(state: dict[str, Any], bucket: str, items: list[dict[str, Any]]) -> None:
    """Gas City sorts each bucket and omits an empty one (`omitempty`)."""
    keys = {
        "pending": ("deliver_after", "created_at"),
        "in_flight": ("lease_until", "claimed_at"),
        "dead": ("dead_at", "created_at"),
    }[bucket]
    floor = "0001-01-01T00:00:00+00:00"

    def order(item: dict[str, Any]) -> tuple[str, str, str]:
        first, second = (parse_time(item.get(key)) for key in keys)
        return (
            first.isoformat() if first else floor,
            second.isoformat() if second else floor,
            str(item.get("id", "")),
        )

    if items:
        state[bucket] = sorted(items, key=order)
    else:
        state.pop(bucket, None)


def _wait_lock(fd: int, deadline: float) -> None:
    """Poll the lock until `deadline`: 1 ms apart at first, then up to LOCK_POLL (a blocking flock
    could not be bounded here, where SIGALRM already is the hook's hard deadline)."""
    pause = 0.001
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() + pause > deadline:
                raise CityQueueError("state.lock is held past this hook's deadline") from None
            time.sleep(pause)
            pause = min(LOCK_POLL, pause * 2)


class _Locked:
    """`with _Locked(city, deadline) as state:` - the parsed state, rewritten atomically on exit
    when `changed` is set. Raises CityQueueError when the lock or the file cannot be had in time."""

    def __init__(self, city: str, deadline: float, max_bytes: int = MAX_STATE) -> None:
        self.city = city
        self.deadline = deadline
        self.max_bytes = max_bytes
        self.changed = False
        self.fd = -1
        self.state: dict[str, Any] = {}

    def __enter__(self) -> _Locked:
        folder = nudges_dir(self.city)
        safepath.makedirs(folder, self.city)  # never through a link out of the city
        self.fd = os.open(
            lock_path(self.city), os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600
        )
        try:
            _wait_lock(self.fd, self.deadline)
            self.state = _load(state_path(self.city), self.max_bytes)
        except BaseException:
            os.close(self.fd)
            raise
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        try:
            if kind is None and self.changed:
                _write(state_path(self.city), self.state)
        finally:
            os.close(self.fd)  # closing drops the flock


def _load(path: str, limit: int = MAX_STATE) -> dict[str, Any]:
    try:
        raw = safepath.read_bytes(path, limit + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise CityQueueError(f"state.json unreadable: {exc}") from None
    if not raw.strip():
        return {}
    if len(raw) > limit:  # grew since it was looked at
        if limit < MAX_STATE:
            raise StateTooLarge(len(raw), limit)
        raise CityQueueError(f"state.json is over {MAX_STATE} bytes; left as it is")
    import json

    try:
        state = json.loads(raw)
    except ValueError as exc:  # UnicodeDecodeError too
        # Never rewritten: Gas City refuses it too, and a person may want what is in it.
        raise CityQueueError(f"state.json is not JSON ({exc}); left as it is") from None
    if not isinstance(state, dict):
        raise CityQueueError("state.json is not a JSON object; left as it is")
    return state


def _write(path: str, state: dict[str, Any]) -> None:
    import json

    tmp = f"{path}.tmp-{os.getpid()}-{os.urandom(3).hex()}"
    with open(tmp, "x", encoding="utf-8") as handle:  # "x": never through a planted link
        handle.write(json.dumps(state, indent=2, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def _state_size(city: str) -> int:
    """Bytes in the state file (0: none, empty, or unreadable)."""
    try:
        return os.stat(state_path(city)).st_size
    except OSError:
        return 0


def claim(
    city: str,
    deadline: float,
    *,
    at: datetime | None = None,
    limit: int = 200,
    max_bytes: int = MAX_STATE,
    staged_in: str = "",
) -> list[CityClaim]:
    """Move this session's due pending items to `in_flight` (lease CLAIM_TTL) and return them,
    oldest first.

    As Gas City does under the same lock: leases that ran out go back to pending, expired items go
    to dead. One id is delivered once: a pending item of ours whose id is already in flight, or
    taken in this claim, goes to dead (`duplicate id`), never said a second time. Raises
    CityQueueError (locked past `deadline`, corrupt file), StateTooLarge when the file is over
    `max_bytes` (not read). `staged_in`: the session's file queue folder, whose staged files a
    killed hand-over left are settled first (`_settle_staged`)."""
    session, keys = identity()
    size = _state_size(city)
    if not keys or not (size or _staged_names(staged_in)):
        return []
    if size > max_bytes:
        raise StateTooLarge(size, max_bytes)
    moment = at or _now()
    with _Locked(city, deadline, max_bytes) as held:
        state = held.state
        if staged_in:
            _settle_staged(state, staged_in)
        pending, in_flight, dead = (
            _items(state, bucket) for bucket in ("pending", "in_flight", "dead")
        )
        recovered = _recover(in_flight, pending, dead, moment)
        kept, expired = _split_expired(pending, moment)
        dead += expired
        claimed_at, lease = gc_time(moment), _plus(moment, CLAIM_TTL)
        taken: list[dict[str, Any]] = []
        waiting: list[dict[str, Any]] = []
        doubles: list[dict[str, Any]] = []
        held_ids = {item.get("id") for item in in_flight}
        for item in sorted(
            kept, key=lambda it: (str(parse_time(it.get("deliver_after")) or ""), str(it.get("id")))
        ):
            ours = addressed_to(item, session, keys) and isinstance(item.get("message"), str)
            ident = item.get("id")
            if ours and (not isinstance(ident, str) or not ident or ident in held_ids):
                _bury(
                    item, moment, "duplicate id" if ident else "no id"
                )  # said once, or never: kept in dead
                doubles.append(item)
            elif ours and len(taken) < limit and _due(item.get("deliver_after"), moment):
                item["claimed_at"], item["lease_until"] = claimed_at, lease
                taken.append(item)
                held_ids.add(ident)
            else:
                waiting.append(item)
        if not (taken or expired or recovered or doubles):
            return []
        _store(state, "pending", waiting)
        _store(state, "in_flight", in_flight + taken)
        _store(state, "dead", dead + doubles)
        held.changed = True
    return [CityClaim(city, item, claimed_at) for item in taken]


def _recover(
    in_flight: list[dict[str, Any]],
    pending: list[dict[str, Any]],
    dead: list[dict[str, Any]],
    moment: datetime,
) -> bool:
    """Leases that ran out go back to pending; expired in-flight items go to dead. True if any
    moved."""
    stay = []
    moved = False
    for item in in_flight:
        if _expired(item, moment):
            _bury(item, moment, "expired")
            dead.append(item)
        elif _due(item.get("lease_until"), moment):
            item["claimed_at"] = item["lease_until"] = ZERO_TIME
            item["deliver_after"] = gc_time(moment)
            pending.append(item)
        else:
            stay.append(item)
            continue
        moved = True
    in_flight[:] = stay
    return moved


def _split_expired(
    items: list[dict[str, Any]], moment: datetime
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    kept, expired = [], []
    for item in items:
        if _expired(item, moment):
            _bury(item, moment, "expired")
            expired.append(item)
        else:
            kept.append(item)
    return kept, expired


def _bury(item: dict[str, Any], moment: datetime, why: str) -> None:
    item["dead_at"] = gc_time(moment)
    if not item.get("last_error"):
        item["last_error"] = why


def hand_over(
    claims: list[CityClaim],
    queue_root: str,
    session: str,
    deadline: float,
    *,
    put_back: Iterable[Claim] = (),
    held: list[Claim] | None = None,
    claimed: bool = True,
) -> list[Claim]:
    """Move `claims` (this process's, still in flight under its lease) out of the city into the
    session's own file queue, and put `put_back` back to pending, in one hold of the city's lock:
    the city's ack is done before anything is printed, so no lock that cannot be had after the
    print (a loaded machine, a deadline) can leave a printed item in flight for its lease to bring
    back. Returns the file queue's claims (`<name>.claimed.<hex>`, which the caller prints and then
    commits with a lock-free unlink), or, with `claimed=False` (the hand-off worker), leaves them
    queued for the next drain and returns them unclaimed. An item whose lease ran out and was
    claimed again meanwhile is not ours: left out. `held` (the hook's claims not yet settled) gets
    each file claim in place of its city claim as soon as it exists, for a deadline's fail-open.

    Each item is first written under a name no drainer reads (`STAGED`), then the state file is
    replaced (the one commit point), then each staged file is renamed to its claim. A staged file
    left by a killed process is settled by the next hand-over or claim of this session
    (`_settle_staged`): its item still in the city means it never left (the file goes); gone means
    it did (the file becomes a queued nudge). Raises CityQueueError (lock, file) and OSError (the
    session's folder): then nothing moved, and the claims stay in flight until their lease ends."""
    from sidekit_hooks.nudges import queue

    mine = {item.name: item for item in claims if item.name}
    backs = {item.name: item for item in put_back if isinstance(item, CityClaim) and item.name}
    cities = {item.city for item in [*mine.values(), *backs.values()]}
    if not cities:
        return []
    (city,) = cities  # one session's claims: one city
    folder = queue.session_folder(queue_root, session)
    safepath.makedirs(folder, queue.queue_anchor(queue_root))
    out: list[Claim] = []
    texts = {name: _file_text(item) for name, item in mine.items()}
    with _Locked(city, deadline) as locked:
        state = locked.state
        _settle_staged(state, folder)
        ours = [mine[ident] for ident in dict.fromkeys(_held_here(state, mine))]
        staged: list[tuple[CityClaim, str]] = []
        landed: bool | None = False
        try:
            for item in ours:
                staged.append((item, _stage(folder, *texts[item.name])))
            if ours or backs:
                _settle_in(state, {item.name: item for item in ours}, delivered=True, error="")
                _settle_in(state, backs, delivered=False, error="")
                _write(state_path(city), state)
            landed = True
        finally:
            # Still under the lock. Cut short (a deadline) before `landed` was set: the file says
            # whether its replace landed.
            if not landed and staged:
                landed = _left_city(city, [item.name for item, _ in staged])
            for item, path in staged:
                if landed is None:
                    break  # unreadable now: the next hand-over or claim settles them
                if not landed:
                    _unlink(path)  # still in flight in the city: its lease brings it back
                    continue
                moved = _promote(path, claimed)
                if moved is None:
                    continue
                handed = queue.Claim(_queued_name(path), moved, item.nudge)
                out.append(handed)
                if held is not None:
                    held[:] = [handed if other is item else other for other in held]
    return out


def _left_city(city: str, idents: list[str]) -> bool | None:
    """Whether none of `idents` is in the state file now (read under the lock); None when it cannot
    be read."""
    try:
        state = _load(state_path(city))
    except CityQueueError:
        return None
    return not _ids_in(state).intersection(idents)


def _ids_in(state: dict[str, Any]) -> set[str]:
    """The ids of every item the city still holds (pending, in flight, dead): one there has not
    left it."""
    return {str(item.get("id", "")) for b in BUCKETS for item in _items(state, b)}


STAGED = ".staged"  # ends a file written under the lock before its item leaves the city


def _id_tag(ident: str) -> str:
    """A city id as a name part: its digest (gc's ids are not ours to trust as file names)."""
    import hashlib

    return hashlib.sha256(ident.encode("utf-8", "replace")).hexdigest()[:16]


def _held_here(state: dict[str, Any], mine: dict[str, CityClaim]) -> list[str]:
    """The ids of `mine` still in flight under this process's claim (same `claimed_at`)."""
    found = []
    for item in _items(state, "in_flight"):
        held_ = mine.get(str(item.get("id", "")))
        if held_ is not None and item.get("claimed_at") == held_.claimed_at:
            found.append(held_.name)
    return found


def _file_text(held: CityClaim) -> tuple[str, str]:
    """(the item's file in Gas Town's format, its id's digest): made before the lock is taken, so
    the lock is held for the writes only."""
    from datetime import timedelta

    nudge = held.nudge
    if nudge.expires_at is None:  # Gas City's item without an expiry: its default
        nudge.expires_at = nudge.timestamp + timedelta(seconds=DEFAULT_TTL)
    return nudge.to_json(), _id_tag(held.name)


def _stage(folder: str, text: str, tag: str) -> str:
    """Write one item into the session's folder under a name no drainer reads: `<queued
    name>.<id digest>.staged` (neither `.json` at the end nor `.claimed` in it, Gas Town's
    drain and sweep skip it too)."""
    name = f"{time.time_ns()}-{os.urandom(4).hex()}.json"
    path = os.path.join(folder, f"{name}.{tag}{STAGED}")
    with open(path, "x", encoding="utf-8", errors="replace") as handle:
        handle.write(text)
    return path


def _promote(staged: str, claimed: bool) -> str | None:
    """Rename a staged file to its claim (`claimed`) or its queued name; its new path, None when it
    is gone."""
    queued = os.path.join(os.path.dirname(staged), _queued_name(staged))
    target = f"{queued}.claimed.{os.urandom(4).hex()}" if claimed else queued
    try:
        os.rename(staged, target)
    except OSError:
        return None
    return target


def _queued_name(staged: str) -> str:
    """`<UnixNano>-<hex>.json` of a staged file's path."""
    return os.path.basename(staged).split(".json.", 1)[0] + ".json"


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _staged_names(folder: str) -> list[str]:
    from sidekit_hooks.nudges import queue

    return [name for name in queue.entries(folder) if name.endswith(STAGED)] if folder else []


def _settle_staged(state: dict[str, Any], folder: str) -> None:
    """Staged files a killed hand-over left in `folder` (read under the lock, so no live hand-over
    has any): an item the city still holds (pending, in flight or dead) never left it (the file
    goes); one that is gone left it with this file as its only copy (queued for the next
    drain)."""
    names = _staged_names(folder)
    if not names:
        return
    in_city = {_id_tag(ident) for ident in _ids_in(state)}
    for name in names:
        path = os.path.join(folder, name)
        if name[: -len(STAGED)].rsplit(".", 1)[-1] in in_city:
            _unlink(path)
        else:
            _promote(path, claimed=False)


def settle(
    claims: Iterable[Claim], delivered: bool, error: str = "", deadline: float | None = None
) -> None:
    """Ack (`delivered`) or put back the city claims among `claims`; a put-back with an `error`
    counts an attempt (Gas City's retry delay, then dead after MAX_ATTEMPTS). Failures are the
    caller's to log."""
    by_city: dict[str, dict[str, CityClaim]] = {}
    for held in claims:
        if isinstance(held, CityClaim):
            by_city.setdefault(held.city, {})[held.name] = held
    for city, mine in by_city.items():
        # Claude Code waits for the hook to exit (up to its 5 s timeout): the wait stays bounded.
        with _Locked(
            city, deadline if deadline is not None else time.monotonic() + SETTLE_WAIT
        ) as locked:
            _settle_in(locked.state, mine, delivered, error)
            locked.changed = True


def _settle_in(
    state: dict[str, Any], mine: dict[str, CityClaim], delivered: bool, error: str
) -> None:
    moment = _now()
    in_flight, pending, dead = (
        _items(state, "in_flight"),
        _items(state, "pending"),
        _items(state, "dead"),
    )
    stay = []
    for item in in_flight:
        held = mine.get(str(item.get("id", "")))
        if held is None or item.get("claimed_at") != held.claimed_at:
            stay.append(item)  # someone else's, or re-claimed after our lease ran out
            continue
        if delivered:
            continue  # acked: gone from the file
        item["claimed_at"] = item["lease_until"] = ZERO_TIME
        if not error:
            pending.append(item)  # not printed (no room this turn): back as it was
            continue
        item["attempts"] = int(item.get("attempts") or 0) + 1
        item["last_attempt_at"], item["last_error"] = gc_time(moment), error[:200]
        if item["attempts"] >= MAX_ATTEMPTS or _expired(item, moment):
            item["dead_at"] = gc_time(moment)
            dead.append(item)
        else:
            item["deliver_after"] = _plus(moment, RETRY_DELAY)
            pending.append(item)
    _store(state, "in_flight", stay)
    _store(state, "pending", pending)
    _store(state, "dead", dead)


def new_item(
    message: str,
    agent: str,
    session: str,
    *,
    finding: str = "",
    sidecar: str = "",
    rule: str = "",
    recheck: str = "",
    expires_at: datetime | None = None,
    at: datetime | None = None,
) -> dict[str, Any]:
    """A pending item in Gas City's shape (`source: "sidekit"`). The finding rides in `reference`,
    which Gas City keeps; `sidekit` (sidecar, rule) survives only sidekit's own rewrites."""
    moment = at or _now()
    item: dict[str, Any] = {"id": "nudge-" + os.urandom(6).hex(), "agent": agent}
    if session:
        item["session_id"] = session
        if epoch():
            item["continuation_epoch"] = (
                epoch()
            )  # as gc fences its own items to the session's epoch
    item["source"], item["message"] = SOURCE, message
    if finding:
        item["reference"] = {"kind": SOURCE, "id": finding[:500]}
    item["created_at"] = item["deliver_after"] = gc_time(moment)
    item["expires_at"] = gc_time(expires_at) if expires_at else _plus(moment, DEFAULT_TTL)
    for key in ("last_attempt_at", "claimed_at", "lease_until", "dead_at"):
        item[key] = ZERO_TIME
    if (
        sidecar or rule or recheck
    ):  # recheck: how a later delivery checks the finding still holds (runtime.true_now)
        item["sidekit"] = {
            "sidecar": sidecar,
            "rule": rule,
            **({"recheck": recheck} if recheck else {}),
        }
    return item


def enqueue(city: str, items: list[dict[str, Any]], deadline: float) -> list[dict[str, Any]]:
    """Append pending items; returns the sidekit items dropped over MAX_OWN_PENDING (oldest
    first)."""
    with _Locked(city, deadline) as locked:
        pending = _items(locked.state, "pending") + items
        dropped = _over_cap(pending)
        _store(locked.state, "pending", [item for item in pending if item not in dropped])
        locked.changed = True
    poke(city)
    return dropped


def _over_cap(pending: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts: dict[str, int] = {}
    for item in pending:
        if item.get("source") == SOURCE:
            counts[str(item.get("agent"))] = counts.get(str(item.get("agent")), 0) + 1
    dropped = []
    for item in pending:  # oldest first: appended items are last
        agent = str(item.get("agent"))
        if item.get("source") == SOURCE and counts[agent] > MAX_OWN_PENDING:
            counts[agent] -= 1
            dropped.append(item)
    return dropped


def wake_socket(city: str) -> str:
    """Where gc's dispatcher listens: in the city, or under /tmp when that path is too long for a
    socket."""
    path = os.path.join(nudges_dir(city), "wake.sock")
    if len(path.encode()) <= MAX_SOCKET_PATH:
        return path
    import hashlib

    digest = hashlib.sha256(os.path.abspath(city).encode()).hexdigest()[:16]
    return os.path.join("/tmp", "gascity-nudge", f"{digest}.sock")


def poke(city: str) -> bool:
    """Tell gc's dispatcher something was queued; a missing or silent socket is not an error."""
    path = wake_socket(city)
    if not os.path.exists(path):
        return False
    import socket

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(WAKE_TIMEOUT)
    try:
        sock.connect(path)
        return True
    except OSError:
        return False
    finally:
        sock.close()


def gc_drains(project: str, city: str) -> bool:
    """Whether gc's own `gc nudge drain` hook delivers this city's queue to Claude here.

    Then sidekit only produces: two drainers would each show the other's share once, as two hooks'
    outputs. `SIDEKIT_GC_DRAIN=sidekit|gc` overrides the detection."""
    chosen = os.environ.get(OWNER_ENV, "").strip().lower()
    if chosen in ("gc", "sidekit"):
        return chosen == "gc"
    home = os.path.expanduser("~")
    for path in _settings_files(project, city, home):
        try:
            if b"nudge drain" in safepath.read_bytes(path, 1 << 20):
                return True
        except (OSError, ValueError):
            continue
    return False


def _settings_files(project: str, city: str, home: str) -> Iterator[str]:
    for folder in dict.fromkeys((project, city)):
        yield os.path.join(folder, ".claude", "settings.json")
        yield os.path.join(folder, ".claude", "settings.local.json")
    yield os.path.join(city, ".gc", "settings.json")  # what gc passes to claude with --settings
    yield os.path.join(city, "hooks", "claude.json")
    yield os.path.join(home, ".claude", "settings.json")


def pending_for(city: str, deadline: float) -> list[dict[str, Any]]:
    """This session's pending items, read under the lock without changing anything (`sidekit
    queue`)."""
    session, keys = identity()
    with _Locked(city, deadline) as locked:
        return [
            item for item in _items(locked.state, "pending") if addressed_to(item, session, keys)
        ]
