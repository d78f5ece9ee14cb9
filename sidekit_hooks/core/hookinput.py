"""A hook's stdin -> the event payload: what a malformed event is, decided and logged in one place.

Claude Code sends one JSON object. Anything else (a byte order mark in front, a string left open, a
second document after the first, a list or a number, more than hook.MAX_STDIN bytes) is bad input:
the hook does nothing, exits 0, and leaves one `bad-input` line in `.sidekit/log/hooks.jsonl` saying
what was wrong, never a crash line. Lone surrogates (`"\\ud800"`: valid JSON, not text any file name
or UTF-8 output can carry) are replaced by U+FFFD in every string, so the event still runs, and are
logged the same way. Standard library only (hook hot path).
"""

from __future__ import annotations

from sidekit_hooks.core import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WHERE = "bad-input"  # the log line's `where`: bad input, never a crash


class BadInput(ValueError):
    """The event on stdin cannot be used; the message says why."""


def too_big(limit: int) -> BadInput:
    """What an event over `limit` bytes is (hook.py reads one byte more than it keeps, to know)."""
    return BadInput(f"the event is over {limit >> 20} MiB; not read")


def parse(text: str) -> tuple[dict[str, Any], str]:
    """(the payload, a note on what was mended or ''); {} for an empty stdin; BadInput for anything
    else."""
    if not text.strip():
        return {}, ""
    if text.startswith("\ufeff"):
        raise BadInput("the event starts with a UTF-8 byte order mark")
    try:
        # Depth bounded before anything walks it: a 1,000-deep tool_response costs nothing but
        # itself.
        payload = fastjson.loads_bounded(text)
    except (ValueError, RecursionError) as exc:
        raise BadInput(f"the event is not one JSON document ({exc})") from None
    if not isinstance(payload, dict):
        raise BadInput(f"the event is a JSON {type(payload).__name__}, not an object")
    if "\\u" in text or "\\U" in text:  # a surrogate only ever comes from an escape
        mended = _mend(payload)
        if mended is not payload:
            return mended, "lone surrogates in the event were replaced by U+FFFD"
    return payload, ""


def log(project: str, event_name: str, why: BadInput | str) -> None:
    from sidekit_hooks.core import hooklog

    hooklog.error(project, event_name, WHERE, str(why))


def _mend(value: Any) -> Any:
    """`value` with every lone surrogate replaced (the same object when there was none)."""
    if isinstance(value, str):
        if value.isascii() or fastjson.encodable(value):
            return value
        return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in value)
    if isinstance(value, list):
        items = [_mend(item) for item in value]
        return (
            items if any(new is not old for new, old in zip(items, value, strict=True)) else value
        )
    if isinstance(value, dict):
        pairs = [(_mend(key), _mend(item)) for key, item in value.items()]
        changed = any(
            k is not ok or v is not ov
            for (k, v), (ok, ov) in zip(pairs, value.items(), strict=True)
        )
        return dict(pairs) if changed else value
    return value
