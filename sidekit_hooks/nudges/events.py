"""One hook payload -> one typed Event. Standard library only: this runs on every tool call.

Every payload field is optional; an unknown tool becomes an opaque event that detectors skip.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Tools whose payload we understand, by the kind of action they are.
FILE_WRITE_TOOLS = frozenset({"Edit", "Write", "NotebookEdit", "MultiEdit"})
FILE_READ_TOOLS = frozenset({"Read"})
SEARCH_TOOLS = frozenset({"Glob", "Grep"})
SHELL_TOOLS = frozenset({"Bash", "PowerShell"})
AGENT_TOOLS = frozenset({"Agent", "Task"})
TASK_TOOLS = frozenset({"TaskCreate", "TaskUpdate", "TodoWrite"})
WEB_TOOLS = frozenset({"WebFetch", "WebSearch"})

# A detector never needs more than this much of any one text; bigger tool output is cut here.
MAX_TEXT = 200_000


class Event:
    """What one hook invocation saw, reduced to the fields detectors use."""

    __slots__ = (
        "event_name",
        "session_id",
        "cwd",
        "project_dir",
        "tool",
        "kind",
        "tool_use_id",
        "agent_id",
        "path",
        "abs_path",
        "added",
        "old_text",
        "new_text",
        "command",
        "output",
        "error",
        "prompt",
        "pattern",
        "raw",
    )

    def __init__(self, event_name: str, raw: dict[str, Any]) -> None:
        self.event_name = event_name
        self.raw = raw
        self.session_id = _str(raw.get("session_id"))
        self.cwd = _str(raw.get("cwd"))
        self.project_dir = ""
        self.tool = _str(raw.get("tool_name"))
        self.kind = tool_kind(self.tool)
        self.tool_use_id = _str(raw.get("tool_use_id"))
        self.agent_id = _str(raw.get("agent_id"))
        self.path = ""  # project-relative, "/"-separated; "" when the call names no file
        self.abs_path = ""
        self.added = ""  # the text this call added (not what the file already had)
        self.old_text = ""  # the file's text before the call, when the payload carries it
        self.new_text = ""  # the file's text after the call, when the payload carries it
        self.command = ""
        self.output = ""
        self.error = _str(raw.get("error"))[:MAX_TEXT]
        self.prompt = _str(raw.get("prompt"))[:MAX_TEXT]
        self.pattern = ""

    @property
    def is_subagent(self) -> bool:
        return bool(self.agent_id)

    def __repr__(self) -> str:
        return f"Event({self.event_name}, tool={self.tool!r}, path={self.path!r})"


def tool_kind(tool: str) -> str:
    """The family a tool belongs to: write, read, search, shell, agent, task, web, mcp or opaque."""
    if tool in FILE_WRITE_TOOLS:
        return "write"
    if tool in FILE_READ_TOOLS:
        return "read"
    if tool in SEARCH_TOOLS:
        return "search"
    if tool in SHELL_TOOLS:
        return "shell"
    if tool in AGENT_TOOLS:
        return "agent"
    if tool in TASK_TOOLS:
        return "task"
    if tool in WEB_TOOLS:
        return "web"
    if tool.startswith("mcp__"):
        return "mcp"
    return "opaque"


def parse_event(event_name: str, raw: object, project_dir: str = "") -> Event:
    """Build an Event from a decoded payload. Never raises on odd shapes."""
    payload = raw if isinstance(raw, dict) else {}
    event = Event(_str(payload.get("hook_event_name")) or event_name, payload)
    event.project_dir = project_dir or event.cwd
    tool_input = _dict(payload.get("tool_input"))
    response = payload.get("tool_response")
    if event.kind == "write":
        _fill_write(event, tool_input, _dict(response))
    elif event.kind == "read":
        _set_path(event, _str(tool_input.get("file_path")))
    elif event.kind == "search":
        event.pattern = _str(tool_input.get("pattern"))
        _set_path(event, _str(tool_input.get("path")))
        event.output = _response_text(response)
    elif event.kind == "shell":
        event.command = _str(tool_input.get("command"))[:MAX_TEXT]
        event.output = _response_text(response)
    elif event.kind != "opaque":
        event.output = _response_text(response)
    return event


def _fill_write(event: Event, tool_input: dict[str, Any], response: dict[str, Any]) -> None:
    path = _str(tool_input.get("file_path") or tool_input.get("notebook_path"))
    _set_path(event, path or _str(response.get("filePath") or response.get("notebook_path")))
    original = response.get("originalFile")
    if original is None:
        original = response.get("original_file")
    event.old_text = _str(original)[:MAX_TEXT]
    if event.tool == "Write":
        event.new_text = _str(tool_input.get("content") or response.get("content"))[:MAX_TEXT]
        event.added = added_lines(event.old_text, event.new_text)
    elif event.tool == "NotebookEdit":
        source = _str(tool_input.get("new_source") or response.get("new_source"))
        event.added = added_lines(_str(response.get("old_source")), source)
    else:
        event.added = _edit_added(tool_input, response)
    event.added = event.added[:MAX_TEXT]


def _edit_added(tool_input: dict[str, Any], response: dict[str, Any]) -> str:
    """Lines an Edit (or a legacy MultiEdit) added: the patch when present, else new vs old
    string."""
    patch = response.get("structuredPatch")
    if isinstance(patch, list) and patch:
        plus = [
            line[1:]
            for hunk in patch
            if isinstance(hunk, dict)
            for line in _list(hunk.get("lines"))
            if isinstance(line, str) and line.startswith("+")
        ]
        return "\n".join(plus)
    edits = tool_input.get("edits")
    if isinstance(edits, list):
        pairs = [
            (_str(e.get("old_string")), _str(e.get("new_string")))
            for e in edits
            if isinstance(e, dict)
        ]
    else:
        pairs = [(_str(tool_input.get("old_string")), _str(tool_input.get("new_string")))]
    return "\n".join(filter(None, (added_lines(old, new) for old, new in pairs)))


def added_lines(before: str, after: str) -> str:
    """Lines of `after` that `before` does not have, in order (a multiset difference, not a
    diff)."""
    if not before:
        return after
    remaining: dict[str, int] = {}
    for line in before.splitlines():
        remaining[line] = remaining.get(line, 0) + 1
    out = []
    for line in after.splitlines():
        if remaining.get(line, 0) > 0:
            remaining[line] -= 1
        else:
            out.append(line)
    return "\n".join(out)


def relative_path(path: str, project_dir: str) -> str:
    """Project-relative "/"-separated path; absolute (normalised) when outside the project."""
    if not path:
        return ""
    path = path.replace("\\", "/")
    if project_dir and not os.path.isabs(path):
        path = os.path.join(project_dir, path)
    path = os.path.normpath(path)
    if project_dir:
        root = os.path.normpath(project_dir)
        if path == root:
            return "."
        if path.startswith(root.rstrip("/") + "/"):
            return path[len(root.rstrip("/")) + 1 :]
    return path


def _set_path(event: Event, path: str) -> None:
    if not path:
        return
    event.path = relative_path(path, event.project_dir)
    base = event.project_dir or event.cwd
    joined = path.replace("\\", "/")
    event.abs_path = os.path.normpath(
        joined if os.path.isabs(joined) or not base else os.path.join(base, joined)
    )


def _response_text(response: object) -> str:
    """The readable text of any tool_response shape: Bash stdout/stderr, Grep content, MCP
    blocks."""
    if isinstance(response, str):
        return response[:MAX_TEXT]
    if isinstance(response, dict):
        parts = [response.get(key) for key in ("stdout", "stderr", "content", "result", "output")]
        text = "\n".join(p for p in parts if isinstance(p, str) and p)
        if not text and isinstance(response.get("filenames"), list):
            text = "\n".join(str(f) for f in response["filenames"][:1000])
        return text[:MAX_TEXT]
    if isinstance(response, list):
        texts = [b.get("text") for b in response if isinstance(b, dict)]
        return "\n".join(t for t in texts if isinstance(t, str))[:MAX_TEXT]
    return ""


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []
