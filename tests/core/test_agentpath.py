"""`sidekit` as the nudges write it runs in the agent's shell: SessionStart exports it (settings
form)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sidekit_hooks.core import agentpath
from testing.hooks import REPO, HookRunner, payload

BARE_PATH = "/usr/bin:/bin"  # an agent's shell with no venv on PATH


def agent_shell(project: Path, env_file: Path, command: str) -> subprocess.CompletedProcess[str]:
    """What Claude Code does for a Bash call: source the session's env file, then run the
    command."""
    script = f". {env_file}; {command}" if env_file.exists() else command
    return subprocess.run(
        ["/bin/sh", "-c", script],
        capture_output=True,
        text=True,
        cwd=project,
        timeout=60,
        env={"PATH": BARE_PATH, "HOME": str(project), "CLAUDE_PROJECT_DIR": str(project)},
    )


def test_the_suggested_commands_run_in_a_shell_whose_path_lacks_the_venv(
    run_hook: HookRunner, project: Path, tmp_path: Path
) -> None:
    env_file = tmp_path / "sessionstart-hook-0.sh"
    assert (
        agent_shell(project, env_file, "sidekit --version").returncode == 127
    )  # without SessionStart: not found

    done = run_hook(
        "SessionStart",
        payload("SessionStart", project, source="startup"),
        env={"CLAUDE_ENV_FILE": str(env_file)},
    )
    assert done.returncode == 0 and done.stdout == ""

    assert agent_shell(project, env_file, "sidekit --version").stdout == "sidekit 0.1.0\n"
    status = agent_shell(
        project, env_file, "sidekit status"
    )  # as the tests nudge and CLAUDE.md say it
    assert status.returncode == 0 and status.stdout.startswith("{"), status.stderr
    # Only the launcher comes first on PATH: the project's python and pytest stay its own.
    assert agent_shell(project, env_file, "command -v python3").stdout.strip() in (
        "/usr/bin/python3",
        "",
    )


def test_the_env_file_lines_are_written_once_and_only_in_the_settings_form(tmp_path: Path) -> None:
    env_file = tmp_path / "env.sh"
    environ = {"CLAUDE_ENV_FILE": str(env_file)}
    assert agentpath.export_for_agent(environ, python="/v/bin/python") is True
    assert agentpath.export_for_agent(environ, python="/v/bin/python") is False
    assert env_file.read_text() == (
        f"export SIDEKIT_RUNTIME_PYTHON='/v/bin/python'\nexport PATH='{REPO / 'bin'}':\"$PATH\"\n"
    )
    plugin = tmp_path / "plugin.sh"
    assert (
        agentpath.export_for_agent(
            {"CLAUDE_ENV_FILE": str(plugin), "CLAUDE_PLUGIN_ROOT": str(REPO)}
        )
        is True
    )
    assert (
        plugin.read_text() == f"export SIDEKIT_PLUGIN_ROOT='{REPO}'\n"
    )  # bin/ is on PATH already: no PATH line
    assert agentpath.export_for_agent({}) is False


def test_paths_with_quotes_survive_the_shell(tmp_path: Path) -> None:
    odd = tmp_path / "it's here"
    odd.mkdir()
    (odd / "sidekit").write_text("#!/bin/sh\necho odd-ran\n")
    (odd / "sidekit").chmod(0o755)
    env_file = tmp_path / "env.sh"
    env_file.write_text(agentpath.env_lines(sys.executable, str(odd)))
    done = subprocess.run(
        ["/bin/sh", "-c", f". {env_file}; sidekit; echo $SIDEKIT_RUNTIME_PYTHON"],
        capture_output=True,
        text=True,
        env={"PATH": BARE_PATH},
        timeout=30,
    )
    assert done.stdout == f"odd-ran\n{sys.executable}\n"
    assert os.access(REPO / "bin" / "sidekit", os.X_OK)
