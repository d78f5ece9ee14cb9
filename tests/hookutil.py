"""Helpers for tests that drive the real hook entry points (import as `from hookutil import ...`)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
HOOK_SCRIPTS = {
    "PostToolUse": REPO / "hooks" / "post_tool_use.py",
    "PostToolUseFailure": REPO / "hooks" / "post_tool_use_failure.py",
    "UserPromptSubmit": REPO / "hooks" / "user_prompt_submit.py",
    "PreToolUse": REPO / "hooks" / "pre_tool_use.py",
    "SessionStart": REPO / "hooks" / "session_start.py",
    "Stop": REPO / "hooks" / "stop.py",
    "SubagentStop": REPO / "hooks" / "subagent_stop.py",
}

HookRunner = Callable[..., subprocess.CompletedProcess[str]]


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
