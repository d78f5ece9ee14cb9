"""The warm wiring with an async fallback, inside the real Claude Code CLI (2.1.328, scripted model):
PostToolUse, PostToolUseFailure and UserPromptSubmit go to `sidekit mcp --hooks`'s `hook` tool (the
client waits for it) and to the command hook run `async` with the handler word `fallback`, which
only queues what it finds (hook_events.warm_hooks, docs/warm-path.md). Every other event is the
usual synchronous command hook. Whichever path acts, each event is handled once and each nudge
reaches the model once: with the server up, killed halfway, and connecting late."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sidekit_hooks.core.workspace import queue_root
from sidekit_hooks.nudges import queue
from sidekit_hooks.pipeline import claim, hook_events
from testing.claude import REPO, Run, ToolCall, run_claude, sidekit_argv, tool_use_id
from testing.warm import (
    check_the_late_server_left_the_first_events_to_the_command,
    tool_calls_counted,
    who_answered,
)

pytestmark = pytest.mark.slow

Sidekit = Callable[..., str]
SCOPE = "lib/util.py is outside this task's scope"  # an Edit's nudge
SHELL_SCOPE = "writes lib/util.py, outside this task's scope"  # a Bash call's
# The warm server's pid is in every claim it said (`warm <pid>`).
SERVER_PIDS = "$(cat .sidekit/claims/*/said | awk '{print $2}' | sort -u)"
CONNECTED = {"MCP_CONNECTION_NONBLOCKING": "false"}


def wire(project: Path, home: Path, delay: float = 0.0, slow_when: Path | None = None) -> None:
    """The settings form of the warm wiring, the project's `.mcp.json` (the server waits `delay`
    seconds before it starts: a late connection; 2 s more once `slow_when` exists: a slow
    restart), and a trusted workspace."""
    server = " ".join(shlex.quote(part) for part in sidekit_argv())
    start = f"sleep {delay}; exec {server} mcp --hooks --project {shlex.quote(str(project))}"
    if slow_when is not None:
        start = f"if [ -e {shlex.quote(str(slow_when))} ]; then sleep 2; fi; {start}"
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"sidekit": {"command": "sh", "args": ["-c", start]}}})
    )

    def command_of(handler: hook_events.Handler) -> str:
        return f'"{sys.executable}" -S "{REPO}/hooks/{handler.script}.py" {handler.argument}'

    settings = {
        "hooks": hook_events.warm_hooks(command_of, "sidekit"),
        "enabledMcpjsonServers": ["sidekit"],
        "permissions": {"allow": ["mcp__sidekit"]},
    }
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))
    home.mkdir(parents=True, exist_ok=True)
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": True}}})
    )


def session(
    claude_cli: Path,
    project: Path,
    tmp_path: Path,
    steps: list[ToolCall],
    session_id: str,
    env: dict[str, str] | None = None,
    pace: float = 0.0,
) -> Run:
    done = run_claude(
        claude_cli,
        project,
        "go on",
        steps,
        session_id=session_id,
        home=tmp_path / "home",
        env=env,
        pace=pace,
    )
    assert done.returncode == 0 and done.result == "done", done.stderr[-3000:]
    return done


@pytest.fixture
def scoped(project: Path, sidekit: Sidekit) -> Path:
    """src/app.py in scope, lib/util.py out of it; returns lib/util.py."""
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("def main():\n    return 0\n")
    (project / "lib").mkdir()
    util = project / "lib" / "util.py"
    util.write_text("def helper():\n    return 1\n")
    sidekit("scope", "set", "--allow", "src/**")
    return util


def nudge(session_id: str, text: str) -> ToolCall:
    argv = " ".join(shlex.quote(part) for part in sidekit_argv())
    return ToolCall(
        "Bash", {"command": f"{argv} nudge --session {session_id} {text}", "description": "queue"}
    )


def answered_by(project: Path, session_id: str, step: int) -> str:
    """The end state of the claim of step `step`'s PostToolUse (`said`: the warm server)."""
    event = {"session_id": session_id, "tool_use_id": tool_use_id(step)}
    here = project / claim.CLAIMS / claim.event_key("PostToolUse", event)
    return next(
        state for state in (claim.SAID, claim.STOLEN, claim.TAKEN) if (here / state).exists()
    )


def queued(project: Path, session_id: str) -> list[str]:
    return [nudge.message for _name, nudge in queue.pending(queue_root(str(project)), session_id)]


def read(path: Path) -> ToolCall:
    return ToolCall("Read", {"file_path": str(path)})


def said_in(run: Run, steps: int, text: str) -> list[int]:
    """The steps whose tool result carries `text` (one entry per occurrence)."""
    return [
        index
        for index in range(steps)
        for _ in range(json.dumps(run.tool_result(index)).count(text))
    ]


def test_the_warm_server_says_the_scope_nudge_once_and_at_once(
    claude_cli: Path, project: Path, tmp_path: Path, session_id: str, scoped: Path
) -> None:
    wire(project, tmp_path / "home")
    steps = [
        read(scoped),
        ToolCall(
            "Edit", {"file_path": str(scoped), "old_string": "return 1", "new_string": "return 2"}
        ),
        read(project / "src" / "app.py"),
    ]

    run = session(claude_cli, project, tmp_path, steps, session_id, CONNECTED)

    assert run.count(SCOPE) == 1
    answered = who_answered(project)
    assert sum(answered.values()) == 1 + len(steps), answered
    if answered["warm"] == sum(answered.values()):  # the usual case: said with the edit's result
        assert said_in(run, len(steps), SCOPE) == [1]
    assert tool_calls_counted(project, session_id) == len(steps)


def test_a_server_killed_halfway_leaves_the_fallback_s_nudge_to_a_later_delivery(
    claude_cli: Path, project: Path, tmp_path: Path, session_id: str, scoped: Path
) -> None:
    """The step that kills the server also writes the out-of-scope file: its PostToolUse finds the
    server gone, and the client's restart of it takes 2 s more: the fallback takes the event and
    queues the nudge, and the restarted server says it at a later event, once. Every event is
    handled once, and nothing stays queued."""
    slow = tmp_path / "restart-slowly"
    wire(project, tmp_path / "home", slow_when=slow)
    kill = ToolCall(
        "Bash",
        {
            "command": f"touch {shlex.quote(str(slow))}; echo '# more' >> lib/util.py; "
            f"kill -9 {SERVER_PIDS}",
            "description": "x",
        },
    )
    steps = [
        nudge(session_id, "message-1"),
        kill,
        read(project / "src" / "app.py"),
        nudge(session_id, "message-2"),
    ]

    # A model's pace: the fallback (started FALLBACK_DELAY late) queues before the next event.
    # With none, its nudge can come after the run's last delivery and wait for the session's next.
    run = session(claude_cli, project, tmp_path, steps, session_id, CONNECTED, pace=1.0)

    assert answered_by(project, session_id, 1) == claim.TAKEN  # the fallback's (command) claim
    assert run.count(SHELL_SCOPE) == 1
    assert said_in(run, len(steps), SHELL_SCOPE)[0] > 1  # at a later event's warm answer
    for text in ("message-1", "message-2"):
        assert run.count(text) == 2, text  # the Bash call that queued it, and its delivery
    answered = who_answered(project)
    assert sum(answered.values()) == 1 + len(steps), answered
    assert tool_calls_counted(project, session_id) == len(steps)
    assert queued(project, session_id) == []


def test_a_server_that_connects_late_leaves_the_first_events_to_the_fallback(
    claude_cli: Path,
    project: Path,
    tmp_path: Path,
    session_id: str,
    sidekit: Sidekit,
) -> None:
    wire(project, tmp_path / "home", delay=4.0)
    sidekit("nudge", "--session", session_id, "before-the-prompt")
    steps = [nudge(session_id, "message-1"), nudge(session_id, "message-2")]

    run = session(claude_cli, project, tmp_path, steps, session_id)

    check_the_late_server_left_the_first_events_to_the_command(
        run.count, project, session_id, len(steps)
    )


def test_the_wiring_sidekit_install_warm_writes_answers_through_the_server(
    claude_cli: Path,
    project: Path,
    tmp_path: Path,
    session_id: str,
    scoped: Path,
    sidekit: Sidekit,
) -> None:
    """`sidekit install --mcp --warm` as a user runs it (its `.mcp.json` server, its marked async
    fallback commands): the edit's scope reminder once, said by the warm server."""
    sidekit("install", "--project", str(project), "--mcp", "--warm")
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": True}}})
    )
    steps = [
        read(scoped),
        ToolCall(
            "Edit", {"file_path": str(scoped), "old_string": "return 1", "new_string": "return 2"}
        ),
    ]

    run = session(claude_cli, project, tmp_path, steps, session_id, CONNECTED)

    assert run.count(SCOPE) == 1
    assert who_answered(project) == {"warm": 3, "command": 0, "taken over": 0}
    assert said_in(run, len(steps), SCOPE) == [1]
