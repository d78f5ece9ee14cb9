"""Queued nudges -> the one `additionalContext` string a hook prints. Standard library only.

Urgent first, then FIFO; one line per nudge; at most MAX_DELIVERY characters, the rest counted and
left queued for the next turn boundary.
"""

from __future__ import annotations

from sidekit_hooks.core import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.nudges.queue import Claim, Nudge

MAX_DELIVERY = 1000
MAX_NUDGE = 300  # docs/policy.md: one nudge line stays under this many characters
# a Gas Town message longer than this is cut, visibly, so it can never block the queue
MAX_LINE = MAX_NUDGE
OWN_PREFIX = "[sidecar:"


def safe_text(text: str) -> str:
    """Text any UTF-8 output can carry: a lone surrogate (valid in JSON, not in UTF-8) becomes
    U+FFFD."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)
    return text


def line_for(nudge: Nudge) -> str:
    """One line: sidekit's own finding as written (`[sidecar:x] ...`), anything else behind a label
    built from its sender field, as Gas Town shows it (`[from S] ...`, `[URGENT from S] ...`).

    The text never chooses its label: a line that starts with `[sidecar:` is sidekit's only when its
    sender is (`is_own`); from anyone else it is shown as the queue's, behind that sender's
    label."""
    text = safe_text(" ".join(nudge.message.split()))
    if not is_own(nudge, text):
        label = "URGENT from" if nudge.urgent else "from"
        text = f"[{label} {sender_label(nudge.sender)}] {text}"
    if len(text) > MAX_LINE:
        text = text[: MAX_LINE - 14].rstrip() + " …(truncated)"
    return text


def is_own(nudge: Nudge, text: str) -> bool:
    """A finding sidekit queued: sender `sidekit` or `sidekit/<sidecar>` (Gas City: source
    `sidekit`), and the text opens with that sidecar's own prefix."""
    if nudge.sender != "sidekit" and not nudge.sender.startswith("sidekit/"):
        return False
    sidecar = nudge.sidecar
    return text.startswith(f"{OWN_PREFIX}{sidecar}]" if sidecar else OWN_PREFIX)


def sender_label(sender: str) -> str:
    """The sender as a label: one line, no brackets (it cannot close the label and open another), at
    most 60 characters; `unknown` when nothing is left."""
    words = " ".join(
        "".join(" " if char in "[]" or not char.isprintable() else char for char in sender).split()
    )
    return safe_text(words[:60].rstrip()) or "unknown"


def plan(
    claims: list[Claim], budget: int = MAX_DELIVERY, waiting: int = 0
) -> tuple[str, list[Claim], list[Claim]]:
    """Choose what fits: (text, delivered, left for later). The tail notes how many wait: those
    left here and `waiting` more held elsewhere (a Gas City's items that stayed in the city)."""
    ordered = sorted(claims, key=lambda c: not c.nudge.urgent)  # stable: FIFO inside each priority
    delivered: list[Claim] = []
    lines: list[str] = []
    used = 0
    for index, held in enumerate(ordered):
        line = line_for(held.nudge)
        after = len(ordered) - index - 1 + waiting
        # Room for the "(+N more queued)" tail, sized for the worst case of stopping here.
        reserve = len(f"\n(+{after + 1} more queued)") if after else 0
        cost = len(line) + (1 if lines else 0)
        if used + cost + reserve > budget:
            break
        lines.append(line)
        delivered.append(held)
        used += cost
    left = ordered[len(delivered) :]
    if left or waiting:
        lines.append(f"(+{len(left) + waiting} more queued)")
    return "\n".join(lines), delivered, left


def plan_lines(lines: list[str], budget: int = MAX_DELIVERY) -> tuple[str, int]:
    """Lines said at once (no queue behind them): (text, how many went in); the rest are counted,
    and the caller keeps them for another time."""
    kept: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        after = len(lines) - index - 1
        reserve = len(f"\n(+{after} more)") if after else 0
        cost = len(line) + (1 if kept else 0)
        if used + cost + reserve > budget:
            break
        kept.append(line)
        used += cost
    said = len(kept)
    if said < len(lines):
        kept.append(f"(+{len(lines) - said} more)")
    return "\n".join(kept), said


def hook_output(
    event_name: str,
    context: str,
    notices: list[str] | None = None,
    tool_output: dict[str, object] | None = None,
) -> str:
    """The single JSON object a hook prints; empty when there is nothing to say.

    `context` reaches the model (additionalContext); `notices` reach only the user (systemMessage);
    `tool_output` replaces what the model reads of the tool's result (PostToolUse's
    updatedToolOutput, the tool_response's own shape).
    """
    payload: dict[str, object] = {}
    if notices:
        payload["systemMessage"] = "\n".join(notices)[:MAX_DELIVERY]
    specific: dict[str, object] = {"hookEventName": event_name}
    if context:
        specific["additionalContext"] = context
    if tool_output is not None:
        specific["updatedToolOutput"] = tool_output
    if len(specific) > 1:
        payload["hookSpecificOutput"] = specific
    return safe_text(fastjson.dumps(payload)) if payload else ""
