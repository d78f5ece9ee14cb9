from __future__ import annotations

import pytest

from sidekit_hooks.rules.globs import match_name, matches, matches_any, problem


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("*.py", "a/b/c.py", True),
        ("*.py", "c.py", True),
        ("*.py", "c.pyx", False),
        ("api/**/*.py", "api/x.py", True),
        ("api/**/*.py", "api/v1/x.py", True),
        ("api/**/*.py", "src/api/x.py", False),
        ("/setup.py", "setup.py", True),
        ("/setup.py", "pkg/setup.py", False),
        ("build/", "build/x.o", True),
        ("build/", "a/build/x.o", True),
        ("build/", "build", False),
        ("tests", "tests/unit/test_a.py", True),
        ("tests/**", "tests/a/b.py", True),
        ("tests/**", "tests", False),
        ("**", "anything/at/all", True),
        ("**/x.py", "x.py", True),
        ("a/*.py", "a/b/c.py", False),
        ("[!a]*.py", "b.py", True),
        ("[!a]*.py", "a.py", False),
        ("file?.md", "docs/file1.md", True),
        ("file?.md", "docs/file10.md", False),
        (r"\*.md", "*.md", True),
    ],
)
def test_glob_matches_like_gitignore(glob: str, path: str, expected: bool) -> None:
    assert matches(glob, path) is expected


def test_last_matching_glob_decides_and_bang_reincludes() -> None:
    globs = ["**/*.py", "!tests/**", "tests/conftest.py"]
    assert [matches_any(globs, p) for p in ("src/a.py", "tests/test_a.py", "tests/conftest.py", "README.md")] == [
        True, False, True, False]


@pytest.mark.parametrize(
    ("glob", "why"),
    [
        ("", "an empty glob matches nothing"),
        ("../shared/*.py", "project-relative paths hold no . or .. segments"),
        ("./api/*.py", "project-relative paths hold no . or .. segments"),
        ("api\\v1\\*.py", "paths are /-separated; a backslash here never matches"),
        ("api//x.py", "an empty segment (//) never matches"),
        ("src/[ab.py", "the character class in '[ab.py' is not closed with ]"),
        ("api/**/*.py", ""),
        ("!tests/**", ""),
    ],
)
def test_problem_says_why_a_glob_cannot_match(glob: str, why: str) -> None:
    assert problem(glob) == why


def test_tool_names_take_wildcards() -> None:
    assert match_name("mcp__github__*", "mcp__github__create_issue")
    assert not match_name("mcp__github__*", "mcp__gitlab__x")
    assert match_name("Edit", "Edit") and not match_name("Edit", "Editor")
