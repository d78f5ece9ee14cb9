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


def converse_lines(
    root: Path, messages: list[dict[str, Any]], front_on: bool = True, hooks: bool = False
) -> list[bytes]:
    """The server's answer to each request (notifications get none), one session, in order, as
    the bytes it wrote."""
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
            assert select.select([process.stdout], [], [], 60)[0], "no answer"
            line = process.stdout.readline()
            # one request at a time: the next line is its answer (nothing twice, nothing else)
            assert json.loads(line).get("id") == message["id"], line
            answers.append(line)
    finally:
        process.stdin.close()
        process.wait(30)
    return answers


def converse(
    root: Path, messages: list[dict[str, Any]], front_on: bool = True, hooks: bool = False
) -> list[Any]:
    """The same, parsed, without the `jsonrpc` member."""
    return [
        {k: v for k, v in json.loads(line).items() if k != "jsonrpc"}
        for line in converse_lines(root, messages, front_on, hooks)
    ]


@pytest.fixture
def small(tmp_path: Path) -> Path:
    root: Path = make_project(tmp_path / "proj")
    return root


def test_the_front_negotiates_the_versions_the_sdk_does() -> None:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    assert front.HANDSHAKE_VERSIONS == tuple(HANDSHAKE_PROTOCOL_VERSIONS)


@pytest.mark.slow  # the whole hand-over to the MCP SDK's server (its import alone is ~0.7 s CPU)
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


@pytest.mark.slow  # the whole hand-over to the MCP SDK's server (its import alone is ~0.7 s CPU)
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


def front_lines(
    root: Path, messages: list[dict[str, Any]], hooks: bool = False
) -> tuple[list[bytes], front.Replay | None]:
    """What the front writes, in process, while the SDK is (said to be) still being imported."""
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
            said = [line + b"\n" for line in answers.read().splitlines()]
    finally:
        os.close(server_read)
    return said, served


def front_session(
    root: Path, messages: list[dict[str, Any]], hooks: bool = False
) -> tuple[list[Any], front.Replay | None]:
    """The same, parsed, without the `jsonrpc` member."""
    lines, served = front_lines(root, messages, hooks)
    said = [{k: v for k, v in json.loads(line).items() if k != "jsonrpc"} for line in lines]
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


# -- the 2026-07-28 opening: `server/discover` and per-request envelopes (Claude Code 2.1.328)
# ------------------------------------------------

# The envelope Claude Code 2.1.328 puts in every request's `_meta` (observed; docs/warm-path.md).
CLAUDE_CODE_META: dict[str, Any] = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {
        "name": "claude-code",
        "title": "Claude Code",
        "version": "2.1.328",
        "description": "Anthropic's agentic coding tool",
        "websiteUrl": "https://claude.com/claude-code",
    },
    "io.modelcontextprotocol/clientCapabilities": {
        "roots": {"listChanged": True},
        "elicitation": {"form": {}, "url": {}},
    },
}
DISCOVER: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": "server-discover-probe-1",
    "method": "server/discover",
    "params": {"_meta": CLAUDE_CODE_META},
}
DISCOVERED = (
    b'{"jsonrpc":"2.0","id":"server-discover-probe-1","result":{"cacheScope":"private",'
    b'"capabilities":{"tools":{"listChanged":false}},"resultType":"complete",'
    b'"supportedVersions":["2026-07-28"],"ttlMs":0,"_meta":{"io.modelcontextprotocol/serverInfo":'
    b'{"name":"sidekit","version":"0.1.0"}}}}\n'
)


def enveloped(number: int, method: str, **params: Any) -> dict[str, Any]:
    """A request as 2.1.328 sends it after `server/discover`: its envelope in `params._meta`."""
    meta = {**CLAUDE_CODE_META, **params.pop("_meta", {})}
    return {"jsonrpc": "2.0", "id": number, "method": method, "params": {**params, "_meta": meta}}


def modern_call(number: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool call as 2.1.328 sends it (its tool use id and a progress token in the envelope)."""
    tool_use = {"claudecode/toolUseId": f"toolu_{number}", "progressToken": number}
    return enveloped(number, "tools/call", name=tool, arguments=arguments, _meta=tool_use)


def test_the_front_serves_the_2026_versions_and_envelope_keys_the_sdk_does() -> None:
    import mcp_types
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    assert front.MODERN_VERSIONS == tuple(MODERN_PROTOCOL_VERSIONS)
    assert (
        front.VERSION_KEY,
        front.CLIENT_INFO_KEY,
        front.CAPABILITIES_KEY,
        front.SERVER_INFO_KEY,
    ) == (
        mcp_types.PROTOCOL_VERSION_META_KEY,
        mcp_types.CLIENT_INFO_META_KEY,
        mcp_types.CLIENT_CAPABILITIES_META_KEY,
        mcp_types.SERVER_INFO_META_KEY,
    )


def test_the_front_answers_server_discover_and_what_follows_byte_for_byte_as_the_sdk(
    small: Path,
) -> None:
    script: list[dict[str, Any]] = [
        DISCOVER,
        enveloped(0, "tools/list"),
        modern_call(1, "symbol", {"name": "add"}),
        modern_call(2, "usages", {"nam": "add"}),  # a tool error naming the fix
        modern_call(3, "nosuch", {}),
        {**DISCOVER, "id": "again"},
    ]
    said, replay = front_lines(small, script)
    assert replay is None  # all answered by the front: the client then left
    assert said == converse_lines(small, script, front_on=False)
    assert said[0] == DISCOVERED
    assert json.loads(said[2])["result"] == {
        "content": [
            {
                "text": '{"matches":[{"kind":"function","at":"calc/ops.py:1","sig":"(a, '
                'b)"}],"searched":5}',
                "type": "text",
            }
        ],
        "isError": False,
        "resultType": "complete",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "sidekit", "version": "0.1.0"}},
    }


VERSION, INFO, CAPABILITIES = (
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/clientCapabilities",
)
REFUSED_ENVELOPES: list[dict[str, Any]] = [
    {**CLAUDE_CODE_META, VERSION: "2025-11-25"},  # a version the SDK does not serve this way
    {**CLAUDE_CODE_META, VERSION: 20260728},
    {VERSION: "2026-07-28", INFO: CLAUDE_CODE_META[INFO]},  # no capabilities
    {**CLAUDE_CODE_META, CAPABILITIES: 5},
    {**CLAUDE_CODE_META, CAPABILITIES: {"roots": 5}},
    {**CLAUDE_CODE_META, CAPABILITIES: {"elicitation": {"form": 5}}},
    {**CLAUDE_CODE_META, INFO: {"x": 1}},  # no name, no version
    {**CLAUDE_CODE_META, INFO: {**CLAUDE_CODE_META[INFO], "title": 5}},
    {**CLAUDE_CODE_META, "progressToken": 1.5},
]


@pytest.mark.parametrize("meta", REFUSED_ENVELOPES)
@pytest.mark.parametrize("opened", [False, True])
def test_a_request_whose_envelope_the_sdk_refuses_goes_to_the_sdk(
    small: Path, meta: dict[str, Any], opened: bool
) -> None:
    bad = {"jsonrpc": "2.0", "id": 9, "method": "server/discover", "params": {"_meta": meta}}
    script: list[dict[str, Any]] = [DISCOVER, bad] if opened else [bad]
    said, replay = front_lines(small, script)
    assert said == ([DISCOVERED] if opened else [])
    # the SDK gets the opening again (its answer to it dropped), then the request it must refuse
    assert replay is not None
    assert replay.lines == [json.dumps(m).encode() + b"\n" for m in script]
    assert replay.opening_id == (DISCOVER["id"] if opened else None)


def test_the_sdk_refuses_each_envelope_the_front_leaves_to_it(small: Path) -> None:
    """What the front's checks stand for: on the connection `server/discover` opened, the SDK
    answers each of those requests with an error, and a plain one with a result."""
    script: list[dict[str, Any]] = [
        DISCOVER,
        *(
            {"jsonrpc": "2.0", "id": n, "method": "server/discover", "params": {"_meta": meta}}
            for n, meta in enumerate(REFUSED_ENVELOPES)
        ),
        {**DISCOVER, "id": "plain"},
    ]
    answers = converse(small, script, front_on=False)
    assert ["error" in answer for answer in answers] == [
        False,
        *[True] * len(REFUSED_ENVELOPES),
        False,
    ]


@pytest.mark.slow  # the whole hand-over to the MCP SDK's server (its import alone is ~0.7 s CPU)
def test_sidekit_mcp_serves_the_clients_opening_then_hands_the_connection_to_the_sdk(
    small: Path,
) -> None:
    """The order 2.1.328 sends (server/discover, tools/list, the first call), then requests the
    front leaves to the SDK: ping (none of the 2026 era), initialize (refused once discover has
    opened the connection), the calls after."""
    script: list[dict[str, Any]] = [
        DISCOVER,
        enveloped(0, "tools/list"),
        modern_call(1, "symbol", {"name": "add"}),
        enveloped(2, "ping"),
        {**INITIALIZE, "id": 3},
        modern_call(4, "usages", {"name": "add"}),
        enveloped(5, "tools/list"),
    ]
    with_front = converse_lines(small, script)
    assert with_front == converse_lines(small, script, front_on=False)
    answers = [json.loads(line) for line in with_front]
    assert [answer["id"] for answer in answers] == [m["id"] for m in script]
    assert with_front[0] == DISCOVERED
    assert [t["name"] for t in answers[1]["result"]["tools"]] == [
        "status",
        "test",
        "failures",
        "select",
        "tests_for",
        "blast_radius",
        "symbol",
        "usages",
        "scope_show",
        "scope_set",
    ]
    assert answers[2]["result"]["content"][0]["text"].startswith('{"matches":[{"kind":"function"')
    assert answers[3]["error"] == {"code": -32601, "message": "Method not found", "data": "ping"}
    assert answers[4]["error"]["code"] == -32022
    assert json.loads(answers[5]["result"]["content"][0]["text"])["uses"] == 5
    assert answers[6] == answers[1] | {"id": 5}


def test_the_sdk_takes_over_once_imported_while_the_client_is_quiet() -> None:
    """Not on the client's next call: that call would wait for the SDK's server to start."""
    import threading

    from sidekit_hooks.cli.mcpserver import tools

    importing = threading.Event()
    importing.set()
    client_read, server_write = os.pipe()
    server_read, client_write = os.pipe()
    os.write(client_write, json.dumps(DISCOVER).encode() + b"\n")
    imported = threading.Timer(0.3, importing.clear)
    # the client leaves after 10 s: a front that waits for it fails the test instead of hanging it
    gone: list[bool] = []

    def leave() -> None:
        os.close(client_write)
        gone.append(True)

    leaves = threading.Timer(10, leave)
    imported.start()
    leaves.start()
    try:
        served = front.Front(
            front.Wire(server_read, server_write),
            tools.definitions,
            "0.1.0",
            tools.SERVER_NAME,
            None,
            importing.is_set,
        ).serve()
        assert os.read(client_read, 65536) == DISCOVERED
    finally:
        leaves.cancel()
        leaves.join()
        for fd in (client_read, server_read, server_write) + (() if gone else (client_write,)):
            os.close(fd)
    assert served is not None  # (None: it waited for the client, which then left)
    assert served.lines == [json.dumps(DISCOVER).encode() + b"\n"]
    assert served.opening_id == DISCOVER["id"] and served.buffered == b""
