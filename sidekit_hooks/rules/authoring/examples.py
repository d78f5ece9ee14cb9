"""A rule's `[[rules.examples]]` -> the hook payload Claude Code would send -> the hook's own
matcher.

The example goes through `events.parse_event` exactly like a real payload, so `added` means what it
means in the hook: the lines the call added (an example's `old` text is what the file had before).
"""

from __future__ import annotations

from typing import Any

from sidekit_hooks.nudges import payloads
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.rules import match

EXAMPLE_PROJECT = "/example-project"


def inferred_tool(example: dict[str, Any]) -> str:
    """`tool` when given; else Bash for a command, Edit for old/new text, Write for content."""
    if example.get("tool"):
        return str(example["tool"])
    if example.get("command"):
        return "Bash"
    if "old" in example or "new" in example:
        return "Edit"
    return "Write"


def payload(example: dict[str, Any]) -> dict[str, Any]:
    """The PostToolUse (or, with `error`, PostToolUseFailure) payload the example stands for."""
    tool = inferred_tool(example)
    path = str(example.get("path", ""))
    file_path = f"{EXAMPLE_PROJECT}/{path}" if path and not path.startswith("/") else path
    old, new = str(example.get("old", "")), str(example.get("new", example.get("content", "")))
    output, error = str(example.get("output", "")), str(example.get("error", ""))
    tool_input: dict[str, Any]
    response: Any
    if tool == "Write":
        tool_input, response = payloads.write_call(file_path, new, original=old or None)
    elif tool in ("Edit", "MultiEdit"):
        tool_input, response = payloads.edit_call(file_path, old, new, original=old, patch=[])
    elif tool == "NotebookEdit":
        tool_input = {"notebook_path": file_path, "new_source": new}
        response = {"new_source": new, "old_source": old, "notebook_path": file_path}
    elif tool in match.SHELL_TOOLS:
        tool_input, response = payloads.bash_call(str(example.get("command", "")), stdout=output)
    elif tool in ("Read", "Glob", "Grep"):
        tool_input = {"file_path" if tool == "Read" else "path": file_path, "pattern": ""}
        response = {"content": output, "filenames": []}
    else:
        tool_input = {}
        response = output
    return payloads.tool_payload(
        EXAMPLE_PROJECT,
        "rules-test",
        tool,
        tool_input,
        response,
        error=error,
        tool_use_id="toolu_example",
    )


def fires(rule: dict[str, Any], example: dict[str, Any]) -> bool:
    """Whether the compiled `rule` fires on the example's event. May raise match.RegexTimeout."""
    data = payload(example)
    event = parse_event(data["hook_event_name"], data, EXAMPLE_PROJECT)
    return match.match_rule(rule, event) is not None
