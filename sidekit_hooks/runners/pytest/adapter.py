"""The pytest runner as the registry sees it: detection only. Its recording is the pytest plugin
(runners/pytest after the layout move) and its raw-run rewrite is the pytest path of `rewrite`."""

from __future__ import annotations

import os

NAME = "pytest"
MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini", "conftest.py")


def detect(project: str) -> bool:
    """Python's project files, or Python files at the top or in `tests/` / `test/`."""
    if any(os.path.isfile(os.path.join(project, name)) for name in MARKERS):
        return True
    for folder in (project, os.path.join(project, "tests"), os.path.join(project, "test")):
        try:
            if any(name.endswith(".py") for name in os.listdir(folder)):
                return True
        except OSError:
            continue
    return False


def matches(words: list[str]) -> bool:
    name = words[0].rsplit("/", 1)[-1] if words else ""
    return name in ("pytest", "py.test") or (name.startswith("python") and words[1:3] == ["-m", "pytest"])


def compact_words(words: list[str], project: str) -> list[str] | None:
    return None  # pytest's own rewrite appends `-o sidekit_compact=true` (see rewrite.py)
