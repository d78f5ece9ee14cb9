"""No code from the repository, ever (#19 Deliver 1).

The project commits modules named like sidekit's package and the standard library's (at its root and
under src/), each leaving a marker file when imported. Every Python sidekit starts there (the
launcher, the hooks in both wirings, the MCP entry install writes, doctor, the background workers,
the pytest wrapper of `sidekit test`, the plugin's environment build) must run without one marker
appearing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from testing.hostile import ROOT, cli, env_for, payload
from testing.planted import STANDARD_NAMES, plant
from testing.runs import run_text, through_sh

MODULES = ("sidekit_hooks/__init__.py", *STANDARD_NAMES, "venv/__init__.py", "encodings_extra.py")
EVENTS = ("session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "stop")


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    """(project, markers): a git repository whose planted modules each write
    markers/<where>-<module>."""
    project, markers = tmp_path / "hostile", tmp_path / "markers"
    markers.mkdir()
    plant(project, markers, MODULES)
    (project / "tests").mkdir()
    (project / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)
    return project, markers


def planted(markers: Path) -> list[str]:
    return sorted(os.listdir(markers))


def test_the_launcher_runs_sidekits_own_code(hostile: tuple[Path, Path]) -> None:
    project, markers = hostile
    env = env_for(project, SIDEKIT_RUNTIME_PYTHON=sys.executable)
    for args in (["--version"], ["status"], ["scope", "show"]):
        done = subprocess.run(
            [str(ROOT / "bin" / "sidekit"), *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
    assert planted(markers) == []


def test_settings_form_hooks_and_doctor_run_no_repository_code(hostile: tuple[Path, Path]) -> None:
    project, markers = hostile
    assert (
        cli("install", "--project", str(project), project=project, cwd=project.parent).returncode
        == 0
    )
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    commands = [
        hook["command"]
        for groups in settings["hooks"].values()
        for group in groups
        for hook in group["hooks"]
    ]
    assert commands
    for command in commands:
        data = payload(
            "PostToolUse",
            project,
            tool_name="Edit",
            tool_input={"file_path": str(project / "json.py")},
        )
        done = through_sh(command, data, cwd=project, env=env_for(project), timeout=60)
        assert done.returncode == 0, (command, done.stderr)
    cli("doctor", "--project", str(project), project=project, cwd=project.parent, timeout=180)
    assert planted(markers) == []


def test_the_mcp_entry_install_writes_runs_no_repository_code(hostile: tuple[Path, Path]) -> None:
    project, markers = hostile
    assert (
        cli(
            "install", "--project", str(project), "--mcp", project=project, cwd=project.parent
        ).returncode
        == 0
    )
    entry = json.loads((project / ".mcp.json").read_text())["mcpServers"]["sidekit"]
    # Claude Code starts it in the project folder, with the environment the session has (no
    # PYTHONPATH).
    done = subprocess.run(
        [entry["command"], *entry["args"]],
        cwd=project,
        env=env_for(project),
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert planted(markers) == []


def test_doctor_does_not_start_a_committed_mcp_entry(hostile: tuple[Path, Path]) -> None:
    project, markers = hostile
    entry = {"command": sys.executable, "args": ["-m", "sidekit_hooks.cli", "mcp"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"sidekit": entry}}))
    done = cli(
        "doctor", "--project", str(project), project=project, cwd=project.parent, timeout=180
    )
    assert ".mcp.json server 'sidekit' was not started: its arguments are" in done.stdout, (
        done.stdout
    )
    assert planted(markers) == []


@pytest.mark.parametrize("event", EVENTS)
def test_plugin_form_hooks_run_no_repository_code(hostile: tuple[Path, Path], event: str) -> None:
    project, markers = hostile
    data = payload(
        "PostToolUse", project, tool_name="Edit", tool_input={"file_path": str(project / "json.py")}
    )
    env = env_for(
        project, CLAUDE_PLUGIN_ROOT=str(ROOT), CLAUDE_PLUGIN_DATA=str(project.parent / "data")
    )
    done = run_text(
        [str(ROOT / "hooks" / "run"), event],
        stdin=json.dumps(data),
        cwd=project,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0
    assert planted(markers) == []


def test_the_plugin_environment_build_runs_no_repository_code(
    hostile: tuple[Path, Path], tmp_path: Path
) -> None:
    project, markers = hostile
    plugin = tmp_path / "plugin"
    shutil.copytree(
        ROOT,
        plugin,
        ignore=shutil.ignore_patterns(".venv", ".git", "tests", "*.egg-info", ".*cache*"),
    )
    stub = tmp_path / "pip"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    data = tmp_path / "data"
    env = env_for(
        project,
        CLAUDE_PLUGIN_ROOT=str(plugin),
        CLAUDE_PLUGIN_DATA=str(data),
        SIDEKIT_BOOTSTRAP_PIP=str(stub),
    )
    subprocess.run(
        [str(plugin / "hooks" / "run"), "session_start"],
        input=b"{}",
        cwd=project,
        env=env,
        timeout=30,
    )
    deadline = time.monotonic() + 90
    while (
        not (data / "venv" / ".sidekit-ready").exists() and not (data / "bootstrap.failed").exists()
    ):
        assert time.monotonic() < deadline, "the environment build did not end"
        time.sleep(0.2)
    assert (data / "venv" / ".sidekit-ready").exists(), (data / "bootstrap.log").read_text()
    assert planted(markers) == []


def test_the_plugins_sidekit_answers_on_the_standard_library_without_repository_code(
    hostile: tuple[Path, Path], tmp_path: Path
) -> None:
    """While the plugin's environment builds, bin/sidekit answers the test status on the standard
    library."""
    project, markers = hostile
    plugin = tmp_path / "plugin"
    shutil.copytree(
        ROOT,
        plugin,
        ignore=shutil.ignore_patterns(".venv", ".git", "tests", "*.egg-info", ".*cache*"),
    )
    env = env_for(project)  # the agent's shell: no CLAUDE_PLUGIN_DATA, and no environment built yet
    for args in (["status"], ["failures"], ["tests-for", "tests/test_ok.py"]):
        done = run_text([str(plugin / "bin" / "sidekit"), *args], cwd=project, env=env, timeout=60)
        assert done.returncode == 0 and done.stdout.startswith("{"), (args, done.stderr)
    assert planted(markers) == []


@pytest.mark.parametrize(
    "module",
    [
        "sidekit_hooks.code.function_index",
        "sidekit_hooks.detectors.tests",
        "sidekit_hooks.rules.snapshot",
    ],
)
def test_background_workers_run_no_repository_code(hostile: tuple[Path, Path], module: str) -> None:
    project, markers = hostile
    start = (
        "import sys, os; sys.path.insert(0, sys.argv[1]); from sidekit_hooks.core import "
        "background; "
        "print(background.spawn_module(sys.argv[2], ['--help']))"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", start, str(ROOT), module],
        cwd=project,
        env=env_for(project),
        capture_output=True,
        text=True,
        timeout=30,
    )
    pid = int(done.stdout)
    deadline = time.monotonic() + 30
    while _alive(pid):
        assert time.monotonic() < deadline, f"{module} did not end"
        time.sleep(0.05)
    assert planted(markers) == []


def test_sidekit_test_runs_pytest_without_the_repository_in_front(
    hostile: tuple[Path, Path],
) -> None:
    project, markers = hostile
    done = cli(
        "test",
        "--project",
        str(project),
        "--python",
        sys.executable,
        project=project,
        cwd=project.parent,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"passed":1' in done.stdout.replace(" ", ""), done.stdout
    assert planted(markers) == []


def _alive(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(
            pid, os.WNOHANG
        )  # not our child (setsid by a helper); ProcessLookupError/ChildProcessError
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
