"""The optional judge: hand an event to an external command (e.g. a small model's CLI) and queue its
answer if it has one. The seed's "agent decides" sidecar. Off unless `SIDEKIT_JUDGE` is set.

The hook never waits for the judge: it writes the event to a file and starts a detached worker
(`python -S -m sidekit_hooks.detectors.judge run ...`), which runs the command with the event JSON
on stdin under a timeout. The first line of its stdout, unless empty or `NONE`, becomes a finding of
the `judge` sidecar and goes through `policy.admit` like every other sidecar's: `[policy] mute`,
thresholds, dedup, `cooldowns.judge` (else `cooldown`) and the one session cap all apply, and every
decision is logged. What the policy admits is queued as `[sidecar:judge] ...`. The judge's own
limits are about cost only: one call at a time and at most one per poll interval per session, a 5 s
timeout, and no call once the session's nudge cap is reached.

    SIDEKIT_JUDGE="my-judge --model small"   # the command line (split like a shell would)
    SIDEKIT_JUDGE_TIMEOUT=5  SIDEKIT_JUDGE_INTERVAL=10

Why not an `asyncRewake` hook (checked in Claude Code 2.1.328: it works, and wakes the agent): it
must exit 2, and its text reaches the model framed as "hook blocking error from command: <command
line>"; the queue delivers the same answer at the next boundary as an ordinary nudge. See
docs/lifecycle.md.

Standard library only; the hook side costs one environment lookup when the judge is off.
"""

from __future__ import annotations

import os
import sys
import time

from sidekit_hooks.core import background, fastjson, hooklog, safepath, workspace
from sidekit_hooks.core.hook_table import judged_by
from sidekit_hooks.detectors import rank_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Finding

SIDECAR = "judge"
RANK = rank_of(SIDECAR)  # its findings' place among sidecars (detectors.RANKS)
DEFAULTS = {"TIMEOUT": 5.0, "INTERVAL": 10.0}
NOTHING = frozenset({"", "none", "ok", "-", "nothing", "no"})
MAX_FIELD = 4000  # characters of any one event field handed to the judge
LOG = "judge.jsonl"


def setting(name: str) -> float:
    try:
        return float(os.environ.get(f"SIDEKIT_JUDGE_{name}", ""))
    except ValueError:
        return DEFAULTS[name]


class JudgeDetector:
    name = SIDECAR
    hooks = judged_by("judge")

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        command = os.environ.get("SIDEKIT_JUDGE", "").strip()
        if not command or not event.session_id or event.is_subagent or event.kind == "opaque":
            return []
        folder = session_dir(ctx.project, event.session_id)
        if not background.lock_is_stale(
            os.path.join(folder, "running.lock"), setting("TIMEOUT") + 5
        ):
            return []  # one judge call at a time per session
        stamp = os.path.join(folder, "last_call")
        try:
            if time.time() - os.stat(stamp).st_mtime < setting("INTERVAL"):
                return []
        except OSError:
            pass
        from sidekit_hooks.nudges import policy

        if policy.session_capped(ctx.project, event.session_id):
            return []  # the policy would hold back whatever it says: save the call
        event_file = os.path.join(folder, f"event-{os.getpid()}-{os.urandom(4).hex()}.json")
        workspace.atomic_write(event_file, fastjson.dumps(event_summary(event)))
        workspace.atomic_write(stamp, "")
        background.spawn_module(
            "sidekit_hooks.detectors.judge", ["run", ctx.project, event.session_id, event_file]
        )
        return []


JUDGE = JudgeDetector()


def session_dir(project: str, session: str) -> str:
    return os.path.join(workspace.state_dir(project), "judge", workspace.safe_session_name(session))


def event_summary(event: Event) -> dict[str, Any]:
    """What the judge sees: the completed action, each field cut to MAX_FIELD (output from its
    end)."""
    summary = {
        "hook": event.event_name,
        "tool": event.tool,
        "kind": event.kind,
        "path": event.path,
        "command": event.command[:MAX_FIELD],
        "added": event.added[:MAX_FIELD],
        "pattern": event.pattern[:MAX_FIELD],
        "output": event.output[-MAX_FIELD:],
        "error": event.error[-MAX_FIELD:],
    }
    from sidekit_hooks.core.redact import redact

    # Secrets in tool output never reach the judge (nor the event file it reads).
    return {key: redact(value) for key, value in summary.items() if value}


# ---------------------------------------------------------------------------------------------
# The background worker


def run_worker(project: str, session: str, event_file: str) -> str:
    """Ask the judge about one event; returns what happened (also logged to
    .sidekit/log/judge.jsonl)."""
    folder = session_dir(project, session)
    lock = os.path.join(folder, "running.lock")
    if not background.take_lock(lock, setting("TIMEOUT") + 5):
        return record(project, session, "busy")
    try:
        try:
            event_json = safepath.read_bytes(event_file, 4 << 20).decode("utf-8", "replace")
        finally:
            try:
                os.unlink(event_file)
            except OSError:
                pass
        outcome, answer = ask(os.environ.get("SIDEKIT_JUDGE", ""), event_json, project)
        if outcome != "answered":
            return record(project, session, outcome, answer)
        return deliver(project, session, answer, summary_of(event_json))
    finally:
        background.release_lock(lock)


def ask(command: str, event_json: str, project: str) -> tuple[str, str]:
    """(outcome, first line of the answer) from running the judge command once."""
    import shlex
    import subprocess

    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return "bad-command", str(exc)
    if not argv:
        return "bad-command", "SIDEKIT_JUDGE is empty"
    try:
        done = subprocess.run(
            argv,
            input=event_json,
            capture_output=True,
            text=True,
            cwd=project,
            timeout=setting("TIMEOUT"),
        )
    except subprocess.TimeoutExpired:
        return "timeout", ""
    except OSError as exc:
        return "bad-command", str(exc)
    if done.returncode != 0:
        return "failed", (done.stderr.strip().splitlines() or [""])[-1][:200]
    line = next((text.strip() for text in done.stdout.splitlines() if text.strip()), "")
    return ("silent", "") if line.lower() in NOTHING else ("answered", line)


def summary_of(event_json: str) -> dict[str, Any]:
    try:
        summary = fastjson.loads(event_json)
    except ValueError:
        return {}
    return summary if isinstance(summary, dict) else {}


def deliver(project: str, session: str, answer: str, summary: dict[str, Any]) -> str:
    """Admit the answer through the policy (mute, threshold, dedup, cooldown, cap) and queue what
    passes."""
    from sidekit_hooks.core.redact import redact
    from sidekit_hooks.nudges import policy, queue, session_ledger
    from sidekit_hooks.nudges.events import parse_event
    from sidekit_hooks.nudges.findings import Context, Finding

    prefix = f"[sidecar:{SIDECAR}] "
    message = redact(answer[len(prefix) :] if answer.startswith(prefix) else answer)
    event = parse_event(
        str(summary.get("hook") or "PostToolUse"),
        {"session_id": session, "cwd": project, "tool_name": str(summary.get("tool") or "")},
        project,
    )
    event.path = str(summary.get("path") or "")
    ctx = Context(
        project,
        session,
        time.monotonic() + setting("TIMEOUT"),
        read_snapshot=lambda _: read_packs(project),
    )
    subject = event.path or event.tool
    finding = Finding(
        SIDECAR, message, key=f"judge:{message[:200]}", path=event.path, subject=subject, rank=RANK
    )

    def send(line: str, said: Finding) -> bool:
        try:
            queue.enqueue(
                workspace.queue_root(project),
                session,
                queue.Nudge(
                    line,
                    sender=f"sidekit/{said.sidecar}",
                    extra={
                        "sidecar": said.sidecar,
                        "rule": said.rule_id,
                        "finding": said.key[:500],
                    },
                ),
            )
        except (OSError, workspace.UnsafeSessionName) as exc:
            hooklog.error(project, "background", "judge", exc)
            return False
        session_ledger.append(project, session, [session_ledger.admitted(said, line)])
        return True

    admitted = policy.admit(
        [finding], event, ctx, policy.Config(ctx.packs().get("policy", {})), send=send
    )
    if not admitted:
        return record(project, session, "held", answer)  # why: decisions.jsonl (`by`)
    return record(project, session, "queued", admitted[0][0])


def read_packs(project: str) -> dict[str, Any]:
    """The merged rule packs (for `[policy]`); {} when they cannot be read."""
    from sidekit_hooks.rules.snapshot import current

    try:
        return dict(current(project))
    except Exception as exc:  # noqa: BLE001 - a broken pack leaves the policy's defaults
        hooklog.error(project, "background", "judge", exc)
        return {}


def record(project: str, session: str, outcome: str, detail: str = "") -> str:
    hooklog.append(project, LOG, {"session": session, "outcome": outcome, "detail": detail[:300]})
    return outcome


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 4 or args[0] != "run":
        print(
            "usage: python -m sidekit_hooks.detectors.judge run PROJECT SESSION EVENT_FILE",
            file=sys.stderr,
        )
        return 2
    try:
        run_worker(args[1], args[2], args[3])
    # a background worker logs and exits; nobody waits for it
    except Exception as exc:  # noqa: BLE001
        hooklog.error(args[1], "background", "judge", exc)
    return 0


if __name__ == "__main__":
    background.wall_clock_cap()
    raise SystemExit(main())
