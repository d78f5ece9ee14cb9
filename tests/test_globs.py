"""Gitignore-style globs without `re`."""

from __future__ import annotations

import pytest

from sidekit_hooks.globs import could_contain, matches, segment_matches


@pytest.mark.parametrize(("pattern", "path", "expected"), [
    ("api/handlers/**", "api/handlers/user.py", True),
    ("api/handlers/**", "api/handlers/v2/deep/x.py", True),
    ("api/handlers/**", "api/handlerz/user.py", False),
    ("api/handlers", "api/handlers/user.py", True),  # a directory matches everything under it
    ("api/handlers/", "api/handlers/user.py", True),
    ("*.md", "docs/deep/readme.md", True),  # no slash: any depth
    ("/README.md", "docs/README.md", False),  # leading slash: anchored at the root
    ("/README.md", "README.md", True),
    ("api/*.py", "api/users.py", True),
    ("api/*.py", "api/v1/users.py", False),  # `*` stays inside a segment
    ("api/**/test_*.py", "api/test_a.py", True),  # `**` may be no segment at all
    ("api/**/test_*.py", "api/x/y/test_a.py", True),
    ("src/[ab]*.py", "src/alpha.py", True),
    ("src/[!ab]*.py", "src/alpha.py", False),
    ("src/v?.py", "src/v1.py", True),
    ("**", "anything/at/all", True),
])
def test_matches(pattern: str, path: str, expected: bool) -> None:
    assert matches(pattern, path) is expected


@pytest.mark.parametrize(("pattern", "directory", "expected"), [
    ("api/handlers/**", "api", True),
    ("api/handlers/**", "api/handlers/v2", True),
    ("api/handlers/**", "auth", False),
    ("api/handlers/*.py", "api/handlers/v2", False),
    ("*.py", "anywhere", True),
])
def test_could_contain(pattern: str, directory: str, expected: bool) -> None:
    assert could_contain(pattern, directory) is expected


@pytest.mark.parametrize(("pattern", "name", "expected"), [
    ("a*b*c", "axxbyyc", True), ("a*b*c", "axxbyy", False), ("[a-c]x", "bx", True), ("[a-c]x", "dx", False),
    ("[x", "[x", True), ("*", "", True), ("\\*", "*", True), ("\\*", "a", False),
])
def test_segment_matches(pattern: str, name: str, expected: bool) -> None:
    assert segment_matches(pattern, name) is expected
