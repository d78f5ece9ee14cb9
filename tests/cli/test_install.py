"""`sidekit install` / `sidekit uninstall`, run as a user runs them: the real CLI in a
subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.cli.wiring import files, settings_merge
from testing.hooks import REPO, context_of, payload
from testing.runs import AGENT_PREFIXES, environment_without, sidekit_at_home, through_sh

PYTHON = os.path.abspath(sys.executable)
HOOKS = REPO / "hooks"
CMD = {
    key: handler["command"]
    for key, handler in settings_merge.wanted_handlers(PYTHON, str(HOOKS)).items()
}
FOREIGN = '{\n    "model": "opus",\n    "hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}]}\n}\n'


def sidekit(*args: str, home: Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return sidekit_at_home(*args, home=home, cwd=cwd)


def added_lines(project: Path) -> str:
    return "".join(f"  {event}: added {CMD[event]}\n" for event in settings_merge.EVENTS)


def test_install_merges_after_foreign_entries_and_reports_every_change(
    project: Path, home: Path
) -> None:
    target = project / ".claude" / "settings.json"
    target.parent.mkdir()
    target.write_text(FOREIGN)
    done = sidekit("install", "--project", str(project), home=home)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"sidekit install: {target}\n{added_lines(project)}"
        f"  backup of the previous file: {target}.sidekit-backup\n"
        "  .gitignore: added .sidekit/ .runtime/ .claude/*.sidekit-backup\n"
    )
    data = json.loads(target.read_text())
    assert list(data) == ["model", "hooks"]
    assert data["hooks"] == {
        "PostToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]},
            {
                "matcher": "*",
                "hooks": [{"type": "command", "command": CMD["PostToolUse"], "timeout": 5}],
            },
        ],
        "PostToolUseFailure": [
            {
                "matcher": "*",
                "hooks": [{"type": "command", "command": CMD["PostToolUseFailure"], "timeout": 5}],
            },
        ],
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": CMD["UserPromptSubmit"], "timeout": 5}]}
        ],
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": CMD["PreToolUse"],
                        "timeout": 5,
                        "if": "Bash(*test*)",
                    }
                ],
            },
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": CMD["PreToolUse:jest"],
                        "timeout": 5,
                        "if": "Bash(*jest*)",
                    }
                ],
            },
        ],
        "SessionStart": [
            {"hooks": [{"type": "command", "command": CMD["SessionStart"], "timeout": 5}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": CMD["Stop"], "timeout": 5}]}],
        "SubagentStop": [
            {"hooks": [{"type": "command", "command": CMD["SubagentStop"], "timeout": 5}]}
        ],
    }
    assert target.read_text().startswith('{\n    "model"')  # the file's own 4-space indentation
    assert (project / ".claude" / "settings.json.sidekit-backup").read_text() == FOREIGN
    assert (project / ".gitignore").read_text() == (
        "# sidekit-hooks: caches, logs, the nudge queue, settings "
        "backups\n.sidekit/\n.runtime/\n.claude/*.sidekit-backup\n"
    )


def test_install_twice_changes_nothing_and_uninstall_gives_back_the_same_bytes(
    project: Path, home: Path
) -> None:
    target = project / ".claude" / "settings.json"
    target.parent.mkdir()
    target.write_text(FOREIGN)
    (project / ".gitignore").write_text("node_modules\n/.sidekit\n")
    sidekit("install", "--project", str(project), home=home)
    installed = target.read_text()
    again = sidekit("install", "--project", str(project), home=home)
    assert again.returncode == 0
    assert again.stdout == f"sidekit install: {target}\n" + "".join(
        f"  {event}: already installed\n" for event in settings_merge.EVENTS
    )
    assert target.read_text() == installed
    assert (project / ".gitignore").read_text() == (
        "node_modules\n/.sidekit\n\n# sidekit-hooks: caches, logs, the nudge queue, settings "
        "backups\n"
        ".runtime/\n.claude/*.sidekit-backup\n"
    )
    gone = sidekit("uninstall", "--project", str(project), home=home)
    assert gone.returncode == 0, gone.stderr
    assert gone.stdout == f"sidekit uninstall: {target}\n" + "".join(
        f"  {event}: removed {CMD[event]}\n" for event in settings_merge.EVENTS
    ) + (
        f"  removed the backup install kept: {target}.sidekit-backup\n"
        "  .gitignore: removed .runtime/ .claude/*.sidekit-backup\n"
        "  removed the empty folders sidekit install had created: .sidekit/\n"
    )
    assert target.read_text() == FOREIGN
    assert not (project / ".sidekit").exists()
    # What install wrote goes: its .gitignore block and its backup (#15).
    assert (project / ".gitignore").read_text() == "node_modules\n/.sidekit\n"
    assert not (project / ".claude" / "settings.json.sidekit-backup").exists()


def test_hand_edited_entries_are_still_removed_exactly(project: Path, home: Path) -> None:
    target = project / ".claude" / "settings.local.json"
    sidekit("install", "--project", str(project), "--local", home=home)
    data = json.loads(target.read_text())
    data["hooks"]["PostToolUse"][0]["matcher"] = "Edit|Write"
    data["hooks"]["PostToolUseFailure"][0]["hooks"][0]["timeout"] = 30
    data["permissions"] = {"allow": ["Bash(ls)"]}
    target.write_text(json.dumps(data))
    done = sidekit("uninstall", "--project", str(project), "--local", home=home)
    assert done.returncode == 0, done.stderr
    assert json.loads(target.read_text()) == {"permissions": {"allow": ["Bash(ls)"]}}


def test_a_settings_file_install_created_is_removed_by_uninstall(project: Path, home: Path) -> None:
    target = project / ".claude" / "settings.json"
    done = sidekit("install", "--project", str(project), home=home)
    assert done.stdout == (
        f"sidekit install: {target}\n{added_lines(project)}"
        "  .gitignore: added .sidekit/ .runtime/ .claude/*.sidekit-backup\n"
    )
    gone = sidekit("uninstall", "--project", str(project), home=home)
    assert gone.stdout.endswith(
        "  removed the file (sidekit install had created it)\n"
        "  .gitignore: removed .sidekit/ .runtime/ .claude/*.sidekit-backup\n"
        "  removed the empty folders sidekit install had created: .claude/ .sidekit/\n"
    )
    assert os.listdir(project) == []  # not even the folders install made


def test_entries_install_did_not_write_are_left_unless_all_is_given(
    project: Path, home: Path
) -> None:
    target = project / ".claude" / "settings.json"
    target.parent.mkdir()
    mine: dict[str, dict[str, list[Any]]] = {"hooks": {}}  # e.g. copied from a teammate's settings
    for key in settings_merge.EVENTS:
        event = settings_merge.event_of(key)
        mine["hooks"].setdefault(event, []).append(
            {"hooks": [{"type": "command", "command": CMD[key], "timeout": 9}]}
        )
    target.write_text(json.dumps(mine))
    sidekit("install", "--project", str(project), home=home)
    done = sidekit("uninstall", "--project", str(project), home=home)
    assert json.loads(target.read_text()) == mine
    assert done.stdout == (
        f"sidekit uninstall: {target}\n"
        "  nothing to remove: the entries marked 'sidekit-hooks' there were not written by "
        "`sidekit install`\n"
        f"  to remove them anyway: sidekit uninstall --project {project} --all\n"
        "  .gitignore: removed .sidekit/ .runtime/ .claude/*.sidekit-backup\n"
        "  removed the empty folders sidekit install had created: .sidekit/\n"
    )
    done = sidekit("uninstall", "--project", str(project), "--all", home=home)
    assert done.stdout.splitlines()[1 : 1 + len(settings_merge.EVENTS)] == [
        f"  {event}: removed {CMD[event]}" for event in settings_merge.EVENTS
    ]
    assert json.loads(target.read_text()) == {"hooks": {}}


@pytest.mark.parametrize(
    "text, message",
    [
        (
            '{"hooks": {',
            "is not valid JSON (line 1, column 12: Expecting property name enclosed in double "
            "quotes)",
        ),
        ("[1, 2]", "holds JSON but not an object"),
    ],
)
def test_invalid_settings_are_refused_and_nothing_changes(
    project: Path, home: Path, text: str, message: str
) -> None:
    target = project / ".claude" / "settings.json"
    target.parent.mkdir()
    target.write_text(text)
    done = sidekit("install", "--project", str(project), home=home)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"sidekit: {target} {message}; nothing was changed\n  fix: ")
    assert done.stderr.rstrip().endswith(f"then: sidekit install --project {project}")
    assert target.read_text() == text
    assert sorted(os.listdir(project)) == [".claude"]
    assert os.listdir(project / ".claude") == ["settings.json"]


def test_a_hooks_value_of_the_wrong_shape_is_refused(project: Path, home: Path) -> None:
    target = project / ".claude" / "settings.json"
    target.parent.mkdir()
    target.write_text('{"hooks": []}')
    done = sidekit("install", "--project", str(project), home=home)
    assert done.returncode == 1
    assert done.stderr == (
        f'sidekit: {target}: "hooks" is not an object; nothing was changed\n'
        f"  fix: repair that part of the file, then: sidekit install --project {project}\n"
    )
    assert target.read_text() == '{"hooks": []}'


def test_user_scope_writes_home_settings_and_no_project_files(home: Path, project: Path) -> None:
    done = sidekit("install", "--user", home=home, cwd=project)
    target = home / ".claude" / "settings.json"
    assert done.stdout == f"sidekit install: {target}\n{added_lines(project)}"
    assert (
        json.loads((home / ".config" / "sidekit" / "install.json").read_text())[str(target)][
            "createdFile"
        ]
        is True
    )
    assert os.listdir(project) == []
    gone = sidekit("uninstall", "--user", home=home, cwd=project)
    assert gone.stdout.endswith(
        "  removed the file (sidekit install had created it)\n"
        f"  removed the empty folders sidekit install had created: {home}/.claude "
        f"{home}/.config/sidekit {home}/.config\n"
    )
    assert not target.exists() and os.listdir(home) == []


@pytest.mark.parametrize(
    ("option", "refusal"),
    [
        (
            "--local",
            "sidekit: --local names a project's settings.local.json; it does not combine with "
            "--user\n"
            "  fix: drop --local, or use --project DIR --local\n",
        ),
        (
            "--mcp",
            "sidekit: --mcp wires a project's .mcp.json; it does not combine with --user\n"
            "  fix: sidekit install --project DIR --mcp\n",
        ),
    ],
)
def test_user_does_not_combine_with_a_project_option_and_nothing_changes(
    home: Path, option: str, refusal: str
) -> None:
    done = sidekit("install", "--user", option, home=home)
    assert done.returncode == 1
    assert done.stderr == refusal
    assert not (home / ".claude").exists()


def test_a_symlinked_settings_file_stays_a_symlink(
    project: Path, home: Path, tmp_path: Path
) -> None:
    dotfile = tmp_path / "dotfiles-settings.json"
    dotfile.write_text('{"model": "opus"}\n')
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").symlink_to(dotfile)
    sidekit("install", "--project", str(project), home=home)
    assert (project / ".claude" / "settings.json").is_symlink()
    assert set(json.loads(dotfile.read_text())["hooks"]) == {
        settings_merge.event_of(k) for k in settings_merge.EVENTS
    }
    sidekit("uninstall", "--project", str(project), home=home)
    assert dotfile.read_text() == '{"model": "opus"}\n'


def test_claude_md_block_is_added_once_and_removed_exactly(project: Path, home: Path) -> None:
    claude_md = project / "CLAUDE.md"
    claude_md.write_text("# Project\n\nUse tabs.\n")
    first = sidekit("install", "--project", str(project), "--claude-md", home=home)
    assert f"  {claude_md}: added the sidekit block\n" in first.stdout
    assert claude_md.read_text() == "# Project\n\nUse tabs.\n\n" + files.claude_md_block()
    second = sidekit("install", "--project", str(project), "--claude-md", home=home)
    assert f"  {claude_md}: the sidekit block is already there\n" in second.stdout
    assert claude_md.read_text().count("sidekit-hooks:begin") == 1
    kept = sidekit("uninstall", "--project", str(project), home=home)
    assert kept.stdout.endswith(
        f"  {claude_md} still has the sidekit block; remove it: sidekit uninstall --project "
        f"{project} --claude-md\n"
    )
    gone = sidekit("uninstall", "--project", str(project), "--claude-md", home=home)
    assert gone.stdout.endswith(f"  {claude_md}: removed the sidekit block\n")
    assert claude_md.read_text() == "# Project\n\nUse tabs.\n"


def test_claude_md_block_names_the_compact_commands() -> None:
    block = files.claude_md_block()
    for command in (
        "sidekit status",
        "sidekit test",
        "sidekit failures",
        "sidekit select",
        "sidekit symbol",
        "sidekit usages",
    ):
        assert f"`{command}" in block
    assert len(block) < 1200  # it is read at the start of every session


def run_through_sh(
    command: str, event: str, data: dict[str, Any], project: Path
) -> subprocess.CompletedProcess[str]:
    env = dict(environment_without(*AGENT_PREFIXES), CLAUDE_PROJECT_DIR=str(project))
    return through_sh(command, data, cwd=project, env=env, timeout=30)


def test_the_installed_command_runs_through_sh_with_its_marker_comment(
    project: Path, home: Path
) -> None:
    sidekit("install", "--project", str(project), home=home)
    sidekit(
        "nudge",
        "--project",
        str(project),
        "--session",
        "sess-1",
        "--sender",
        "lead",
        "check",
        "the",
        "spec",
        home=home,
    )
    data = json.loads((project / ".claude" / "settings.json").read_text())
    command = data["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    assert command.endswith(" # sidekit-hooks")
    done = run_through_sh(
        command, "UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go"), project
    )
    assert done.returncode == 0
    assert context_of(done.stdout) == "[from lead] check the spec"
    assert done.stderr == ""


def test_quoted_paths_with_spaces_run_through_sh(project: Path, tmp_path: Path) -> None:
    spaced = tmp_path / "my venv" / "bin"
    spaced.mkdir(parents=True)
    (spaced / "python").symlink_to(sys.executable)
    command = settings_merge.command_for(str(spaced / "python"), str(HOOKS / "post_tool_use.py"))
    assert command.startswith(f"'{spaced}/python' -S ")
    done = run_through_sh(
        command,
        "PostToolUse",
        payload(
            "PostToolUse",
            project,
            tool_name="Read",
            tool_input={"file_path": str(project / "a.py")},
        ),
        project,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_install_sh_refuses_an_unknown_option_before_doing_anything(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(REPO / "install.sh"), "--bogus"],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        timeout=30,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        "install.sh: unknown option --bogus (try --help)\n",
    )


def test_a_checkout_install_wires_its_hooks_folder_with_s() -> None:
    assert files.hook_scripts() == files.HookScripts(str(REPO / "hooks"), "-S")


def installed_without_checkout(monkeypatch: pytest.MonkeyPatch, site: Path) -> Path:
    """sidekit_hooks as pip leaves it in `site` (only its __init__ and what a test copies in)."""
    import sidekit_hooks

    package = site / "sidekit_hooks"
    package.mkdir(parents=True)
    monkeypatch.setattr(sidekit_hooks, "__file__", str(package / "__init__.py"))
    return package


def test_an_install_without_its_checkout_wires_the_entries_the_package_carries(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    package = installed_without_checkout(monkeypatch, tmp_path / "site-packages")
    shutil.copytree(REPO / "sidekit_hooks" / "entries", package / "entries")
    assert files.hook_scripts() == files.HookScripts(str(package / "entries"), "-I -S")


def test_an_install_that_lost_its_entries_says_how_to_reinstall(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from sidekit_hooks.core.errors import SidekitError

    package = installed_without_checkout(monkeypatch, tmp_path / "site-packages")
    with pytest.raises(SidekitError) as caught:
        files.hook_scripts()
    assert str(caught.value) == (
        f"this sidekit's hook scripts are missing ({package}/entries has no post_tool_use.py); "
        "nothing was changed\n"
        f"  fix: reinstall it: {sys.executable} -m pip install --force-reinstall sidekit-hooks "
        "(pipx reinstall sidekit-hooks, or uv tool install --reinstall sidekit-hooks)"
    )


def test_uninstall_takes_back_what_the_plugin_set_up(project: Path, home: Path) -> None:
    from sidekit_hooks.pipeline import plugin_setup

    subprocess.run(["git", "init", "-q", str(project)], check=True)
    exclude = project / ".git" / "info" / "exclude"
    before = exclude.read_text()
    plugin_setup.set_up(str(project), "/plugins/sidekit")
    assert exclude.read_text() != before
    done = sidekit("uninstall", "--project", str(project), home=home)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"sidekit uninstall: {project / '.claude' / 'settings.json'}\n"
        "  nothing to remove\n"
        "  .git/info/exclude: removed .sidekit/ .runtime/\n"
        "  the plugin's setup record is gone (the plugin sets the project up again at its next "
        "session)\n"
    )
    assert exclude.read_text() == before
    assert not (project / ".sidekit" / "plugin-setup.json").exists()
    again = sidekit("uninstall", "--project", str(project), home=home)
    assert (
        again.stdout
        == f"sidekit uninstall: {project / '.claude' / 'settings.json'}\n  nothing to remove\n"
    )


def test_uninstall_removes_only_the_folders_install_can_create(
    project: Path, home: Path, tmp_path: Path
) -> None:
    """A record the repository commits (.sidekit/install.json) cannot make uninstall remove any
    other folder."""
    outside = tmp_path / "outside-empty"
    outside.mkdir()
    (project / "build").mkdir()
    target = project / ".claude" / "settings.json"
    (project / ".sidekit").mkdir()
    planted = {
        str(target): {
            "events": {},
            "createdFolders": [str(outside), str(project / "build"), str(project)],
        }
    }
    (project / ".sidekit" / "install.json").write_text(json.dumps(planted))
    done = sidekit("uninstall", "--project", str(project), home=home)
    assert done.returncode == 0, done.stderr
    assert "removed the empty folders" not in done.stdout
    assert outside.is_dir() and (project / "build").is_dir() and project.is_dir()
