"""Compact answers for agents: one line of JSON, camelCase, nothing null, empty or default.

`--format text` renders the same answer for a person.
"""

from __future__ import annotations

import json
import sys
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
