"""One event answered by the warm server (`sidekit mcp --hooks`, tool `hook`): the same steps as the
command hook (`hook.main`), through the same runtime, after winning the event's claim (claim.py).

Claude Code's `mcp_tool` handler cannot pass the event as it is: its `input` is a template whose
`${field}` values arrive as strings (an object as compact JSON, `false` and `12` as text, a missing
field as ""). `payload` turns them back into the event (`INPUT` is the template to wire).
"""

from __future__ import annotations

import json
import time

from sidekit_hooks.pipeline import claim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TOOL = "hook"
# Every field Claude Code 2.1.328 sends on the events the warm path answers (docs/warm-path.md),
# in the order it sends them.
FIELDS = (
    "session_id",
    "transcript_path",
    "cwd",
    "prompt_id",
    "agent_id",
    "agent_type",
    "permission_mode",
    "hook_event_name",
    "tool_name",
    "tool_input",
    "tool_response",
    "tool_use_id",
    "error",
    "is_interrupt",
    "prompt",
    "duration_ms",
)
OBJECTS = ("tool_input", "tool_response")  # sent as JSON text when they are objects
FLAGS = ("is_interrupt",)
NUMBERS = ("duration_ms",)
# The `input` of the mcp_tool handler: every field, by name.
INPUT = {name: "${" + name + "}" for name in FIELDS}


def payload(arguments: dict[str, Any]) -> dict[str, Any]:
    """The event as the command hook reads it on stdin, from the handler's templated arguments.
    A tool_response that was a string holding a JSON object cannot be told from an object: it
    comes back as the object (docs/warm-path.md)."""
    event: dict[str, Any] = {}
    for name in FIELDS:
        value = arguments.get(name)
        if not isinstance(value, str) or value == "":
            continue
        event[name] = _typed(name, value)
    return event


def _typed(name: str, value: str) -> Any:
    if name in OBJECTS and value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    if name in FLAGS and value in ("true", "false"):
        return value == "true"
    if name in NUMBERS and value.isdigit():
        return int(value)
    return value


def answer(arguments: dict[str, Any]) -> str:
    """What the command hook prints for this event ('' when it prints nothing, or when the command
    hook has the event: it lost the claim, or the event is not one the warm path answers)."""
    from sidekit_hooks.core import workspace
    from sidekit_hooks.nudges import queue
    from sidekit_hooks.pipeline import runtime

    started = time.monotonic()
    if runtime.env_disabled():
        return ""
    event = payload(arguments)
    event_name = str(event.get("hook_event_name", ""))
    key = claim.event_key(event_name, event)
    if not key:
        return ""
    cwd = event.get("cwd")
    project = workspace.project_dir(cwd if isinstance(cwd, str) else "")
    if not claim.claim(project, key, claim.WARM):
        return ""
    outcome: runtime.Outcome | None = None
    try:
        call = runtime.begin(event_name, event, started)
        outcome = runtime.handle(call)
    except Exception as exc:  # noqa: BLE001 - the command hook takes the event over
        if outcome is not None:
            queue.release(outcome.claims)
        claim.release(project, key)
        from sidekit_hooks.core import hooklog

        hooklog.error(project, event_name, "warm", exc)
        return ""
    if not claim.commit(project, key):  # taken over meanwhile: the command hook says it
        queue.release(outcome.claims)
        return ""
    queue.commit(outcome.claims)
    runtime.after_output(call, outcome.output)
    return outcome.output
