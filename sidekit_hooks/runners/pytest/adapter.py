"""The pytest runner as the registry sees it: detection only. Its recording is the pytest plugin
(runners/pytest after the layout move) and its raw-run rewrite is the pytest path of `rewrite`."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import subprocess
    from typing import Any

NAME = "pytest"
# its pytest plugin writes the cache as the run goes; `sidekit test` runs it its own way
FEED = "plugin"
IMPORT_GRAPH = True  # its tests are selected by the package's Python import graph (impact/)
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
    return name in ("pytest", "py.test") or (
        name.startswith("python") and words[1:3] == ["-m", "pytest"]
    )


def run_args(words: list[str]) -> list[str] | None:
    """The arguments after the words that start pytest (`pytest`, `py.test`, `python -m pytest`, the
    program as written, without its folder), or None when these words do not start it."""
    program = words[0] if words else ""
    if program.startswith("python") and words[1:3] == ["-m", "pytest"]:
        return words[3:]
    return words[1:] if program in ("pytest", "py.test") else None


def compact_words(words: list[str], project: str) -> list[str] | None:
    return None  # pytest's own rewrite appends `-o sidekit_compact=true` (see rewrite.py)


def installed() -> bool:
    """Whether `sidekit status` can offer to run it: pytest importable here (else it answers
    "none")."""
    from importlib.util import find_spec

    return find_spec("pytest") is not None


def unrecorded(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """pytest ended without our plugin writing (usage error, no pytest, -p no:sidekit): say why."""
    from sidekit_hooks.answers import render

    text = (done.stderr or "") + (done.stdout or "")
    if "No module named pytest" in text:
        return {
            "runner": "none",
            "exit": done.returncode,
            "error": "pytest is not installed for this project",
            "fix": "pip install pytest",
        }
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    why = next(
        (line for line in reversed(lines) if "error" in line.lower()), lines[-1] if lines else ""
    )
    return {
        "runner": NAME,
        "exit": done.returncode,
        "error": render.clip(why, 160) or "no test status recorded",
    }
