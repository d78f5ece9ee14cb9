"""`sidekit mcp` answers the handshake and tools/list before the SDK is imported
(cli/mcpserver/front.py): the same answers as the SDK's server alone (SIDEKIT_MCP_FRONT=0), then the
SDK serves the rest."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.cli.mcpserver import front
from testing.mcp import environment, make_project

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def converse(
    root: Path, messages: list[dict[str, Any]], front_on: bool = True, hooks: bool = False
) -> list[Any]:
    """The server's answer to each request (notifications get none), one session, in order."""
    env = dict(environment(), SIDEKIT_MCP_FRONT="1" if front_on else "0")
    process = subprocess.Popen(
        [sys.executable, "-m", "sidekit_hooks.cli", "mcp", "--project", str(root)]
        + (["--hooks"] if hooks else []),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    answers = []
    try:
        for message in messages:
            process.stdin.write(json.dumps(message).encode() + b"\n")
            process.stdin.flush()
            if "id" not in message:
                continue
            deadline = time.monotonic() + 60
            while True:
                assert select.select(
                    [process.stdout], [], [], max(0.0, deadline - time.monotonic())
                )[0], "no answer"
                answer = json.loads(process.stdout.readline())
                if answer.get("id") == message["id"]:
                    answers.append({k: v for k, v in answer.items() if k != "jsonrpc"})
                    break
    finally:
        process.stdin.close()
        process.wait(30)
    return answers


@pytest.fixture
def small(tmp_path: Path) -> Path:
    root: Path = make_project(tmp_path / "proj")
    return root


def test_the_front_negotiates_the_versions_the_sdk_does() -> None:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    assert front.HANDSHAKE_VERSIONS == tuple(HANDSHAKE_PROTOCOL_VERSIONS)


def test_the_front_answers_as_the_sdk_does_and_hands_it_the_session(small: Path) -> None:
    symbol = {"name": "symbol", "arguments": {"name": "add"}}
    script: list[dict[str, Any]] = [
        INITIALIZE,
        INITIALIZED,
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": symbol},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {}},
        {"jsonrpc": "2.0", "id": 6, "method": "resources/list", "params": {}},
    ]
    with_front, sdk_alone = converse(small, script), converse(small, script, front_on=False)
    assert with_front == sdk_alone
    assert with_front[0]["result"]["serverInfo"]["name"] == "sidekit"
    assert with_front[3]["result"]["content"][0]["text"] == (
        '{"matches":[{"kind":"function","at":"calc/ops.py:1","sig":"(a, b)"}],"searched":5}'
    )
    assert "error" in with_front[5]  # what the SDK says of a method it does not serve


@pytest.mark.parametrize(
    "first",
    [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "1999-01-01",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},  # no handshake at all
    ],
)
def test_what_the_front_does_not_know_goes_to_the_sdk_from_the_first_message(
    small: Path, first: dict[str, Any]
) -> None:
    script = [first, {"jsonrpc": "2.0", "id": 2, "method": "ping"}]
    assert converse(small, script) == converse(small, script, front_on=False)


def test_a_client_that_leaves_after_listing_tools_ends_the_server_at_once(small: Path) -> None:
    env = dict(environment())
    lines = b"".join(
        json.dumps(m).encode() + b"\n"
        for m in (INITIALIZE, INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", "mcp", "--project", str(small)],
        input=lines,
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2] and len(answers[1]["result"]["tools"]) == 10
    assert time.monotonic() - started < 30
    assert os.path.isdir(small)


# -- tool calls while the SDK is still being imported
# ------------------------------------------------

CALLS: list[dict[str, Any]] = [
    {"name": "symbol", "arguments": {"name": "add"}},
    {"name": "usages", "arguments": {"name": "add"}, "_meta": {"progressToken": 7}},
    {"name": "symbol", "arguments": {"nam": "add"}},  # a tool error naming the fix
    {"name": "symbol"},  # no arguments at all
    {"name": "nosuch", "arguments": {}},
    {"name": "status", "arguments": None},
]


def call(number: int, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": params}


def front_session(
    root: Path, messages: list[dict[str, Any]], hooks: bool = False
) -> tuple[list[Any], front.Replay | None]:
    """What the front answers, in process, while the SDK is (said to be) still being imported."""
    from sidekit_hooks.cli.commands import mcp
    from sidekit_hooks.cli.mcpserver import tools

    client_read, server_write = os.pipe()
    server_read, client_write = os.pipe()
    os.write(client_write, b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    os.close(client_write)
    try:
        served = front.Front(
            front.Wire(server_read, server_write),
            tools.definitions,
            "0.1.0",
            tools.SERVER_NAME,
            mcp._front_call(str(root), hooks),
            importing=lambda: True,
        ).serve()
        os.close(server_write)
        with os.fdopen(client_read, "rb") as answers:
            said = [
                {k: v for k, v in json.loads(line).items() if k != "jsonrpc"}
                for line in answers.read().splitlines()
            ]
    finally:
        os.close(server_read)
    return said, served


def test_tool_calls_before_the_sdk_is_there_are_answered_as_the_sdk_answers_them(
    small: Path,
) -> None:
    script: list[dict[str, Any]] = [
        INITIALIZE,
        INITIALIZED,
        *(call(n, p) for n, p in enumerate(CALLS, start=2)),
    ]
    said, replay = front_session(small, script)
    assert replay is None  # every call answered by the front: the client then left
    assert said == converse(small, script, front_on=False)
    assert said[1]["result"] == {
        "content": [
            {
                "text": '{"matches":[{"kind":"function","at":"calc/ops.py:1","sig":"(a, '
                'b)"}],"searched":5}',
                "type": "text",
            }
        ],
        "isError": False,
    }


@pytest.mark.parametrize(
    "params",
    [
        {"name": "test", "arguments": {}},  # progress and cancellation: always the SDK's
        {"name": 3, "arguments": {}},  # malformed: the SDK says what is wrong
        {"name": "symbol", "arguments": ["add"]},
        {
            "name": "symbol",
            "arguments": {"name": "add"},
            "task": {},
        },  # a field the front does not know
    ],
)
def test_a_call_the_front_does_not_serve_hands_the_session_to_the_sdk(
    small: Path, params: dict[str, Any]
) -> None:
    script: list[dict[str, Any]] = [INITIALIZE, INITIALIZED, call(2, params)]
    said, replay = front_session(small, script)
    assert [a["id"] for a in said] == [1]
    assert replay is not None and replay.lines[-1] == json.dumps(script[-1]).encode() + b"\n"


def test_once_the_sdk_is_imported_tool_calls_are_its_own(small: Path) -> None:
    from sidekit_hooks.cli.mcpserver import tools

    asked: list[str] = []
    client_read, server_write = os.pipe()
    server_read, client_write = os.pipe()
    os.write(
        client_write,
        b"".join(
            json.dumps(m).encode() + b"\n" for m in (INITIALIZE, INITIALIZED, call(2, CALLS[0]))
        ),
    )
    os.close(client_write)
    served = front.Front(
        front.Wire(server_read, server_write),
        tools.definitions,
        "0.1.0",
        tools.SERVER_NAME,
        lambda name, arguments: asked.append(name),  # (None: not answered here)
        importing=lambda: False,
    ).serve()
    for fd in (client_read, server_read, server_write):
        os.close(fd)
    assert asked == [] and served is not None and len(served.lines) == 3


def test_a_call_that_outlives_its_time_is_a_tool_error_and_the_front_goes_on() -> None:
    started = time.monotonic()

    def late() -> tuple[str, bool]:
        time.sleep(3)
        return "late", False

    assert front.bounded(late, 0.2) is None
    assert time.monotonic() - started < 2
    assert front.bounded(lambda: ("on time", True), 5) == ("on time", True)


def test_the_hook_tool_answers_alike_in_the_front_and_in_the_sdk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`sidekit mcp --hooks`: an event through the `hook` tool (pipeline/warm.py), answered by the
    front while the SDK loads and by the SDK's server after, in two projects in the same state."""
    from sidekit_hooks.core.workspace import queue_root
    from sidekit_hooks.nudges import queue
    from testing.hooks import payload
    from testing.warm import templated

    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    said = []
    for name, served_by in (("front", front_session), ("sdk", None)):
        root = tmp_path / name
        root.mkdir()
        queue.enqueue(
            queue_root(str(root)), "sess-1", queue.Nudge("check your mail", sender="mayor")
        )
        event = {**payload("UserPromptSubmit", root, prompt="go on"), "prompt_id": "p-1"}
        script: list[dict[str, Any]] = [
            INITIALIZE,
            INITIALIZED,
            call(2, {"name": "hook", "arguments": templated(event)}),
        ]
        if served_by is None:
            said.append(converse(root, script, front_on=False, hooks=True))
        else:
            said.append(served_by(root, script, hooks=True)[0])
    assert said[0] == said[1]
    assert said[0][1]["result"] == {
        "content": [
            {
                "text": '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit",'
                '"additionalContext":"[from mayor] check your mail"}}',
                "type": "text",
            }
        ],
        "isError": False,
    }
