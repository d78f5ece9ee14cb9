"""What Claude Code's `mcp_tool` hook handler sends to the warm server's `hook` tool (2.1.328,
docs/warm-path.md): each `${field}` of the handler's `input` becomes the event's field as text, an
object as compact JSON (`JSON.stringify`), `true`/`false` and numbers as their text, a missing or
null field as ""."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sidekit_hooks.nudges import session_ledger
from sidekit_hooks.pipeline import claim, warm


def as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def templated(payload: dict[str, Any]) -> dict[str, str]:
    """The `hook` tool's arguments for `payload`, through the handler's `input` (warm.INPUT)."""
    return {name: as_text(payload.get(template[2:-1])) for name, template in warm.INPUT.items()}


def who_answered(project: Path) -> dict[str, int]:
    """How many events each path answered, from the claims."""
    counts = {"warm": 0, "command": 0, "taken over": 0}
    for folder in (project / claim.CLAIMS).iterdir():
        if (folder / claim.SAID).exists():
            counts["warm"] += 1
        elif (folder / claim.STOLEN).exists():
            counts["taken over"] += 1
        elif (folder / claim.TAKEN).read_text().startswith(claim.COMMAND):
            counts["command"] += 1
    return counts


def tool_calls_counted(project: Path, session_id: str) -> int:
    """The tool calls the session's ledger holds (one fact per PostToolUse handled: an event
    handled by both paths would count twice)."""
    path = Path(session_ledger.path_of(str(project), session_id))
    facts = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return sum(1 for fact in facts if "call" in fact)


def check_the_late_server_left_the_first_events_to_the_command(
    said: Callable[[str], int], project: Path, session_id: str, calls: int
) -> None:
    """A server that connects late: the queued nudge ("before-the-prompt") is said once and each
    call's nudge ("message-N") twice (queued, then said), the command hook answered at least the
    first events, and every event was handled exactly once (the prompt and each call)."""
    assert said("before-the-prompt") == 1
    for text in ("message-1", "message-2"):
        assert said(text) == 2, text
    answered = who_answered(project)
    assert answered["command"] >= 1 and sum(answered.values()) == 1 + calls, answered
    assert tool_calls_counted(project, session_id) == calls
