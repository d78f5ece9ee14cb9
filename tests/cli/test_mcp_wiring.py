"""`sidekit install --mcp` / `uninstall`, the plugin's `.mcp.json`, the CLAUDE.md block and doctor's
MCP check."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from sidekit_hooks.cli.mcpserver import tools
from sidekit_hooks.cli.wiring import files
from testing import requires
from testing.hooks import REPO
from testing.runs import plugin_copy, sidekit_at_home

PYTHON = os.path.abspath(sys.executable)
ENTRY = {"command": PYTHON, "args": ["-P", "-m", "sidekit_hooks.cli", "mcp"]}
OTHERS = '{\n    "mcpServers": {\n        "docs": {"command": "docs-server", "args": ["--port", "0"]}\n    }\n}\n'


def sidekit(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return sidekit_at_home(*args, home=home)


def test_install_adds_the_server_and_approves_it_uninstall_gives_the_files_back(
    project: Path, home: Path
) -> None:
    mcp_file = project / ".mcp.json"
    mcp_file.write_text(OTHERS)
    settings_file = project / ".claude" / "settings.json"
    settings_file.parent.mkdir()
    settings_text = (
        '{\n  "permissions": {"allow": ["Bash(ls:*)"]},\n  "enabledMcpjsonServers": ["docs"]\n}\n'
    )
    settings_file.write_text(settings_text)

    done = sidekit("install", "--project", str(project), "--mcp", home=home)
    assert done.returncode == 0, done.stderr
    assert (
        f"  {mcp_file}: added server 'sidekit' ({PYTHON} -P -m sidekit_hooks.cli mcp)\n"
        in done.stdout
    )
    data = json.loads(mcp_file.read_text())
    assert data["mcpServers"] == {
        "docs": {"command": "docs-server", "args": ["--port", "0"]},
        "sidekit": ENTRY,
    }
    wired = json.loads(settings_file.read_text())
    assert wired["enabledMcpjsonServers"] == ["docs", "sidekit"]
    assert wired["permissions"] == {"allow": ["Bash(ls:*)", "mcp__sidekit"]}

    again = sidekit("install", "--project", str(project), "--mcp", home=home)
    assert f"  {mcp_file}: server 'sidekit' already there\n" in again.stdout
    assert json.loads(settings_file.read_text()) == wired

    done = sidekit("uninstall", "--project", str(project), home=home)
    assert done.returncode == 0, done.stderr
    assert f"  {mcp_file}: removed server 'sidekit'\n" in done.stdout
    assert mcp_file.read_text() == OTHERS
    assert json.loads(settings_file.read_text()) == json.loads(settings_text)


def test_install_into_a_project_without_mcp_json_then_uninstall_leaves_no_file(
    project: Path, home: Path
) -> None:
    done = sidekit("install", "--project", str(project), "--mcp", home=home)
    assert done.returncode == 0, done.stderr
    assert json.loads((project / ".mcp.json").read_text()) == {"mcpServers": {"sidekit": ENTRY}}
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    assert settings["enabledMcpjsonServers"] == ["sidekit"] and settings["permissions"] == {
        "allow": ["mcp__sidekit"]
    }
    done = sidekit("uninstall", "--project", str(project), home=home)
    assert done.returncode == 0, done.stderr
    assert not (project / ".mcp.json").exists()
    assert not (project / ".claude" / "settings.json").exists()


def test_a_foreign_sidekit_entry_is_put_back_and_a_broken_file_is_refused(
    project: Path, home: Path
) -> None:
    mine = {"mcpServers": {"sidekit": {"command": "/elsewhere/sidekit", "args": ["mcp"]}}}
    (project / ".mcp.json").write_text(json.dumps(mine))
    assert sidekit("install", "--project", str(project), "--mcp", home=home).returncode == 0
    assert json.loads((project / ".mcp.json").read_text())["mcpServers"]["sidekit"] == ENTRY
    assert sidekit("uninstall", "--project", str(project), home=home).returncode == 0
    assert json.loads((project / ".mcp.json").read_text()) == mine

    (project / ".mcp.json").write_text('{"mcpServers": {')
    done = sidekit("install", "--project", str(project), "--mcp", home=home)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(
        f"sidekit: {project / '.mcp.json'} is not valid JSON (line 1, column 17:"
    )
    assert "nothing was changed" in done.stderr and "  fix: repair it" in done.stderr
    assert (project / ".mcp.json").read_text() == '{"mcpServers": {'


# `install --user --mcp` is refused before anything changes: test_install.py, with --user --local.


def test_a_linked_mcp_json_outside_the_project_is_not_touched(
    project: Path, home: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text("{}\n")
    (project / ".mcp.json").symlink_to(outside)
    done = sidekit("install", "--project", str(project), "--mcp", home=home)
    assert done.returncode == 1 and "outside the project; nothing was changed" in done.stderr
    assert outside.read_text() == "{}\n"


def test_claude_md_names_the_mcp_tools_only_when_the_server_is_wired(
    tmp_path: Path, home: Path
) -> None:
    plain, wired = tmp_path / "plain", tmp_path / "wired"
    plain.mkdir()
    wired.mkdir()
    assert sidekit("install", "--project", str(plain), "--claude-md", home=home).returncode == 0
    assert (
        sidekit("install", "--project", str(wired), "--mcp", "--claude-md", home=home).returncode
        == 0
    )
    assert (plain / "CLAUDE.md").read_text() == files.claude_md_block()
    text = (wired / "CLAUDE.md").read_text()
    assert text == files.claude_md_block(mcp=True)
    for name in tools.TOOLS:
        assert f"`{name}`" in text
    assert "`tests_for`" not in (plain / "CLAUDE.md").read_text()
    assert sidekit("uninstall", "--project", str(wired), "--claude-md", home=home).returncode == 0
    assert not (wired / "CLAUDE.md").exists() and not (wired / ".mcp.json").exists()


def test_a_block_written_before_mcp_was_wired_learns_the_tools(project: Path, home: Path) -> None:
    (project / "CLAUDE.md").write_text("# House rules\n\nBe brief.\n")
    assert sidekit("install", "--project", str(project), "--claude-md", home=home).returncode == 0
    done = sidekit("install", "--project", str(project), "--mcp", "--claude-md", home=home)
    assert f"  {project / 'CLAUDE.md'}: the sidekit block now names the MCP tools\n" in done.stdout
    assert (
        project / "CLAUDE.md"
    ).read_text() == "# House rules\n\nBe brief.\n\n" + files.claude_md_block(mcp=True)
    assert sidekit("uninstall", "--project", str(project), "--claude-md", home=home).returncode == 0
    assert (project / "CLAUDE.md").read_text() == "# House rules\n\nBe brief.\n"


def test_doctor_starts_the_wired_server_and_reports_its_tools_and_time(
    project: Path, home: Path
) -> None:
    assert sidekit("install", "--project", str(project), "--mcp", home=home).returncode == 0
    done = sidekit("doctor", "--project", str(project), home=home)
    line = next(line for line in done.stdout.splitlines() if "mcp:" in line)
    assert re.fullmatch(
        r"  ok       mcp: \.mcp\.json server 'sidekit' lists 10 tools, first answer in \d+ ms", line
    )

    (project / ".mcp.json").write_text(
        json.dumps(
            {
                "mcpServers": {
                    "sidekit": {
                        "command": "/gone/python",
                        "args": ["-P", "-m", "sidekit_hooks.cli", "mcp"],
                    }
                }
            }
        )
    )
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "mcp:" in line)
    assert lines[at] == (
        "  PROBLEM  mcp: .mcp.json server 'sidekit' did not list its tools: "
        "cannot start /gone/python: No such file or directory"
    )
    assert lines[at + 1] == f"           fix: sidekit install --project {project} --mcp"


def test_the_plugin_ships_mcp_json_through_its_launcher() -> None:
    data = json.loads((REPO / ".mcp.json").read_text())
    assert data == {
        "mcpServers": {"sidekit": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/sidekit", "args": ["mcp"]}}
    }


def test_the_plugin_launcher_serves_mcp_from_the_checkout(tmp_path: Path) -> None:
    from sidekit_hooks.cli.mcpserver import probe

    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CLAUDE", "GT_", "TMUX"))
    }
    env["CLAUDE_PLUGIN_ROOT"] = str(REPO)
    found = probe.probe([str(REPO / "bin" / "sidekit"), "mcp"], str(tmp_path), env)
    if not (REPO / ".venv" / "bin" / "python").exists():
        requires.missing(
            "this checkout has no .venv: the launcher would wait for the plugin's build",
            "./install.sh",
        )
    assert found.error == "" and found.tools == list(tools.TOOLS)


PIP_STUB = """#!/bin/sh
# stands in for pip: the venv stays without packages (so without the MCP SDK)
echo "$@" >> "$STUB_CALLS"
"""


def test_a_fresh_plugin_install_builds_its_environment_before_serving(
    tmp_path: Path, project: Path
) -> None:
    """No .venv yet: the launcher starts hooks/bootstrap and waits for it instead of failing at
    once."""
    leave_out = (
        ".venv",
        ".git",
        "__pycache__",
        ".sidekit*",
        "tests",
        "*.egg-info",
        ".*_cache",
        ".plugin-venv",
    )
    plugin = plugin_copy(tmp_path / "plugin-root", *leave_out)
    stub = tmp_path / "fake-pip"
    stub.write_text(PIP_STUB)
    stub.chmod(0o755)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CLAUDE", "GT_", "TMUX", "PYTHON"))
    }
    env.update(
        CLAUDE_PLUGIN_ROOT=str(plugin),
        CLAUDE_PLUGIN_DATA=str(tmp_path / "data"),
        SIDEKIT_BOOTSTRAP_PIP=str(stub),
        STUB_CALLS=str(tmp_path / "pip-calls"),
        SIDEKIT_MCP_WAIT="60",
    )
    command = json.loads((plugin / ".mcp.json").read_text())["mcpServers"]["sidekit"]["command"]
    done = subprocess.run(
        [command.replace("${CLAUDE_PLUGIN_ROOT}", str(plugin)), "mcp"],
        env=env,
        cwd=project,
        capture_output=True,
        text=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
    )
    assert (tmp_path / "data" / "venv" / ".sidekit-ready").exists()
    assert (tmp_path / "pip-calls").read_text().count("\n") == 1
    # The stub built a venv without packages: the server says what is missing and how to add it.
    assert done.returncode == 1 and done.stdout == ""
    python = (
        tmp_path / "data" / "venv" / "bin" / "python"
    )  # $CLAUDE_PLUGIN_DATA, as Claude Code sets it
    assert done.stderr == (
        f"sidekit: the MCP SDK is not installed in sidekit's environment\n  fix: {python} -m pip "
        "install mcp\n"
    )


def test_doctor_names_why_a_wired_server_did_not_answer(project: Path, home: Path) -> None:
    fake = (
        home / "python"
    )  # outside the project, with the arguments install writes: doctor starts it
    fake.write_text("#!/bin/sh\nread -r line\necho 'sidekit: no module named mcp' >&2\nexit 1\n")
    fake.chmod(0o755)
    broken = {"command": str(fake), "args": ["-P", "-m", "sidekit_hooks.cli", "mcp"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"sidekit": broken}}))
    done = sidekit("doctor", "--project", str(project), home=home)
    line = next(line for line in done.stdout.splitlines() if "mcp:" in line)
    assert line == (
        "  PROBLEM  mcp: .mcp.json server 'sidekit' did not list its tools: the server exited "
        "(code 1) "
        "before answering (stderr: sidekit: no module named mcp)"
    )


def test_doctor_starts_no_entry_it_did_not_write(project: Path, home: Path) -> None:
    inside = {"command": str(project / "python"), "args": ["-P", "-m", "sidekit_hooks.cli", "mcp"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"sidekit": inside}}))
    done = sidekit("doctor", "--project", str(project), home=home)
    line = next(line for line in done.stdout.splitlines() if "mcp:" in line)
    assert line == (
        "  PROBLEM  mcp: .mcp.json server 'sidekit' was not started: its command "
        f"{project / 'python'} lies "
        "inside the project"
    )


def test_doctor_warns_when_the_plugin_and_mcp_json_both_serve_the_tools(
    project: Path, home: Path
) -> None:
    assert sidekit("install", "--project", str(project), "--mcp", home=home).returncode == 0
    settings_file = project / ".claude" / "settings.json"
    settings_file.write_text(
        json.dumps(
            {
                **json.loads(settings_file.read_text()),
                "enabledPlugins": {"sidekit-hooks@local": True},
            }
        )
    )
    lines = sidekit("doctor", "--project", str(project), home=home).stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "mcp:" in line)
    assert re.fullmatch(
        r"  PROBLEM  mcp: \.mcp\.json server 'sidekit' lists 10 tools, first answer in \d+ ms, "
        r"and the plugin serves them too: the agent sees every tool twice",
        lines[at],
    )
    assert (
        lines[at + 1] == f'           fix: delete the "sidekit" entry from {project / ".mcp.json"}'
    )
