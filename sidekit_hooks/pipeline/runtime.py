"""One hook invocation: payload -> event -> detectors -> policy -> queue -> one delivery.

Fail-open everywhere: whatever goes wrong is logged under `.sidekit/log/` and the agent's session
goes on. Standard library only; detectors that need more import it themselves, lazily.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks import detectors, runners
from sidekit_hooks.code import written
from sidekit_hooks.core import budget, fastjson, hook_table, hookinput, hooklog, redact, workspace
from sidekit_hooks.nudges import delivery, ledger, policy, queue, spend
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.findings import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Finding

# The detached workers a hook starts (`python -m <module> JOB`): they finish what it could not.
FINISH_WORKER = "sidekit_hooks.pipeline.finish"  # detectors cut off by their budget (core/later.py)
FEED_WORKER = "sidekit_hooks.pipeline.feed_worker"  # a raw run's reports into the cache (runners/junit/feed.py)
DRAINING_HOOKS = hook_table.DRAINING
TOOL_HOOKS = hook_table.TOOL_CALLS
LIFECYCLE_HOOKS = hook_table.LIFECYCLE
DETECTOR_BUDGET = 0.35  # seconds for all detectors together; delivery always gets its turn after
DELIVERY_RESERVE = 0.1  # seconds before the hard deadline kept for policy, queue and delivery
HARD_DEADLINE = 0.8  # seconds; past this the hook gives up and delivers only what it had claimed first

BUILDING_NOTICE = "SIDEKIT_BUILDING_NOTICE"  # set by hooks/run, once, while the plugin's environment builds

# Claims taken by this process and not yet planned: what a deadline must put back.
HELD: list[queue.Claim] = []
# When queue work must be done (monotonic): a locked Gas City state file is waited for until then only.
QUEUE_DEADLINE = [0.0]
# Whether this call is a test run whose results a detached worker is about to feed (junit_feed): a tests
# finding queued earlier speaks of the run before it, so it waits for the next boundary.
FEEDING = [False]
CITY_CLAIM_WAIT = 0.25  # seconds a drain waits for Gas City's lock (gc holds it for milliseconds)
CITY_BUSY: set[str] = set()  # cities whose lock or file failed in this hook: not waited for again
_CITIES: dict[str, str] = {}  # project -> its Gas City ('' for none), found once per process
CURRENT: dict[str, str] = {}  # this hook's project and session, for what runs after the output (timings)
CONTEXT_VARIABLES = (("gt_role", "GT_ROLE"), ("gt_run_id", "GT_RUN_ID"), ("gc_agent", "GC_AGENT"))
TELEMETRY_WORKER = "sidekit_hooks.telemetry.worker"  # started at Stop when an export is configured
# The ledger facts of the event being handled, appended in one write when `respond` ends (even when
# the deadline cuts it short): a tool call, what was admitted, what was delivered.
FACTS: list[dict[str, Any]] = []


class Outcome:
    """What a hook decided: the text to print and the claims to remove once it is printed."""

    __slots__ = ("output", "claims")

    def __init__(self, output: str = "", claims: list[queue.Claim] | None = None) -> None:
        self.output = output
        self.claims = claims or []


def run(hook: str, stdin_text: str, started: float | None = None) -> Outcome:
    """Handle one event. Never raises for bad input; may raise only what the deadline alarm raises."""
    started = time.monotonic() if started is None else started
    HELD.clear()
    CURRENT.clear()
    FEEDING[0] = False
    QUEUE_DEADLINE[0] = started + HARD_DEADLINE - DELIVERY_RESERVE
    CITY_BUSY.clear()
    try:
        payload, mended = hookinput.parse(stdin_text)
    except hookinput.BadInput as exc:  # bad input, logged as such: never a crash
        hookinput.log(workspace.project_dir(), hook, exc)
        return Outcome()
    if mended:
        hookinput.log(workspace.project_dir(), hook, mended)
    cwd = payload.get("cwd")
    project = workspace.project_dir(cwd if isinstance(cwd, str) else "")
    event = parse_event(hook, payload, project)
    CURRENT["project"], CURRENT["session"] = project, event.session_id
    if (
        hook in hook_table.AFTER_A_TOOL
    ):  # first: the code index's warm check must see a write even if a detector overruns
        written.note(project, event.tool)
    _note_context(payload, event)
    if event.kind == "shell" and runners.triggered(event.command) and event.hook in TOOL_HOOKS:
        _feed_build_run(event)
    if hook == "SessionStart":
        _export_for_agent(project)
    # The rule packs are read once per event, when first needed: the specs sidecar and the policy share them.
    ctx = Context(
        project, event.session_id, started + DETECTOR_BUDGET, read_snapshot=lambda ctx: read_snapshot(event, ctx)
    )
    _plugin_form(event, ctx)
    context, claims = respond(event, ctx)
    return Outcome(delivery.hook_output(event.hook, context, ctx.notices), claims)  # the one place output is built


def _feed_build_run(event: Event) -> None:
    """A raw `mvn test` / `gradle test` (or a compacted go, vitest or jest run) that PreToolUse marked has
    ended: what it left goes to the cache in a detached worker (runners/junit/feed.py). Costs one failed
    rename for any other test command."""
    from sidekit_hooks.runners.junit import feed as junit_feed

    try:
        FEEDING[0] = bool(junit_feed.hand_over(event, FEED_WORKER))
    except (OSError, ValueError) as exc:
        hooklog.error(event.project_dir, event.hook, "junit-feed", exc)


def _note_context(payload: dict[str, Any], event: Event) -> None:
    """What the decisions this hook logs carry besides their own fields (OpenTelemetry attributes)."""
    hooklog.CONTEXT.clear()
    prompt = payload.get("prompt_id")
    found = [("prompt", prompt if isinstance(prompt, str) else ""), ("tool_use_id", event.tool_use_id)]
    found += [(field, os.environ.get(name, "")) for field, name in CONTEXT_VARIABLES]
    hooklog.CONTEXT.update((field, value[:200]) for field, value in found if value)


def after_output(hook: str, started: float, output: str) -> None:
    """Once the output is out: with an export configured, log this hook's time and bytes, and at Stop
    start the detached exporter (telemetry/worker.py). Nothing at all without the configuration."""
    project = CURRENT.get("project", "")
    if not project:
        return
    from sidekit_hooks.core import exportconfig

    if not exportconfig.configured(project):
        return
    hooklog.append(
        project,
        hooklog.TIMINGS,
        {
            "hook": hook,
            "session": CURRENT.get("session", ""),
            "ms": round((time.monotonic() - started) * 1000, 2),
            "bytes": len(output.encode("utf-8", "replace")),
            **hooklog.CONTEXT,
        },
    )
    if hook == "Stop":
        from sidekit_hooks.core import background

        try:
            background.spawn_module(TELEMETRY_WORKER, [project], isolation="-P")
        except OSError as exc:
            hooklog.error(project, hook, "otel-worker", exc)


def respond(event: Event, ctx: Context) -> tuple[str, list[queue.Claim]]:
    """(what the model reads, the claims to commit once it is printed)."""
    FACTS.clear()
    try:
        text, claims = _respond(event, ctx)
        if text and event.session_id and not event.is_subagent:  # what it costs the model (nudges/spend.py)
            FACTS.append(spend.spent_fact(text, event.hook, event.tool))
        return text, claims
    finally:  # also on the deadline (a BaseException): what was queued is in the ledger, for Stop
        ledger.append(ctx.project, event.session_id, FACTS[:])
        FACTS.clear()


def _respond(event: Event, ctx: Context) -> tuple[str, list[queue.Claim]]:
    draining = event.hook in DRAINING_HOOKS and not event.is_subagent
    since = time.time()  # nudges queued before this moment are re-checked before they are said
    # Drain first: what was queued before this call is claimed before any detector runs, so a
    # detector that runs out of time cannot hold it back (hook.main delivers HELD on its deadline).
    early = claim_queued(event, ctx.project, since) if draining else []
    if event.hook in LIFECYCLE_HOOKS:
        return respond_lifecycle(event, ctx, early, since)
    if event.hook in TOOL_HOOKS and event.session_id:  # the session's ledger counts tool calls (Stop, report)
        call: dict[str, Any] = {"call": event.path if event.kind == "write" else ""}
        out = spend.result_bytes(event)
        if out:
            call["out"] = out
        FACTS.append(call)
        _note_compacted(event, ctx.project)
    findings = run_detectors(detectors.names(event.hook), event, ctx)
    if event.is_subagent:
        # A subagent shares the session id, but the queue belongs to the main agent: say the
        # subagent's own findings to it directly and leave the queue for the main thread.
        said = policy.lines(findings, event, ctx, policy_config(ctx))
        FACTS.extend(
            [ledger.admitted(finding, line, event.agent_id) for line, finding in said]
            + [
                delivered_fact(ctx.project, finding.key, {k: str(v) for k, v in (finding.recheck or {}).items()})
                for _, finding in said
            ]
        )
        return redact.redact("\n".join(line for line, _ in said)), []
    seen: list[str] = []  # the session's queue folder as the writes listed it: the drain claims from it
    try:
        enqueue_findings(findings, event, ctx, seen)
    except Exception as exc:  # noqa: BLE001 - a policy failure costs this call's findings, not the queue
        hooklog.error(ctx.project, event.hook, "policy", exc)
    if not draining:
        return "", []
    return drain(event, ctx.project, early, since=since, seen=seen)


def _note_compacted(event: Event, project: str) -> None:
    """A Bash call whose output is compact answers: what it saved goes to the decisions log (the report's
    headline). One substring test for any other call."""
    if event.kind != "shell" or " B) compacted; exit code " not in (event.output or event.error):  # savings.MARK
        return
    from sidekit_hooks.nudges import savings

    saved = savings.record(event)
    if saved:
        hooklog.append(project, hooklog.DECISIONS, saved)


def respond_lifecycle(
    event: Event, ctx: Context, early: list[queue.Claim], since: float = 0.0
) -> tuple[str, list[queue.Claim]]:
    """SessionStart: warm the indexes, prime the scope, deliver what waits. Stop: re-check findings."""
    from sidekit_hooks.pipeline import lifecycle

    if event.hook == "SessionStart":
        primer = lifecycle.session_start(event, ctx)
        if event.is_subagent:
            return primer, []
        room = delivery.MAX_DELIVERY - len(primer) - 1 if primer else delivery.MAX_DELIVERY
        text, claims = drain(event, ctx.project, early, room, since, said=len(primer) + 1 if primer else 0)
        return "\n".join(part for part in (primer, text) if part), claims
    return lifecycle.stop(event, ctx, policy_config), []


def _plugin_form(event: Event, ctx: Context) -> None:
    """Plugin form: set the project up at the first session as `sidekit install` would (in the
    background), and tell the user, once, what was done or that the environment is still building."""
    from sidekit_hooks.core import pluginform

    building = os.environ.get(BUILDING_NOTICE, "")  # hooks/run: this hook runs on the standard library meanwhile
    if building:
        ctx.notify_user(building)
    root = pluginform.plugin_root()
    if not root or event.is_subagent:
        return
    try:
        if event.hook == "SessionStart" and pluginform.setup_needed(ctx.project, root):
            pluginform.start_setup(ctx.project, root)
        said = pluginform.claim_notice(ctx.project)
    except OSError as exc:
        hooklog.error(ctx.project, event.hook, "plugin-setup", exc)
        return
    if said:
        ctx.notify_user(said)


def _export_for_agent(project: str) -> None:
    """Settings form: put `sidekit` on the agent's Bash PATH for this session (see core/agentpath)."""
    try:
        from sidekit_hooks.core import agentpath

        agentpath.export_for_agent()
    except OSError as exc:
        hooklog.error(project, "SessionStart", "agent-path", exc)


def read_snapshot(event: Event, ctx: Context) -> dict[str, Any]:
    """The compiled rule packs (recompiling what changed); empty when they cannot be read."""
    from sidekit_hooks.rules.snapshot import COMPILE_BUDGET, current

    try:
        # A hook compiles changed packs within what is left of the detectors' time (at least
        # COMPILE_BUDGET), stopping short of the cut-off so the work done is saved; big packs go to
        # a background worker.
        left = cutoff(ctx) - 0.05 - time.monotonic()
        return dict(
            current(ctx.project, notify=ctx.notify_user, hook=event.hook, compile_budget=max(COMPILE_BUDGET, left))
        )
    except Exception as exc:  # noqa: BLE001 - a broken pack must not silence the other sidecars
        hooklog.error(ctx.project, event.hook, "rules", exc)
        return {}


def run_detectors(names: list[str], event: Event, ctx: Context) -> list[Finding]:
    found: list[Finding] = []
    unfinished: list[str] = []  # cut off, skipped, or asking for work no hook does: finished later
    for position, name in enumerate(names):
        left = ctx.deadline - time.monotonic()
        if left <= 0:
            hooklog.error(ctx.project, event.hook, f"detector:{name}", "skipped: detector budget spent")
            unfinished.extend(names[position:])
            break
        budget.doing(f"detector {name}")
        try:
            # Each detector is cut off once it overruns the shared budget: a bad field, pack or scope
            # costs only the detector that reads it.
            found.extend(budget.bounded(budget.call_with(_detect, name, event, ctx), cutoff(ctx) - time.monotonic()))
            if budget.wants_later(ctx.memo, name):
                unfinished.append(name)
        except budget.OutOfTime:
            unfinished.append(name)
            hooklog.append(
                ctx.project,
                hooklog.ERRORS,
                {
                    "hook": event.hook,
                    "where": f"timeout:detector:{name}",
                    "culprit": budget.NOW[0],
                    "error": f"ran past its time ({round(left * 1000)} ms left of the detector budget): {budget.NOW[0]}",
                },
            )
        except budget.Later:
            unfinished.append(name)
        except Exception as exc:  # noqa: BLE001 - one broken sidecar (RecursionError, ValueError...) alone
            hooklog.error(ctx.project, event.hook, f"detector:{name}", exc)
    budget.doing("")
    if unfinished:
        _finish_later(unfinished, event, ctx)
    return found


def _finish_later(names: list[str], event: Event, ctx: Context) -> None:
    """Hand what this hook could not finish to a detached worker (its findings come at the next boundary)."""
    from sidekit_hooks.core import later

    # Only what a worker can load (registered by import path) and a main agent's session (its queue).
    if not event.session_id or event.is_subagent:
        return
    names = [
        name
        for name in names
        if not detectors.REGISTRY.get(name, ("<object",))[0].startswith("<object")
        and not later.recently_slow(ctx.project, name)
    ]
    if not names:
        return
    try:
        later.hand_over(ctx.project, event.hook, event.raw, names, "budget", FINISH_WORKER)
    except OSError as exc:
        hooklog.error(ctx.project, event.hook, "later", exc)


def cutoff(ctx: Context) -> float:
    """When a detector still running is cut off: the hard deadline less what delivery needs. (The
    shared budget, `ctx.deadline`, decides whether the next detector starts at all.)"""
    return ctx.deadline - DETECTOR_BUDGET + HARD_DEADLINE - DELIVERY_RESERVE


def _detect(name: str, event: Event, ctx: Context) -> list[Finding]:
    return list(detectors.load(name).detect(event, ctx))


def claim_queued(event: Event, project: str, since: float = 0.0, seen: list[str] | None = None) -> list[queue.Claim]:
    """Claim what is queued for this session (and its Gas Town tmux session); held in HELD. A finding
    queued before `since` (an earlier call) is re-checked first, and dropped as moot when no longer true.
    `seen`: the session's folder as this hook's own writes just listed it (not listed again)."""
    root = workspace.queue_root(project)
    claims: list[queue.Claim] = []
    for session in sessions_to_drain(event.session_id):
        names = seen if seen and session == event.session_id else None
        try:
            got = queue.claim(root, session, on_discard=_log_discard(project, event.hook), names=names)
        except (OSError, workspace.UnsafeSessionName) as exc:
            if not isinstance(exc, OSError) or _first(exc):
                hooklog.error(project, event.hook, "drain", exc)
            continue
        got = true_now(got, event, project, since) if since else got
        claims.extend(got)
        HELD.extend(got)
    city_root = city_of(project)
    if city_root and city_root not in CITY_BUSY and not _gc_drains(project, city_root):
        from sidekit_hooks.nudges import city

        try:
            # A claim waits for the lock a short while only: detectors and delivery come after it.
            wait = min(queue_deadline(), time.monotonic() + CITY_CLAIM_WAIT)
            got = list(city.claim(city_root, wait, max_bytes=city.HOOK_STATE))
        except city.StateTooLarge as exc:  # over what a hook reads in time: a worker drains it for next turn
            CITY_BUSY.add(city_root)
            _hand_off(city_root, event, project, exc)
            got = []
        except OSError as exc:  # locked past the deadline, corrupt: this turn goes without
            CITY_BUSY.add(city_root)  # and does not wait for it a second time
            hooklog.error(project, event.hook, "city-drain", exc)
            got = []
        claims.extend(got)
        HELD.extend(got)
    return claims


def _hand_off(city_root: str, event: Event, project: str, why: OSError) -> None:
    """Start the worker that moves this session's city items to its file queue (nudges/city_handoff.py)."""
    hooklog.error(project, event.hook, "city-drain", why)
    if not event.session_id or event.is_subagent:
        return
    from sidekit_hooks.nudges import city_handoff

    try:
        city_handoff.start(city_root, workspace.queue_root(project), event.session_id, project)
    except OSError as exc:
        hooklog.error(project, event.hook, "city-handoff", exc)


def city_of(project: str) -> str:
    """The Gas City this project sits in, when this session has a Gas City identity; ''."""
    if project not in _CITIES:
        from sidekit_hooks.nudges import city

        _CITIES[project] = city.find_city(project) if city.identity()[1] else ""
    return _CITIES[project]


def _gc_drains(project: str, city_root: str) -> bool:
    from sidekit_hooks.nudges import city

    return city.gc_drains(project, city_root)


def queue_deadline() -> float:
    """The queue's deadline in this hook; a direct call (no hook started it) gets half a second."""
    return QUEUE_DEADLINE[0] if QUEUE_DEADLINE[0] > time.monotonic() else time.monotonic() + 0.5


def true_now(claims: list[queue.Claim], event: Event, project: str, since: float) -> list[queue.Claim]:
    """The claims still true at delivery: a nudge written before `since` that carries a re-check (a
    tests finding: its tests still fail in the newest run; scope: the file still differs from its base;
    a helper copy: both defs exist; a rule: its line is still there) is judged again. One no longer
    true is removed and logged as moot. Costs nothing for a nudge written in this very call. A tests
    finding in a call whose own test run is still being fed (FEEDING) is put back for the next boundary."""
    from sidekit_hooks.nudges import recheck

    kept: list[queue.Claim] = []
    for held in claims:
        record = _recheck(held.nudge.extra.get("recheck"))
        if FEEDING[0] and record.get("kind") == "tests":
            queue.release([held])  # the run this call made is not in the cache yet: judged at the next boundary
            continue
        if record and queue.name_time(held.name) < since and not recheck.holds(project, record):
            queue.commit([held])
            policy.record_moot(project, event.hook, event.session_id, held)
            continue
        kept.append(held)
    return kept


def _recheck(check: object) -> dict[str, str]:
    """A nudge's `recheck` record ({} when it has none, or one that does not read: never dropped on a guess)."""
    if not isinstance(check, str):
        return {}
    try:
        record = fastjson.loads(check)
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in record.items()} if isinstance(record, dict) else {}


def _first(exc: OSError) -> bool:
    """A refused path is logged once per process (doctor reports it for good)."""
    from sidekit_hooks.core import safepath

    return not isinstance(exc, safepath.UnsafePath) or safepath.first_report(str(exc))


def enqueue_findings(findings: list[Finding], event: Event, ctx: Context, seen: list[str] | None = None) -> None:
    """Queue what the policy admits; `seen` gets the folder's listing the writes took (see queue.enqueue)."""
    if not event.session_id:
        return
    # Called with no findings too: the policy notes files that went clean (its back-and-forth rule).
    root = workspace.queue_root(ctx.project)
    city_root = city_of(ctx.project)
    waiting = not findings and policy.has_deferred(ctx.project, event.session_id)  # deferred findings need the caps
    config = policy_config(ctx) if findings or waiting else policy.Config()

    def send(line: str, finding: Finding) -> bool:
        # Only what reached the queue counts as said (the policy forgets the rest, to say it again).
        # Nudge text can quote tool data (a command, a path, output): secrets in it are masked here.
        extra = {"sidecar": finding.sidecar, "rule": finding.rule_id, "finding": finding.key[:500]}
        if finding.recheck:  # a later delivery re-checks it (see true_now)
            extra["recheck"] = fastjson.dumps(finding.recheck)
        nudge = queue.Nudge(
            redact.redact(line), sender=f"sidekit/{finding.sidecar}", priority=finding.priority, extra=extra
        )
        try:
            if city_root in CITY_BUSY:
                return False  # not said: the policy says it again at a later call
            if city_root:  # inside a Gas City its queue is the one queue, for gc and for us
                _enqueue_city(city_root, nudge, finding, ctx.project, event.hook)
            else:
                queue.enqueue(root, event.session_id, nudge, on_drop=_log_drop(ctx.project, event.hook), seen=seen)
        except (OSError, workspace.UnsafeSessionName) as exc:
            if city_root:
                CITY_BUSY.add(city_root)
            if not isinstance(exc, OSError) or _first(exc):
                hooklog.error(ctx.project, event.hook, "enqueue", exc)
            return False
        FACTS.append(ledger.admitted(finding, line))  # for Stop's re-check
        return True

    policy.admit(findings, event, ctx, config, send=send)


def _enqueue_city(city_root: str, nudge: queue.Nudge, finding: Finding, project: str, hook: str) -> None:
    from datetime import timedelta

    from sidekit_hooks.nudges import city

    session, keys = city.identity()
    ttl = queue.URGENT_TTL if nudge.urgent else queue.NORMAL_TTL  # a finding goes stale as a Gas Town nudge does
    item = city.new_item(
        nudge.message,
        keys[0],
        session,
        finding=finding.key,
        sidecar=finding.sidecar,
        rule=finding.rule_id,
        expires_at=nudge.timestamp + timedelta(seconds=ttl),
        recheck=str(nudge.extra.get("recheck") or ""),
    )
    for dropped in city.enqueue(city_root, [item], min(queue_deadline(), time.monotonic() + CITY_CLAIM_WAIT)):
        hooklog.error(
            project,
            hook,
            "queue-cap",
            f"dropped {dropped.get('id')} from sidekit: over {city.MAX_OWN_PENDING} pending in the city queue",
        )


def policy_config(ctx: Context) -> policy.Config:
    """`[policy]` from the merged rule packs this event read (later layers win)."""
    return policy.Config(ctx.packs().get("policy", {}))


def drain(
    event: Event,
    project: str,
    early: list[queue.Claim] | None = None,
    room: int = delivery.MAX_DELIVERY,
    since: float = 0.0,
    seen: list[str] | None = None,
    said: int = 0,
) -> tuple[str, list[queue.Claim]]:
    """Plan one delivery (within `room` characters) of what was claimed first (`early`) and what was queued
    since; sidekit's own nudges within what is left of the session's nudge budget once `said` characters
    are out (`within_budget`). What does not fit waits in the queue; when nothing fits, nothing is said."""
    claims = list(early or []) + claim_queued(event, project, since, seen)  # what was queued first goes first
    if not claims:
        return "", []
    claims, waiting = within_budget(claims, event, project, said)
    text, delivered, left = delivery.plan(claims, room)
    if not delivered:
        queue.release(claims + waiting)
        return "", []
    queue.release(left + waiting)
    policy.record_delivered(project, event.hook, event.session_id, delivered)
    FACTS.extend(
        delivered_fact(project, held.nudge.extra["finding"], _recheck(held.nudge.extra.get("recheck")))
        for held in delivered
        if isinstance(held.nudge.extra.get("finding"), str)
    )
    return text, delivered


def within_budget(
    claims: list[queue.Claim], event: Event, project: str, said: int = 0
) -> tuple[list[queue.Claim], list[queue.Claim]]:
    """(what may go out now, sidekit's nudges that wait for the budget): sidekit's own nudges, in order,
    while their lines fit what the session's budget leaves (nudges/spend.py); a message someone else queued
    (Gas Town's mayor, `gt nudge`) is theirs to send and never waits for it."""
    own = [held for held in claims if delivery.is_own(held.nudge, held.nudge.message)]
    if not own:
        return claims, []
    left = budget_room(event, project) - said
    waiting: list[queue.Claim] = []
    for held in own:
        cost = len(delivery.line_for(held.nudge)) + 1
        if waiting or cost > left:  # in order: a later, shorter line does not pass one that waits
            waiting.append(held)
        else:
            left -= cost
    gone = {id(held) for held in waiting}
    return [held for held in claims if id(held) not in gone], waiting


def budget_room(event: Event, project: str) -> int:
    """What the session's nudge budget leaves now (nudges/spend.py): the ledger, and this call's result
    (its fact is not written yet). Read only when something is to be delivered."""
    if not event.session_id:
        return delivery.MAX_DELIVERY
    pending = sum(int(fact.get("out", 0)) for fact in FACTS if "call" in fact)
    return spend.room(ledger.read(project, event.session_id), event.hook, event.tool, pending)


def delivered_fact(project: str, key: str, check: dict[str, str]) -> dict[str, Any]:
    """The ledger's `deliver` fact; a tests finding already untrue as it is said is marked so (Stop then
    counts it apart, never as fixed). Costs nothing for any other finding."""
    fact: dict[str, Any] = {"deliver": key[:500]}
    if check.get("kind") == "tests":
        from sidekit_hooks.nudges import recheck

        if recheck.untrue_when_said(project, check):
            fact["untrue"] = 1
    return fact


def sessions_to_drain(session_id: str) -> list[str]:
    sessions = [session_id] if session_id else []
    tmux_session = workspace.gastown_session()
    if tmux_session and tmux_session not in sessions:
        sessions.append(tmux_session)
    return sessions


def _log_drop(project: str, hook: str) -> Callable[[str, queue.Nudge], None]:
    def on_drop(name: str, nudge: queue.Nudge) -> None:
        hooklog.error(project, hook, "queue-cap", f"dropped {name} from {nudge.sender}: queue over {queue.MAX_DEPTH}")

    return on_drop


def _log_discard(project: str, hook: str) -> Callable[[str, str], None]:
    def on_discard(name: str, why: str) -> None:
        if why != "expired":
            hooklog.error(project, hook, "drain", f"discarded {name}: {why}")

    return on_discard


def env_disabled() -> bool:
    """`SIDEKIT_DISABLE=1` turns every hook into a silent no-op (a kill switch for users)."""
    return os.environ.get("SIDEKIT_DISABLE", "") not in ("", "0")
