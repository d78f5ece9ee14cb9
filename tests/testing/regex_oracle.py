"""The regular expressions that runners and status scan without `re` (core/textscan), kept here as the
oracle their scanners are checked against, and text that exercises them."""

from __future__ import annotations

import re

from hypothesis import strategies as st

NORMALIZERS = (
    (re.compile(r"0x[0-9a-fA-F]+"), "0x…"),
    (re.compile(r"'(?:[^'\\\n]|\\.)*'"), "'…'"),
    (re.compile(r'"(?:[^"\\\n]|\\.)*"'), '"…"'),
    (re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?!\w)"), "N"),
)
FRAMING = re.compile(r"^\s*\x16(=== (?:RUN|PAUSE|CONT|NAME) +|--- (?:PASS|FAIL|SKIP): )(.*?)(?: \((\d+\.\d+)s\))?$")
GO_LOG = re.compile(r"^\s+([\w.\-/]+\.go):(\d+): ?(.*)$")
GO_TEST_FUNC = re.compile(r"^func ((?:Test|Example|Fuzz)\w*)\(")
FUNC_DEF = re.compile(r"^func ([A-Za-z_]\w*)\s*[\[(]")
FUNC_START = re.compile(r"^func\b")
TEST_PARAM = re.compile(r"\b(\w+) \*testing\.[TBF]\b")
CALL = re.compile(r"(?<![\w.])(?:([A-Za-z_]\w*)\.)?([A-Za-z_]\w*)\s*\(")
STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|`[^`]*`|\'(?:[^\'\\]|\\.)*\'|//.*$')


def normalized(message: str) -> str:
    for pattern, replacement in NORMALIZERS:
        message = pattern.sub(replacement, message)
    return message


def natural(test: str) -> list[object]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", test)]


# Characters the patterns care about, others that \w, \d and \s take in (Arabic-Indic digits, letters
# with accents, a superscript two that is a digit but not decimal, Unicode spaces and line breaks).
SPECIAL = list("0123456789xXabcdefABCDEFeE.+-_'\"`\\/()[]*: \t\n\x16") + ["é", "٣", "²", "Ω", "\u2028", "\xa0", "\x1c"]


def texts(*words: str) -> st.SearchStrategy[str]:
    """Strings made mostly of SPECIAL characters and the given words (`=== RUN`, `*testing.T`, ...)."""
    pieces = st.sampled_from(SPECIAL + list(words)) | st.characters()
    return st.lists(pieces, max_size=40).map("".join)
