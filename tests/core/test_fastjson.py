from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sidekit_hooks.core import fastjson

documents = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(documents)
def test_round_trips_like_json(value: object) -> None:
    text = fastjson.dumps(value)
    assert text == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert fastjson.loads(text) == json.loads(text)
    assert fastjson.loads(json.dumps(value, indent=2)) == value


@pytest.mark.parametrize("bad", ["", "   ", "{", '{"a":1} tail', "nul", "[1,]"])
def test_rejects_what_json_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        json.loads(bad)
    with pytest.raises(ValueError):
        fastjson.loads(bad)


def test_malformed_input_is_a_value_error_even_without_json_imported() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from sidekit_hooks.core import fastjson\n"
        "for bad in ['{half', '{\"a\": ', '[1,', '{\"a\" 1}']:\n"
        "    try:\n        fastjson.loads(bad)\n    except ValueError as exc:\n        "
        "print(type(exc).__name__)\n"
    )
    from testing.hooks import REPO

    done = subprocess.run(
        [sys.executable, "-S", "-c", code, str(REPO)], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "JSONDecodeError\n" * 4, "")


any_keys = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text() | st.integers() | st.floats() | st.booleans() | st.none(), inner, max_size=4
        )
    ),
    max_leaves=20,
)


@given(any_keys)
def test_dumps_as_json_is_json_dumps_byte_for_byte(value: object) -> None:
    """NaN, infinities, non-string keys included: the same C encoder json.dumps uses."""
    assert fastjson.dumps_as_json(value) == json.dumps(
        value, ensure_ascii=False, separators=(",", ":")
    )


def test_dumps_as_json_refuses_what_json_refuses_and_keeps_working() -> None:
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference detected"):
        fastjson.dumps_as_json(loop)
    with pytest.raises(TypeError, match="Object of type set is not JSON serializable"):
        fastjson.dumps_as_json({"a": {1}})
    shared = [1]
    assert fastjson.dumps_as_json([shared, shared]) == "[[1],[1]]"  # seen twice is not a loop
