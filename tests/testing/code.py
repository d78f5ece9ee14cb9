"""Helpers for the code-navigation tests: write a fixture repo, run the real `sidekit` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

GIT = [
    "git",
    "-c",
    "user.email=t@example.invalid",
    "-c",
    "user.name=t",
    "-c",
    "commit.gpgsign=false",
]


def write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))


def settle(root: Path, seconds: float = 10) -> None:
    """Every file and folder under `root` (git's and sidekit's too) dated `seconds` back, as a
    working tree left alone is: past the code index's racy window, so a query's warm check holds
    (code/fresh.py)."""
    then = time.time() - seconds
    for folder, dirs, names in os.walk(root):
        for name in [*dirs, *names]:
            os.utime(os.path.join(folder, name), (then, then), follow_symlinks=False)
    os.utime(root, (then, then))


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        [*GIT, *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def commit_all(root: Path) -> None:
    if not (root / ".git").exists():
        git(root, "init", "-q")
    (root / ".gitignore").write_text(".sidekit/\n.pytest_cache/\n__pycache__/\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "fixture")


def env_for(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "GT_", "PYTEST_"))}
    # The fixture repos' own pytest runs load only what they ask for (-p), like a project without
    # plugins.
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    return env


def sidekit(
    root: Path, command: str, *args: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", command, "--project", str(root), *args],
        cwd=root,
        env=env_for(root),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


def answer(root: Path, command: str, *args: str) -> tuple[dict[str, Any], int]:
    """(parsed answer, its size in bytes without the newline)."""
    return parsed(sidekit(root, command, *args).stdout)


def parsed(out: str) -> tuple[dict[str, Any], int]:
    """One answer line: (parsed answer, its size in bytes without the newline)."""
    assert out.endswith("\n") and out.count("\n") == 1, out
    return json.loads(out), len(out.rstrip("\n").encode())


def answer_in_process(
    monkeypatch: Any, capsys: Any, root: Path, command: str, *args: str
) -> tuple[dict[str, Any], int]:
    """`answer`, by the CLI's own `main` in this process, in the environment and cwd `sidekit` gives
    the subprocess: for a test whose subject is what a query answers (a map's content, an import
    graph), not the entry point, a start of Python less per query. Keep `answer` for the entry
    point's own tests."""
    from sidekit_hooks import cli

    environment = env_for(root)
    for name in set(os.environ) - set(environment):
        monkeypatch.delenv(name)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(root)
    capsys.readouterr()
    code = cli.main([command, "--project", str(root), *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    return parsed(out)


def recorded_calls(monkeypatch: Any, owner: object, name: str) -> list[Any]:
    """The first argument of every call to `owner.name` from now on (each call still runs)."""
    seen: list[Any] = []
    real = getattr(owner, name)

    def recording(first: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(first)
        return real(first, *args, **kwargs)

    monkeypatch.setattr(owner, name, recording)
    return seen
