"""core/hookinput.py: what a malformed hook event is, and what is mended."""

from __future__ import annotations

import pytest

from sidekit_hooks.core import hookinput


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('\ufeff{"a": 1}', "the event starts with a UTF-8 byte order mark"),
        (
            '{"a": "b',
            "the event is not one JSON document (Unterminated string starting at: line 1 column 7 "
            "(char 6))",
        ),
        (
            '{"a": 1} {"b": 2}',
            "the event is not one JSON document (extra data after the JSON document at 8)",
        ),
        ("[1]", "the event is a JSON list, not an object"),
        ("null", "the event is a JSON NoneType, not an object"),
    ],
)
def test_malformed_events_are_bad_input_with_the_reason(text: str, why: str) -> None:
    with pytest.raises(hookinput.BadInput) as raised:
        hookinput.parse(text)
    assert str(raised.value) == why


def test_lone_surrogates_are_mended_everywhere_and_said() -> None:
    payload, note = hookinput.parse(
        '{"s\\ud800": ["x\\udc00", {"k": "\\ud83d\\ude00 ok"}], "n": 1}'
    )
    assert payload == {"s\ufffd": ["x\ufffd", {"k": "\U0001f600 ok"}], "n": 1}
    assert note == "lone surrogates in the event were replaced by U+FFFD"


def test_a_well_formed_event_is_returned_as_it_is() -> None:
    assert hookinput.parse('{"prompt": "\\u00e9 \\ud83d\\ude00"}') == (
        {"prompt": "\u00e9 \U0001f600"},
        "",
    )
    assert hookinput.parse("  \n") == ({}, "")
