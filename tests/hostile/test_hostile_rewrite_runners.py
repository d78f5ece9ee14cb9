"""Every runner's rewrite keeps the user's permission verdict (#31 item 1).

go, cargo, vitest, jest and npm rewrites append options to the command the model wrote, and the
client judges the rewritten command again. Each case drives the real PreToolUse hook script from
outside, under a stand-in `claude` process where the client's own flags matter, and asks whether the
hook hands back a rewrite: under a rule that judges the two commands differently it must not (a
denied test would run, an asked one would run unasked, a deny would become a prompt).
`SIDEKIT_HOSTILE_ROOT` points the hook at an older checkout, where each case but the controls fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testing.stand_in import pre_tool_use, rewritten

# (runner, the command the model runs, a deny that names no program, a user rule with a wildcard
# inside)
RUNS = [
    ("go", "go test ./internal/secret", "Bash(* ./internal/secret)", "Bash(g* ./internal/secret)"),
    ("cargo", "cargo test secret", "Bash(* secret)", "Bash(c* secret)"),
    ("vitest", "npx vitest run secret", "Bash(* secret)", "Bash(np* run secret)"),
    ("npm", "npm test -- secret", "Bash(* secret)", "Bash(np* -- secret)"),
    ("jest", "npx jest secret", "Bash(* secret)", "Bash(np* secret)"),
]
IDS = [run[0] for run in RUNS]
MODES = ["bypassPermissions", "default"]


@pytest.fixture
def proj(project: Path) -> Path:
    """A project each runner recognises: a go module, a crate, and a package whose test script is
    vitest's."""
    (project / "go.mod").write_text("module example.com/m\n\ngo 1.21\n")
    (project / "Cargo.toml").write_text(
        '[package]\nname = "m"\nversion = "0.1.0"\nedition = "2021"\n'
    )
    (project / "package.json").write_text(
        '{"name":"m","private":true,"scripts":{"test":"vitest run"}}\n'
    )
    (project / ".git").mkdir()
    return project


def settings(folder: Path, **permissions: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"permissions": permissions}))


# -- controls: what no rule tells apart is still rewritten, on every checkout
# ----------------------------


@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_control_with_no_rule_each_runner_is_rewritten(
    proj: Path, runner: str, command: str, deny: str, user_rule: str
) -> None:
    assert rewritten(pre_tool_use(proj, command)).startswith(command + " ")
    assert rewritten(pre_tool_use(proj, command, ["--allowedTools", "Bash"])).startswith(
        command + " "
    )


@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_control_a_prefix_rule_judges_both_alike_and_the_rewrite_goes_on(
    proj: Path, runner: str, command: str, deny: str, user_rule: str
) -> None:
    prefix = " ".join(command.split()[:2])
    flags = ["--allowedTools", f"Bash({prefix}:*)", "--disallowedTools", "Bash(git push:*)"]
    assert rewritten(pre_tool_use(proj, command, flags)).startswith(command + " ")


# -- (a) the client's own flags
# -----------------------------------------------------------------------


@pytest.mark.parametrize("with_pid", [True, False])
@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_a_disallowed_tools_flag_naming_the_command_keeps_it_as_written(
    proj: Path, runner: str, command: str, deny: str, user_rule: str, with_pid: bool
) -> None:
    flags = ["--allowedTools", "Bash", "--disallowedTools", f"Bash({command})"]
    assert rewritten(pre_tool_use(proj, command, flags, with_pid=with_pid)) == ""


@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_an_allowed_tools_flag_naming_the_command_keeps_it_as_written(
    proj: Path, runner: str, command: str, deny: str, user_rule: str
) -> None:
    # Allowed exactly as written; rewritten, it would fall back to the mode's default (a prompt, a
    # refusal).
    assert rewritten(pre_tool_use(proj, command, [f"--allowed-tools=Bash({command}),Read"])) == ""


# -- (b) a project settings deny with a wildcard, in each permission mode
# -------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_a_settings_wildcard_deny_keeps_the_command_as_written(
    proj: Path, runner: str, command: str, deny: str, user_rule: str, mode: str
) -> None:
    settings(proj / ".claude", deny=[deny], defaultMode=mode)
    assert rewritten(pre_tool_use(proj, command, ["--permission-mode", mode])) == ""
    assert rewritten(pre_tool_use(proj, command)) == ""  # no client process: the settings alone


# -- (c) an ask rule
# -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_an_ask_rule_keeps_the_command_as_written(
    proj: Path, runner: str, command: str, deny: str, user_rule: str
) -> None:
    settings(proj / ".claude", ask=["Bash(*secret)"], allow=["Bash"])
    assert rewritten(pre_tool_use(proj, command, ["--permission-mode", "default"])) == ""


# -- (d) the user's own settings, a wildcard in the middle of the rule
# ----------------------------------


@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_a_user_settings_deny_with_a_wildcard_inside_keeps_the_command_as_written(
    proj: Path, runner: str, command: str, deny: str, user_rule: str
) -> None:
    settings(proj.parent / "home" / ".claude", deny=[user_rule])
    assert rewritten(pre_tool_use(proj, command, ["--allowedTools", "Bash"])) == ""


@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_user_settings_in_the_claude_config_dir_count_too(
    proj: Path, runner: str, command: str, deny: str, user_rule: str
) -> None:
    program, subcommand = command.split()[:2]
    config = proj.parent / "config"
    settings(config, deny=[f"Bash({program} {subcommand} *secret)"])
    assert rewritten(pre_tool_use(proj, command, env={"CLAUDE_CONFIG_DIR": str(config)})) == ""


# -- any doubt: no rewrite
# ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_a_source_of_rules_that_cannot_be_read_keeps_the_command_as_written(
    proj: Path, runner: str, command: str, deny: str, user_rule: str
) -> None:
    (proj / ".claude").mkdir()
    (proj / ".claude" / "settings.local.json").write_text(
        '{"permissions": {"deny": ["Bash(git push)"'
    )
    assert rewritten(pre_tool_use(proj, command)) == ""


@pytest.mark.parametrize(("runner", "command", "deny", "user_rule"), RUNS, ids=IDS)
def test_an_outside_permission_prompt_tool_keeps_the_command_as_written(
    proj: Path, runner: str, command: str, deny: str, user_rule: str
) -> None:
    assert (
        rewritten(pre_tool_use(proj, command, ["--permission-prompt-tool", "mcp__perm__ask"])) == ""
    )
