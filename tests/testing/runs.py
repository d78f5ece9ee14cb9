"""Running things the way a user or Claude Code does, for the tests: a command through `sh -c` with
a hook's JSON on stdin, the real CLI with its own HOME, and a copy of this checkout as a plugin
install."""

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
CHECKOUT_ONLY = (
    ".git",
    ".venv",
    ".cache",
    ".sidekit*",
    ".runtime",
    "__pycache__",
    "*.egg-info",
    ".mypy_cache",
)
AGENT_PREFIXES = (
    "CLAUDE",
    "GT_",
    "TMUX",
)  # what Claude Code, Gas Town and tmux set: a test starts without


def run_text(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """`argv` with text output captured (and `stdin` fed when given)."""
    return subprocess.run(
        argv, input=stdin, capture_output=True, text=True, env=env, cwd=str(cwd), timeout=timeout
    )


def through_sh(
    command: str, data: object, *, cwd: Path, env: Mapping[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """A hook command as Claude Code runs it: `sh -c`, the event's JSON on stdin."""
    return run_text(
        ["/bin/sh", "-c", command], stdin=json.dumps(data), cwd=cwd, env=env, timeout=timeout
    )


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
    """`sidekit ARGS` in a subprocess with HOME=`home` (run in it unless `cwd` is given), no
    variable that starts with one of `drop`, and `extra` set."""
    env = dict(environment_without(*drop), HOME=str(home), **(extra or {}))
    return run_text([*SIDEKIT, *args], cwd=cwd or home, env=env, timeout=60)


def plugin_copy(dest: Path, *leave_out: str) -> Path:
    """A copy of this checkout at `dest` without what matches `leave_out`, as a plugin install
    leaves it."""
    shutil.copytree(REPO, dest, ignore=shutil.ignore_patterns(*leave_out))
    return dest


PYTEST_DISTRIBUTIONS = (
    "pytest",
    "pluggy",
    "iniconfig",
    "packaging",
    "pygments",
)  # pytest and what it needs


def venv_with_pytest(env: Path) -> Path:
    """A project's own environment with pytest and nothing else (no sidekit, no pytest plugin): a
    venv without pip whose `.pth` names a folder of links to this interpreter's pytest and what it
    needs (their modules and their metadata, as pip would have left them)."""
    import importlib.metadata

    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120
    )
    shelf = env / "pytest-only"
    shelf.mkdir()
    for name in PYTEST_DISTRIBUTIONS:
        dist = importlib.metadata.distribution(name)
        top = {
            Path(str(file)).parts[0] for file in dist.files or () if not str(file).startswith("..")
        }
        for entry in sorted(top - {"__pycache__"}):
            source = Path(str(dist.locate_file(entry)))
            if source.exists() and not (shelf / entry).exists():
                (shelf / entry).symlink_to(source)
    [site] = (env / "lib").glob("python3*/site-packages")
    (site / "pytest-only.pth").write_text(f"{shelf}\n")
    return env


def fake_venv(env: Path, tools: Sequence[str] = ("python", "python3", "pytest", "py.test")) -> Path:
    """The shape of a venv (pyvenv.cfg, empty executables in bin/, a site-packages), made in no
    time; returns its site-packages."""
    (env / "bin").mkdir(parents=True)
    (env / "pyvenv.cfg").write_text("home = /usr/bin\n")
    site = env / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    for tool in tools:
        (env / "bin" / tool).write_text("#!/bin/sh\n")
        (env / "bin" / tool).chmod(0o755)
    return site
