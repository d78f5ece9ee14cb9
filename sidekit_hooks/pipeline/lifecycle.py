"""The edges of a session: what SessionStart and Stop/SubagentStop do. Standard library only.

SessionStart (any `source`: startup, resume, clear, compact): make sure the function index is there
or being refreshed, so the session's first tool call is covered (a tiny project without an index is
indexed right here, within a bound; any other starts a detached refresh); say the scope when one is
set (one primer line; not on `resume`, whose conversation still holds it, but after `compact`, whose
summary may not); the runtime then delivers what waits in the queue.

Stop / SubagentStop: re-check each finding delivered in this session (to this agent) against the
files as they are now (`nudges/recheck.py`), log every changed verdict as a `rechecked` decision,
and say a finding that is still there once more when the policy asks for it (`[policy] remind`, by
default scope findings of severity high and helper copies, `tools.helper-exists`). A finding is said
again once (at a Stop or after a compaction, whichever comes first), and once more only when its
file changed since; never while `stop_hook_active`. What is said counts against the session's nudge
budget (nudges/spend.py).
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import hooklog
from sidekit_hooks.nudges import delivery, policy, recheck, session_ledger, spend

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Decision

PRIMER_RULE = "scope.primer"
AT_STOP = "Still there as you finish: "
AFTER_COMPACT = "Still open from before the compaction: "
MAX_STANDING = 2  # still-open findings named again after a compaction (the rest wait for Stop)
REMINDER_RULE = "lifecycle.reminder"
TINY_FILES = 25  # a project with at most this many Python files ...
# ... and this many bytes of them is indexed inside SessionStart (bench: ~0.1 s for 30 files)
TINY_BYTES = 250_000
# seconds; an older index is refreshed (in the background) when a session starts
STALE_AT_START = 3600.0
GIT_MARKERS = (
    "index",
    "HEAD",
    "FETCH_HEAD",
    "ORIG_HEAD",
)  # git moved the work tree after these changed


# ---------------------------------------------------------------------------------------------
# SessionStart


PRIMED_SOURCES = frozenset(
    {"startup", "clear", "compact", ""}
)  # resume keeps the conversation, primer included


def session_start(event: Event, ctx: Context) -> str:
    """The scope primer line ("" without a scope, or on resume), and after a compaction the findings
    still open; starts the index refresh on the way."""
    if not event.is_subagent:
        warm_indexes(ctx.project, event.event_name)
        warm_import_index(ctx.project, event.event_name)
    source = str(event.raw.get("source") or "")
    if source not in PRIMED_SOURCES:
        return ""
    primer = scope_primer(event, ctx)
    if source != "compact" or event.is_subagent or not event.session_id:
        return primer
    book = session_ledger.read(ctx.project, event.session_id)
    # The primer is said regardless (the task's frame); what follows it fits the session's budget.
    left = spend.room(book, event.event_name, reminder=True) - (len(primer) + 1 if primer else 0)
    room = min(MAX_STANDING * delivery.MAX_NUDGE, delivery.MAX_DELIVERY - len(primer) - 1, left)
    standing = standing_findings(event, ctx, room, book)
    return "\n".join(part for part in (primer, standing) if part)


def standing_findings(
    event: Event, ctx: Context, room: int, book: session_ledger.Ledger | None = None
) -> str:
    """After `compact`: the delivered findings the policy reminds of (`[policy] remind`) at least
    `remind_threshold` severe (scope writes by default) that are still there and not said again yet
    (or whose file changed since), named again in one short line each; the summary may have dropped
    them. Each is then said again no more (`may_remind`)."""
    book = session_ledger.read(ctx.project, event.session_id) if book is None else book
    config = policy.Config(ctx.packs().get("policy", {}))
    floor = policy.SEVERITY_RANK[config.remind_threshold]
    open_now = [  # at least `remind_threshold` severe (a scope write): a helper copy waits for Stop
        record
        for key, record in _delivered(book, "")
        if policy.SEVERITY_RANK.get(str(record.get("severity")), 1) >= floor
        and may_remind(book, key, ctx.project)
        and recheck.outcome(ctx.project, record["recheck"]) == recheck.STILL
    ]
    facts: list[dict[str, Any]] = [{"compact": 1, "floor": config.remind_threshold}]
    lines = reminders(open_now, ctx, lambda _: config, AFTER_COMPACT)
    text, said = _fitted([line for _, line in lines], room)
    for record, line in lines[:said]:
        facts.append(_reminded(ctx.project, record))
        _log_reminder(ctx.project, event, record, line)
    session_ledger.append(ctx.project, event.session_id, facts)
    return text


def may_remind(book: session_ledger.Ledger, key: str, project: str) -> bool:
    """Not said again yet, or its file changed since it was (then once more)."""
    if key not in book.reminded:
        return True
    path = str(book.findings.get(key, {}).get("path") or "")
    return bool(path) and _hash(project, path) != book.reminded[key]


def _reminded(project: str, record: dict[str, Any]) -> dict[str, Any]:
    """The ledger's `remind` fact, with its file's content as it is now."""
    path = str(record.get("path") or "")
    return {"remind": str(record["admit"]), "hash": _hash(project, path) if path else ""}


def _hash(project: str, path: str) -> str:
    return policy.content_hash(path if os.path.isabs(path) else os.path.join(project, path))


def _fitted(lines: list[str], room: int) -> tuple[str, int]:
    """`delivery.plan_lines` within `room`; nothing at all (no bare count) when not one line
    fits."""
    text, said = delivery.plan_lines(lines, max(room, 0))
    return (text, said) if said else ("", 0)


def _delivered(book: session_ledger.Ledger, agent: str) -> list[tuple[str, dict[str, Any]]]:
    """(key, admit record) of each finding delivered to this agent that carries a re-check."""
    out = []
    for key in book.delivered:
        record = book.findings.get(key)
        if (
            record is not None
            and str(record.get("agent", "")) == agent
            and isinstance(record.get("recheck"), dict)
        ):
            out.append((key, record))
    return out


def warm_indexes(project: str, event_name: str) -> str:
    """ "built" (here, tiny project), "started" (detached refresh), or "" (fresh, or already
    running)."""
    from sidekit_hooks.code import functions

    try:
        built = _mtime(functions.index_path(project))
        if not built and tiny_project(project):
            from sidekit_hooks.code import (
                function_index,
            )  # rare: the first session of a small project

            return "built" if function_index.refresh(project, prune=False) else ""
        if built and not outdated(project, built):
            return ""
        return "started" if functions.ensure_fresh(project, touched_python=True) else ""
    # an index that cannot be built must not cost the session
    except Exception as exc:  # noqa: BLE001
        hooklog.error(project, event_name, "index", exc)
        return ""


def warm_import_index(project: str, event_name: str) -> bool:
    """The import index (the tests sidecar's basis `imports`), as the function index: built or
    refreshed in the background, with the last red run's answer, so the first edit after it is not
    silent."""
    from sidekit_hooks.code import INDEX_FILE
    from sidekit_hooks.core import workspace
    from sidekit_hooks.detectors import tests
    from sidekit_hooks.status import cache

    root = cache.workspace_root(project)
    try:
        built = _mtime(os.path.join(workspace.state_dir(root), INDEX_FILE))
        return tests.warm(root, refresh=bool(built) and outdated(root, built))
    except Exception as exc:  # noqa: BLE001 - a warm-up that fails must not cost the session
        hooklog.error(project, event_name, "import-index", exc)
        return False


def outdated(project: str, built: float, now: float | None = None) -> bool:
    """Worth a refresh at session start: git moved since the index was built (checkout, pull,
    commit), or the index is older than STALE_AT_START. Two or three stats; edits made in the
    session refresh it through the tools sidecar anyway."""
    moment = time.time() if now is None else now
    if moment - built > STALE_AT_START:
        return True
    return any(_mtime(os.path.join(project, ".git", name)) > built for name in GIT_MARKERS)


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def tiny_project(project: str, max_files: int = TINY_FILES, max_bytes: int = TINY_BYTES) -> bool:
    """At most `max_files` Python files holding `max_bytes`; stops walking as soon as either is
    passed."""
    from sidekit_hooks.code.functions import (
        SKIP_DIRS,
    )  # the function index's own walk skips the same
    from sidekit_hooks.core import workspace

    files = size = 0
    for entry in workspace.walk(
        project, lambda name: name not in SKIP_DIRS and not name.startswith(".")
    ):
        if entry.name.endswith(".py") and not entry.is_dir(follow_symlinks=False):
            files += 1
            try:
                size += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
            if files > max_files or size > max_bytes:
                return False
    return True


def scope_primer(event: Event, ctx: Context) -> str:
    """One line (under MAX_NUDGE) restating the task's scope; "" without a scope, or with scope
    muted."""
    from sidekit_hooks.detectors.scope import model

    try:
        scope = model.load(ctx.project)
    except model.ScopeError:
        return ""
    if scope is None:
        return ""
    config = policy.Config(ctx.packs().get("policy", {}))
    if "scope" in config.mute or PRIMER_RULE in config.mute:
        return ""
    allow = ", ".join(scope.allow) or "anything not excluded"
    deny = f"; never {', '.join(scope.deny)}" if scope.deny else ""
    task = f" ({scope.issue})" if scope.issue else ""
    line = policy.clip(
        # a later line says what if not
        f"[sidecar:scope] This task's scope{task}: edit only {allow}{deny}."
    )
    _log(
        ctx.project,
        event,
        {
            "sidecar": "scope",
            "rule": PRIMER_RULE,
            "decision": "delivered",
            "text": line,
            "source": str(event.raw.get("source") or ""),
        },
    )
    return line


# ---------------------------------------------------------------------------------------------
# Stop and SubagentStop


def stop(event: Event, ctx: Context, config_of: Callable[[Context], policy.Config]) -> str:
    """Re-check this agent's delivered findings; the reminders to say (once each), or ""."""
    if not event.session_id:
        return ""
    book = session_ledger.read(ctx.project, event.session_id)
    facts: list[dict[str, Any]] = []
    still: list[dict[str, Any]] = []
    for key in book.delivered:
        record = book.findings.get(key)
        if record is None or str(record.get("agent", "")) != event.agent_id:
            continue
        check = record.get("recheck")
        if key in book.untrue:  # wrong when said: whatever the files say now, it was never fixed
            verdict = recheck.UNTRUE
        else:
            verdict = recheck.outcome(ctx.project, check) if isinstance(check, dict) else ""
        if not verdict:
            continue
        if verdict != book.outcomes.get(key):
            facts.append({"recheck": key, "outcome": verdict})
            _log_recheck(
                ctx.project,
                event,
                record,
                verdict,
                book.fix_distance(key) if verdict == recheck.FIXED else None,
            )
        if verdict == recheck.STILL and may_remind(book, key, ctx.project):
            still.append(record)
    lines = (
        reminders(still, ctx, config_of)
        if still and event.raw.get("stop_hook_active") is not True
        else []
    )
    room = (
        min(delivery.MAX_DELIVERY, spend.room(book, event.event_name, reminder=True))
        if lines
        else 0
    )
    text, said = _fitted([line for _, line in lines], room)
    for record, line in lines[:said]:  # what did not fit is reminded at the next Stop
        facts.append(_reminded(ctx.project, record))
        _log_reminder(ctx.project, event, record, line)
    session_ledger.append(ctx.project, event.session_id, facts)
    return text


def reminders(
    still: list[dict[str, Any]],
    ctx: Context,
    config_of: Callable[[Context], policy.Config],
    lead: str = AT_STOP,
) -> list[tuple[dict[str, Any], str]]:
    """(record, line) for each still-open finding the policy wants said again."""
    config = config_of(ctx)
    out: list[tuple[dict[str, Any], str]] = []
    for record in still:
        sidecar, rule = str(record.get("sidecar", "")), str(record.get("rule", ""))
        if not config.reminds(sidecar, rule, str(record.get("severity", "medium"))):
            continue
        said = str(record.get("text", ""))
        prefix = f"[sidecar:{sidecar}] "
        body = said[len(prefix) :] if said.startswith(prefix) else said
        check = record.get("recheck")
        again = recheck.again(ctx.project, check) if isinstance(check, dict) else ""
        out.append(
            (record, policy.clip(f"{prefix}{lead}{again or body}"))
        )  # `again`: its short form, if any
    return out


def _log_reminder(project: str, event: Event, record: dict[str, Any], line: str) -> None:
    _log(
        project,
        event,
        {
            "sidecar": str(record.get("sidecar", "")),
            "rule": str(record.get("rule") or REMINDER_RULE),
            "key": str(record["admit"])[:200],
            "path": str(record.get("path", "")),
            "decision": "reminded",
            "text": line,
        },
    )


def _log_recheck(
    project: str, event: Event, record: dict[str, Any], verdict: str, calls: int | None
) -> None:
    entry: dict[str, Any] = {
        "sidecar": str(record.get("sidecar", "")),
        "rule": str(record.get("rule", "")),
        "key": str(record["admit"])[:200],
        "path": str(record.get("path", "")),
        "decision": "rechecked",
        "outcome": verdict,
        "text": str(record.get("text", ""))[:300],
    }
    if record.get("subject"):
        entry["subject"] = str(record["subject"])
    if calls is not None:
        entry["calls"] = calls
    _log(project, event, entry)


def _log(project: str, event: Event, fields: dict[str, Any]) -> None:
    record: Decision = {"session": event.session_id, "hook": event.event_name, **fields}  # type: ignore[typeddict-item]
    if event.agent_id:
        record["agent"] = event.agent_id
    hooklog.append(project, hooklog.DECISIONS, record)
