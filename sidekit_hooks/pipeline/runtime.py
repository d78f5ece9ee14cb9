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
from sidekit_hooks.nudges import delivery, policy, queue, session_ledger, spend
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.findings import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Finding
    from sidekit_hooks.nudges.session_queue import SessionQueue

# The detached workers a hook starts (`python -m <module> JOB`): they finish what it could not.
FINISH_WORKER = "sidekit_hooks.pipeline.finish"  # detectors cut off by their budget (core/later.py)
# a raw run's reports into the cache (runners/junit/feed.py)
FEED_WORKER = "sidekit_hooks.pipeline.feed_worker"
DRAINING_HOOKS = hook_table.DRAINING
LIFECYCLE_HOOKS = hook_table.LIFECYCLE
DETECTOR_BUDGET = 0.35  # seconds for all detectors together; delivery always gets its turn after
# seconds before the hard deadline (the event's: core/hook_table.py) kept for delivery
DELIVERY_RESERVE = 0.1
# seconds a worker's queue work may wait (a Gas City lock): no hook's deadline there
WORKER_QUEUE_WAIT = 0.5

# set by hooks/run, once, while the plugin's environment builds
BUILDING_NOTICE = "SIDEKIT_BUILDING_NOTICE"
CONTEXT_VARIABLES = (("gt_role", "GT_ROLE"), ("gt_run_id", "GT_RUN_ID"), ("gc_agent", "GC_AGENT"))
TELEMETRY_WORKER = "sidekit_hooks.telemetry.worker"  # started at Stop when an export is configured


class Call:
    """One hook call, made once (`begin`; a worker's: `Call(event, ctx)`) and passed to every step:
    the event, its deadline, the session's queue, and what the call has decided so far."""

    __slots__ = (
        "event",
        "ctx",
        "event_name",
        "started",
        "deadline",
        "held",
        "facts",
        "feeding",
        "unfinished",
        "deferred",
        "_queue",
    )

    def __init__(
        self,
        event: Event,
        ctx: Context,
        started: float | None = None,
        deadline: float | None = None,
        event_name: str = "",
    ) -> None:
        self.event = event
        self.ctx = ctx  # what the detectors see (project, session, their budget, the memo)
        self.event_name = event_name or event.event_name  # the event the entry was started for
        self.started = time.monotonic() if started is None else started
        # The hard deadline (monotonic): the event's, from the hook event table. A worker's call has
        # no hook's deadline: its queue work (a Gas City lock) waits WORKER_QUEUE_WAIT at most.
        self.deadline = (
            self.started + DELIVERY_RESERVE + WORKER_QUEUE_WAIT if deadline is None else deadline
        )
        self.held: list[
            queue.Claim
        ] = []  # claims taken and not yet planned: what a deadline must put back
        # The ledger facts of this event, appended in one write when `respond` ends (even when the
        # deadline cuts it short): a tool call, what was admitted, what was delivered.
        self.facts: list[dict[str, Any]] = []
        # Whether this call is a test run whose results a detached worker is about to feed
        # (junit_feed): a tests finding queued earlier speaks of the run before it, so it waits for
        # the next boundary.
        self.feeding = False
        # The detectors not finished yet (cut off, skipped, asking for more, or not yet run): what a
        # worker finishes later, also when the hard deadline cuts the call short (`finish_later`).
        self.unfinished: list[str] = []
        # Whether the call's output may never reach the model (the async `fallback` command hook
        # of the warm path): it then only queues what it finds, for the next synchronous delivery
        # (the warm server's next answer, a prompt, SessionStart), drains nothing and folds no
        # tool output (docs/warm-path.md).
        self.deferred = False
        self._queue: SessionQueue | None = None

    @property
    def project(self) -> str:
        return self.ctx.project

    @property
    def queue(self) -> SessionQueue:
        """The session's queue (a Gas City's or the file queue), found on first use (an event that
        neither drains nor queues never imports it); its work is done before the delivery
        reserve."""
        if self._queue is None:
            from sidekit_hooks.nudges import session_queue

            self._queue = session_queue.for_session(
                self.project,
                self.event.session_id,
                self.event.event_name,
                self.deadline - DELIVERY_RESERVE,
                main=not self.event.is_subagent,
            )
        return self._queue

    def cutoff(self) -> float:
        """When a detector still running is cut off: the hard deadline less what delivery needs.
        (The shared budget, `ctx.deadline`, decides whether the next detector starts at all.)"""
        return self.deadline - DELIVERY_RESERVE


class Outcome:
    """What a hook decided: the text to print and the claims to remove once it is printed."""

    __slots__ = ("output", "claims")

    def __init__(self, output: str = "", claims: list[queue.Claim] | None = None) -> None:
        self.output = output
        self.claims = claims or []


def run(event_name: str, stdin_text: str, started: float | None = None) -> Outcome:
    """Handle one event given as text (playback, tests): parsed here, then as the hook entry does it
    (`hook.main` parses its stdin once and calls `begin` and `handle`). Never raises for bad input;
    may raise only what the deadline alarm raises."""
    started = time.monotonic() if started is None else started
    payload = parse(event_name, stdin_text)
    return Outcome() if payload is None else handle(begin(event_name, payload, started))


def parse(event_name: str, stdin_text: str) -> dict[str, Any] | None:
    """The event's payload, or None for bad input (logged as such: never a crash)."""
    try:
        payload, mended = hookinput.parse(stdin_text)
    except hookinput.BadInput as exc:
        hookinput.log(workspace.project_dir(), event_name, exc)
        return None
    if mended:
        hookinput.log(workspace.project_dir(), event_name, mended)
    return payload


def begin(
    event_name: str, payload: dict[str, Any], started: float, *, deferred: bool = False
) -> Call:
    """The call of one parsed event, its hard deadline the event's own (core/hook_table.py).
    `deferred`: what it finds is only queued (`Call.deferred`)."""
    cwd = payload.get("cwd")
    project = workspace.project_dir(cwd if isinstance(cwd, str) else "")
    event = parse_event(event_name, payload, project)
    deadline = started + hook_table.deadline_of(event_name)
    # The rule packs are read once per event, when first needed: the specs sidecar and the policy
    # share them.
    until = deadline - DELIVERY_RESERVE
    ctx = Context(
        project,
        event.session_id,
        started
        + DETECTOR_BUDGET
        * hook_table.stretch_of(event_name),  # a longer deadline: the same share of it
        read_snapshot=lambda ctx: read_snapshot(event, ctx, until),
    )
    call = Call(event, ctx, started, deadline, event_name)
    call.deferred = deferred
    return call


def handle(call: Call) -> Outcome:
    """Handle one event. May raise only what the deadline alarm raises."""
    event, ctx = call.event, call.ctx
    if (
        call.event_name in hook_table.AFTER_A_TOOL
    ):  # first: the code index's warm check must see a write even if
        written.note(ctx.project, event.tool)  # a detector overruns
    _note_context(event)
    if (
        event.kind == "shell"
        and runners.triggered(event.command)
        and event.event_name in hook_table.TOOL_EVENTS
    ):
        _feed_build_run(call)
    if call.event_name == "SessionStart":
        _export_for_agent(ctx.project)
    _plugin_form(event, ctx)
    context, claims = respond(call)
    return Outcome(
        delivery.hook_output(event.event_name, context, ctx.notices, _folded_output(call)), claims
    )  # the one place output is built


def _folded_output(call: Call) -> dict[str, Any] | None:
    """A green compacted run's Bash output with the runner's own noise folded (runners.OUTPUT_FOLDS);
    None for any other call."""
    event = call.event
    if event.event_name != "PostToolUse" or event.kind != "shell" or call.deferred:
        return None  # a deferred call's output may come too late to replace the tool's
    try:
        return runners.folded_output(event.command, event.raw, call.ctx.project)
    except (OSError, ValueError) as exc:  # the output stays as it was
        hooklog.error(call.project, call.event_name, "cargo-noise", exc)
        return None


def _feed_build_run(call: Call) -> None:
    """A raw `mvn test` / `gradle test` (or a compacted go, vitest or jest run) that PreToolUse
    marked has ended: what it left goes to the cache in a detached worker (runners/junit/feed.py).
    Costs one failed rename for any other test command."""
    from sidekit_hooks.runners.junit import feed as junit_feed

    try:
        call.feeding = bool(junit_feed.hand_over(call.event, FEED_WORKER))
    except (OSError, ValueError) as exc:
        hooklog.error(call.project, call.event_name, "junit-feed", exc)


def _note_context(event: Event) -> None:
    """What the decisions this hook logs carry besides their own fields (OpenTelemetry
    attributes)."""
    hooklog.CONTEXT.clear()
    prompt = event.raw.get("prompt_id")
    found = [
        ("prompt", prompt if isinstance(prompt, str) else ""),
        ("tool_use_id", event.tool_use_id),
    ]
    found += [(field, os.environ.get(name, "")) for field, name in CONTEXT_VARIABLES]
    hooklog.CONTEXT.update((field, value[:200]) for field, value in found if value)


def after_output(call: Call, output: str) -> None:
    """Once the output is out: with an export configured, log this hook's time and bytes, and at
    Stop start the detached exporter (telemetry/worker.py). Nothing at all without the
    configuration."""
    project = call.project
    if not project:
        return
    from sidekit_hooks.core import exportconfig

    if not exportconfig.configured(project):
        return
    hooklog.append(
        project,
        hooklog.TIMINGS,
        {
            "hook": call.event_name,
            "session": call.event.session_id,
            "ms": round((time.monotonic() - call.started) * 1000, 2),
            "bytes": len(output.encode("utf-8", "replace")),
            **hooklog.CONTEXT,
        },
    )
    if call.event_name == "Stop":
        from sidekit_hooks.core import background

        try:
            background.spawn_module(TELEMETRY_WORKER, [project], isolation="-P")
        except OSError as exc:
            hooklog.error(project, call.event_name, "otel-worker", exc)


def respond(call: Call) -> tuple[str, list[queue.Claim]]:
    """(what the model reads, the claims to commit once it is printed)."""
    event = call.event
    call.facts.clear()
    try:
        text, claims = _respond(call)
        if (
            text and event.session_id and not event.is_subagent
        ):  # what it costs the model (nudges/spend.py)
            call.facts.append(spend.spent_fact(text, event.event_name, event.tool))
        return text, claims
    finally:  # also on the deadline (a BaseException): what was queued is in the ledger, for Stop
        session_ledger.append(call.project, event.session_id, call.facts[:])
        call.facts.clear()


def _respond(call: Call) -> tuple[str, list[queue.Claim]]:
    event, ctx = call.event, call.ctx
    # A deferred call's output may never reach the model: what waits stays queued for the next
    # synchronous delivery, and what it finds joins it there.
    draining = event.event_name in DRAINING_HOOKS and not event.is_subagent and not call.deferred
    since = time.time()  # nudges queued before this moment are re-checked before they are said
    # Drain first: what was queued before this call is claimed before any detector runs, so a
    # detector that runs out of time cannot hold it back (hook.main delivers `held` on its
    # deadline).
    early = claim_queued(call, since) if draining else []
    if event.event_name in LIFECYCLE_HOOKS:
        return respond_lifecycle(call, early, since)
    if (
        event.event_name in hook_table.TOOL_EVENTS and event.session_id
    ):  # the session's ledger counts tool calls (Stop, report)
        tool_call: dict[str, Any] = {"call": event.path if event.kind == "write" else ""}
        out = spend.result_bytes(event)
        if out:
            tool_call["out"] = out
        call.facts.append(tool_call)
        _note_compacted(event, ctx.project)
    findings = run_detectors(detectors.names(event.event_name), call)
    if event.is_subagent:
        # A subagent shares the session id, but the queue belongs to the main agent: say the
        # subagent's own findings to it directly and leave the queue for the main thread.
        said = policy.lines(findings, event, ctx, policy_config(ctx))
        call.facts.extend(
            [session_ledger.admitted(finding, line, event.agent_id) for line, finding in said]
            + [
                delivered_fact(
                    ctx.project,
                    finding.key,
                    {k: str(v) for k, v in (finding.recheck or {}).items()},
                )
                for _, finding in said
            ]
        )
        return redact.redact("\n".join(line for line, _ in said)), []
    seen: list[
        str
    ] = []  # the session's queue folder as the writes listed it: the drain claims from it
    try:
        enqueue_findings(findings, call, seen)
    # a policy failure costs this call's findings, not the queue
    except Exception as exc:  # noqa: BLE001
        hooklog.error(ctx.project, event.event_name, "policy", exc)
    if not draining:
        return "", []
    return drain(call, early, since=since, seen=seen)


def _note_compacted(event: Event, project: str) -> None:
    """A Bash call whose output is compact answers: what it saved goes to the decisions log (the
    report's headline). One substring test for any other call."""
    if event.kind != "shell" or " B) compacted; exit code " not in (
        event.output or event.error
    ):  # savings.MARK
        return
    from sidekit_hooks.nudges import savings

    saved = savings.record(event)
    if saved:
        hooklog.append(project, hooklog.DECISIONS, saved)


def respond_lifecycle(
    call: Call, early: list[queue.Claim], since: float = 0.0
) -> tuple[str, list[queue.Claim]]:
    """SessionStart: warm the indexes, prime the scope, deliver what waits. Stop: re-check
    findings."""
    from sidekit_hooks.pipeline import lifecycle

    event, ctx = call.event, call.ctx
    if event.event_name == "SessionStart":
        primer = lifecycle.session_start(event, ctx)
        if event.is_subagent:
            return primer, []
        room = delivery.MAX_DELIVERY - len(primer) - 1 if primer else delivery.MAX_DELIVERY
        text, claims = drain(call, early, room, since, said=len(primer) + 1 if primer else 0)
        return "\n".join(part for part in (primer, text) if part), claims
    return lifecycle.stop(event, ctx, policy_config), []


def _plugin_form(event: Event, ctx: Context) -> None:
    """Plugin form: set the project up at the first session as `sidekit install` would (in the
    background), and tell the user, once, what was done or that the environment is still
    building."""
    from sidekit_hooks.core import pluginform

    building = os.environ.get(
        BUILDING_NOTICE, ""
    )  # hooks/run: this hook runs on the standard library meanwhile
    if building:
        ctx.notify_user(building)
    root = pluginform.plugin_root()
    if not root or event.is_subagent:
        return
    try:
        if event.event_name == "SessionStart" and pluginform.setup_needed(ctx.project, root):
            from sidekit_hooks.pipeline import plugin_setup

            plugin_setup.start_setup(ctx.project, root)
        said = pluginform.claim_notice(ctx.project)
    except OSError as exc:
        hooklog.error(ctx.project, event.event_name, "plugin-setup", exc)
        return
    if said:
        ctx.notify_user(said)


def _export_for_agent(project: str) -> None:
    """Settings form: put `sidekit` on the agent's Bash PATH for this session (see
    core/agentpath)."""
    try:
        from sidekit_hooks.core import agentpath

        agentpath.export_for_agent()
    except OSError as exc:
        hooklog.error(project, "SessionStart", "agent-path", exc)


def read_snapshot(event: Event, ctx: Context, until: float | None = None) -> dict[str, Any]:
    """The compiled rule packs (recompiling what changed); empty when they cannot be read. `until`:
    when the call's detectors are cut off (a worker's: its detectors' deadline)."""
    from sidekit_hooks.rules.snapshot import COMPILE_BUDGET, current

    try:
        # A hook compiles changed packs within what is left of the detectors' time (at least
        # COMPILE_BUDGET), stopping short of the cut-off so the work done is saved; big packs go to
        # a background worker.
        left = (ctx.deadline if until is None else until) - 0.05 - time.monotonic()
        return dict(
            current(
                ctx.project,
                notify=ctx.notify_user,
                event_name=event.event_name,
                compile_budget=max(COMPILE_BUDGET, left),
            )
        )
    except Exception as exc:  # noqa: BLE001 - a broken pack must not silence the other sidecars
        hooklog.error(ctx.project, event.event_name, "rules", exc)
        return {}


def run_detectors(names: list[str], call: Call) -> list[Finding]:
    event, ctx = call.event, call.ctx
    found: list[Finding] = []
    done: list[str] = []  # finished: what the hard deadline must not hand over again
    call.unfinished = list(
        names
    )  # until each is done; cut off, skipped or asking for more, it stays
    for name in names:
        left = ctx.deadline - time.monotonic()
        if left <= 0:
            hooklog.error(
                ctx.project, event.event_name, f"detector:{name}", "skipped: detector budget spent"
            )
            break
        budget.doing(f"detector {name}")
        try:
            # Each detector is cut off once it overruns the shared budget: a bad field, pack or
            # scope costs only the detector that reads it.
            found.extend(
                budget.bounded(
                    budget.call_with(_detect, name, event, ctx), call.cutoff() - time.monotonic()
                )
            )
            if not budget.wants_later(ctx.memo, name):
                done.append(name)
        except budget.OutOfTime:
            hooklog.append(
                ctx.project,
                hooklog.ERRORS,
                {
                    "hook": event.event_name,
                    "where": f"timeout:detector:{name}",
                    "culprit": budget.NOW[0],
                    "error": f"ran past its time ({left * 1000:.0f} ms left of the detector "
                    f"budget): {budget.NOW[0]}",
                },
            )
        except budget.Later:
            pass
        # one broken sidecar (RecursionError, ValueError...) alone
        except Exception as exc:  # noqa: BLE001
            hooklog.error(ctx.project, event.event_name, f"detector:{name}", exc)
            done.append(name)
        call.unfinished = [other for other in names if other not in done]
    budget.doing("")
    finish_later(call)
    return found


def finish_later(call: Call) -> None:
    """Hand the call's unfinished detectors to a worker, once (at the end of the detectors, or on
    the hard deadline, from `hook.main`): their findings come at the next boundary."""
    names, call.unfinished = call.unfinished, []
    if names:
        _finish_later(names, call.event, call.ctx)


def _finish_later(names: list[str], event: Event, ctx: Context) -> None:
    """Hand what this hook could not finish to a detached worker (its findings come at the next
    boundary)."""
    from sidekit_hooks.core import later

    # Only what a worker can load (registered by import path) and a main agent's session (its
    # queue).
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
        later.hand_over(ctx.project, event.event_name, event.raw, names, "budget", FINISH_WORKER)
    except OSError as exc:
        hooklog.error(ctx.project, event.event_name, "later", exc)


def _detect(name: str, event: Event, ctx: Context) -> list[Finding]:
    return list(detectors.load(name).detect(event, ctx))


def claim_queued(
    call: Call, since: float = 0.0, seen: list[str] | None = None
) -> list[queue.Claim]:
    """Claim what the session's queue holds for this call (held in `call.held` until planned). A
    finding queued before `since` (an earlier call) is re-checked first, and dropped as moot when no
    longer true. `seen`: the session's folder as this call's own writes just listed it (not listed
    again)."""
    got = call.queue.claim(seen)
    got = true_now(got, call, since) if since else got
    call.held.extend(got)
    return got


def true_now(claims: list[queue.Claim], call: Call, since: float) -> list[queue.Claim]:
    """The claims still true at delivery: a nudge written before `since` that carries a re-check (a
    tests finding: its tests still fail in the newest run; scope: the file still differs from its
    base; a helper copy: both defs exist; a rule: its line is still there) is judged again. One no
    longer true is removed and logged as moot. Costs nothing for a nudge written in this very call.
    A tests finding in a call whose own test run is still being fed (`call.feeding`) is put back for
    the next boundary."""
    from sidekit_hooks.nudges import recheck

    event, project = call.event, call.project
    kept: list[queue.Claim] = []
    for held in claims:
        record = _recheck(held.nudge.extra.get("recheck"))
        if call.feeding and record.get("kind") == "tests":
            queue.release(
                [held]
            )  # the run this call made is not in the cache yet: judged at the next boundary
            continue
        if record and queue.name_time(held.name) < since and not recheck.holds(project, record):
            queue.commit([held])
            policy.record_moot(project, event.event_name, event.session_id, held)
            continue
        kept.append(held)
    return kept


def _recheck(check: object) -> dict[str, str]:
    """A nudge's `recheck` record ({} when it has none, or one that does not read: never dropped on
    a guess)."""
    if not isinstance(check, str):
        return {}
    try:
        record = fastjson.loads(check)
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in record.items()} if isinstance(record, dict) else {}


def enqueue_findings(findings: list[Finding], call: Call, seen: list[str] | None = None) -> None:
    """Queue what the policy admits; `seen` gets the folder's listing the writes took (see
    queue.enqueue)."""
    event, ctx = call.event, call.ctx
    if not event.session_id:
        return
    # Called with no findings too: the policy notes files that went clean (its back-and-forth rule),
    # and reads the caps (the rule packs) only when deferred findings wait.

    def send(line: str, finding: Finding) -> bool:
        # Only what reached the queue counts as said (the policy forgets the rest, to say it again).
        # Nudge text can quote tool data (a command, a path, output): secrets in it are masked here.
        extra = {"sidecar": finding.sidecar, "rule": finding.rule_id, "finding": finding.key[:500]}
        if finding.recheck:  # a later delivery re-checks it (see true_now)
            extra["recheck"] = fastjson.dumps(finding.recheck)
        nudge = queue.Nudge(
            redact.redact(line),
            sender=f"sidekit/{finding.sidecar}",
            priority=finding.priority,
            extra=extra,
        )
        if not call.queue.enqueue(nudge, seen):
            return False
        call.facts.append(session_ledger.admitted(finding, line))  # for Stop's re-check
        return True

    policy.admit(findings, event, ctx, lambda: policy_config(ctx), send=send)


def policy_config(ctx: Context) -> policy.Config:
    """`[policy]` from the merged rule packs this event read (later layers win)."""
    return policy.Config(ctx.packs().get("policy", {}))


def drain(
    call: Call,
    early: list[queue.Claim] | None = None,
    room: int = delivery.MAX_DELIVERY,
    since: float = 0.0,
    seen: list[str] | None = None,
    said: int = 0,
) -> tuple[str, list[queue.Claim]]:
    """Plan one delivery (within `room` characters) of what was claimed first (`early`) and what was
    queued since; sidekit's own nudges within what is left of the session's nudge budget once `said`
    characters are out (`within_budget`). What does not fit waits in the queue; when nothing fits,
    nothing is said."""
    event, project = call.event, call.project
    claims = list(early or []) + claim_queued(call, since, seen)  # what was queued first goes first
    if not claims:
        return "", []
    claims, waiting = within_budget(claims, call, said)
    text, delivered, left = delivery.plan(claims, room)
    if not delivered:
        call.queue.hand_over([], claims + waiting, call.held)
        call.held.clear()
        return "", []
    # Settled before the print: what is printed needs no lock afterwards (a city's items leave the
    # city now), so no wait after the output can leave it to be said a second time.
    ready = call.queue.hand_over(delivered, left + waiting, call.held)
    call.held[:] = ready  # what a deadline from here on delivers
    if len(ready) < len(delivered):  # a city's items that could not leave it wait in flight
        text, ready = _replan(ready, room, len(delivered) - len(ready) + len(left), call)
        if not ready:
            return "", []
    delivered = ready
    policy.record_delivered(project, event.event_name, event.session_id, delivered)
    call.facts.extend(
        delivered_fact(
            project, held.nudge.extra["finding"], _recheck(held.nudge.extra.get("recheck"))
        )
        for held in delivered
        if isinstance(held.nudge.extra.get("finding"), str)
    )
    return text, delivered


def _replan(
    ready: list[queue.Claim], room: int, waiting: int, call: Call
) -> tuple[str, list[queue.Claim]]:
    """What is said of `ready` when `waiting` more wait elsewhere (counted in the tail, within
    `room`); what no longer fits goes back to the queue."""
    text, fits, left = delivery.plan(ready, room, waiting)
    if left:
        queue.release(left)
        call.held[:] = fits
    return (text if fits else ""), fits


def within_budget(
    claims: list[queue.Claim], call: Call, said: int = 0
) -> tuple[list[queue.Claim], list[queue.Claim]]:
    """(what may go out now, sidekit's nudges that wait for the budget): sidekit's own nudges, in
    order, while their lines fit what the session's budget leaves (nudges/spend.py); a message
    someone else queued (Gas Town's mayor, `gt nudge`) is theirs to send and never waits for it."""
    own = [held for held in claims if delivery.is_own(held.nudge, held.nudge.message)]
    if not own:
        return claims, []
    left = budget_room(call) - said
    waiting: list[queue.Claim] = []
    for held in own:
        cost = len(delivery.line_for(held.nudge)) + 1
        if waiting or cost > left:  # in order: a later, shorter line does not pass one that waits
            waiting.append(held)
        else:
            left -= cost
    gone = {id(held) for held in waiting}
    return [held for held in claims if id(held) not in gone], waiting


def budget_room(call: Call) -> int:
    """What the session's nudge budget leaves now (nudges/spend.py): the ledger, and this call's
    result (its fact is not written yet). Read only when something is to be delivered."""
    event = call.event
    if not event.session_id:
        return delivery.MAX_DELIVERY
    pending = sum(int(fact.get("out", 0)) for fact in call.facts if "call" in fact)
    return spend.room(
        session_ledger.read(call.project, event.session_id), event.event_name, event.tool, pending
    )


def delivered_fact(project: str, key: str, check: dict[str, str]) -> dict[str, Any]:
    """The ledger's `deliver` fact; a tests finding already untrue as it is said is marked so (Stop
    then counts it apart, never as fixed). Costs nothing for any other finding."""
    fact: dict[str, Any] = {"deliver": key[:500]}
    if check.get("kind") == "tests":
        from sidekit_hooks.nudges import recheck

        if recheck.untrue_when_said(project, check):
            fact["untrue"] = 1
    return fact


def env_disabled() -> bool:
    """`SIDEKIT_DISABLE=1` turns every hook into a silent no-op (a kill switch for users)."""
    return os.environ.get("SIDEKIT_DISABLE", "") not in ("", "0")
