"""Running things the way a user or Claude Code does, for the tests: a command through `sh -c` with a
hook's JSON on stdin, the real CLI with its own HOME, and a copy of this checkout as a plugin install."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SIDEKIT = [sys.executable, "-m", "sidekit_hooks.cli"]
CHECKOUT_ONLY = (".git", ".venv", ".cache", ".sidekit*", ".runtime", "__pycache__", "*.egg-info", ".mypy_cache")
AGENT_PREFIXES = ("CLAUDE", "GT_", "TMUX")  # what Claude Code, Gas Town and tmux set: a test starts without


def run_text(
    argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`argv` with text output captured (and `stdin` fed when given)."""
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, cwd=str(cwd), timeout=timeout)


def through_sh(
    command: str, data: object, *, cwd: Path, env: Mapping[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """A hook command as Claude Code runs it: `sh -c`, the event's JSON on stdin."""
    return run_text(["/bin/sh", "-c", command], stdin=json.dumps(data), cwd=cwd, env=env, timeout=timeout)


def environment_without(*prefixes: str) -> dict[str, str]:
    """This process's environment less the variables whose names start with one of `prefixes`."""
    return {key: value for key, value in os.environ.items() if not key.startswith(prefixes)}


def sidekit_at_home(
    *args: str,
    home: Path,
    cwd: Path | None = None,
    drop: tuple[str, ...] = AGENT_PREFIXES,
    extra: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`sidekit ARGS` in a subprocess with HOME=`home` (run in it unless `cwd` is given), no variable that
    starts with one of `drop`, and `extra` set."""
    env = dict(environment_without(*drop), HOME=str(home), **(extra or {}))
    return run_text([*SIDEKIT, *args], cwd=cwd or home, env=env, timeout=60)


def plugin_copy(dest: Path, *leave_out: str) -> Path:
    """A copy of this checkout at `dest` without what matches `leave_out`, as a plugin install leaves it."""
    shutil.copytree(REPO, dest, ignore=shutil.ignore_patterns(*leave_out))
    return dest
