r"""Character classes and runs as `re` sees them, for scanners that must not import `re`.

Importing `re` (and the `enum` it pulls in) and compiling a few patterns costs a compacted `go
test`'s red binary more CPU than the rest of its answer: runners/go/adapter.py, runners/frames.py,
runners/go/subject.py and status/clusters.py scan with these instead. Each helper matches `re`'s
meaning for a `str` pattern (Unicode classes): `\w` is `c.isalnum() or c == "_"`, `\d` is
`c.isdecimal()`, `\s` is `c.isspace()`. The tests check each scanner against the pattern it replaces
(tests/testing/regex_oracle.py).
"""

from __future__ import annotations

IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")  # `[A-Za-z_]`
_DIGIT_MARKS = (
    b"1" * 48 + b"0" * 10 + b"1" * 198
)  # bytes.translate table: an ASCII digit -> "0", else "1"


def is_word(char: str) -> bool:
    r"""`\w`: one character of a word."""
    return char.isalnum() or char == "_"


def word_end(text: str, start: int) -> int:
    r"""The end of the run of word characters (`\w*`) from `start`."""
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return end


def decimal_end(text: str, start: int) -> int:
    r"""The end of the run of decimal digits (`\d*`) from `start`."""
    end = start
    while end < len(text) and text[end].isdecimal():
        end += 1
    return end


def digit_runs(text: str) -> list[tuple[int, int]]:
    r"""(start, end) of each run of decimal digits (`\d+`), left to right."""
    runs: list[tuple[int, int]] = []
    # Both ends found by bytes.find (C), not character by character: one byte per character, any
    # character beyond ASCII as "?" (so offsets stay), unless one of those is a digit itself (`٣`).
    if text.isascii() or not any(c.isdecimal() for c in set(text) if c > "\x7f"):
        marks = text.encode("ascii", "replace").translate(_DIGIT_MARKS)
        start = marks.find(b"0")
        while start >= 0:
            end = marks.find(b"1", start)
            end = len(marks) if end < 0 else end
            runs.append((start, end))
            start = marks.find(b"0", end)
        return runs
    index = 0
    while index < len(text):
        if text[index].isdecimal():
            end = decimal_end(text, index + 1)
            runs.append((index, end))
            index = end
        index += 1
    return runs


def quoted_end(text: str, start: int, newline_ends: bool) -> int:
    r"""Where the quoted item opened by the quote at `start` ends (just after its closing quote), or -1:
    `Q(?:[^Q\\]|\\.)*Q`, with `newline_ends` `Q(?:[^Q\\\n]|\\.)*Q` (no line break inside). A backslash
    takes the next character with it, but never a line break (`.`)."""
    quote = text[start]
    index = start + 1
    while True:  # from one backslash to the next (str.find), not character by character
        close = text.find(quote, index)
        if close < 0:
            return -1
        escape = text.find("\\", index, close)
        if newline_ends and text.find("\n", index, close if escape < 0 else escape) >= 0:
            return -1
        if escape < 0:
            return close + 1
        if escape + 1 >= len(text) or text[escape + 1] == "\n":
            return -1
        index = escape + 2


def line_rest(text: str) -> str | None:
    """`text` as `(.*)$` takes it: no line break, except one at the very end (left out); else
    None."""
    if text.endswith("\n"):
        text = text[:-1]
    return None if "\n" in text else text


def identifier_words(name: str) -> list[str]:
    """`waitUntil`, `wait_until`, `WaitUntil` -> ["wait", "until"]: an identifier's words, lower case."""
    words: list[str] = []
    current = ""
    for char in name:
        if char == "_" or (char.isupper() and current and not current[-1].isupper()):
            if current:
                words.append(current.lower())
            current = "" if char == "_" else char
        else:
            current += char
    if current:
        words.append(current.lower())
    return words
