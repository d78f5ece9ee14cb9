"""Helpers for the real-project runner tests: fetch, plant a bug, run raw and compacted, ask sidekit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from testing.hooks import HOOK_SCRIPTS, pre_bash

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("SIDEKIT_TEST_CACHE", "/tmp/sidekit-test-cache"))


def need(tool: str) -> str:
    found = shutil.which(tool)
    if not found:
        pytest.skip(f"{tool} is not installed")
    return found


def env_for(project: Path, **more: str) -> dict[str, str]:
    drop = ("CLAUDE_PROJECT_DIR", "SIDEKIT_RAW", "SIDEKIT_RUNNER", "PYTEST_ADDOPTS", "CI")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return dict(env, CLAUDE_PROJECT_DIR=str(project), **more)


def rewritten(project: Path, command: str, env: dict[str, str]) -> str:
    """What the real PreToolUse hook turns `command` into ('' = left alone)."""
    done = run_hook(project, "PreToolUse", pre_bash(project, command, "s", tool_use_id="t"), env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return str(json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]) if done.stdout else ""


def run_hook(
    project: Path, event: str, payload: dict[str, Any], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """The real hook entry script of `event`, as Claude Code's settings form starts it."""
    return subprocess.run(
        [sys.executable, "-S", str(HOOK_SCRIPTS[event])],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        cwd=str(project),
        timeout=30,
    )


class Ran:
    def __init__(self, output: str, code: int, wall: float, cpu: float) -> None:
        self.output, self.code, self.wall, self.cpu = output, code, wall, cpu

    @property
    def size(self) -> int:
        return len(self.output.encode("utf-8", "replace"))


def shell(project: Path, command: str, env: dict[str, str], timeout: float = 600) -> Ran:
    """`command` as the agent's Bash tool runs it: one shell, stdout and stderr together."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # to the microsecond (os.times: 10 ms ticks)
    start = time.perf_counter()
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=str(project),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        timeout=timeout,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Ran(done.stdout, done.returncode, wall, cpu)


def sidekit(project: Path, env: dict[str, str], *args: str, timeout: float = 600) -> tuple[dict[str, Any], int]:
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
