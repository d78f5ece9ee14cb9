"""Fixtures for the end-to-end tests: the pinned Claude Code CLI and one scripted session per
test."""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from testing.claude import (
    Run,
    SessionRunner,
    Step,
    pinned_cli,
    run_claude,
    sidekit_argv,
)


@pytest.fixture(scope="session")
def claude_cli() -> Path:
    """The pinned CLI (bash tests/e2e/install_claude.sh); the test skips, saying why, when it is not
    there.

    Under `$SIDEKIT_E2E_REQUIRED` (CI, after installing the CLI) it fails instead: never a silent
    skip.
    """
    return pinned_cli()


@pytest.fixture
def session_id() -> str:
    return str(uuid.uuid4())


@pytest.fixture
def sidekit(project: Path, clean_env: dict[str, str]) -> Callable[..., str]:
    """Run `sidekit ARGS... --project PROJECT`-style commands as a user would; returns stdout."""

    def run(*args: str) -> str:
        done = subprocess.run(
            [*sidekit_argv(), *args],
            capture_output=True,
            text=True,
            cwd=project,
            env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
            timeout=60,
        )
        assert done.returncode == 0, f"sidekit {' '.join(args)} failed: {done.stderr}"
        return done.stdout

    return run


@pytest.fixture
def run_session(claude_cli: Path, project: Path, session_id: str, tmp_path: Path) -> SessionRunner:
    """`run_session(prompt, steps, plugin_dir=None, home=None, env=None, resume=False,
    result="done")`: one `claude -p` run in `project` (`result`: the final text the run must end
    with; "" for `/compact`)."""

    def run(
        prompt: str,
        steps: Sequence[Step],
        plugin_dir: Path | None = None,
        home: Path | None = None,
        env: dict[str, str] | None = None,
        resume: bool = False,
        result: str = "done",
    ) -> Run:
        done = run_claude(
            claude_cli,
            project,
            prompt,
            steps,
            session_id=session_id,
            home=home or tmp_path / "home",
            plugin_dir=plugin_dir,
            env=env,
            resume=resume,
        )
        assert done.returncode == 0 and done.result == result, (
            f"claude -p exited {done.returncode}, result {done.result!r}\nstderr: "
            f"{done.stderr[-3000:]}"
        )
        return done

    return run
