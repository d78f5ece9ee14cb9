"""core/textscan's scanners against the regular expressions they replace."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings

from sidekit_hooks.core import textscan
from testing.examples import depths
from testing.regex_oracle import texts


@pytest.mark.parametrize("examples", depths(400, fast=80))
def test_digit_runs_are_where_backslash_d_plus_matches(examples: int) -> None:
    @settings(max_examples=examples)
    @given(texts("12", "٣4", "²", "…", "\udcff", "0x1f", "7e5"))
    def found_as_backslash_d_plus(text: str) -> None:
        assert textscan.digit_runs(text) == [m.span() for m in re.finditer(r"\d+", text)]

    found_as_backslash_d_plus()


def test_digit_runs_count_characters_beyond_ascii_as_one() -> None:
    assert textscan.digit_runs('"…" 12, é3 ٣4 ²5') == [(4, 6), (9, 10), (11, 13), (15, 16)]
