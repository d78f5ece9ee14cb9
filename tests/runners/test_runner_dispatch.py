"""The PreToolUse hook appends a runner's options to a plain `go test` / `cargo test`, and nothing
else."""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pytest

from sidekit_hooks import runners
from sidekit_hooks.runners import dispatch, permissions
from sidekit_hooks.runners.go import adapter as go
from testing.parsed import parsed
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


def test_the_hook_appends_the_exec_wrapper_to_a_plain_go_test(
    project: Path, clean_env: dict[str, str]
) -> None:
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
    """Claude Code starts every PreToolUse handler whose `if` holds (`Bash(*test*)`,
    `Bash(*jest*)`), each with the same payload: the one for the last word the command says answers,
    the other is silent."""
    (project / "go.mod").write_text("module m\n")
    said = {handler: hook(project, clean_env, command, handler) for handler in ("test", "jest")}
    assert [handler for handler, output in said.items() if output] == [answering]
    alone = hook(project, clean_env, command)  # what a lone handler (older settings) says
    assert REPORT.sub("report-N.json", said[answering]) == REPORT.sub("report-N.json", alone)
    assert json.loads(said[answering])["hookSpecificOutput"]["updatedInput"]["command"].startswith(
        command + " "
    )


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
def test_other_commands_are_left_alone(
    project: Path, clean_env: dict[str, str], command: str
) -> None:
    assert hook(project, clean_env, command) == ""


@pytest.mark.parametrize(
    ("command", "rules", "rewritten"),
    [
        ("go test ./...", {"allow": ["Bash(go test:*)"]}, True),  # a prefix rule judges both alike
        (
            "go test ./...",
            {"deny": ["Bash(go test ./...)"]},
            False,
        ),  # exact: the rewrite would slip past it
        (
            "go test ./internal/secret",
            {"deny": ["Bash(* ./internal/secret)"]},
            False,
        ),  # names no program
        ("cargo test secret", {"ask": ["Bash(*secret)"]}, False),
        ("npx vitest run secret", {"deny": ["Bash(npx * secret)"]}, False),
        ("npx vitest run secret", {"allow": ["Bash(npx vitest:*)"]}, True),
        ("npx jest secret", {"ask": ["Bash(npx jest secret)"]}, False),
        ("npx jest secret", {"deny": ["Bash(git push:*)"], "allow": ["Read"]}, True),
    ],
)
def test_every_runners_rewrite_is_judged_by_the_permission_rules(
    project: Path,
    clean_env: dict[str, str],
    command: str,
    rules: dict[str, list[str]],
    rewritten: bool,
) -> None:
    (project / "go.mod").write_text("module m\n")
    (project / "Cargo.toml").write_text('[package]\nname = "m"\nversion = "0.1.0"\n')
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"permissions": rules}))
    env = dict(clean_env, HOME=str(project.parent / "home"))
    answer = hook(project, env, command)
    assert bool(answer) is rewritten, answer
    if rewritten:
        assert json.loads(answer)["hookSpecificOutput"]["updatedInput"]["command"].startswith(
            command + " "
        )
    (project / ".claude" / "settings.json").write_text(
        "{}"
    )  # the control: with no rule, each is rewritten
    assert hook(project, env, command)


def test_compact_off_leaves_it_alone(project: Path, clean_env: dict[str, str]) -> None:
    (project / "go.mod").write_text("module m\n")
    assert hook(project, dict(clean_env, SIDEKIT_COMPACT="1"), "go test ./...")
    assert hook(project, dict(clean_env, SIDEKIT_COMPACT="0"), "go test ./...") == ""


def test_a_runner_added_later_is_judged_too(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An adapter knows nothing of permissions: the judgment sits where every rewrite becomes an
    answer."""
    (tmp_path / "later_runner.py").write_text(
        "NAME = 'later'\n"
        "def matches(words):\n    return words[:2] == ['later', 'test']\n"
        "def compact_words(words, project):\n    return [*words, '--compact']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(runners, "REGISTRY", {"later": "later_runner"})
    monkeypatch.setattr(permissions, "client_argv", lambda: [])
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    body = {
        "tool_name": "Bash",
        "cwd": str(project),
        "tool_input": {"command": "later test secret"},
    }
    assert json.loads(dispatch.pre_tool_use(body))["hookSpecificOutput"]["updatedInput"] == {
        "command": "later test secret --compact"
    }
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(* secret)"]}})
    )
    assert dispatch.pre_tool_use(body) == ""


def test_only_the_dispatch_answer_hands_the_client_an_updated_input() -> None:
    """One place produces `updatedInput`, so no rewrite can reach the client without the
    judgment."""
    package = Path(dispatch.__file__).resolve().parents[1]
    found = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        for node in ast.walk(parsed(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value == "updatedInput"
    )
    assert found == ["runners/dispatch.py"]


def test_a_bash_call_that_is_no_test_run_imports_nothing_of_the_runners(
    project: Path, clean_env: dict[str, str]
) -> None:
    body = {"tool_name": "Bash", "tool_input": {"command": "go build ./..."}}
    done = in_process(body, clean_env, project, then=SIDEKIT_MODULES)
    # the registry (standard library only) holds the trigger words; no adapter, no dispatch, no
    # runtime
    expected = "['sidekit_hooks', 'sidekit_hooks.pipeline', 'sidekit_hooks.pipeline.hook', 'sidekit_hooks.runners', 'sidekit_hooks.runners.words']"
    assert done.stdout.strip() == expected, done.stderr
    assert os.path.isfile(HOOK)
