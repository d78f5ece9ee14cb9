"""Helpers for the real-project runner tests: fetch, plant a bug, run raw and compacted, ask
sidekit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from testing import requires
from testing.agent_shell import Ran, bash_tool

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("SIDEKIT_TEST_CACHE", "/tmp/sidekit-test-cache"))


def need(tool: str) -> str:
    return requires.program(tool)


def env_for(project: Path, **more: str) -> dict[str, str]:
    drop = ("CLAUDE_PROJECT_DIR", "SIDEKIT_RAW", "SIDEKIT_RUNNER", "PYTEST_ADDOPTS", "CI")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return dict(env, CLAUDE_PROJECT_DIR=str(project), **more)


def shell(project: Path, command: str, env: dict[str, str], timeout: float = 600) -> Ran:
    """`command` as the agent's Bash tool runs it: one shell, stdout and stderr together."""
    return bash_tool(command, project, env, timeout)


def sidekit(
    project: Path, env: dict[str, str], *args: str, timeout: float = 600
) -> tuple[dict[str, Any], int]:
    done = subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", *args],
        cwd=str(project),
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.stdout.strip(), done.stderr
    return json.loads(done.stdout), done.returncode


def answer_line(output: str) -> dict[str, Any]:
    """The compact answer's JSON line in a compacted run's output."""
    lines = [line for line in output.splitlines() if line.startswith("{")]
    assert lines, output[-2000:]
    return dict(json.loads(lines[0]))


def plant(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def git_init(project: Path) -> None:
    subprocess.run(["git", "init", "-q", str(project)], check=True)
