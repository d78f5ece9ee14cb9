"""Helpers for tests that drive the real hook entry points (import as `from hookutil import ...`)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sidekit_hooks.hook_events import EVENTS
from sidekit_hooks.nudges import payloads

REPO = Path(__file__).resolve().parents[2]
HOOK_SCRIPTS = {name: REPO / "hooks" / f"{event.script}.py" for name, event in EVENTS.items()}

HookRunner = Callable[..., subprocess.CompletedProcess[str]]
SIDEKIT = [sys.executable, "-m", "sidekit_hooks.cli"]


def run_sidekit(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
                timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`sidekit ARGS` in a subprocess, as a user runs it."""
    return subprocess.run([*SIDEKIT, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


def edit(project: Path, rel: str, old: str, new: str, original: str, session: str = "sess-1",
         **fields: Any) -> dict[str, Any]:
    """A PostToolUse payload of an Edit of `project/rel` (from the package's own payload builder)."""
    tool_input, response = payloads.edit_call(str(project / rel), old, new, original)
    return payload("PostToolUse", project, session_id=session, tool_name="Edit", tool_use_id="toolu_1",
                   tool_input=tool_input, tool_response=response, **fields)


def write(project: Path, rel: str, content: str, original: str | None = None, session: str = "sess-1",
          **fields: Any) -> dict[str, Any]:
    """A PostToolUse payload of a Write of `project/rel`; `original`: what the file held before."""
    tool_input, response = payloads.write_call(str(project / rel), content, original)
    return payload("PostToolUse", project, session_id=session, tool_name="Write", tool_use_id="toolu_2",
                   tool_input=tool_input, tool_response=response, **fields)


def bash(project: Path, command: str, stdout: str = "", error: str = "", session: str = "sess-1",
         **fields: Any) -> dict[str, Any]:
    """A Bash call's PostToolUse payload, or its PostToolUseFailure payload when `error` is given."""
    tool_input, response = payloads.bash_call(command, stdout)
    if error:
        return payload("PostToolUseFailure", project, session_id=session, tool_name="Bash", tool_use_id="toolu_3",
                       tool_input=tool_input, error=error, **fields)
    return payload("PostToolUse", project, session_id=session, tool_name="Bash", tool_use_id="toolu_3",
                   tool_input=tool_input, tool_response=response, **fields)


def payload(event: str, project: Path, **fields: Any) -> dict[str, Any]:
    """A payload with the common fields Claude Code 2.1.328 sends, plus `fields`."""
    base: dict[str, Any] = {
        "session_id": "sess-1", "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
        "prompt_id": "p-1", "permission_mode": "acceptEdits", "hook_event_name": event,
    }
    base.update(fields)
    return base


def context_of(stdout: str) -> str:
    """The additionalContext a hook printed ('' for no output); fails on anything but one JSON object."""
    if not stdout.strip():
        return ""
    data = json.loads(stdout)
    assert isinstance(data, dict) and set(data) == {"hookSpecificOutput"}, stdout
    return str(data["hookSpecificOutput"]["additionalContext"])
