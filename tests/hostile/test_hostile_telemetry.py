"""What sends data is the user's to set (#31 Deliver 2): a committed `otel-endpoint` sends nothing.

The repository commits `[tool.sidekit] otel-endpoint` pointing at a loopback listener this test
runs. Every hook event runs as Claude Code runs it; then the test waits for every worker the hooks
started to end and looks at what the listener got. The user's collector token
(`SIDEKIT_OTEL_HEADERS`) never reaches an address the repository chose, even one the user trusted.
The control: once the user trusts the endpoint (`sidekit otel trust URL`), the export arrives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from testing.hostile import cli, hook, payload
from testing.listener import Listener, wait_for_workers

TOKEN = "s3cr3t-collector-t0ken"
EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "SessionStart": {"source": "startup"},
    "UserPromptSubmit": {"prompt": "fix the failing test"},
    "PreToolUse": {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "toolu_1"},
    "PostToolUse": {
        "tool_name": "Edit",
        "tool_input": {"file_path": "src/app.py", "old_string": "a = 1", "new_string": "a = 2"},
        "tool_response": {"filePath": "src/app.py"},
        "tool_use_id": "toolu_2",
    },
    "PostToolUseFailure": {
        "tool_name": "Bash",
        "tool_input": {"command": "false"},
        "error": "Exit code 1",
        "tool_use_id": "toolu_3",
    },
    "Stop": {"stop_hook_active": False},
    "SubagentStop": {"stop_hook_active": False, "agent_id": "agent-1"},
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    project = tmp_path / "cloned"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("a = 2\n")
    return project


def commit_endpoint(project: Path, endpoint: str) -> None:
    (project / "pyproject.toml").write_text(
        f'[project]\nname = "x"\n\n[tool.sidekit]\notel-endpoint = "{endpoint}"\n'
    )


def every_event(project: Path, **env: str) -> None:
    for event, fields in EVENT_FIELDS.items():
        done = hook(event, payload(event, project, **fields), project, timeout=30, **env)
        assert done.returncode == 0, (event, done.stderr)
    wait_for_workers(str(project))


def test_a_committed_endpoint_gets_nothing_from_any_hook(repo: Path) -> None:
    with Listener() as ear:
        commit_endpoint(repo, ear.endpoint)
        every_event(repo)
        assert ear.received == []


def test_the_users_token_never_reaches_the_repositorys_endpoint(repo: Path) -> None:
    with Listener() as ear:
        commit_endpoint(repo, ear.endpoint)
        every_event(repo, SIDEKIT_OTEL_HEADERS=f"authorization=Bearer%20{TOKEN}")
        assert TOKEN.encode() not in ear.everything
        assert ear.received == []


def test_a_trusted_project_endpoint_gets_the_export_but_not_the_users_token(repo: Path) -> None:
    with Listener() as ear:
        commit_endpoint(repo, ear.endpoint)
        cli("otel", "trust", ear.endpoint, project=repo)
        every_event(repo, SIDEKIT_OTEL_HEADERS=f"authorization=Bearer%20{TOKEN}")
        assert ear.wait_for(1, 30), "the trusted endpoint got no export"
        assert TOKEN.encode() not in ear.everything


def test_a_changed_endpoint_needs_trust_again(repo: Path) -> None:
    with Listener() as first, Listener() as second:
        commit_endpoint(repo, first.endpoint)
        cli("otel", "trust", first.endpoint, project=repo)
        commit_endpoint(repo, second.endpoint)  # a later commit moves the export elsewhere
        every_event(repo)
        assert (first.received, second.received) == ([], [])


def test_control_after_trust_the_export_reaches_the_endpoint(repo: Path) -> None:
    with Listener() as ear:
        commit_endpoint(repo, ear.endpoint)
        cli("otel", "trust", ear.endpoint, project=repo)
        every_event(repo)
        assert ear.wait_for(1, 30), "the trusted endpoint got no export"
        assert b"POST /v1/" in ear.everything
