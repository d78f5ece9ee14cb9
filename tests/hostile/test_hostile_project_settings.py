"""Nothing a repository commits runs a program or points sidekit outside the project (#31 Deliver 2,
docs/settings.md).

The repository's settings name things outside it: an interpreter (`[tool.sidekit] python`), a rule
pack linked to a file elsewhere on the machine, a `.mcp.json` server whose command is another
program, a judge. Each "outside" program leaves a marker when it runs; each outside pack would put
its text in front of the model. The control: the same interpreter named by the user
(`SIDEKIT_PYTHON`) is used.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from testing.hostile import cli, context_of, hook, payload
from testing.listener import wait_for_workers

PACK = """[pack]
name = "elsewhere"
[[rules]]
id = "elsewhere.r1"
sidecar = "specs"
message = "Read from outside the project."
[rules.when]
tools = ["Write"]
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    project = tmp_path / "cloned"
    (project / "tests").mkdir(parents=True)
    (project / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    return project


def program(folder: Path, name: str, mark: Path, then: str = "") -> Path:
    """An executable outside the project that notes each run in `mark` (then runs `then`, if
    given)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\necho ran >> {mark}\n{then}\n")
    path.chmod(0o755)
    return path


def python_outside(repo: Path) -> tuple[Path, Path]:
    mark = repo.parent / "python-ran"
    return program(
        repo.parent / "elsewhere" / "bin", "python", mark, f'exec {sys.executable} "$@"'
    ), mark


def test_a_committed_interpreter_outside_the_project_is_not_run(repo: Path) -> None:
    python, mark = python_outside(repo)
    (repo / "pyproject.toml").write_text(
        f'[project]\nname = "x"\n\n[tool.sidekit]\npython = "{python}"\n'
    )
    cli("test", "--project", str(repo), project=repo)
    cli("doctor", "--project", str(repo), project=repo, timeout=180)
    assert not mark.exists()


def test_control_the_users_interpreter_is_run(repo: Path) -> None:
    python, mark = python_outside(repo)
    done = cli("test", "--project", str(repo), project=repo, SIDEKIT_PYTHON=str(python))
    assert done.returncode == 0, done.stderr
    assert mark.exists()


def test_a_pack_linked_out_of_the_project_is_not_read(repo: Path) -> None:
    outside = repo.parent / "elsewhere.toml"
    outside.write_text(PACK)
    (repo / "sidecar_rules").mkdir()
    (repo / "sidecar_rules" / "team.toml").symlink_to(outside)
    (repo / "app.py").write_text("x = 1\n")
    body = payload(
        "PostToolUse",
        repo,
        tool_name="Write",
        tool_input={"file_path": str(repo / "app.py"), "content": "x = 1\n"},
    )
    done = hook("PostToolUse", body, repo)
    assert done.returncode == 0
    assert "Read from outside the project." not in context_of(done.stdout)


def test_control_the_same_pack_from_the_users_folder_speaks(repo: Path) -> None:
    user = repo.parent / "xdg" / "sidekit" / "rules"  # testing.hostile.env_for's XDG_CONFIG_HOME
    user.mkdir(parents=True)
    (user / "elsewhere.toml").write_text(PACK)
    (repo / "app.py").write_text("x = 1\n")
    body = payload(
        "PostToolUse",
        repo,
        tool_name="Write",
        tool_input={"file_path": str(repo / "app.py"), "content": "x = 1\n"},
    )
    assert (
        context_of(hook("PostToolUse", body, repo).stdout)
        == "[sidecar:specs] Read from outside the project."
    )


def test_doctor_starts_no_program_a_committed_mcp_entry_names(repo: Path) -> None:
    mark = repo.parent / "started"
    curl = program(repo.parent / "bin", "curl", mark)
    entry = {"command": str(curl), "args": ["-P", "-m", "sidekit_hooks.cli", "mcp"]}
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": {"sidekit": entry}}))
    done = cli("doctor", "--project", str(repo), project=repo, timeout=180)
    assert "mcp" in done.stdout
    assert not mark.exists()


def test_control_no_project_file_names_a_judge(repo: Path) -> None:
    mark = repo.parent / "judged"
    judge = program(repo.parent / "bin", "judge", mark, "echo NONE")
    (repo / "pyproject.toml").write_text(
        f'[tool.sidekit]\njudge = "{judge}"\nSIDEKIT_JUDGE = "{judge}"\n'
    )
    body = payload(
        "PostToolUse", repo, tool_name="Bash", tool_input={"command": "curl -s x"}, tool_response={}
    )
    assert hook("PostToolUse", body, repo).returncode == 0
    wait_for_workers(str(repo))
    assert not mark.exists()
    assert os.listdir(repo.parent / "bin") == ["judge"]
