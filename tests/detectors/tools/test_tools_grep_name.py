"""`grep -rn NAME` / `rg NAME` / `git grep NAME` for a name the index defines: `sidekit
usages`/`symbol`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sidekit_hooks.code.index import Index
from testing.shell_catalog import catalog_project, found_in

USAGES_LINE = (
    "[sidecar:tools] Searching code text for `{0}`: `sidekit usages {0}` lists its real uses "
    "(AST references, not comments or strings) in one compact line."
)
SYMBOL_LINE = "[sidecar:tools] Searching code text for `{0}`: `sidekit symbol {0}` says where it is defined in one compact line."

CASES = [
    ("grep -rn slugify .", USAGES_LINE.format("slugify")),
    ('grep -rn "slugify(" --include="*.py" src', USAGES_LINE.format("slugify")),
    (r'rg -n "\bmake_slug\b" src/', USAGES_LINE.format("make_slug")),
    ("git grep -n parse_duration", USAGES_LINE.format("parse_duration")),
    ("rg 'def slugify'", SYMBOL_LINE.format("slugify")),
    ("grep -rn 'class UserStore' app", SYMBOL_LINE.format("UserStore")),
    ("grep -rn TODO .", None),
    ("grep -n slugify app/text.py", None),  # one file, not a code search
    ("grep -rn 'connection refused' logs", None),
    (
        "grep -rn strikethrough .",
        None,
    ),  # a parameter, not a definition: `sidekit usages` would miss what grep finds
    ("rg -n styled", None),  # a name nothing defines
    ("rg -t js slugify", None),
    ("grep -rn slugify README.md docs/index.md", None),
    ("grep -rn 'foo.*bar' .", None),
]


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_grep_for_a_name(
    command: str, expected: str | None, catalog: Callable[[str], list[str]]
) -> None:
    assert catalog(command) == ([expected] if expected else [])


def test_the_grep_hint_waits_for_an_index_that_knows_the_name(project: Path) -> None:
    catalog_project(project, index=False)
    assert found_in("grep -rn slugify .", project) == []  # no index built yet: nothing is known
    with Index.open(str(project)):
        pass
    assert found_in("grep -rn slugify .", project) == [USAGES_LINE.format("slugify")]
