from __future__ import annotations

import re

import pytest

from sidekit_hooks.rules import match, sre

PATTERNS = [
    r"status_code\s*=\s*400",
    r"^\s*(breakpoint\(\)|import i?pdb\b)",
    r"(?i)todo",
    r"(?P<word>\w+)-(?P=word)",
    r"^(<{7}|>{7})( |$)",
    r"[^\x00-\x7f]+",
    r"\bgit\b[^\n|;&]*\bcommit\b",
    r"x{2,5}?y",
    r"(?<=a)b",
    "é+",
]
TEXT = "a status_code = 400\n  import pdb\nTODO: ab ab-ab\n<<<<<<< HEAD\nnaïve café xxxy ab git add && git commit -n\n"


def test_multiline_constant_is_re_multiline() -> None:
    assert sre.MULTILINE == re.MULTILINE


@pytest.mark.parametrize("pattern", PATTERNS)
def test_precompiled_pattern_behaves_like_re_compile(pattern: str) -> None:
    loaded = sre.load(pattern, sre.assemble(pattern) or [])
    expected = re.compile(pattern, re.MULTILINE)
    assert loaded is not None
    assert (loaded.flags, loaded.groups, loaded.groupindex) == (
        expected.flags,
        expected.groups,
        expected.groupindex,
    )
    assert [m.span() for m in loaded.finditer(TEXT)] == [m.span() for m in expected.finditer(TEXT)]


def test_code_from_another_engine_falls_back_to_re_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match, "_compiled", {})
    monkeypatch.setattr(match, "_precompiled", {})
    match.use_precompiled({"engine": "other-9.9/1/4", "sre": {"x": [0, [1, 2, 3], 0, {}, [None]]}})
    assert match._precompiled == {}
    match.use_precompiled(
        {"engine": sre.ENGINE, "sre": {"x": [0, [1, 2, 3], 0, {}, [None]]}}
    )  # corrupt code
    assert match.regex("x").search("axb") is not None  # _sre refused the code; re.compile took over
