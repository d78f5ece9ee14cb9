"""The optional judge: hand an event to an external command (e.g. a small model's CLI) and queue its
answer if it has one. The seed's "agent decides" sidecar. Off unless `SIDEKIT_JUDGE` is set.

The hook never waits for the judge: it writes the event to a file and starts a detached worker
(`python -S -m sidekit_hooks.detectors.judge run ...`), which runs the command with the event JSON on
stdin under a timeout, and enqueues the first line of its stdout as `[sidecar:judge] ...` unless that
line is empty or `NONE`. The seed's limits hold: one call at a time and at most one per poll interval
per session, a 5 s timeout, at most 10 answers per session, 30 s between answers.

    SIDEKIT_JUDGE="my-judge --model small"   # the command line (split like a shell would)
    SIDEKIT_JUDGE_TIMEOUT=5  SIDEKIT_JUDGE_INTERVAL=10  SIDEKIT_JUDGE_MAX=10  SIDEKIT_JUDGE_COOLDOWN=30

Standard library only; the hook side costs one environment lookup when the judge is off.
"""

from __future__ import annotations

import os
import sys
import time

from sidekit_hooks.core import background, fastjson, hooklog, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Finding

SIDECAR = "judge"
DEFAULTS = {"TIMEOUT": 5.0, "INTERVAL": 10.0, "MAX": 10.0, "COOLDOWN": 30.0}
NOTHING = frozenset({"", "none", "ok", "-", "nothing", "no"})
MAX_FIELD = 4000  # characters of any one event field handed to the judge
LOG = "judge.jsonl"


def setting(name: str) -> float:
    try:
        return float(os.environ.get(f"SIDEKIT_JUDGE_{name}", ""))
    except ValueError:
        return DEFAULTS[name]


class JudgeSidecar:
    name = SIDECAR
    hooks = frozenset({"PostToolUse", "PostToolUseFailure"})

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        command = os.environ.get("SIDEKIT_JUDGE", "").strip()
        if not command or not event.session_id or event.is_subagent or event.kind == "opaque":
            return []
        folder = session_dir(ctx.project, event.session_id)
        if not background.lock_is_stale(os.path.join(folder, "running.lock"), setting("TIMEOUT") + 5):
            return []  # one judge call at a time per session
        stamp = os.path.join(folder, "last_call")
        try:
            if time.time() - os.stat(stamp).st_mtime < setting("INTERVAL"):
                return []
        except OSError:
            pass
        if load_state(folder).get("said", 0) >= setting("MAX"):
            return []
        event_file = os.path.join(folder, f"event-{os.getpid()}-{os.urandom(4).hex()}.json")
        workspace.atomic_write(event_file, fastjson.dumps(event_summary(event)))
        workspace.atomic_write(stamp, "")
        background.spawn_module("sidekit_hooks.detectors.judge", ["run", ctx.project, event.session_id, event_file])
        return []


JUDGE = JudgeSidecar()


def session_dir(project: str, session: str) -> str:
    return os.path.join(workspace.state_dir(project), "judge", workspace.safe_session_name(session))


def event_summary(event: Event) -> dict[str, Any]:
    """What the judge sees: the completed action, each field cut to MAX_FIELD (output from its end)."""
    summary = {
        "hook": event.hook, "tool": event.tool, "kind": event.kind, "path": event.path,
        "command": event.command[:MAX_FIELD], "added": event.added[:MAX_FIELD],
        "pattern": event.pattern[:MAX_FIELD], "output": event.output[-MAX_FIELD:], "error": event.error[-MAX_FIELD:],
    }
    from sidekit_hooks.core.redact import redact

    # Secrets in tool output never reach the judge (nor the event file it reads).
    return {key: redact(value) for key, value in summary.items() if value}


def load_state(folder: str) -> dict[str, Any]:
    try:
        with open(os.path.join(folder, "state.json"), encoding="utf-8") as handle:
            state = fastjson.loads(handle.read())
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


# ---------------------------------------------------------------------------------------------
# The background worker


def run_worker(project: str, session: str, event_file: str) -> str:
    """Ask the judge about one event; returns what happened (also logged to .sidekit/log/judge.jsonl)."""
    folder = session_dir(project, session)
    lock = os.path.join(folder, "running.lock")
    if not background.take_lock(lock, setting("TIMEOUT") + 5):
        return record(project, session, "busy")
    try:
        try:
            with open(event_file, encoding="utf-8") as handle:
                event_json = handle.read()
        finally:
            try:
                os.unlink(event_file)
            except OSError:
                pass
        outcome, answer = ask(os.environ.get("SIDEKIT_JUDGE", ""), event_json, project)
        if outcome != "answered":
            return record(project, session, outcome, answer)
        return deliver(project, session, folder, answer)
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
        done = subprocess.run(argv, input=event_json, capture_output=True, text=True, cwd=project,
                              timeout=setting("TIMEOUT"))
    except subprocess.TimeoutExpired:
        return "timeout", ""
    except OSError as exc:
        return "bad-command", str(exc)
    if done.returncode != 0:
        return "failed", (done.stderr.strip().splitlines() or [""])[-1][:200]
    line = next((text.strip() for text in done.stdout.splitlines() if text.strip()), "")
    return ("silent", "") if line.lower() in NOTHING else ("answered", line)


def deliver(project: str, session: str, folder: str, answer: str) -> str:
    from sidekit_hooks.nudges import queue
    from sidekit_hooks.nudges.policy import clip

    state = load_state(folder)
    now = time.time()
    if state.get("said", 0) >= setting("MAX"):
        return record(project, session, "capped", answer)
    if now - state.get("last_said", 0) < setting("COOLDOWN"):
        return record(project, session, "cooldown", answer)
    from sidekit_hooks.core.redact import redact

    line = clip(redact(answer if answer.startswith("[sidecar:") else f"[sidecar:{SIDECAR}] {answer}"))
    queue.enqueue(workspace.queue_root(project), session, queue.Nudge(line, sender=f"sidekit/{SIDECAR}"))
    state.update(said=state.get("said", 0) + 1, last_said=now)
    workspace.atomic_write(os.path.join(folder, "state.json"), fastjson.dumps(state))
    return record(project, session, "queued", line)


def record(project: str, session: str, outcome: str, detail: str = "") -> str:
    hooklog.append(project, LOG, {"session": session, "outcome": outcome, "detail": detail[:300]})
    return outcome


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 4 or args[0] != "run":
        print("usage: python -m sidekit_hooks.detectors.judge run PROJECT SESSION EVENT_FILE", file=sys.stderr)
        return 2
    try:
        run_worker(args[1], args[2], args[3])
    except Exception as exc:  # noqa: BLE001 - a background worker logs and exits; nobody waits for it
        hooklog.error(args[1], "background", "judge", exc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
