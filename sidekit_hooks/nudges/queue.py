"""The nudge queue, in Gas Town's on-disk format (`.runtime/nudge_queue/<session>/`).

One JSON file per nudge, named `<UnixNano>-<8 hex>.json`. Writers write a temp name and rename it
into place; drainers claim a file by renaming it to `<name>.claimed.<8 hex>`, so any number of
drainers (ours and `gt`'s) deliver each nudge exactly once. Standard library only (hook hot path).
"""

from __future__ import annotations

import os
import time
from datetime import UTC

from sidekit_hooks.core import fastjson, safepath
from sidekit_hooks.core.workspace import QUEUE_SUBDIR, session_queue_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from datetime import datetime
    from typing import Any

# `datetime` and `json` are imported inside the functions that need them: an empty queue (the usual
# case at a turn boundary) must cost a hook no more than a directory listing.

NORMAL_TTL = 30 * 60  # seconds; Gas Town's DefaultNormalTTL
URGENT_TTL = 2 * 60 * 60  # Gas Town's DefaultUrgentTTL
MAX_DEPTH = 50  # pending nudges per session, as in Gas Town
STALE_CLAIM = 5 * 60  # a claim older than this was abandoned by a crashed drainer
# a malformed file younger than this may still be being written (gt writes in place)
FRESH_WRITE = 2.0
MAX_TTL = (
    366 * 86400
)  # seconds; a longer time to live (or delay) is a typo, and would overflow a date
MAX_CLAIM = 200  # nudges one drain looks at; the rest wait for the next boundary
CLAIMED = ".claimed"
# bad files go here, renamed `<name>.<reason>`: neither lost nor blocking
QUARANTINE = ".quarantine"
MAX_FILE = 256 * 1024  # bytes of one queued file that are read; a bigger one is malformed


# Optional fields a nudge file may carry besides Gas Town's own; `finding` and `rule` let the
# delivery be tied back to the finding (for Stop's re-check and `sidekit report`); `recheck` (a JSON
# string, so the file stays a flat object of strings) lets a later delivery check it is still true.
EXTRA_FIELDS = ("kind", "thread_id", "severity", "sidecar", "rule", "finding", "recheck")


class Nudge:
    """One queued message, as read from (or written to) the queue."""

    __slots__ = (
        "sender",
        "message",
        "priority",
        "timestamp",
        "expires_at",
        "deliver_after",
        "extra",
    )

    def __init__(
        self,
        message: str,
        sender: str = "sidekit",
        priority: str = "normal",
        timestamp: datetime | None = None,
        expires_at: datetime | None = None,
        deliver_after: datetime | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.message = message
        self.sender = sender
        self.priority = "urgent" if priority == "urgent" else "normal"
        self.timestamp = timestamp or now()
        self.expires_at = expires_at
        self.deliver_after = deliver_after
        self.extra = extra or {}

    @property
    def urgent(self) -> bool:
        return self.priority == "urgent"

    @property
    def sidecar(self) -> str:
        """The sidecar that wrote it (its own field; older files only said so in the sender), or
        ''."""
        named = self.extra.get("sidecar")
        if isinstance(named, str):
            return named
        return self.sender[len("sidekit/") :] if self.sender.startswith("sidekit/") else ""

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "sender": self.sender,
            "message": self.message,
            "priority": self.priority,
        }
        for key in EXTRA_FIELDS:
            if self.extra.get(key):
                data[key] = self.extra[key]
        data["timestamp"] = rfc3339(self.timestamp)
        if self.expires_at:
            data["expires_at"] = rfc3339(self.expires_at)
        if self.deliver_after:
            data["deliver_after"] = rfc3339(self.deliver_after)
        # Pretty-printed, as Gas Town writes its own nudges: byte for byte json.dumps(data,
        # indent=2, ensure_ascii=False) for this flat object of strings, without importing json
        # (~10-20 ms).
        return (
            "{\n"
            + ",\n".join(f"  {fastjson.dumps(k)}: {fastjson.dumps(v)}" for k, v in data.items())
            + "\n}"
        )

    @classmethod
    def from_json(cls, text: str, written: datetime | None = None) -> Nudge:
        """Parse a queued file. Without `expires_at` it expires one TTL after it was written (its
        `timestamp`, else `written`, the time in its name), so it can never outlive what queues
        behind it."""
        data = fastjson.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("message"), str):
            raise ValueError("a nudge is a JSON object with a string `message`")
        extra = {k: v for k, v in data.items() if k in EXTRA_FIELDS and v}
        nudge = cls(
            message=data["message"],
            sender=str(data.get("sender") or "unknown"),
            priority=str(data.get("priority") or "normal"),
            timestamp=parse_time(data.get("timestamp")) or written,
            expires_at=parse_time(data.get("expires_at")),
            deliver_after=parse_time(data.get("deliver_after")),
            extra=extra,
        )
        if nudge.expires_at is None:
            from datetime import timedelta

            try:
                nudge.expires_at = nudge.timestamp + timedelta(
                    seconds=URGENT_TTL if nudge.urgent else NORMAL_TTL
                )
            except (
                OverflowError
            ):  # a timestamp at the end of time: it cannot be placed, so it is malformed
                raise ValueError("timestamp out of range") from None
        return nudge


class Claim:
    """A nudge this process holds under `<name>.claimed.<hex>` until it commits or releases it."""

    __slots__ = ("name", "path", "nudge")

    def __init__(self, name: str, path: str, nudge: Nudge) -> None:
        self.name = name
        self.path = path
        self.nudge = nudge

    @classmethod
    def settle_all(cls, claims: list[Claim], delivered: bool, error: str) -> None:
        """Commit or put back claims held elsewhere than this queue's files (nudges/city.py
        overrides it)."""
        raise NotImplementedError(cls.__name__)


def now() -> datetime:
    from datetime import datetime

    return datetime.now(UTC).astimezone()


def rfc3339(moment: datetime) -> str:

    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat(timespec="microseconds")


def parse_time(value: object) -> datetime | None:
    """RFC 3339 (nanoseconds and offsets welcome); Go's zero time and junk mean "unset"."""
    if not isinstance(value, str) or not value or value.startswith("0001-01-01"):
        return None
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def parse_ttl(text: str) -> float:
    """`30m`, `2h`, `90s`, `1d` or plain seconds."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    text = text.strip().lower()
    scale = units.get(text[-1:], 0)
    seconds = float(text[:-1] if scale else text) * (scale or 1)
    if not 0 <= seconds <= MAX_TTL:  # also refuses inf and nan
        raise ValueError(f"{text!r} is not a duration between 0 and {MAX_TTL // 86400} days")
    return seconds


def queue_anchor(root: str) -> str:
    """The folder the queue belongs to (project or town root): nothing it touches may resolve
    outside."""
    return root[: -len(QUEUE_SUBDIR) - 1] if root.endswith(os.sep + QUEUE_SUBDIR) else root


def session_folder(root: str, session: str) -> str:
    """The session's queue folder; UnsafePath (an OSError) when it, or `.runtime`, leads out of the
    root."""
    return safepath.check(session_queue_dir(root, session), queue_anchor(root))


def own_name(name: str) -> bool:
    """`<UnixNano>-<8 hex>.json`: the only names the queue reads, claims or removes."""
    stem, dash, tag = name[:-5].partition("-")
    return (
        name.endswith(".json")
        and dash == "-"
        and stem.isdigit()
        and len(tag) == 8
        and all(c in "0123456789abcdef" for c in tag.lower())
    )


def name_time(name: str) -> float:
    """When a queued file was written, from its name (seconds; 0.0 when the name holds none)."""
    stem = name.partition("-")[0]
    return int(stem) / 1e9 if stem.isdigit() and len(stem) < 25 else 0.0


def enqueue(
    root: str,
    session: str,
    nudge: Nudge,
    *,
    max_depth: int = MAX_DEPTH,
    on_drop: Callable[[str, Nudge], None] | None = None,
    seen: list[str] | None = None,
) -> str:
    """Write one nudge atomically; return its path. Over the depth cap, the oldest normal ones go
    first.

    `seen`: the folder's entries as this process last listed them (listed now, and filled in, when
    empty); kept up to date with what this call wrote and dropped, so the writes and the drain of
    one hook share one listing (`claim(names=seen)`)."""
    from datetime import timedelta

    folder = session_folder(root, session)
    safepath.makedirs(folder, queue_anchor(root))
    if nudge.expires_at is None:
        ttl = URGENT_TTL if nudge.urgent else NORMAL_TTL
        nudge.expires_at = nudge.timestamp + timedelta(seconds=ttl)
    if seen is None:
        seen = []
    if not seen:
        seen.extend(entries(folder))
    _make_room(folder, max_depth - 1, on_drop, seen)
    name = f"{time.time_ns()}-{os.urandom(4).hex()}.json"
    tmp = os.path.join(folder, f".tmp-{name[:-5]}")  # neither ends in .json nor holds .claimed
    with open(
        tmp, "x", encoding="utf-8", errors="replace"
    ) as handle:  # "x": never through a planted link
        handle.write(nudge.to_json())
    path = os.path.join(folder, name)
    os.replace(tmp, path)
    seen.append(name)
    return path


def _make_room(
    folder: str, keep: int, on_drop: Callable[[str, Nudge], None] | None, seen: list[str]
) -> None:
    pending = pending_names(folder, seen)
    excess = len(pending) - keep
    if excess <= 0:
        return
    loaded = [(name, _peek(os.path.join(folder, name))) for name in pending]
    # Oldest normal nudges first, then (only if the queue is all urgent) the oldest urgent ones.
    order = sorted(loaded, key=lambda item: (item[1] is not None and item[1].urgent, item[0]))
    for name, nudge in order[:excess]:
        seen.remove(name)
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            continue  # a drainer claimed it meanwhile: it is delivered, not dropped
        if on_drop is not None:
            on_drop(name, nudge if nudge is not None else Nudge("(unreadable)", sender="unknown"))


def _peek(path: str) -> Nudge | None:
    try:
        text = safepath.read_bytes(path, MAX_FILE + 1)
        if len(text) > MAX_FILE:
            return None
        return Nudge.from_json(text.decode("utf-8"), _written(os.path.basename(path)))
    except (OSError, ValueError):
        return None


def _written(name: str) -> datetime | None:
    seconds = name_time(name)
    if not seconds:
        return None
    from datetime import datetime

    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def entries(folder: str) -> list[str]:
    """One listing of a queue folder (empty when it is missing): writes and drains of one hook share
    it."""
    try:
        return os.listdir(folder)
    except OSError:
        return []


def pending_names(folder: str, names: Iterable[str] | None = None) -> list[str]:
    """Queued (unclaimed) nudge files in the queue's own name format, oldest first (of `names`, a
    listing already taken, when given)."""
    return sorted(n for n in (entries(folder) if names is None else names) if own_name(n))


def pending(root: str, session: str) -> list[tuple[str, Nudge]]:
    """What is queued for a session, oldest first, without claiming anything."""
    folder = session_folder(root, session)
    out = []
    for name in pending_names(folder):
        nudge = _peek(os.path.join(folder, name))
        if nudge is not None:
            out.append((name, nudge))
    return out


def claim(
    root: str,
    session: str,
    *,
    at: datetime | None = None,
    on_discard: Callable[[str, str], None] | None = None,
    limit: int = MAX_CLAIM,
    names: list[str] | None = None,
) -> list[Claim]:
    """Claim every deliverable nudge of a session, FIFO. Expired ones are dropped, early ones put
    back, bad ones quarantined. One listing of the folder, or none when `names` (one this hook just
    took, see `enqueue`) is given: a name another drainer took meanwhile is simply not won."""
    folder = session_queue_dir(root, session)
    if names is None:
        names = entries(folder)
    if not any(CLAIMED in name for name in names) and not any(n.endswith(".json") for n in names):
        return []
    session_folder(root, session)  # only now pay for resolving links: something is queued
    moment = at or now()
    recovered = _recover(folder, names, STALE_CLAIM)
    claims: list[Claim] = []
    for name in pending_names(folder, [*names, *recovered])[:limit]:
        held = _claim_one(folder, name, moment, on_discard)
        if held is not None:
            claims.append(held)
    return claims


def _claim_one(
    folder: str, name: str, moment: datetime, on_discard: Callable[[str, str], None] | None
) -> Claim | None:
    source = os.path.join(folder, name)
    target = f"{source}{CLAIMED}.{os.urandom(4).hex()}"
    try:
        os.rename(source, target)
    except OSError:
        return None  # another drainer won this one
    try:
        os.utime(
            target, follow_symlinks=False
        )  # a fresh claim must not look stale to a concurrent drainer
        raw = safepath.read_bytes(target, MAX_FILE + 1)
    except safepath.UnsafePath:
        _quarantine(
            target, name, "not-a-regular-file", on_discard
        )  # a link or FIFO: never followed
        return None
    except OSError:
        _put_back(target, source)
        return None
    try:
        if len(raw) > MAX_FILE:
            raise ValueError("too big")
        nudge = Nudge.from_json(raw.decode("utf-8"), _written(name))
    except ValueError:  # UnicodeDecodeError too
        # Aged by the time in its name, not its mtime (every claim refreshes that): a file a
        # non-atomic writer (gt writes in place) may still be filling gets a moment; then it goes
        # aside.
        if time.time() - name_time(name) < FRESH_WRITE:
            _put_back(target, source)
        else:
            _quarantine(target, name, "malformed", on_discard)
        return None
    if nudge.expires_at is not None and nudge.expires_at <= moment:
        _discard(target, name, "expired", on_discard)
        return None
    if nudge.deliver_after is not None and nudge.deliver_after > moment:
        _put_back(target, source)
        return None
    return Claim(name, target, nudge)


def commit(claims: Iterable[Claim]) -> None:
    """The nudges were delivered: remove their claim files (Gas City's items: ack them in its state
    file)."""
    claims = _settle_city(claims, delivered=True)
    for held in claims:
        try:
            os.unlink(held.path)
        except OSError:
            pass


def release(claims: Iterable[Claim], error: str = "") -> None:
    """The nudges were not delivered: put them back under their original names. `error` says a print
    failed (Gas City's items count it as an attempt); without it they were only left for later."""
    claims = _settle_city(claims, delivered=False, error=error)
    for held in claims:
        _put_back(held.path, os.path.join(os.path.dirname(held.path), held.name))


def _settle_city(claims: Iterable[Claim], delivered: bool, error: str = "") -> list[Claim]:
    """Settle the Gas City claims among `claims` (nudges/city.py); return the per-file ones."""
    claims = list(claims)
    own = [held for held in claims if type(held) is Claim]
    if len(own) == len(claims):
        return own
    from sidekit_hooks.core import hooklog, workspace

    foreign = [held for held in claims if type(held) is not Claim]
    try:
        type(foreign[0]).settle_all(foreign, delivered, error)
    except OSError as exc:  # the lease runs out and Gas City's own recovery puts them back
        hooklog.error(workspace.project_dir(), "city", "settle", exc)
    return own


def recover_stale_claims(folder: str, stale_after: float = STALE_CLAIM) -> int:
    """Rename claims abandoned by a crashed drainer back to their queued names."""
    return len(_recover(folder, entries(folder), stale_after))


def _recover(folder: str, names: Iterable[str], stale_after: float) -> list[str]:
    """Of the listed `names`, put stale claims back; return the queued names they got back."""
    recovered: list[str] = []
    cutoff = time.time() - stale_after
    for name in names:
        if CLAIMED not in name or not own_name(name[: name.index(CLAIMED)]):
            continue
        path = os.path.join(folder, name)
        try:
            if os.lstat(path).st_mtime >= cutoff:
                continue
        except OSError:
            continue
        _put_back(path, os.path.join(folder, name[: name.index(CLAIMED)]))
        recovered.append(name[: name.index(CLAIMED)])
    return recovered


def quarantined(root: str, session: str) -> list[str]:
    """Names in the session's quarantine (`<name>.<reason>`), for `sidekit queue` and doctor."""
    try:
        return sorted(os.listdir(os.path.join(session_folder(root, session), QUARANTINE)))
    except OSError:
        return []


def _put_back(claim_path: str, queued_path: str) -> None:
    try:
        os.rename(claim_path, queued_path)
    except OSError:
        pass


def _quarantine(
    claim_path: str, name: str, why: str, on_discard: Callable[[str, str], None] | None
) -> None:
    """Move a bad file aside (never delete what sidekit may not have written), saying why."""
    folder = os.path.dirname(claim_path)
    try:
        safepath.makedirs(os.path.join(folder, QUARANTINE), folder)
        os.rename(claim_path, os.path.join(folder, QUARANTINE, f"{name}.{why}"))
    except OSError:
        _put_back(claim_path, os.path.join(folder, name))
        return
    if on_discard is not None:
        on_discard(name, f"{why}; moved to {QUARANTINE}/{name}.{why}")


def _discard(
    claim_path: str, name: str, why: str, on_discard: Callable[[str, str], None] | None
) -> None:
    try:
        os.unlink(claim_path)
    except OSError:
        return
    if on_discard is not None:
        on_discard(name, why)
