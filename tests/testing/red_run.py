"""A real pytest run in a fixture project, as the tests sidecar finds it afterwards (its cache
written by the recorder plugin): the caller's PYTEST_* settings, hypothesis's and anyio's plugins
(most of a small run's start-up) and pytest-randomly left out (the fixture's tests run in the order
they are written)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

LEFT_OUT = ("-p", "no:hypothesispytest", "-p", "no:anyio", "-p", "no:randomly")


def pytest_run(project: Path, env: dict[str, str], *args: str, **more_env: str) -> str:
    """`python -m pytest -q ARGS` in `project` (`more_env` set too); what it printed (its result is
    read from the cache)."""
    clean = {k: v for k, v in env.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *LEFT_OUT, *args],
        cwd=project,
        env={**clean, **more_env},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    ).stdout


def red_package(project: Path, env: dict[str, str], files: dict[str, str]) -> Path:
    """`project` as a pytest rootdir with a package `pkg` and `files` (dedented), after a pytest
    run."""
    from testing.code import write

    write(project, {"pytest.ini": "[pytest]\n", "pkg/__init__.py": "", **files})
    pytest_run(project, env)
    return project
