"""sidekit_hooks/answers/render.py: the compact JSON every answer is printed as."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from sidekit_hooks.answers import render

ANSWERS: list[dict[str, Any]] = [
    {"uses": 0, "searched": 3},
    {
        "matches": [{"kind": "class", "at": "pkg/é.py:1", "sig": '(a="\\\\\n\t\u2028")'}],
        "more": 0,
        "x": None,
    },
    {
        "ratio": 1.5,
        "tiny": 1e-300,
        "big": 1e300,
        "neg": -0.0,
        "flag": True,
        "off": False,
        "nested": [[], {}, [1]],
    },
]


@pytest.mark.parametrize("answer", ANSWERS)
def test_an_answer_prints_as_json_dumps_prints_it_compacted(answer: dict[str, Any]) -> None:
    assert render.dumps(answer) == json.dumps(
        render.compact(answer), ensure_ascii=False, separators=(",", ":")
    )


def test_what_json_refuses_or_allows_is_the_same() -> None:
    with pytest.raises(TypeError, match="^Object of type object is not JSON serializable$"):
        render.dumps({"a": object()})
    assert render.dumps({"a": float("nan")}) == json.dumps(
        {"a": float("nan")}, separators=(",", ":")
    )


def test_printing_an_answer_does_not_import_json() -> None:
    code = (
        "import sys; from sidekit_hooks.answers import render; render.emit({'a': [1]}); "
        "print(sorted({'json', 're'} & set(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout == '{"a":[1]}\n[]\n'
