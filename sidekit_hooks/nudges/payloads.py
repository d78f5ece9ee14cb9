"""The payloads Claude Code 2.1.328 sends for a tool call, built from the call itself.

The inverse of `events.parse_event`: the demo and replay (`cli.playback`), a rule's examples
(`rules.authoring.examples`) and the tests build their payloads here, so every one of them has the
shape the real client sends.
"""

from __future__ import annotations

from typing import Any


def write_call(
    file_path: str,
    content: str,
    original: str | None = None,
    patch: list[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(tool_input, tool_response) of a Write; `original` is what the file held (None: a new
    file)."""
    return {"file_path": file_path, "content": content}, {
        "type": "update" if original is not None else "create",
        "filePath": file_path,
        "content": content,
        "structuredPatch": patch or [],
        "originalFile": original,
    }


def edit_call(
    file_path: str,
    old: str,
    new: str,
    original: str,
    replace_all: bool = False,
    patch: list[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(tool_input, tool_response) of an Edit of `original` that replaced `old` with `new`."""
    if patch is None:
        patch = [
            {
                "oldStart": 1,
                "oldLines": len(old.split("\n")),
                "newStart": 1,
                "newLines": len(new.split("\n")),
                "lines": [f"-{line}" for line in old.split("\n")]
                + [f"+{line}" for line in new.split("\n")],
            }
        ]
    return {
        "file_path": file_path,
        "old_string": old,
        "new_string": new,
        "replace_all": replace_all,
    }, {
        "filePath": file_path,
        "oldString": old,
        "newString": new,
        "originalFile": original,
        "structuredPatch": patch,
        "userModified": False,
        "replaceAll": replace_all,
    }


def bash_call(
    command: str, stdout: str = "", stderr: str = ""
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(tool_input, tool_response) of a Bash call that exited 0."""
    return {"command": command}, {
        "stdout": stdout,
        "stderr": stderr,
        "interrupted": False,
        "isImage": False,
    }


def tool_payload(
    project: str,
    session: str,
    tool: str,
    tool_input: dict[str, Any],
    response: Any = None,
    error: str = "",
    tool_use_id: str = "toolu_1",
    **fields: Any,
) -> dict[str, Any]:
    """The whole PostToolUse payload, or PostToolUseFailure's when `error` is given (it has no
    response)."""
    event_name = "PostToolUseFailure" if error else "PostToolUse"
    data: dict[str, Any] = {
        "session_id": session,
        "transcript_path": f"{project}/.sidekit-transcript.jsonl",
        "cwd": project,
        "permission_mode": "default",
        "hook_event_name": event_name,
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": tool_use_id,
    }
    if error:
        data["error"] = error
    else:
        data["tool_response"] = response
    data.update(fields)
    return data
