"""A Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`) -> the hook payloads it
implies.

The transcript format is internal to Claude Code and changes between versions, so everything is read
defensively (the reference recipe, `claude-code-hooks.md` §7):
- a human prompt (a `user` line whose content is text, not `isMeta`) -> UserPromptSubmit {prompt};
- an assistant `tool_use` block + the `tool_result` that answers it -> PostToolUse with the line's
  structured `toolUseResult` as `tool_response`, or PostToolUseFailure {error} when the result is an
  error from a tool that ran (rejections and input-validation errors fired no hook and are skipped);
- sidechain lines (subagents inside the main file) are skipped; hook attachments are ignored.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

NOT_RUN_MARKERS = (
    "<tool_use_error>",
    "doesn't want to proceed",
    "was rejected",
    "User rejected",
    "interrupted by user",
)


@dataclass
class Replayable:
    event_name: str
    payload: dict[str, Any]
    line: int


@dataclass
class Transcript:
    events: list[Replayable] = field(default_factory=list)
    session: str = ""
    cwd: str = ""
    skipped: int = 0  # lines that were not JSON objects
    unanswered: int = 0  # tool calls with no result in the file


def read(path: str) -> Transcript:
    """The whole transcript at once (tests and small files); `stream` is what replay uses."""
    out = Transcript()
    out.events = list(stream(path, out))
    return out


def stream(path: str, out: Transcript) -> Iterator[Replayable]:
    """The replayable events in file order, one line read at a time (a 20 MB session never sits in
    memory whole); `out` gets session, cwd and the counts as the file goes by."""
    calls: dict[str, dict[str, Any]] = {}
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, text in enumerate(handle, 1):
            try:
                line = json.loads(text)
            except ValueError:
                out.skipped += bool(text.strip())
                continue
            if not isinstance(line, dict) or line.get("isSidechain") is True:
                continue
            out.session = out.session or str(line.get("sessionId") or "")
            out.cwd = out.cwd or str(line.get("cwd") or "")
            message = line["message"] if isinstance(line.get("message"), dict) else {}
            content = message.get("content")
            if line.get("type") == "assistant" and isinstance(content, list):
                for block in content:
                    if (
                        isinstance(block, dict)
                        and block.get("type") == "tool_use"
                        and block.get("id")
                    ):
                        calls[str(block["id"])] = {
                            "name": block.get("name", ""),
                            "input": block.get("input") or {},
                            "line": line,
                        }
            elif line.get("type") == "user":
                yield from _user_events(line, content, calls, number)
    out.unanswered = len(calls)


def _user_events(
    line: dict[str, Any], content: Any, calls: dict[str, dict[str, Any]], number: int
) -> list[Replayable]:
    base = _base(line)
    if isinstance(content, str):
        if line.get("isMeta") or not content.strip() or content.lstrip().startswith("<"):
            # injected text, slash-command output or a local-command echo: no prompt was typed
            return []
        return [
            Replayable(
                "UserPromptSubmit",
                {**base, "hook_event_name": "UserPromptSubmit", "prompt": content},
                number,
            )
        ]
    if not isinstance(content, list):
        return []
    events = []
    texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    if texts and not results and not line.get("isMeta"):
        prompt = "\n".join(t for t in texts if isinstance(t, str))
        if prompt.strip() and not prompt.lstrip().startswith("<"):
            events.append(
                Replayable(
                    "UserPromptSubmit",
                    {**base, "hook_event_name": "UserPromptSubmit", "prompt": prompt},
                    number,
                )
            )
    for block in results:
        call = calls.pop(str(block.get("tool_use_id")), None)
        if call is None:
            continue
        payload = {
            **_base(call["line"]),
            **base,
            "tool_name": call["name"],
            "tool_input": call["input"],
            "tool_use_id": str(block.get("tool_use_id")),
        }
        agent = call["line"].get("agentId")
        if agent:
            payload["agent_id"] = agent
        if block.get("is_error") is True:
            error = _text(block.get("content"))
            if any(marker in error for marker in NOT_RUN_MARKERS):
                continue
            events.append(
                Replayable(
                    "PostToolUseFailure",
                    {**payload, "hook_event_name": "PostToolUseFailure", "error": error},
                    number,
                )
            )
        else:
            result = line.get("toolUseResult")
            response = result if result is not None else _text(block.get("content"))
            events.append(
                Replayable(
                    "PostToolUse",
                    {**payload, "hook_event_name": "PostToolUse", "tool_response": response},
                    number,
                )
            )
    return events


def _base(line: dict[str, Any]) -> dict[str, Any]:
    base: dict[str, Any] = {}
    if line.get("sessionId"):
        base["session_id"] = line["sessionId"]
    if line.get("cwd"):
        base["cwd"] = line["cwd"]
    if line.get("permissionMode"):
        base["permission_mode"] = line["permissionMode"]
    return base


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text", ""))
            for b in content
            if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""
