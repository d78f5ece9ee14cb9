"""What nudges may cost a session: at most SHARE of the bytes its tools returned to the model.

Counted from what the hooks see. A main-agent PostToolUse/PostToolUseFailure payload's
`tool_response` text (Bash stdout and stderr, a Read's file content, Grep's lines, an MCP tool's
blocks) or its `error` is one call's result bytes, noted in the session's ledger with the call
(`{"call": PATH, "out": N}`); a write's confirmation counts nothing (the budget can only be smaller
than what the model read). Every text sidekit gives the model (a delivery, a Stop reminder, the
primer and what follows a compaction) is noted as spent (`{"spent": N}`), whole: its lines and the
reminder Claude Code wraps them in (`<system-reminder>`, `<Hook>:<Tool> hook additional context: `).
A delivery fits in what is left; what does not fit waits in the queue, counted, for a later call
whose output pays for it. The scope primer is said regardless (it is the task's frame) and counted.

By default the budget holds reminders only (a Stop reminder, what follows a compaction): a finding
said for the first time is never held back, since a session's first calls return few bytes (an Edit's
confirmation counts none) and the budget would hold back the very nudge that belongs next to the first
out-of-scope edit; a reminder repeats what the model was told already, and is what goes first when
nudges cost too much. `$SIDEKIT_NUDGE_BUDGET` (the user's): `on` holds first findings to SHARE too,
a share such as `0.05` does the same with that share, `off` (or `0`) holds nothing. Standard library only.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.session_ledger import Ledger

SHARE = 0.05  # nudge bytes per tool-result byte, over the session
SHARE_ENV = "SIDEKIT_NUDGE_BUDGET"
UNLIMITED = 1 << 30
# around every hook text
WRAPPER = "<system-reminder>\n hook additional context: \n</system-reminder>"


def result_bytes(event: Event) -> int:
    """The bytes of one tool call's result the model reads (0 for a subagent's: not this
    context's)."""
    if event.is_subagent:
        return 0
    error = event.raw.get("error")
    size = _size(error) if isinstance(error, str) else 0
    response = event.raw.get("tool_response")
    if (
        event.kind == "write"
    ):  # the model reads a line of confirmation, not the content the payload echoes
        return size
    if isinstance(response, str):
        return size + _size(response)
    if isinstance(response, dict):
        parts = [response.get(key) for key in ("stdout", "stderr", "content", "result", "output")]
        file = response.get("file")
        if isinstance(file, dict):  # Read: {"type": "text", "file": {"content": ...}}
            parts.append(file.get("content"))
        size += sum(_size(part) for part in parts if isinstance(part, str))
        names = response.get("filenames")
        if isinstance(names, list):  # Glob, Grep's files mode: one name a line
            size += sum(_size(name) + 1 for name in names if isinstance(name, str))
        return size
    if isinstance(response, list):  # MCP content blocks
        return size + sum(_size(block.get("text")) for block in response if isinstance(block, dict))
    return size


def wrapped(text: str, event_name: str, tool: str = "") -> int:
    """The bytes the model reads for `text` given by `hook` (after `tool`), the reminder around it
    included."""
    if not text:
        return 0
    label = f"{event_name}:{tool}" if tool and event_name.startswith("PostToolUse") else event_name
    return len(WRAPPER) + len(label.encode()) + _size(text)


def room(
    book: Ledger, event_name: str, tool: str = "", pending: int = 0, reminder: bool = False
) -> int:
    """Characters of text the model may still get now: the share of the results (`pending`: this
    call's, not yet in the ledger) less what was spent, less the reminder around it; 0 when nothing
    fits. `reminder`: the text repeats findings already said (held to SHARE unless turned off)."""
    rate = reminder_share() if reminder else share()
    if rate is None:
        return UNLIMITED
    left = (
        int(rate * (book.result_bytes + pending)) - book.spent - wrapped(" ", event_name, tool) + 1
    )
    return max(left, 0)


def share() -> float | None:
    """The budget's share for findings said the first time; None for no budget (the default, `off`,
    and a value that does not read)."""
    raw = os.environ.get(SHARE_ENV, "").strip().lower()
    if raw == "on":
        return SHARE
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if 0 < value <= 1 else None


def reminder_share() -> float | None:
    """The budget's share for reminders: SHARE unless the user set another share, or `off` (`0`)."""
    raw = os.environ.get(SHARE_ENV, "").strip().lower()
    if raw in ("off", "0"):
        return None
    return share() or SHARE


def spent_fact(text: str, event_name: str, tool: str = "") -> dict[str, int]:
    return {"spent": wrapped(text, event_name, tool)}


def _size(text: object) -> int:
    if not isinstance(text, str):
        return 0
    return len(text) if text.isascii() else len(text.encode("utf-8", "replace"))
