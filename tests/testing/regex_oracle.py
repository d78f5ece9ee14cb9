"""The regular expressions that runners and status scan without `re` (core/textscan), kept here as
the oracle their scanners are checked against, and text that exercises them."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st

from testing import examples

FAST_EXAMPLES = 300  # texts an oracle test draws in the fast suite (testing/examples.py)

# The patterns by the name of what replaces them, and the normalizers in the order they ran.
SOURCES = {
    "framing": r"^\s*\x16(=== (?:RUN|PAUSE|CONT|NAME) +|--- (?:PASS|FAIL|SKIP): )(.*?)(?: "
    r"\((\d+\.\d+)s\))?$",
    "go_log_line": r"^\s+([\w.\-/]+\.go):(\d+): ?(.*)$",
    "go_test_name": r"^func ((?:Test|Example|Fuzz)\w*)\(",
    "defined_function": r"^func ([A-Za-z_]\w*)\s*[\[(]",
    "starts_function": r"^func\b",
    "testing_params": r"\b(\w+) \*testing\.[TBF]\b",
    "calls": r"(?<![\w.])(?:([A-Za-z_]\w*)\.)?([A-Za-z_]\w*)\s*\(",
    "without_literals": r'"(?:[^"\\]|\\.)*"|`[^`]*`|\'(?:[^\'\\]|\\.)*\'|//.*$',
}
NORMALIZERS = [
    (r"0x[0-9a-fA-F]+", "0x…"),
    (r"'(?:[^'\\\n]|\\.)*'", "'…'"),
    (r'"(?:[^"\\\n]|\\.)*"', '"…"'),
    (r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?!\w)", "N"),
]


def pattern(name: str) -> re.Pattern[str]:
    return re.compile(SOURCES[name])


def normalized(message: str) -> str:
    for source, replacement in NORMALIZERS:
        message = re.sub(source, replacement, message)
    return message


def natural(test: str) -> list[object]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", test)]


# Characters the patterns care about, others that \w, \d and \s take in (Arabic-Indic digits,
# letters with accents, a superscript two that is a digit but not decimal, Unicode spaces and line
# breaks).
SPECIAL = list("0123456789xXabcdefABCDEFeE.+-_'\"`\\/()[]*: \t\n\x16") + [
    "é",
    "٣",
    "²",
    "Ω",
    "\u2028",
    "\xa0",
    "\x1c",
]


def texts(*words: str) -> st.SearchStrategy[str]:
    """Strings made mostly of SPECIAL characters and the given words (`=== RUN`, `*testing.T`,
    ...)."""
    pieces = st.sampled_from(SPECIAL + list(words)) | st.characters()
    return st.lists(pieces, max_size=40).map("".join)


def depths(full: int) -> list[Any]:
    """`examples` for an oracle test's parametrize: FAST_EXAMPLES in the fast suite, `full` in the
    slow half."""
    return examples.depths(full, FAST_EXAMPLES)
