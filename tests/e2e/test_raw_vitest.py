"""A raw `npx vitest run` through Bash in the real Claude Code CLI (2.1.328): what reached the model
(#20).

The project re-tests semver's own source with vitest 4 (tests/testing/js.py, from the npm registry),
a bug planted in `compare.js` failing 30 of 50 tests; it is wired the README's way (`sidekit install
--project`) and the scripted model runs vitest itself, then the same run with SIDEKIT_RAW=1.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from testing import js
from testing.bash_runs import answer, bash_session

pytestmark = pytest.mark.slow


@pytest.fixture
def wired(tmp_path: Path, sidekit: Callable[..., str]) -> Path:
    project = js.semver_project(tmp_path / "semver-vitest", "vitest", planted=True)
    sidekit("install", "--project", str(project))
    return project


def test_a_red_vitest_run_reaches_the_model_compact_and_still_failed(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    run = bash_session(
        claude_cli, wired, tmp_path / "home", ["npx vitest run", "SIDEKIT_RAW=1 npx vitest run"]
    )
    (compact, body, reminders), (raw, raw_body, _) = answer(run, 0), answer(run, 1)
    assert compact["is_error"] is True and reminders == []
    assert len(body.encode()) <= 800, body
    assert body.startswith("Exit code 1\nsidekit: vitest's output (") and "exit code 1" in body
    assert '"exit":1' in body and '"failed":30' in body and '"passed":20' in body
    assert f'"at":"{js.PLANTED}:5"' in body and ".sidekit/vitest/raw-" in body
    assert (
        raw["is_error"] is True
        and "sidekit:" not in raw_body
        and len(raw_body.encode()) > 3 * len(body.encode())
    )
    print(f"\nmodel received {len(raw_body.encode())} B raw, {len(body.encode())} B compact")


def test_the_rewritten_command_reaches_the_model_compact_and_still_failed(
    claude_cli: Path, tmp_path: Path
) -> None:
    """The command exactly as the adapter rewrites it, run by the CLI's Bash tool (CLAUDECODE set,
    so vitest would pick its `agent` reporter by itself): holds without the dispatch branch too."""
    project = js.semver_project(tmp_path / "semver-vitest", "vitest", planted=True)
    rewritten = js.compact_command("vitest", ["npx", "vitest", "run"], project)
    run = bash_session(claude_cli, project, tmp_path / "home", [rewritten, "npx vitest run"])
    (compact, body, _), (raw, raw_body, _) = answer(run, 0), answer(run, 1)
    assert compact["is_error"] is True and len(body.encode()) <= 800, body
    assert body.startswith("Exit code 1\nsidekit: vitest's output (")
    assert '"exit":1' in body and '"failed":30' in body and f'"at":"{js.PLANTED}:5"' in body, body
    assert raw["is_error"] is True and len(raw_body.encode()) > 3 * len(body.encode())
    print(f"\nmodel received {len(raw_body.encode())} B raw, {len(body.encode())} B compact")
