"""What Claude Code's `mcp_tool` hook handler sends to the warm server's `hook` tool (2.1.328,
docs/warm-path.md): each `${field}` of the handler's `input` becomes the event's field as text, an
object as compact JSON (`JSON.stringify`), `true`/`false` and numbers as their text, a missing or
null field as ""."""

from __future__ import annotations

import json
from typing import Any

from sidekit_hooks.pipeline import warm


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
