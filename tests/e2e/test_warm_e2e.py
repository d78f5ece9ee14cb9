"""The warm path inside the real Claude Code CLI (2.1.328, scripted model): PostToolUse,
PostToolUseFailure and UserPromptSubmit wired twice, to the command hook (handler `warm`) and to
`sidekit mcp --hooks`'s `hook` tool through an `mcp_tool` handler (docs/warm-path.md). Whichever
path answers, every queued message reaches the model exactly once: with the server up, with the
server killed halfway, and with a server that connects only after the first events."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.pipeline import warm
from testing.claude import (
    REPO,
    Run,
    ToolCall,
    reminder,
    result_text,
    run_claude,
    sidekit_argv,
    split_result,
)
from testing.warm import (
    check_the_late_server_left_the_first_events_to_the_command,
    tool_calls_counted,
    who_answered,
)

WIRED = ("PostToolUse", "PostToolUseFailure", "UserPromptSubmit")
SCRIPTS = {
    "PostToolUse": "post_tool_use",
    "PostToolUseFailure": "post_tool_use_failure",
    "UserPromptSubmit": "user_prompt_submit",
}


def wire(project: Path, home: Path, fallback: str, delay: float = 0.0) -> None:
    """Settings (both handlers per event), the project's `.mcp.json`, and a trusted workspace.
    `fallback`: "async" runs the command hook in the background (the event waits only for the
    warm server; a command answer comes one request later). `delay`: seconds the server waits
    before it starts (a server that connects late)."""
    server = " ".join(shlex.quote(part) for part in sidekit_argv())
    start = f"sleep {delay}; exec {server} mcp --hooks --project {shlex.quote(str(project))}"
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"sidekit": {"command": "sh", "args": ["-c", start]}}})
    )
    hooks: dict[str, Any] = {}
    for event in WIRED:
        command = f'"{sys.executable}" -S "{REPO}/hooks/{SCRIPTS[event]}.py" warm'
        handlers = [
            {"type": "command", "command": command, "timeout": 5, "async": fallback == "async"},
            {"type": "mcp_tool", "server": "sidekit", "tool": warm.TOOL, "input": warm.INPUT},
        ]
        hooks[event] = [
            {"matcher": "*", "hooks": handlers} if event != WIRED[2] else {"hooks": handlers}
        ]
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": hooks,
                "enabledMcpjsonServers": ["sidekit"],
                "permissions": {"allow": ["mcp__sidekit"]},
            }
        )
    )
    home.mkdir(parents=True, exist_ok=True)
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": True}}})
    )


def nudge(session_id: str, text: str) -> ToolCall:
    argv = " ".join(shlex.quote(part) for part in sidekit_argv())
    return ToolCall(
        "Bash", {"command": f"{argv} nudge --session {session_id} {text}", "description": "queue"}
    )


KILL_SERVER = ToolCall(
    "Bash",
    {
        # the warm server's pid is in every claim it said (`warm <pid>`)
        "command": "kill -9 $(cat .sidekit/claims/*/said | awk '{print $2}' | sort -u)",
        "description": "stop the warm server",
    },
)


def session(
    claude_cli: Path,
    project: Path,
    tmp_path: Path,
    steps: list[ToolCall],
    session_id: str,
    env: dict[str, str] | None = None,
) -> Run:
    done = run_claude(
        claude_cli,
        project,
        "go on",
        steps,
        session_id=session_id,
        home=tmp_path / "home",
        env=env,
    )
    assert done.returncode == 0 and done.result == "done", done.stderr[-3000:]
    return done


Sidekit = Callable[..., str]
FALLBACKS = pytest.mark.parametrize("fallback", ["sync", "async"])


@FALLBACKS
def test_the_warm_server_answers_and_says_each_message_once(
    claude_cli: Path,
    project: Path,
    tmp_path: Path,
    session_id: str,
    sidekit: Sidekit,
    fallback: str,
) -> None:
    wire(project, tmp_path / "home", fallback)
    sidekit("nudge", "--session", session_id, "before-the-prompt")
    steps = [nudge(session_id, f"message-{n}") for n in range(1, 4)]

    run = session(
        claude_cli, project, tmp_path, steps, session_id, {"MCP_CONNECTION_NONBLOCKING": "false"}
    )

    for text in ("before-the-prompt", "message-1", "message-2", "message-3"):
        assert run.count(text) == 1 + sum(text in str(s.input) for s in steps), text
    # Each event once, the server answering: the command hook may still win a claim when its
    # process starts before the client's tool call reaches the server (a loaded machine), by design.
    answered = who_answered(project)
    assert answered["warm"] >= 1 and sum(answered.values()) == 4, answered
    assert tool_calls_counted(project, session_id) == len(steps)


@FALLBACKS
def test_a_server_killed_halfway_loses_nothing_and_says_nothing_twice(
    claude_cli: Path, project: Path, tmp_path: Path, session_id: str, fallback: str
) -> None:
    wire(project, tmp_path / "home", fallback)
    steps = [
        nudge(session_id, "message-1"),
        KILL_SERVER,
        nudge(session_id, "message-2"),
        nudge(session_id, "message-3"),
    ]

    run = session(
        claude_cli, project, tmp_path, steps, session_id, {"MCP_CONNECTION_NONBLOCKING": "false"}
    )

    for text in ("message-1", "message-2", "message-3"):
        assert run.count(text) == 2, text  # the Bash call that queued it, and its delivery
    answered = who_answered(project)
    assert sum(answered.values()) == 1 + len(steps), answered
    assert tool_calls_counted(project, session_id) == len(steps)


@FALLBACKS
def test_a_server_that_connects_late_leaves_the_first_events_to_the_command_hook(
    claude_cli: Path,
    project: Path,
    tmp_path: Path,
    session_id: str,
    sidekit: Sidekit,
    fallback: str,
) -> None:
    wire(project, tmp_path / "home", fallback, delay=4.0)
    sidekit("nudge", "--session", session_id, "before-the-prompt")
    steps = [nudge(session_id, "message-1"), nudge(session_id, "message-2")]

    run = session(claude_cli, project, tmp_path, steps, session_id)

    check_the_late_server_left_the_first_events_to_the_command(
        run.count, project, session_id, len(steps)
    )


def test_the_warm_server_says_the_scope_nudge_the_command_hook_says(
    claude_cli: Path, project: Path, tmp_path: Path, session_id: str, sidekit: Sidekit
) -> None:
    """The same session as test_claude_code's out-of-scope edit, answered by the warm server: the
    model gets the same reminder, once."""
    wire(project, tmp_path / "home", "sync")
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("def main():\n    return 0\n")
    (project / "lib").mkdir()
    util = project / "lib" / "util.py"
    util.write_text("def helper():\n    return 1\n")
    sidekit("scope", "set", "--allow", "src/**")
    steps = [
        ToolCall("Read", {"file_path": str(util)}),
        ToolCall(
            "Edit", {"file_path": str(util), "old_string": "return 1", "new_string": "return 2"}
        ),
    ]

    run = session(
        claude_cli, project, tmp_path, steps, session_id, {"MCP_CONNECTION_NONBLOCKING": "false"}
    )

    assert split_result(result_text(run.tool_result(0))) == (
        "1\tdef helper():\n2\t    return 1\n3",
        [],
    )
    assert split_result(result_text(run.tool_result(1)))[1] == [
        reminder(
            "PostToolUse:Edit hook additional context",
            "[sidecar:scope] lib/util.py is outside this task's scope; if it must change, tell the "
            "user.",
        )
    ]
    answered = who_answered(project)
    assert answered["warm"] >= 1 and sum(answered.values()) == 3, answered
