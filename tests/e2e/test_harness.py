"""The harness itself: where the CLI is unavailable the e2e tests skip, saying why, and never
hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from testing import claude as claude_e2e
from testing import interpreter
from testing.claude import (
    CLI_ENV,
    REQUIRED_ENV,
    VERSION,
    ScriptedModel,
    ToolCall,
    find_cli,
    message_events,
)


def test_a_missing_cli_override_is_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(CLI_ENV, str(tmp_path / "nowhere" / "claude"))
    assert find_cli() == (
        None,
        f"Claude Code CLI not found at {tmp_path / 'nowhere' / 'claude'} (from ${CLI_ENV})",
    )


def test_missing_npm_is_the_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(CLI_ENV, raising=False)
    monkeypatch.setattr(claude_e2e, "CACHED_CLI", tmp_path / "not-installed" / "claude")
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no npm on PATH
    assert find_cli() == (
        None,
        f"npm not found: cannot install @anthropic-ai/claude-code@{VERSION} "
        "(tests/e2e/install_claude.sh)",
    )


def test_an_uninstalled_cli_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(CLI_ENV, raising=False)
    monkeypatch.setattr(claude_e2e, "CACHED_CLI", tmp_path / "not-installed" / "claude")
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "npm").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "bin" / "npm").chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert find_cli() == (
        None,
        f"Claude Code {VERSION} is not installed; run: bash tests/e2e/install_claude.sh",
    )


def test_e2e_tests_skip_cleanly_without_the_cli(tmp_path: Path) -> None:
    """The whole e2e module, run as CI would, with the harness pointed at a CLI that is not
    there."""
    missing = tmp_path / "no-claude"
    env = {
        name: value for name, value in os.environ.items() if name not in (REQUIRED_ENV, "CI")
    }  # as on a laptop
    env[CLI_ENV] = str(missing)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-vv",
            "-rs",
            "--full",  # the e2e tests belong to the full suite
            "-p",
            "no:sidekit",
            str(Path(__file__).with_name("test_claude_code.py")),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    tests = sum(
        1
        for line in Path(__file__).with_name("test_claude_code.py").read_text().splitlines()
        if line.startswith("def test_")
    )
    reasons = [
        line.split(": ", 1)[1]
        for line in done.stdout.splitlines()
        if line.startswith("SKIPPED [1] ")
    ]
    cli_missing = f"Claude Code CLI not found at {missing} (from ${CLI_ENV})"
    assert len(reasons) == tests and cli_missing in reasons
    assert set(reasons) == {cli_missing}
    assert f" {tests} skipped in " in done.stdout.rstrip().splitlines()[-1]


def test_ci_fails_instead_of_skipping_when_the_cli_is_required(tmp_path: Path) -> None:
    missing = tmp_path / "no-claude"
    env = dict(os.environ, **{CLI_ENV: str(missing), REQUIRED_ENV: "1"})
    test = f"{Path(__file__).with_name('test_claude_code.py')}::test_failing_bash_goes_through_post_tool_use_failure"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--full", "-p", "no:sidekit", test],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    assert (
        f"\nClaude Code CLI not found at {missing} (from ${CLI_ENV}) (and ${REQUIRED_ENV} is set)\n"
        in done.stdout
    )
    assert done.stdout.splitlines()[-1].startswith("1 error in ")


def test_scripted_model_streams_a_tool_call_then_ends_the_turn() -> None:
    """The SSE the CLI parses: one tool_use block, its input as input_json_delta, stop_reason
    tool_use."""
    stream = message_events(
        [{"type": "tool_use", "id": "toolu_x", "name": "Read", "input": {"file_path": "/p/a.py"}}],
        "tool_use",
        "claude-sonnet-4-5",
        "msg_1",
    ).decode()
    events = [line[len("event: ") :] for line in stream.splitlines() if line.startswith("event: ")]
    assert events == [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert (
        'data: {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", '
        '"partial_json": "{\\"file_path\\": \\"/p/a.py\\"}"}}' in stream
    )
    assert '"delta": {"stop_reason": "tool_use", "stop_sequence": null}' in stream


def test_scripted_model_picks_the_step_by_the_calls_already_made() -> None:
    model = ScriptedModel([ToolCall("Read", {"file_path": "/p/a.py"}), "finished"])
    tools = [{"name": "Read"}]
    first = {"tools": tools, "messages": [{"role": "user", "content": "go"}]}
    second = {
        "tools": tools,
        "messages": [
            {"role": "user", "content": "go"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_e2e_0000", "name": "Read", "input": {}}
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_e2e_0000", "content": "x"}
                ],
            },
        ],
    }
    try:
        assert model.reply_to(first) == (
            [
                {
                    "type": "tool_use",
                    "id": "toolu_e2e_0000",
                    "name": "Read",
                    "input": {"file_path": "/p/a.py"},
                }
            ],
            "tool_use",
        )
        assert model.reply_to(second) == ([{"type": "text", "text": "finished"}], "end_turn")
        assert model.reply_to({"messages": []}) == (
            [{"type": "text", "text": "done"}],
            "end_turn",
        )  # side query
        model.requests.extend(
            [first] * (claude_e2e.MAX_REQUESTS + 1)
        )  # a CLI stuck retrying one call
        assert model.reply_to(first) == (
            [{"type": "text", "text": claude_e2e.CAP_TEXT}],
            "end_turn",
        )
    finally:
        model.server.server_close()


def test_a_cli_session_gets_the_users_path_not_the_suites_interpreter_folder(
    tmp_path: Path,
) -> None:
    """The fast suite's interpreter links live under /tmp, which `claude plugin eval`'s sandbox
    replaces: a scaffold's venv made through them had no interpreter inside the sandbox."""
    env = claude_e2e.clean_environment(tmp_path, "http://127.0.0.1:9")
    entries = env["PATH"].split(os.pathsep)
    assert interpreter.FOLDERS and interpreter.FOLDERS[0] in os.environ["PATH"].split(os.pathsep)
    assert not any(folder in entries for folder in interpreter.FOLDERS)
    assert entries == [
        entry for entry in os.environ["PATH"].split(os.pathsep) if entry not in interpreter.FOLDERS
    ]
