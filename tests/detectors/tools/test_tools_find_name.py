"""`find DIR -name PATTERN`: the Glob tool, once it has answered in the session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sidekit_hooks.detectors.tools import find_name
from testing.shell_catalog import found_in

GLOB_LINE = (
    "[sidecar:tools] `find -name {0}`: the Glob tool does this (pattern `**/{0}`) and lists "
    "matches "
    "newest first, without the shell."
)

CASES = [
    ("find . -name '*.py'", GLOB_LINE.format("*.py")),
    ("find src -type f -name 'test_*.py'", GLOB_LINE.format("test_*.py")),
    ("find . -name '*.pyc' -delete", None),
    ("find . -name '*.py' | xargs wc -l", None),
    ("find . -mtime -1 -name '*.log'", None),
    ("find . -type d -name __pycache__", None),
]


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_find_name(command: str, expected: str | None, catalog: Callable[[str], list[str]]) -> None:
    assert catalog(command) == ([expected] if expected else [])


def test_the_find_hint_waits_for_the_glob_tool_to_answer_in_the_session(project: Path) -> None:
    # Claude Code can run without Glob ("Glob is not available in this session"): no hint to a
    # missing tool.
    assert found_in("find . -name '*.py'", project, "s2") == []
    find_name.remember_glob(str(project), "s2")
    assert found_in("find . -name '*.py'", project, "s2") == [GLOB_LINE.format("*.py")]
    assert found_in("find . -name '*.py'", project, "other") == []
