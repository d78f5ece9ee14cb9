"""core/textscan's scanners against the regular expressions they replace."""

from __future__ import annotations

import re

from hypothesis import given, settings

from sidekit_hooks.core import textscan
from testing.regex_oracle import texts


@settings(max_examples=400)
@given(texts("12", "٣4", "²", "…", "\udcff", "0x1f", "7e5"))
def test_digit_runs_are_where_backslash_d_plus_matches(text: str) -> None:
    assert textscan.digit_runs(text) == [m.span() for m in re.finditer(r"\d+", text)]


def test_digit_runs_count_characters_beyond_ascii_as_one() -> None:
    assert textscan.digit_runs('"…" 12, é3 ٣4 ²5') == [(4, 6), (9, 10), (11, 13), (15, 16)]
