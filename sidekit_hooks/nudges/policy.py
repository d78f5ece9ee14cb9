"""Which findings become nudges, and why the others are held back. Over-injection is worse than
under-injection. Standard library only: this runs on the hook's hot path.

A finding is suppressed, checked in this order, when:
  muted      its sidecar or rule id is listed in `[policy] mute`;
  threshold  its severity is below its sidecar's floor (`threshold`, `[policy.thresholds]`);
  duplicate  the same finding (Finding.key) was already said this session, unless the file went back
             and forth: it fired, the file then reached a state where it did not fire, and the file
             is now back in a state (content hash) where it fired before;
  cooldown   its sidecar spoke less than `cooldown` seconds ago (`[policy.cooldowns]`; scope: 0); only
             a concrete finding resets the clock for concrete findings, so a habit hint never holds
             back a named helper, a spec violation or a scope breach. A finding held back by a
             cooldown is deferred, not dropped: it goes out at the first boundary after the
             cooldown, if it still holds (its re-check says so, e.g. a tests finding's tests still
             fail in the newest run; its file unchanged; a habit hint until it expires) and the cap
             allows. A finding about no file other than a habit hint (a test status) is of its
             moment: dropped;
  cap        the session already had `max_nudges` nudges (the first one over says so, once).
What passes is ordered urgent first, then by value (a concrete finding before a habit hint: its
`kind`), then by severity, then by the rank its detector gave it (or a team's `order` of sidecars),
so several sidecars at one boundary merge into one delivery, most important first. The policy reads
what a finding carries and keeps no list of detectors or rule ids of its own. Each nudge is one line
under MAX_NUDGE characters. Per-session state lives in `.sidekit/state/<session>/policy.json`, read
and written under an flock so concurrent hooks neither lose nor double a decision. Every decision is
a line in `.sidekit/log/decisions.jsonl` (`sidekit report` sums them up).
"""

from __future__ import annotations

import os
import stat
import time

from sidekit_hooks.core import fastjson, hook_table, hooklog, redact, safepath, workspace
from sidekit_hooks.nudges.delivery import (
    MAX_NUDGE,
)  # one line under this; `[policy] max_chars` may lower it
from sidekit_hooks.nudges.findings import CONCRETE, HABIT, UNRANKED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, TypeGuard

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Decision, Finding
    from sidekit_hooks.nudges.queue import Claim

MIN_NUDGE = 80
SEVERITY_RANK = {"low": 0, "medium": 1, "high": 2}
DEFAULTS: dict[str, Any] = {
    "cooldown": 30.0,
    "cooldowns": {"scope": 0.0},
    # say every severity unless a floor is set (pack authors use "low" for minor, not silent)
    "threshold": "low",
    # Reading or searching outside the scope is fine and the session's primer names the scope: those
    # notices (low) are held back unless a team lowers this floor; every out-of-scope edit is said.
    "thresholds": {"scope": "medium"},
    "max_nudges": 10,
    "dedup": True,
    "mute": [],
    "order": None,  # sidecar names, first said first; by default each finding's rank (Finding.rank)
    # At Stop, say these sidecars' (or rule ids') still-open findings once more: out-of-scope edits,
    # and a copy of a project helper that still ships (said once mid-turn, easily lost under the
    # work after it).
    "remind": ["scope", "tools.helper-exists"],
    # ... a listed sidecar's findings when at least this severe (a listed rule: any)
    "remind_threshold": "high",
}
STATE_FILE = "policy.json"
LOCK_FILE = "policy.lock"
MAX_HASH_BYTES = 4 * 1024 * 1024
MAX_HASHES = 8  # content states remembered per finding
MAX_KEY = 500  # characters of a Finding.key kept in the state file
CAP_RULE = "policy.cap"
STALE_SESSION = 14 * 24 * 3600  # seconds; per-session state older than this is removed
HABIT_CLOCK = "~habit"  # State.last suffix: when a sidecar last gave a habit hint
DEFER_MARK = "deferred"  # a file in the state folder while findings wait: one stat on other events
DEFER_TTL = 600.0  # seconds a deferred finding may wait; after that the moment has passed
MAX_DEFERRED = 5  # findings waiting at once per session (the most valuable are kept)
BOUNDARIES = hook_table.BOUNDARIES  # where a delivery follows


class Config:
    """The `[policy]` table, every key optional; a bad value falls back to its default."""

    __slots__ = (
        "cooldown",
        "cooldowns",
        "threshold",
        "thresholds",
        "max_nudges",
        "max_chars",
        "dedup",
        "mute",
        "order",
        "remind",
        "remind_threshold",
    )

    def __init__(self, table: object = None) -> None:
        raw = table if isinstance(table, dict) else {}
        self.cooldown = _seconds(raw.get("cooldown"), DEFAULTS["cooldown"])
        self.cooldowns = {**DEFAULTS["cooldowns"], **_table(raw.get("cooldowns"), _is_seconds)}
        self.threshold = _level(raw.get("threshold"), DEFAULTS["threshold"])
        self.thresholds = {
            **DEFAULTS["thresholds"],
            **_table(raw.get("thresholds"), lambda v: v in SEVERITY_RANK),
        }
        count = raw.get("max_nudges")
        self.max_nudges = count if _is_count(count) else DEFAULTS["max_nudges"]
        chars = raw.get("max_chars")
        self.max_chars = (
            chars if _is_count(chars) and MIN_NUDGE <= chars <= MAX_NUDGE else MAX_NUDGE
        )
        self.dedup = raw["dedup"] if isinstance(raw.get("dedup"), bool) else DEFAULTS["dedup"]
        self.mute = frozenset(_names(raw.get("mute"), DEFAULTS["mute"]))
        self.order: list[str] | None = (
            list(raw["order"]) if _is_names(raw.get("order")) else DEFAULTS["order"]
        )
        self.remind = frozenset(_names(raw.get("remind"), DEFAULTS["remind"]))
        self.remind_threshold = _level(raw.get("remind_threshold"), DEFAULTS["remind_threshold"])

    def cooldown_of(self, sidecar: str) -> float:
        return float(self.cooldowns.get(sidecar, self.cooldown))

    def floor_of(self, sidecar: str) -> int:
        return SEVERITY_RANK[str(self.thresholds.get(sidecar, self.threshold))]

    def reminds(self, sidecar: str, rule: str, severity: str) -> bool:
        """Stop says a finding that is still there once more, unless muted: its rule id is listed in
        `remind` (naming one rule is the choice itself), or its sidecar is and it is at least
        `remind_threshold`."""
        if sidecar in self.mute or (rule and rule in self.mute):
            return False
        if rule and rule in self.remind:
            return True
        return (
            sidecar in self.remind
            and SEVERITY_RANK.get(severity, 1) >= SEVERITY_RANK[self.remind_threshold]
        )

    def rank(self, finding: Finding) -> tuple[bool, int, int, int]:
        return (
            finding.priority != "urgent",
            -value_of(finding),
            -SEVERITY_RANK.get(finding.severity, 1),
            self.place(finding),
        )

    def place(self, finding: Finding) -> int:
        """Where a finding goes among equals: its sidecar's place in a team's `order`, else its own
        rank."""
        if self.order is None:
            return finding.rank
        return (
            self.order.index(finding.sidecar) if finding.sidecar in self.order else len(self.order)
        )


def is_habit(finding: Finding) -> bool:
    return finding.kind == HABIT


def value_of(finding: Finding) -> int:
    """1 for a concrete finding (a helper that exists, a spec violation, a scope breach), 0 for a
    habit hint."""
    return 0 if is_habit(finding) else 1


class State:
    """One session's memory: nudges said, when each sidecar last spoke, findings said (by key)."""

    __slots__ = ("count", "capped", "last", "keys", "deferred")

    def __init__(self, data: object = None) -> None:
        raw = data if isinstance(data, dict) else {}
        count = raw.get("count")
        self.count: int = count if isinstance(count, int) else 0
        self.capped = raw.get("capped") is True
        self.last: dict[str, float] = _table(raw.get("last"), _is_seconds)
        self.keys: dict[str, dict[str, Any]] = _table(
            raw.get("keys"), lambda v: isinstance(v, dict)
        )
        # key -> a finding held back by a cooldown, waiting for the next boundary (see `defer`)
        self.deferred: dict[str, dict[str, Any]] = _table(
            raw.get("deferred"), lambda v: isinstance(v, dict)
        )

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "count": self.count,
            "capped": self.capped,
            "last": self.last,
            "keys": self.keys,
        }
        if self.deferred:
            data["deferred"] = self.deferred
        # Keys and paths name files, and a file name can hold a secret: the state on disk is
        # redacted too (such a finding is then remembered under its redacted key; nothing else
        # changes).
        return fastjson.dumps(redact.redact_value(data))

    def keys_on(self, path: str) -> list[dict[str, Any]]:
        return [record for record in self.keys.values() if record.get("path") == path]


def admit(
    findings: list[Finding],
    event: Event,
    ctx: Context,
    config: Config | Callable[[], Config],
    now: float | None = None,
    send: Callable[[str, Finding], bool] | None = None,
) -> list[tuple[str, Finding]]:
    """The findings worth saying now, most important first, each with its final one-line text.

    `config` is the `[policy]` table of the merged rule packs, which the runtime reads once per
    event; or how to read it, read only when something is to be decided (no finding and none
    deferred: unread). `send`, when given, is called for each admitted line while the state is
    locked; a line it could not send (False: the queue could not take it) is not remembered as said,
    so it is said again later.
    """
    session = event.session_id
    if not findings and not (
        session
        and event.event_name in BOUNDARIES
        and not event.is_subagent
        and has_deferred(ctx.project, session)
    ):
        if session and event.path:
            observe(event, ctx)
        return []
    if not isinstance(config, Config):
        config = config()
    ordered = sorted(findings, key=config.rank)
    moment = time.time() if now is None else now
    try:
        folder = state_folder(ctx.project, session) if session else ""
    except workspace.UnsafeSessionName as exc:
        hooklog.error(ctx.project, event.event_name, "policy", exc)
        folder = ""
    if not folder:
        return _decide_stateless(ordered, event, ctx, config)
    try:
        fd = _lock(folder)
    except OSError as exc:  # no usable state folder: still say things, without memory
        hooklog.error(ctx.project, event.event_name, "policy", exc)
        return _decide_stateless(ordered, event, ctx, config)
    try:
        state = _load_state(folder)
        before = state.to_json()
        _mark_clean(state, event, ctx.project, {f.key[:MAX_KEY] for f in ordered})
        # What waits goes out where a delivery follows, to the main agent (a subagent has its own
        # context).
        waiting = (
            revive(state, event, ctx, moment)
            if event.event_name in BOUNDARIES and not event.is_subagent
            else []
        )
        ordered = sorted(
            ordered + [f for f in waiting if f.key not in {o.key for o in ordered}], key=config.rank
        )
        admitted = _decide(
            ordered, event, ctx, config, state, moment, frozenset(f.key[:MAX_KEY] for f in waiting)
        )
        if send is not None:
            unsent = [finding for line, finding in admitted if not send(line, finding)]
            _forget(state, State(fastjson.loads(before)), unsent)
            gone = {id(finding) for finding in unsent}
            admitted = [(line, finding) for line, finding in admitted if id(finding) not in gone]
        after = state.to_json()
        if after != before:  # a finding held back as a duplicate changes nothing worth a write
            _save_state(folder, after, ctx.project, event.event_name)
            _mark_deferred(folder, bool(state.deferred))
    finally:
        os.close(fd)
    return admitted


def _forget(state: State, prior: State, unsent: list[Finding]) -> None:
    """Undo what `_decide` remembered about findings that never reached the queue."""
    for finding in unsent:
        key = finding.key[:MAX_KEY]
        if key in prior.keys:
            state.keys[key] = prior.keys[key]
        else:
            state.keys.pop(key, None)
        state.count = max(prior.count, state.count - 1)
        clock = finding.sidecar + (HABIT_CLOCK if is_habit(finding) else "")
        if clock in prior.last:
            state.last[clock] = prior.last[clock]
        else:
            state.last.pop(clock, None)
        if key in prior.deferred:  # it was waiting: it waits again
            state.deferred[key] = prior.deferred[key]


def _save_state(folder: str, data: str, project: str, event_name: str) -> None:
    try:
        workspace.atomic_write(os.path.join(folder, STATE_FILE), data)
    except OSError as exc:
        hooklog.error(project, event_name, "policy", exc)


def lines(
    findings: list[Finding], event: Event, ctx: Context, config: Config
) -> list[tuple[str, Finding]]:
    """Admitted lines said straight to a subagent (no queue): logged as delivered here."""
    said = admit(findings, event, ctx, config)
    for line, finding in said:
        hooklog.append(
            ctx.project,
            hooklog.DECISIONS,
            {
                "session": event.session_id,
                "hook": event.event_name,
                "sidecar": finding.sidecar,
                "decision": "delivered",
                "text": line,
                "agent": event.agent_id,
                "rule": finding.rule_id,
                "key": finding.key[:200],
            },
        )
    return said


def _decide(
    ordered: list[Finding],
    event: Event,
    ctx: Context,
    config: Config,
    state: State,
    moment: float,
    revived: frozenset[str] = frozenset(),
) -> list[tuple[str, Finding]]:
    out: list[tuple[str, Finding]] = []
    hashes: dict[str, str] = {}
    for finding in ordered:
        reason = _static_reason(finding, config)
        record = state.keys.get(finding.key[:MAX_KEY])
        content = ""
        if not reason and config.dedup and finding.path:
            if finding.path not in hashes:
                hashes[finding.path] = content_hash(_absolute(ctx.project, finding.path))
            content = hashes[finding.path]
        if not reason and config.dedup and record is not None:
            back_and_forth = record.get("clean") is True and content in record.get("fired", [])
            reason = "" if back_and_forth else "duplicate"
        if not reason and _cooling(finding, state, config, moment):
            waits = not event.is_subagent and defer(
                state, finding, content or _hash_of(ctx.project, finding), moment
            )
            reason = (
                "deferred" if waits else "cooldown"
            )  # a subagent's finding is for its own context only
        if not reason and state.count >= config.max_nudges:
            reason = "cap"
        line = clip(finding.text(), config.max_chars)
        if not (
            reason == "deferred" and finding.key[:MAX_KEY] in revived
        ):  # logged once, when it was deferred
            _log(ctx.project, event, finding, line, reason)
        if reason and reason != "deferred":
            state.deferred.pop(
                finding.key[:MAX_KEY], None
            )  # held back for good (cap, duplicate, ...)
        if reason == "cap" and not state.capped:
            state.capped = True
            out.append(_cap_line(config, event, ctx))
        if reason:
            continue
        state.count += 1
        state.last[finding.sidecar + (HABIT_CLOCK if is_habit(finding) else "")] = moment
        state.deferred.pop(finding.key[:MAX_KEY], None)
        record = state.keys.setdefault(finding.key[:MAX_KEY], {"path": finding.path, "fired": []})
        fired = [h for h in record.get("fired", []) if h != content] + [content]
        record["fired"] = fired[-MAX_HASHES:]
        record["clean"] = False
        out.append((line, finding))
    return out


def _cooling(finding: Finding, state: State, config: Config, moment: float) -> bool:
    """Its sidecar spoke too recently. A habit hint waits for any nudge of its sidecar; a concrete
    finding only for a concrete one (a habit hint must never cost the session a real finding)."""
    last = state.last.get(finding.sidecar, float("-inf"))
    if is_habit(finding):
        last = max(last, state.last.get(finding.sidecar + HABIT_CLOCK, float("-inf")))
    return moment - last < config.cooldown_of(finding.sidecar)


def defer(state: State, finding: Finding, content: str, moment: float) -> bool:
    """Keep a finding held back by a cooldown for the next boundary after it.

    A finding about a file waits while the file stays as it was; a habit hint (advice about a tool)
    holds until it expires. Returns False (dropped, as before) for any other finding about no file
    (a test status is true of its moment only), or when the waiting list is full."""
    key = finding.key[:MAX_KEY]
    if key in state.deferred:
        return True
    if len(state.deferred) >= MAX_DEFERRED or not (is_habit(finding) or (finding.path and content)):
        return False
    state.deferred[key] = {
        "sidecar": finding.sidecar,
        "message": finding.message,
        "rule": finding.rule_id,
        "path": finding.path,
        "priority": finding.priority,
        "severity": finding.severity,
        "see": finding.see,
        "hash": content,
        "since": moment,
        "kind": finding.kind,
        "rank": finding.rank,
    }
    if finding.subject:
        state.deferred[key]["subject"] = finding.subject
    if finding.recheck:
        state.deferred[key]["recheck"] = finding.recheck
    return True


def revive(state: State, event: Event, ctx: Context, moment: float) -> list[Finding]:
    """The deferred findings that still hold: not expired, still true by their re-check (a tests
    finding against the newest recorded run, not just its file), and their file unchanged since they
    were found.

    One that no longer holds is dropped and logged (`expired`, `moot`, `stale`); we never say what
    may be untrue."""
    from sidekit_hooks.nudges import recheck  # noqa: PLC0415 - only when something waits
    from sidekit_hooks.nudges.findings import Finding  # noqa: PLC0415

    alive: list[Finding] = []
    for key, item in list(state.deferred.items()):
        check = item.get("recheck")
        check = {str(k): str(v) for k, v in check.items()} if isinstance(check, dict) else None
        finding = Finding(
            str(item.get("sidecar", "")),
            str(item.get("message", "")),
            key=key,
            rule_id=str(item.get("rule", "")),
            path=str(item.get("path", "")),
            priority=str(item.get("priority", "normal")),
            severity=str(item.get("severity", "medium")),
            see=str(item.get("see", "")),
            subject=str(item.get("subject", "")),
            recheck=check,
            kind=str(item.get("kind", CONCRETE)),
            rank=item["rank"] if _is_count(item.get("rank")) else UNRANKED,
        )
        since = _seconds(item.get("since"), float("-inf"))
        why = ""
        if moment - since > DEFER_TTL:
            why = "expired"
        elif check and not recheck.holds(ctx.project, check):
            why = "moot"
        elif finding.path and content_hash(_absolute(ctx.project, finding.path)) != item.get(
            "hash"
        ):
            why = "stale"
        if why:
            del state.deferred[key]
            _log(ctx.project, event, finding, clip(finding.text()), why)
            continue
        alive.append(finding)
    return alive


def has_deferred(project: str, session: str) -> bool:
    """Findings wait for this session (one stat; the state itself is read under the lock)."""
    try:
        return os.path.exists(os.path.join(state_folder(project, session), DEFER_MARK))
    except workspace.UnsafeSessionName:
        return False


def _mark_deferred(folder: str, waiting: bool) -> None:
    mark = os.path.join(folder, DEFER_MARK)
    try:
        if waiting:
            os.close(
                safepath.open_append(mark)
            )  # never through a planted link, never blocking on a FIFO
        elif os.path.exists(mark):
            os.unlink(mark)
    except OSError:
        # the mark only saves a read: without it a waiting finding goes out with the next finding
        pass


def _hash_of(project: str, finding: Finding) -> str:
    return content_hash(_absolute(project, finding.path)) if finding.path else ""


def _decide_stateless(
    ordered: list[Finding], event: Event, ctx: Context, config: Config
) -> list[tuple[str, Finding]]:
    """No session to remember: floor, mute and once per event still hold."""
    seen: set[str] = set()
    out: list[tuple[str, Finding]] = []
    for finding in ordered:
        reason = _static_reason(finding, config) or ("duplicate" if finding.key in seen else "")
        seen.add(finding.key)
        line = clip(finding.text(), config.max_chars)
        _log(ctx.project, event, finding, line, reason)
        if not reason:
            out.append((line, finding))
    return out


def _static_reason(finding: Finding, config: Config) -> str:
    if finding.sidecar in config.mute or (finding.rule_id and finding.rule_id in config.mute):
        return "muted"
    if SEVERITY_RANK.get(finding.severity, 1) < config.floor_of(finding.sidecar):
        return "threshold"
    return ""


def _cap_line(config: Config, event: Event, ctx: Context) -> tuple[str, Finding]:
    from sidekit_hooks.nudges.findings import Finding  # noqa: PLC0415 - a cap line is rare

    text = (
        f"Nudge cap reached ({config.max_nudges} this session): further sidecar findings are held "
        "back; "
        "`sidekit report` lists them."
    )
    finding = Finding("policy", text, key="policy:cap", rule_id=CAP_RULE, severity="high")
    line = clip(finding.text())
    _log(ctx.project, event, finding, line, "")
    return line, finding


def observe(event: Event, ctx: Context) -> None:
    """An event with no findings: note files that went clean (for the back-and-forth rule)."""
    try:
        folder = state_folder(ctx.project, event.session_id)
        peek = State(fastjson.loads(_state_bytes(folder)))
    except (OSError, ValueError, workspace.UnsafeSessionName):
        return  # no state yet: nothing was said, nothing can go clean
    if not peek.keys_on(event.path):
        return
    try:
        fd = _lock(folder)
    except OSError:
        return
    try:
        state = _load_state(folder)
        if _mark_clean(state, event, ctx.project, set()):
            _save_state(folder, state.to_json(), ctx.project, event.event_name)
    finally:
        os.close(fd)


def _mark_clean(state: State, event: Event, project: str, firing: set[str]) -> bool:
    """Findings said about this event's file that do not fire on its current content went clean."""
    if not event.path:
        return False
    records = [
        (key, record)
        for key, record in state.keys.items()
        if record.get("path") == event.path and key not in firing
    ]
    if not records:
        return False
    content = content_hash(_absolute(project, event.path))
    changed = False
    for _, record in records:
        if content not in record.get("fired", []) and record.get("clean") is not True:
            record["clean"] = True
            changed = True
    return changed


def record_delivered(project: str, event_name: str, session: str, claims: Iterable[Claim]) -> None:
    """Log each sidecar nudge a hook is about to print (for `sidekit report`'s `delivered`)."""
    for held in claims:
        if held.nudge.sidecar:
            _log_claim(project, event_name, session, held, "delivered")


def record_moot(project: str, event_name: str, session: str, held: Claim) -> None:
    """A queued finding no longer true when its delivery came: removed unsaid (`sidekit report`:
    moot)."""
    _log_claim(project, event_name, session, held, "suppressed", by="moot")


def _log_claim(
    project: str, event_name: str, session: str, held: Claim, decision: str, by: str = ""
) -> None:
    """One decisions-log line about a queued nudge, with its rule and finding key when it has
    them."""
    record: Decision = {
        "session": session,
        "hook": event_name,
        "sidecar": held.nudge.sidecar,
        "decision": decision,
        "text": held.nudge.message[:MAX_NUDGE],
    }
    if by:
        record["by"] = by
    for field, name in (("rule", "rule"), ("key", "finding")):
        if isinstance(held.nudge.extra.get(name), str):
            record[field] = held.nudge.extra[name]  # type: ignore[literal-required]
    hooklog.append(project, hooklog.DECISIONS, record)


def _log(project: str, event: Event, finding: Finding, line: str, reason: str) -> None:
    record: Decision = {
        "session": event.session_id,
        "hook": event.event_name,
        "tool": event.tool,
        "sidecar": finding.sidecar,
        "rule": finding.rule_id,
        "key": finding.key[:200],
        "path": finding.path,
        "severity": finding.severity,
        "decision": "suppressed" if reason else "fired",
        "text": line,
    }
    if finding.subject:
        record["subject"] = finding.subject[:200]
    if finding.recheck and not reason:
        record["recheck"] = finding.recheck
    if reason:
        record["by"] = reason
    if event.agent_id:
        record["agent"] = event.agent_id
    hooklog.append(project, hooklog.DECISIONS, record)


def session_capped(project: str, session: str) -> bool:
    """The session already had its `[policy] max_nudges` (for the judge, which queues on its
    own)."""
    try:
        return _load_state(state_folder(project, session)).capped
    except workspace.UnsafeSessionName:
        return False


def state_folder(project: str, session: str) -> str:
    return os.path.join(workspace.state_dir(project), "state", workspace.safe_session_name(session))


def _lock(folder: str) -> int:
    safepath.check(
        folder
    )  # a `.sidekit` or state folder linked out of the project: stateless instead
    if not os.path.exists(
        os.path.join(folder, STATE_FILE)
    ):  # the folder may already hold the session's ledger
        _prune(os.path.dirname(folder))
        safepath.makedirs(folder)
    fd = os.open(
        os.path.join(folder, LOCK_FILE),
        os.O_RDWR | os.O_CREAT | safepath.NOFOLLOW | safepath.NONBLOCK,
        0o644,
    )
    try:
        import fcntl
    except (
        ImportError
    ):  # pragma: no cover - Windows: no flock; hooks of one session rarely overlap there
        return fd
    fcntl.flock(fd, fcntl.LOCK_EX)  # released when fd is closed
    return fd


def _prune(root: str, now: float | None = None) -> None:
    """A new session starts: forget sessions untouched for STALE_SESSION seconds (best effort)."""
    cutoff = (time.time() if now is None else now) - STALE_SESSION
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        folder = os.path.join(root, name)
        try:
            if not os.path.islink(folder) and _last_touched(folder) < cutoff:
                for item in (
                    STATE_FILE,
                    LOCK_FILE,
                    "ledger.jsonl",
                ):  # only what sidekit wrote; anything else keeps the folder
                    try:
                        os.unlink(os.path.join(folder, item))
                    except FileNotFoundError:
                        pass
                os.rmdir(folder)
        except OSError:
            continue


def _last_touched(folder: str) -> float:
    """When the session last wrote its policy state or its ledger (nudges/session_ledger.py); raises
    OSError when it has neither (not a session folder)."""
    times = []
    for name in (STATE_FILE, "ledger.jsonl"):
        try:
            times.append(os.stat(os.path.join(folder, name)).st_mtime)
        except OSError:
            continue
    if not times:
        raise OSError(f"{folder} holds no session state")
    return max(times)


def _load_state(folder: str) -> State:
    try:
        return State(fastjson.loads(_state_bytes(folder)))
    except (OSError, ValueError):
        return State()


def _state_bytes(folder: str) -> str:
    """The session's state file: never through a link out, never blocking, bounded."""
    return safepath.read_bytes(
        safepath.check(os.path.join(folder, STATE_FILE)), safepath.MAX_STATE
    ).decode()


def content_hash(path: str) -> str:
    """A cheap fingerprint of a file's content ("" when unreadable or absent)."""
    try:
        # O_NONBLOCK and regular files only: a FIFO named by a payload must not hold the hook.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return ""
            data, size = os.read(fd, MAX_HASH_BYTES), info.st_size
        finally:
            os.close(fd)
    except (OSError, ValueError):  # ValueError: a NUL byte or a lone surrogate in the path
        return ""
    import zlib

    return f"{size}:{zlib.crc32(data):08x}"


def _absolute(project: str, path: str) -> str:
    return path if os.path.isabs(path) else os.path.join(project, path)


def clip(text: str, limit: int = MAX_NUDGE) -> str:
    """One line, under `limit` characters; a cut is marked with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) < limit else text[: limit - 3].rstrip() + " …"


def _seconds(value: object, default: float) -> float:
    return float(value) if _is_seconds(value) else default  # type: ignore[arg-type]


def _is_seconds(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _level(value: object, default: str) -> str:
    return value if isinstance(value, str) and value in SEVERITY_RANK else default


def _table(value: object, valid: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    return {str(key): item for key, item in value.items() if valid(item)}


def _names(value: object, default: list[str]) -> list[str]:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    return list(default)


def _table_of(valid: Any) -> Any:
    return lambda value: isinstance(value, dict) and all(valid(item) for item in value.values())


def _is_names(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


# Every `[policy]` key: what it accepts (checked by `rules lint` and when the hook compiles a pack,
# so a typo or a "10m" is an error naming the key, not a value silently replaced) and how to write
# it.
ACCEPTS: dict[str, tuple[Any, str, str]] = {
    "cooldown": (_is_seconds, "a number of seconds >= 0", "30"),
    "cooldowns": (
        _table_of(_is_seconds),
        "a table of sidecar = seconds >= 0",
        "{ scope = 0, tools = 60 }",
    ),
    "threshold": (lambda value: value in SEVERITY_RANK, "one of low, medium, high", '"medium"'),
    "thresholds": (
        _table_of(lambda value: value in SEVERITY_RANK),
        "a table of sidecar = low | medium | high",
        '{ conventions = "medium" }',
    ),
    "max_nudges": (_is_count, "a whole number >= 0", "10"),
    "max_chars": (
        lambda value: _is_count(value) and MIN_NUDGE <= value <= MAX_NUDGE,
        f"a whole number from {MIN_NUDGE} to {MAX_NUDGE}",
        "300",
    ),
    "dedup": (lambda value: isinstance(value, bool), "true or false", "true"),
    "mute": (_is_names, "an array of sidecar names or rule ids", '["tools.grep-for-name"]'),
    "order": (
        _is_names,
        "an array of sidecar names",
        '["scope", "specs", "tests", "tools", "conventions"]',
    ),
    "remind": (
        _is_names,
        "an array of sidecar names or rule ids",
        '["scope", "tools.helper-exists"]',
    ),
    "remind_threshold": (
        lambda value: value in SEVERITY_RANK,
        "one of low, medium, high",
        '"high"',
    ),
}
