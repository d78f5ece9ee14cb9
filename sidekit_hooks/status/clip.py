"""Cutting a stored message to size without cutting a value in half.

An exception message often ends in a repr (`not a number: 'x…'`, `bad row {'id': 3, ...}`). Cut
inside it, the message reads as a different value and no longer matches its cluster's other
messages. So a long message is cut at the last boundary between two items, as shallow as possible:
between words outside every quote and bracket, else between the items of the one value the message
is, whose brackets are then closed. The cut is marked with `…`. Standard library only, no `re`: the
pytest plugin calls this for every failure.
"""

from __future__ import annotations

MARK = "…"
OPENERS = {"(": ")", "[": "]", "{": "}", "<": ">"}
QUOTES = ("'", '"')
BOUNDARY = " ,;:="  # a cut after one of these ends a word or an item


def clip(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else a prefix that ends between two items, with ` …`
    (and the brackets it leaves open) appended; at most `limit` characters."""
    if len(text) <= limit:
        return text
    if len(text) >= 2 and text[0] in QUOTES and text[-1] == text[0] and limit > 4:
        return (
            text[0] + clip(text[1:-1], limit - 2) + text[0]
        )  # str(KeyError(x)) wraps one value in quotes
    best: tuple[int, int, str] | None = None  # (depth, cut, closers)
    for depth, cut, closers in boundaries(text, limit):
        if len(text[: cut + 1].rstrip()) + 2 + len(closers) > limit:
            continue
        if best is None or depth < best[0] or (depth == best[0] and cut > best[1]):
            best = (depth, cut, closers)
    if best is not None:
        _, cut, closers = best
        return text[: cut + 1].rstrip() + " " + MARK + closers
    if text[:1] in QUOTES or text[:1] in OPENERS:
        return MARK  # one value with no item boundary: none of it rather than half of it
    return (
        text[: limit - len(MARK)] + MARK
    )  # one long word (a path, an identifier): its start says what it was


def boundaries(text: str, limit: int) -> list[tuple[int, int, str]]:
    """(bracket depth, index, closing brackets) of every place before `limit` outside quotes where
    an item ends; a cut there stays readable."""
    found: list[tuple[int, int, str]] = []
    closers: list[str] = []
    quote = ""
    escaped = False
    for index, char in enumerate(text[:limit]):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
            continue
        if char in BOUNDARY and index > 0:
            found.append((len(closers), index, "".join(reversed(closers))))
        if char in QUOTES and _starts_value(text, index):
            quote = char
        elif char in OPENERS and (char != "<" or _starts_value(text, index)):
            closers.append(OPENERS[char])
        elif closers and char == closers[-1]:
            closers.pop()
    return found


def _starts_value(text: str, index: int) -> bool:
    """A quote or `<` opens a value when it does not sit inside a word (`it's`, `a<b`)."""
    return index == 0 or not text[index - 1].isalnum()
