"""Compact answers for agents: one line of JSON, camelCase, nothing null, empty or default.

`--format text` renders the same answer for a person.
"""

from __future__ import annotations

import json
import sys
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
    return json.dumps(compact(answer), ensure_ascii=False, separators=(",", ":"))


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
    """Bytes of the answer as printed (UTF-8, newline excluded): what budgets are measured in."""
    return len(dumps(answer).encode("utf-8"))


def fit(answer: dict[str, Any], key: str, items: list[Any], budget: int,
        remainder: Callable[[list[Any]], dict[str, Any]]) -> dict[str, Any]:
    """`answer` with as many leading `items` under `key` as fit in `budget` bytes.

    `remainder(left_out)` gives the fields that count what was cut (e.g. moreFailures); they are part
    of the measured answer, so a cut list is never silent and the budget still holds.
    """
    shown: list[Any] = []
    for item in items:
        trial = dict(answer, **{key: shown + [item]}, **remainder(items[len(shown) + 1:]))
        if size(trial) > budget:
            break
        shown.append(item)
    return dict(answer, **{key: shown}, **remainder(items[len(shown):]))


def clip(text: str, limit: int) -> str:
    """One line of at most `limit` characters; a cut ends with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def clip_path(path: str, limit: int) -> str:
    """A path of at most `limit` characters, keeping its end (file name and line) when cut."""
    return path if len(path) <= limit else "…" + path[len(path) - limit + 1:]
