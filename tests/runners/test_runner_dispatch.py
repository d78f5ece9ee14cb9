"""The PreToolUse hook appends a runner's options to a plain `go test` / `cargo test`, and nothing else."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from sidekit_hooks.runners import dispatch, go
from testing.pretool import HOOK, SIDEKIT_MODULES, in_process, run_hook

EXEC = " -exec " + "'" + go.wrapper_command() + "'"
REPORT = re.compile(r"report-[\w.-]+\.json")  # jest's report file: a new name per run


def hook(project: Path, env: dict[str, str], command: str, *handler: str) -> str:
    body = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "timeout": 60000},
        "tool_use_id": "t",
    }
    done = run_hook(body, dict(env, CLAUDE_PROJECT_DIR=str(project)), project, *handler)
    assert done.returncode == 0 and done.stderr == ""
    return done.stdout


def test_the_hook_appends_the_exec_wrapper_to_a_plain_go_test(project: Path, clean_env: dict[str, str]) -> None:
    (project / "go.mod").write_text("module m\n")
    assert json.loads(hook(project, clean_env, "cd sub && go test ./...")) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": {"command": "cd sub && go test ./..." + EXEC, "timeout": 60000},
        }
    }


@pytest.mark.parametrize(
    ("command", "answering"),
    [
        ("npx jest test/x", "jest"),
        ("npx jest", "jest"),
        ("npx jest --testPathPattern x", "jest"),
        ("go test ./...", "test"),
        ("cd jest-app && go test ./...", "jest"),
    ],
)
def test_of_the_two_handlers_started_for_a_command_exactly_one_rewrites_it(
    project: Path, clean_env: dict[str, str], command: str, answering: str
) -> None:
    """Claude Code starts every PreToolUse handler whose `if` holds (`Bash(*test*)`, `Bash(*jest*)`),
    each with the same payload: the one for the last word the command says answers, the other is silent."""
    (project / "go.mod").write_text("module m\n")
    said = {handler: hook(project, clean_env, command, handler) for handler in ("test", "jest")}
    assert [handler for handler, output in said.items() if output] == [answering]
    alone = hook(project, clean_env, command)  # what a lone handler (older settings) says
    assert REPORT.sub("report-N.json", said[answering]) == REPORT.sub("report-N.json", alone)
    assert json.loads(said[answering])["hookSpecificOutput"]["updatedInput"]["command"].startswith(command + " ")


@pytest.mark.parametrize(
    "command",
    [
        "go test ./... | tail",
        "go test ./... > out.txt",
        "go test ./...; echo done",
        "SIDEKIT_RAW=1 go test ./...",
        "go test $PKGS",
        "go test ./... # all",
        "go vet ./...",
        "go test -json ./...",
        "cargo test -- --nocapture",
    ],
)
def test_other_commands_are_left_alone(project: Path, clean_env: dict[str, str], command: str) -> None:
    assert hook(project, clean_env, command) == ""


def test_an_exact_permission_rule_for_go_test_keeps_the_command_as_written(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / ".claude").mkdir()
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(go test:*)"]}}))
    assert dispatch.rewrite("go test ./...", str(project), str(project)) == "go test ./..." + EXEC
    settings.write_text(json.dumps({"permissions": {"deny": ["Bash(go test ./...)"]}}))
    assert dispatch.rewrite("go test ./...", str(project), str(project)) == ""
    monkeypatch.setenv("SIDEKIT_COMPACT", "0")
    settings.unlink()
    assert dispatch.rewrite("go test ./...", str(project), str(project)) == ""


def test_a_bash_call_that_is_no_test_run_imports_nothing_of_the_runners(
    project: Path, clean_env: dict[str, str]
) -> None:
    body = {"tool_name": "Bash", "tool_input": {"command": "go build ./..."}}
    done = in_process(body, clean_env, project, then=SIDEKIT_MODULES)
    assert done.stdout.strip() == "['sidekit_hooks', 'sidekit_hooks.hook']", done.stderr
    assert os.path.isfile(HOOK)
