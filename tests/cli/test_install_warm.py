"""`sidekit install --mcp --warm`: the warm wiring (docs/warm-path.md) in a project's settings and
`.mcp.json`, run as a user runs it; a plain install goes back, uninstall gives the files back."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from sidekit_hooks.cli.wiring import settings_merge
from sidekit_hooks.core import hook_table
from sidekit_hooks.pipeline import claim, hook_events
from testing.hooks import REPO, edit
from testing.runs import AGENT_PREFIXES, environment_without, sidekit_at_home, through_sh

PYTHON = os.path.abspath(sys.executable)
HOOKS = REPO / "hooks"
PLAIN = settings_merge.wanted_handlers(PYTHON, str(HOOKS))
SETTINGS = '{\n  "model": "opus",\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}\n}\n'
OTHERS = '{\n  "mcpServers": {"docs": {"command": "docs-server"}}\n}\n'


def fallback_of(script: str) -> str:
    return hook_events.FALLBACK_PREFIX + settings_merge.command_for(
        PYTHON, str(HOOKS / f"{script}.py"), "fallback"
    )


def ours(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    """The handlers of the group install wrote for `event`."""
    groups = settings["hooks"][event]
    return next(
        group["hooks"]
        for group in groups
        if any(settings_merge.is_ours(handler) for handler in group["hooks"])
    )


def test_install_warm_wires_the_warm_path_a_plain_install_goes_back_uninstall_gives_all_back(
    project: Path, home: Path
) -> None:
    settings_file = project / ".claude" / "settings.json"
    settings_file.parent.mkdir()
    settings_file.write_text(SETTINGS)
    mcp_file = project / ".mcp.json"
    mcp_file.write_text(OTHERS)
    where = ("--project", str(project))

    done = sidekit_at_home("install", *where, "--mcp", "--warm", home=home)

    assert done.returncode == 0, done.stderr
    server = json.loads(mcp_file.read_text())["mcpServers"]["sidekit"]
    assert server == {
        "command": PYTHON,
        "args": ["-P", "-m", "sidekit_hooks.cli", "mcp", "--hooks"],
    }
    warm = json.loads(settings_file.read_text())
    for event, script in (
        ("PostToolUse", "post_tool_use"),
        ("PostToolUseFailure", "post_tool_use_failure"),
        ("UserPromptSubmit", "user_prompt_submit"),
    ):
        assert ours(warm, event) == [
            {"type": "command", "command": fallback_of(script), "timeout": 5, "async": True},
            hook_events.warm_tool_handler("sidekit"),
        ], event
        assert f"  {event}:sidekit: added {settings_merge.WARM_TOOL_LINE}\n" in done.stdout
    assert set(hook_table.WARM_KEYS) == {"PostToolUse", "PostToolUseFailure", "UserPromptSubmit"}
    assert ours(warm, "Stop") == [PLAIN["Stop"]]
    assert ours(warm, "SessionStart") == [PLAIN["SessionStart"]]
    installed = settings_file.read_text()

    again = sidekit_at_home("install", *where, "--mcp", "--warm", home=home)
    assert again.returncode == 0 and "added" not in again.stdout, again.stdout
    assert settings_file.read_text() == installed

    plain = sidekit_at_home("install", *where, "--mcp", home=home)
    assert plain.returncode == 0, plain.stderr
    back = json.loads(settings_file.read_text())
    for event in hook_table.WARM_KEYS:
        assert ours(back, event) == [PLAIN[event]], event
        assert f"  {event}:sidekit: removed {settings_merge.WARM_TOOL_LINE}\n" in plain.stdout
    assert "--hooks" not in json.loads(mcp_file.read_text())["mcpServers"]["sidekit"]["args"]

    assert sidekit_at_home("install", *where, "--mcp", "--warm", home=home).returncode == 0
    gone = sidekit_at_home("uninstall", *where, home=home)
    assert gone.returncode == 0, gone.stderr
    assert settings_file.read_text() == SETTINGS
    assert mcp_file.read_text() == OTHERS


def test_warm_without_mcp_is_refused_and_nothing_changes(project: Path, home: Path) -> None:
    done = sidekit_at_home("install", "--project", str(project), "--warm", home=home)

    assert done.returncode != 0
    assert done.stderr == (
        "sidekit: --warm answers hook events through the project's MCP server; it needs --mcp\n"
        f"  fix: sidekit install --project {project} --mcp --warm\n"
    )
    assert not (project / ".claude").exists() and not (project / ".mcp.json").exists()


def test_the_installed_fallback_runs_through_sh_and_takes_an_event_no_server_answered(
    project: Path, home: Path
) -> None:
    assert (
        sidekit_at_home(
            "install", "--project", str(project), "--mcp", "--warm", home=home
        ).returncode
        == 0
    )
    settings = json.loads((project / ".claude" / "settings.json").read_text())
    command = ours(settings, "PostToolUse")[0]["command"]
    (project / "a.py").write_text("x = 2\n")
    event = edit(project, "a.py", "x = 1", "x = 2", "x = 1\n")
    env = dict(environment_without(*AGENT_PREFIXES), CLAUDE_PROJECT_DIR=str(project))

    done = through_sh(command, event, cwd=project, env=env, timeout=30)

    assert done.returncode == 0 and done.stdout == "", done.stderr
    key = claim.event_key("PostToolUse", event)
    assert (project / claim.CLAIMS / key / claim.TAKEN).read_text().startswith("command ")
