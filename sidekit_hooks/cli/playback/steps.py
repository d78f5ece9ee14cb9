"""Play tool calls through the hook and see what the agent was told, and why.

Shared by `sidekit demo`, `sidekit replay` and the scenario corpus. A compact step (`tool`, `input`,
optional `response`) becomes the payload Claude Code would send, after the tool's effect on disk
(Write/Edit change the file first, as the real tools do). The hook runs for real: as a subprocess
of `hooks/<event>.py` (what Claude Code runs), or in this process for a fast corpus.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from sidekit_hooks.core import hooklog, safepath
from sidekit_hooks.core.workspace import log_dir
from sidekit_hooks.nudges import payloads
from sidekit_hooks.pipeline.hook_events import EVENTS

HOOK_SCRIPTS = {name: f"{event.script}.py" for name, event in EVENTS.items()}
# Set by Gas Town or Claude Code; a played session must not drain (or write to) a real session's
# queue.
FOREIGN_ENV = (
    "GT_TOWN_ROOT",
    "GT_ROOT",
    "TMUX_PANE",
    "GT_SESSION",
    "CLAUDE_CODE_SESSION_ID",
    "SIDEKIT_DISABLE",
)
NUDGE_PREFIX = "[sidecar:"


class StepResult:
    """One hook run: the nudges it printed and the policy decisions it logged."""

    __slots__ = ("event_name", "payload", "context", "notices", "decisions", "stderr")

    def __init__(
        self,
        event_name: str,
        payload: dict[str, Any],
        output: str,
        decisions: list[dict[str, Any]],
        stderr: str = "",
    ) -> None:
        self.event_name = event_name
        self.payload = payload
        data = json.loads(output) if output.strip() else {}
        self.context = str(data.get("hookSpecificOutput", {}).get("additionalContext", ""))
        self.notices = str(data.get("systemMessage", ""))
        self.decisions = decisions
        self.stderr = stderr

    @property
    def nudges(self) -> list[str]:
        return [line for line in self.context.splitlines() if line.startswith(NUDGE_PREFIX)]

    def sidecars(self) -> list[str]:
        return [sidecar_of(line) for line in self.nudges]

    def suppressed(self) -> list[dict[str, Any]]:
        return [d for d in self.decisions if d.get("decision") == "suppressed"]

    def fired(self) -> list[dict[str, Any]]:
        return [d for d in self.decisions if d.get("decision") == "fired"]


def sidecar_of(line: str) -> str:
    return (
        line[len(NUDGE_PREFIX) : line.index("]")]
        if line.startswith(NUDGE_PREFIX) and "]" in line
        else ""
    )


def hooks_dir() -> Path:
    return Path(__file__).resolve().parents[3] / "hooks"


class Player:
    """Runs hook events for one session in one project and collects what each one said."""

    def __init__(
        self,
        project: str,
        session: str,
        *,
        in_process: bool = False,
        python: str = "",
        budget: bool = True,
    ) -> None:
        self.project = os.path.abspath(project)
        # False: the session's nudge budget is off (a scripted session's few-line outputs)
        self.budget = budget
        self.session = session
        self.in_process = in_process
        self.python = python or sys.executable
        self.count = 0

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in FOREIGN_ENV}
        env["CLAUDE_PROJECT_DIR"] = self.project
        if not self.budget:
            env["SIDEKIT_NUDGE_BUDGET"] = "off"  # nudges/spend.py
        return env

    def send(self, event_name: str, payload: dict[str, Any]) -> StepResult:
        self.count += 1
        settle(self.project)
        offset = _log_size(self.project)
        text = json.dumps(payload)
        if self.in_process:
            output, stderr = self._run_here(event_name, text), ""
        else:
            output, stderr = self._run_subprocess(event_name, text)
        return StepResult(event_name, payload, output, _new_decisions(self.project, offset), stderr)

    def _run_subprocess(self, event_name: str, text: str) -> tuple[str, str]:
        script = hooks_dir() / HOOK_SCRIPTS[event_name]
        fallback = [self.python, "-P", "-m", "sidekit_hooks.pipeline.hook", event_name]
        argv = [self.python, "-S", str(script)] if script.exists() else fallback
        done = subprocess.run(
            argv,
            input=text.encode(),
            capture_output=True,
            env=self.env(),
            cwd=self.project,
            timeout=30,
        )
        return done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")

    def _run_here(self, event_name: str, text: str) -> str:
        from sidekit_hooks.nudges import queue
        from sidekit_hooks.pipeline import runtime

        saved, env = (
            dict(os.environ),
            self.env(),
        )  # the step's environment, taken before the clear empties it
        os.environ.clear()
        os.environ.update(env)
        try:
            outcome = runtime.run(event_name, text)
            queue.commit(outcome.claims)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        return outcome.output

    def play(self, step: dict[str, Any]) -> StepResult:
        event_name, payload = build_payload(self.project, self.session, step, self.count + 1)
        return self.send(event_name, payload)


# seconds a played call waits, at most, for the background to finish the calls before it
SETTLE = 10.0


def settle(project: str, wait: float = SETTLE) -> None:
    """Wait until no detector a hook handed to the background (finish.py) is pending, as the pause a
    model takes between two calls would: a scripted session plays its calls back to back."""
    from sidekit_hooks.core import later

    deadline = time.monotonic() + wait
    while later.pending(project) and time.monotonic() < deadline:
        time.sleep(0.02)


def _log_size(project: str) -> int:
    try:
        return os.path.getsize(os.path.join(log_dir(project), hooklog.DECISIONS))
    except OSError:
        return 0


def _new_decisions(project: str, offset: int) -> list[dict[str, Any]]:
    path = os.path.join(log_dir(project), hooklog.DECISIONS)
    # the log is bounded (hooklog rolls it over): read whole, never through a link, never blocking
    try:
        data = safepath.read_bytes(safepath.check(path), safepath.MAX_STATE)
    except OSError:
        return []
    if len(data) < offset:
        offset = 0  # the log rolled over meanwhile
    return hooklog.records_in(data[offset:].decode("utf-8", "replace"))


def build_payload(
    project: str, session: str, step: dict[str, Any], number: int = 1
) -> tuple[str, dict[str, Any]]:
    """A compact step -> (hook event, the payload Claude Code would send), applying the tool's
    effect."""
    project = os.path.abspath(project)
    base: dict[str, Any] = {
        "session_id": session,
        "transcript_path": os.path.join(project, ".sidekit-transcript.jsonl"),
        "cwd": project,
        "permission_mode": "default",
    }
    if "payload" in step:
        payload = substitute(step["payload"], project)
        event_name = str(step.get("event") or payload.get("hook_event_name") or "PostToolUse")
        merged = {**base, **payload, "hook_event_name": event_name}
        if event_name == "PostToolUse":
            apply_effect(project, str(merged.get("tool_name", "")), merged.get("tool_input") or {})
        return event_name, merged
    if "prompt" in step and "tool" not in step:
        return "UserPromptSubmit", {
            **base,
            "hook_event_name": "UserPromptSubmit",
            "prompt": step["prompt"],
        }
    tool = str(step["tool"])
    tool_input = substitute(step.get("input") or {}, project)
    for key in ("file_path", "notebook_path", "path"):
        if (
            isinstance(tool_input.get(key), str)
            and tool_input[key]
            and not os.path.isabs(tool_input[key])
        ):
            tool_input[key] = os.path.join(project, tool_input[key])
    event_name = str(
        step.get("event") or ("PostToolUseFailure" if "error" in step else "PostToolUse")
    )
    payload = {
        **base,
        "hook_event_name": event_name,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": f"toolu_{number:04d}",
    }
    if step.get("agent_id"):
        payload["agent_id"] = step["agent_id"]
        payload["agent_type"] = step.get("agent_type", "general-purpose")
    if event_name == "PostToolUseFailure":
        payload["error"] = step["error"]
        return event_name, payload
    simulated = apply_effect(project, tool, tool_input)
    payload["tool_response"] = (
        substitute(step["response"], project) if "response" in step else simulated
    )
    return event_name, payload


def apply_effect(project: str, tool: str, tool_input: dict[str, Any]) -> Any:
    """Do what the tool would have done on disk; return the tool_response it would have given."""
    path = str(tool_input.get("file_path") or "")
    if path and not os.path.isabs(path):
        path = os.path.join(project, path)
    if tool == "Write" and path:
        original = _read(path)
        content = str(tool_input.get("content", ""))
        _write(path, content)
        return payloads.write_call(
            path, content, original, structured_patch(original or "", content)
        )[1]
    if tool == "Edit" and path:
        original = _read(path) or ""
        old, new = str(tool_input.get("old_string", "")), str(tool_input.get("new_string", ""))
        replace_all = bool(tool_input.get("replace_all"))
        updated = original.replace(old, new) if replace_all else original.replace(old, new, 1)
        if old and old in original:
            _write(path, updated)
        return payloads.edit_call(
            path, old, new, original, replace_all, structured_patch(original, updated)
        )[1]
    if tool == "Read" and path:
        content = _read(path) or ""
        count = len(content.splitlines())
        return {
            "type": "text",
            "file": {
                "filePath": path,
                "content": content,
                "numLines": count,
                "startLine": 1,
                "totalLines": count,
            },
        }
    if tool == "Bash":
        return payloads.bash_call("")[1]
    if tool == "Grep":
        return {"mode": "files_with_matches", "numFiles": 0, "filenames": []}
    if tool == "Glob":
        return {"durationMs": 1, "numFiles": 0, "filenames": [], "truncated": False}
    return {}


def structured_patch(before: str, after: str) -> list[dict[str, Any]]:
    """Hunks shaped like Claude Code's `structuredPatch` (lines prefixed " ", "-", "+")."""
    import difflib

    hunks: list[dict[str, Any]] = []
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=3):
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            old, new = line.split()[1:3]
            old_start, _, old_lines = old[1:].partition(",")
            new_start, _, new_lines = new[1:].partition(",")
            hunks.append(
                {
                    "oldStart": int(old_start),
                    "oldLines": int(old_lines or 1),
                    "newStart": int(new_start),
                    "newLines": int(new_lines or 1),
                    "lines": [],
                }
            )
        elif hunks:
            hunks[-1]["lines"].append(line)
    return hunks


def substitute(value: Any, project: str) -> Any:
    """`${PROJECT}` in any string of a payload -> the project's absolute path."""
    if isinstance(value, str):
        return value.replace("${PROJECT}", project)
    if isinstance(value, dict):
        return {key: substitute(item, project) for key, item in value.items()}
    if isinstance(value, list):
        return [substitute(item, project) for item in value]
    return value


def write_files(project: str, files: dict[str, str]) -> None:
    """Write a scenario's files; `${PROJECT}` becomes the project's path, `${NOW}` the current Unix
    time."""
    now = f"{time.time():.3f}"
    for rel, content in files.items():
        _write(
            os.path.join(project, rel),
            content.replace("${PROJECT}", project).replace("${NOW}", now),
        )


def _read(path: str) -> str | None:
    try:
        return safepath.read_regular(path, safepath.MAX_STATE).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _write(path: str, content: str) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(content)


def explain(result: StepResult) -> list[str]:
    """Why the agent was told what it was told (and what the policy held back)."""
    lines = []
    for record in result.fired():
        rule = f" rule {record['rule']}" if record.get("rule") else ""
        lines.append(f"fired: {record.get('sidecar')}{rule}")
    for record in result.suppressed():
        rule = f" rule {record['rule']}" if record.get("rule") else ""
        lines.append(
            f"held back by the policy ({record.get('by')}): {record.get('sidecar')}{rule}: "
            f"{record.get('text', '')}"
        )
    return lines
