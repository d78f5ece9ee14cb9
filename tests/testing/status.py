"""Suites made inside the tests, run by a real pytest in a subprocess (the plugin loads by its entry
point)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from testing.hooks import REPO, run_sidekit

# A fixture that fails in setup, and forty tests that use it (one setup error each) beside one that
# passes.
BROKEN_FIXTURE = """
    import pytest

    @pytest.fixture
    def db():
        rows = None
        return rows["users"]
"""
FORTY = """
    import pytest

    @pytest.mark.parametrize("n", range(40))
    def test_uses_db(db, n):
        assert n >= 0

    def test_fine():
        assert True
"""


class Suite:
    """A throw-away project with its own pytest.ini, so it is pytest's rootdir and sidekit's
    workspace."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root = root
        self.env = env
        self.write("pytest.ini", "[pytest]\n")

    def write(self, name: str, text: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    def pytest(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", *args],
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def sidekit(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return run_sidekit(*args, cwd=self.root, env=self.env, timeout=timeout)

    def answer(self, *args: str) -> tuple[dict[str, Any], str, int]:
        done = self.sidekit(*args)
        assert done.stdout.count("\n") == 1, (done.stdout, done.stderr)
        return json.loads(done.stdout), done.stdout.rstrip("\n"), done.returncode

    def summary(self) -> dict[str, Any]:
        return dict(
            json.loads((self.root / ".sidekit" / "status.json").read_text(encoding="utf-8"))
        )

    def table(self) -> dict[str, Any]:
        return dict(
            json.loads((self.root / ".sidekit" / "status-tests.json").read_text(encoding="utf-8"))
        )


@pytest.fixture
def suite(project: Path, clean_env: dict[str, str]) -> Suite:
    """A throw-away project (tests/conftest.py's `project`) run without the caller's pytest or
    sidekit settings."""
    return Suite(project, suite_env(clean_env))


def suite_env(clean_env: dict[str, str]) -> dict[str, str]:
    """The environment a `Suite`'s pytest runs in, from a test's clean one."""
    env = {k: v for k, v in clean_env.items() if not k.startswith(("PYTEST_", "SIDEKIT_"))}
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # hypothesis's plugin: its import is most of a small run's start-up; anyio's (the MCP SDK's) a
    # quarter of what is left. pytest-randomly (a dev dependency, so in the venv these runs use):
    # the suites here are written in an order their answers depend on.
    env["PYTEST_ADDOPTS"] = "-p no:hypothesispytest -p no:anyio -p no:randomly"
    return env
