"""Compact answers for agents: one line of JSON, camelCase, nothing null, empty or default.

`--format text` renders the same answer for a person.
"""

from __future__ import annotations

import sys

from sidekit_hooks.core import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def is_remainder_key(key: str) -> bool:
    """Counts of what a capped list left out (`remainder`, `moreFailures`...): absent when zero."""
    return key == "remainder" or (key.startswith("more") and key[4:5].isupper())


def compact(value: Any) -> Any:
    """Drop None, empty strings and containers, False, and zero remainders. Other zeros are data."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            item = compact(item)
            if item is None or item is False or item == "" or item == [] or item == {}:
                continue
            if item == 0 and is_remainder_key(key) and not isinstance(item, bool):
                continue
            out[key] = item
        return out
    if isinstance(value, (list, tuple)):
        return [compact(item) for item in value]
    return value


def dumps(answer: dict[str, Any]) -> str:
    """`json.dumps(compact(answer), ensure_ascii=False, separators=(",", ":"))`, byte for byte:
    json's own C encoder without importing `json` (with `re` and `enum`, a sixth of a warm `sidekit
    usages`)."""
    return fastjson.dumps_as_json(compact(answer))


def render_text(answer: Any, indent: str = "") -> str:
    """A readable, indented view of an answer for people (`--format text`)."""
    answer = compact(answer)
    lines: list[str] = []
    if isinstance(answer, dict):
        for key, item in answer.items():
            if isinstance(item, (dict, list)):
                lines.append(f"{indent}{key}:")
                lines.append(render_text(item, indent + "  "))
            else:
                lines.append(f"{indent}{key}: {item}")
    elif isinstance(answer, list):
        for item in answer:
            if isinstance(item, dict):
                body = render_text(item, indent + "  ").lstrip()
                lines.append(f"{indent}- {body}")
            else:
                lines.append(f"{indent}- {item}")
    else:
        lines.append(f"{indent}{answer}")
    return "\n".join(line for line in lines if line)


def emit(answer: dict[str, Any], fmt: str = "json") -> None:
    sys.stdout.write((render_text(answer) if fmt == "text" else dumps(answer)) + "\n")


def size(answer: dict[str, Any]) -> int:
    """Bytes of the answer as `dumps` prints it (UTF-8, without the newline)."""
    return len(dumps(answer).encode("utf-8"))


def short_path(path: str, limit: int = 60) -> str:
    """`path` in at most `limit` characters, eliding middle folders as `…` (still a usable hint).

    Keeps the first folder and as many trailing parts as fit; a file name longer than the limit is
    cut in its middle.
    """
    if len(path) <= limit:
        return path
    parts = path.split("/")
    tail = parts[-1]
    if len(tail) + 2 > limit:
        keep = max(1, limit - 1)
        return tail[: keep // 2] + "…" + tail[len(tail) - (keep - keep // 2) :]
    kept = [tail]
    head = parts[0] + "/…/" if len(parts) > 2 else "…/"
    for part in reversed(parts[1:-1]):
        candidate = part + "/" + "/".join(kept)
        if len(head) + len(candidate) > limit:
            break
        kept.insert(0, part)
    shortened = head + "/".join(kept)
    return shortened if len(shortened) <= limit else "…/" + tail


def fit(
    answer: dict[str, Any],
    key: str,
    items: list[Any],
    budget: int,
    more: str | Callable[[list[Any]], dict[str, Any]] = "more",
) -> dict[str, Any]:
    """`answer` with as many leading `items` under `key` as fit in `budget` bytes.

    What is left out is counted under the key `more` (omitted when nothing is), or by the fields
    `more(left_out)` returns (e.g. moreFailures). The count is part of the budget, so a capped list
    is never silently partial.
    """

    def remainder(left: list[Any]) -> dict[str, Any]:
        return more(left) if callable(more) else {more: len(left) or None}

    # Every item costs at least 2 bytes in the list (`1,`), so more than budget // 2 of them never
    # fit: the search starts there, not at the whole list (a usages answer can hold thousands of
    # sites).
    low, high = 0, min(len(items), budget // 2)
    best: dict[str, Any] | None = None
    while low <= high:  # the largest prefix that fits; answers are small, so this is a few dumps
        middle = (low + high) // 2
        trial = dict(answer, **{key: items[:middle]}, **remainder(items[middle:]))
        if size(trial) <= budget:
            best, low = trial, middle + 1
        else:
            high = middle - 1
    return best if best is not None else dict(answer, **{key: []}, **remainder(items))


def clip(text: str, limit: int) -> str:
    """One line of at most `limit` characters; a cut ends with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
