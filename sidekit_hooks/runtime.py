"""One hook invocation: payload -> event -> detectors -> policy -> queue -> one delivery.

Fail-open everywhere: whatever goes wrong is logged under `.sidekit/log/` and the agent's session
goes on. Standard library only; detectors that need more import it themselves, lazily.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks import detectors
from sidekit_hooks.core import fastjson, hooklog, workspace
from sidekit_hooks.nudges import delivery, policy, queue
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.findings import Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Finding

DRAINING_HOOKS = frozenset({"PostToolUse", "PostToolUseFailure", "UserPromptSubmit"})
DETECTOR_BUDGET = 0.35  # seconds for all detectors together; delivery always gets its turn after
HARD_DEADLINE = 0.8  # seconds; past this the hook gives up, puts claims back and prints nothing

# Claims taken by this process and not yet planned: what a deadline must put back.
HELD: list[queue.Claim] = []


class Outcome:
    """What a hook decided: the text to print and the claims to remove once it is printed."""

    __slots__ = ("output", "claims")

    def __init__(self, output: str = "", claims: list[queue.Claim] | None = None) -> None:
        self.output = output
        self.claims = claims or []


def run(hook: str, stdin_text: str, started: float | None = None) -> Outcome:
    """Handle one event. Never raises for bad input; may raise only what the deadline alarm raises."""
    started = time.monotonic() if started is None else started
    try:
        payload = fastjson.loads(stdin_text) if stdin_text.strip() else {}
    except ValueError as exc:
        hooklog.error(workspace.project_dir(), hook, "payload", f"stdin is not JSON ({exc})")
        return Outcome()
    if not isinstance(payload, dict):
        hooklog.error(workspace.project_dir(), hook, "payload", "stdin is JSON but not an object")
        return Outcome()
    cwd = payload.get("cwd")
    project = workspace.project_dir(cwd if isinstance(cwd, str) else "")
    event = parse_event(hook, payload, project)
    if hook == "SessionStart":
        _export_for_agent(project)
    ctx = Context(project, event.session_id, started + DETECTOR_BUDGET)
    context, claims = respond(event, ctx)
    return Outcome(delivery.hook_output(event.hook, context, ctx.notices), claims)  # the one place output is built


def respond(event: Event, ctx: Context) -> tuple[str, list[queue.Claim]]:
    """(what the model reads, the claims to commit once it is printed)."""
    ctx.read_snapshot = lambda: read_snapshot(event, ctx)  # once per event: the rules sidecar and the policy share it
    findings = run_detectors(detectors.names(event.hook), event, ctx)
    if event.is_subagent:
        # A subagent shares the session id, but the queue belongs to the main agent: say the
        # subagent's own findings to it directly and leave the queue for the main thread.
        return "\n".join(policy.lines(findings, event, ctx, policy_config(ctx))), []
    enqueue_findings(findings, event, ctx)
    if event.hook not in DRAINING_HOOKS:
        return "", []
    return drain(event, ctx.project)


def _export_for_agent(project: str) -> None:
    """Settings form: put `sidekit` on the agent's Bash PATH for this session (see core/agentpath)."""
    try:
        from sidekit_hooks.core import agentpath

        agentpath.export_for_agent()
    except OSError as exc:
        hooklog.error(project, "SessionStart", "agent-path", exc)


def read_snapshot(event: Event, ctx: Context) -> dict[str, Any]:
    """The compiled rule packs (recompiling what changed); empty when they cannot be read."""
    from sidekit_hooks.rules.snapshot import current

    try:
        return dict(current(ctx.project, notify=ctx.notify_user, hook=event.hook))
    except Exception as exc:  # noqa: BLE001 - a broken pack must not silence the other sidecars
        hooklog.error(ctx.project, event.hook, "rules", exc)
        return {}


def run_detectors(names: list[str], event: Event, ctx: Context) -> list[Finding]:
    found: list[Finding] = []
    for name in names:
        if time.monotonic() > ctx.deadline:
            hooklog.error(ctx.project, event.hook, f"detector:{name}", "skipped: detector budget spent")
            break
        try:
            found.extend(detectors.load(name).detect(event, ctx))
        except Exception as exc:  # noqa: BLE001 - one broken sidecar must not silence the others
            hooklog.error(ctx.project, event.hook, f"detector:{name}", exc)
    return found


def enqueue_findings(findings: list[Finding], event: Event, ctx: Context) -> None:
    if not event.session_id:
        return
    # Called with no findings too: the policy notes files that went clean (its back-and-forth rule).
    root = workspace.queue_root(ctx.project)
    waiting = not findings and policy.has_deferred(ctx.project, event.session_id)  # deferred findings need the caps
    config = policy_config(ctx) if findings or waiting else policy.Config()
    for line, finding in policy.admit(findings, event, ctx, config):
        nudge = queue.Nudge(line, sender=f"sidekit/{finding.sidecar}", priority=finding.priority,
                            extra={"sidecar": finding.sidecar})
        try:
            queue.enqueue(root, event.session_id, nudge, on_drop=_log_drop(ctx.project, event.hook))
        except (OSError, workspace.UnsafeSessionName) as exc:
            hooklog.error(ctx.project, event.hook, "enqueue", exc)


def policy_config(ctx: Context) -> policy.Config:
    """`[policy]` from the merged rule packs this event read (later layers win)."""
    return policy.Config(ctx.packs().get("policy", {}))


def drain(event: Event, project: str) -> tuple[str, list[queue.Claim]]:
    """Claim what is queued for this session (and its Gas Town tmux session) and plan one delivery."""
    root = workspace.queue_root(project)
    claims: list[queue.Claim] = []
    for session in sessions_to_drain(event.session_id):
        try:
            claims.extend(queue.claim(root, session, on_discard=_log_discard(project, event.hook)))
            HELD[:] = claims
        except (OSError, workspace.UnsafeSessionName) as exc:
            hooklog.error(project, event.hook, "drain", exc)
    if not claims:
        return "", []
    text, delivered, left = delivery.plan(claims)
    queue.release(left)
    policy.record_delivered(project, event.hook, event.session_id, delivered)
    return text, delivered


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
