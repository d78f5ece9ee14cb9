"""`sidekit mcp` through the official MCP SDK client over stdio: the same bytes as the CLI, tool
errors for bad arguments, a budget on the tool definitions, cancellation without stray pytest, two
clients."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

from sidekit_hooks.cli.mcpserver import tools as mcp_tools
from testing.mcp import cli, connect, make_project, processes_in, text_of, wire_size

CONTRACT_TOOLS = [
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


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


def call(root: Path, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    """Each call's CallToolResult, from one server session."""

    async def run() -> list[Any]:
        async with connect(root) as session:
            return [await session.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(run)


def cli_line(root: Path, *args: str) -> str:
    done = cli(root, *args, "--project", str(root)) if args[0] != "scope" else cli(root, *args)
    assert done.stdout.endswith("\n") and done.stdout.count("\n") == 1, (done.stdout, done.stderr)
    return done.stdout[:-1]


def test_lists_the_contract_tools_within_the_definitions_budget(small: Path) -> None:
    async def run() -> Any:
        async with connect(small) as session:
            return (await session.list_tools()).tools

    tools = anyio.run(run)
    assert [tool.name for tool in tools] == CONTRACT_TOOLS
    assert wire_size(tools) <= mcp_tools.DEFINITIONS_BUDGET
    for tool in tools:
        # One sentence, saying when to reach for the tool rather than a raw command.
        assert tool.description.endswith(".") and ". " not in tool.description, tool.description
        assert " instead of " in tool.description, tool.description
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema["additionalProperties"] is False


def assert_same_but_age(answer: str, before: str, after: str) -> None:
    """`answer` is `before`/`after` once the age is set aside, with an age between theirs."""
    texts = (before, answer, after)
    ages = [json.loads(text).get("age", 0) for text in texts]
    assert ages == sorted(ages), ages
    without_age = {re.sub(r',"age":\d+', "", text) for text in texts}  # the same bytes around it
    assert len(without_age) == 1, texts


def test_every_tool_answers_with_the_bytes_the_cli_prints(small: Path) -> None:
    red = cli(small, "test", "--project", str(small))
    assert red.returncode == 1, red.stderr
    generation = json.loads(red.stdout)["generation"]
    pairs: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
        ("status", {}, ("status",)),
        ("status", {"since": generation}, ("status", "--since", str(generation))),
        ("failures", {}, ("failures",)),
        (
            "failures",
            {"tests": ["tests/test_ops.py::test_mul"], "stacks": True},
            ("failures", "--stacks", "tests/test_ops.py::test_mul"),
        ),
        ("select", {}, ("select",)),
        ("tests_for", {"path": "calc/ops.py"}, ("tests-for", "calc/ops.py")),
        ("blast_radius", {"target": "calc/ops.py:add"}, ("blast-radius", "calc/ops.py:add")),
        ("symbol", {"name": "mul"}, ("symbol", "mul")),
        ("symbol", {"name": "mull"}, ("symbol", "mull")),
        ("usages", {"name": "add"}, ("usages", "add")),
        ("scope_show", {}, ("scope", "show", "--project", str(small))),
    ]

    # status carries the cache's age in seconds, so the CLI answers just before and just after each
    # call: the MCP answer's age lies between theirs, and the rest is the same bytes.
    async def run() -> list[tuple[str, Any, str, str]]:
        seen = []
        async with connect(small) as session:
            for name, arguments, args in pairs:
                old = cli_line(small, *args)
                result = await session.call_tool(name, arguments)
                seen.append((name, result, old, cli_line(small, *args)))
        return seen

    seen = anyio.run(run)
    for name, result, old, new in seen:
        assert result.is_error is False, (name, text_of(result))
        if name == "status":
            assert_same_but_age(text_of(result), old, new)
            continue
        assert text_of(result) == old == new, (name, text_of(result), old, new)
    results = [result for _, result, _, _ in seen]
    unchanged = text_of(results[1])
    assert unchanged == json.dumps(
        {"generation": generation, "unchanged": True}, separators=(",", ":")
    )
    assert json.loads(text_of(results[9]))["uses"] >= 4


def test_scope_set_writes_the_scope_the_cli_would(small: Path) -> None:
    arguments = {"allow": ["calc/**"], "deny": ["calc/report.py"], "issue": "gt-1"}
    (result,) = call(small, ("scope_set", arguments))
    assert result.is_error is False
    cli_text = cli_line(
        small,
        "scope",
        "set",
        "--issue",
        "gt-1",
        "--allow",
        "calc/**",
        "--deny",
        "calc/report.py",
        "--project",
        str(small),
    )
    assert text_of(result) == cli_text
    assert text_of(call(small, ("scope_show", {}))[0]) == cli_line(
        small, "scope", "show", "--project", str(small)
    )


@pytest.mark.slow  # the MCP SDK's server at a real pace (signals, cancellation, two clients)
def test_test_answers_from_the_run_it_made_as_the_cli_does(small: Path) -> None:
    from sidekit_hooks.answers import render, shape
    from sidekit_hooks.cli.commands.test import run_clusters
    from sidekit_hooks.status import cache

    cli_line(small, "test", "tests/test_ops.py")  # the failure is new only on the first run
    (result,) = call(small, ("test", {"args": ["tests/test_ops.py"]}))
    text = text_of(result)
    summary = cache.read(cache.summary_path(str(small))).data
    table = cache.read(cache.table_path(str(small))).data
    # The answer `sidekit test` prints for exactly that run, built from the cache it left.
    assert text == render.dumps(shape.test_run(summary, run_clusters(summary, table), {}))
    assert json.loads(text)["exit"] == 1 and json.loads(text)["failed"] == 1
    printed = cli_line(small, "test", "tests/test_ops.py")
    # Another run: only its duration may differ.
    assert re.sub(r'"secs":[0-9.]+,?', "", printed) == re.sub(r'"secs":[0-9.]+,?', "", text)


BAD_ARGUMENTS: list[tuple[str, dict[str, Any], str]] = [
    (
        "usages",
        {},
        'sidekit: usages: \'name\' is required\n  fix: call usages with {"name": "..."}',
    ),
    (
        "usages",
        {"name": 3},
        "sidekit: usages: 'name' must be a string, not an integer\n  fix: call usages with "
        '{"name": "..."}',
    ),
    (
        "symbol",
        {"name": "  "},
        'sidekit: symbol: \'name\' must not be empty\n  fix: call symbol with {"name": "..."}',
    ),
    (
        "status",
        {"since": "7"},
        "sidekit: status: 'since' must be an integer, not a string\n  fix: call status with "
        "{} (optional: since)",
    ),
    (
        "status",
        {"project": "/etc"},
        "sidekit: status: unknown argument 'project' (status takes since)\n"
        "  fix: call status with {} (optional: since)",
    ),
    (
        "test",
        {"args": "tests"},
        "sidekit: test: 'args' must be a list of strings, not a string\n"
        "  fix: call test with {} (optional: args, select, base)",
    ),
    (
        "scope_set",
        {"allow": []},
        "sidekit: scope_set: 'allow' needs at least one glob\n"
        '  fix: call scope_set with {"allow": ["..."]} (optional: deny, issue)',
    ),
    (
        "grep",
        {},
        "sidekit: unknown tool 'grep'\n  fix: use one of: " + ", ".join(CONTRACT_TOOLS),
    ),
]


@pytest.fixture(scope="module")
def bad_argument_answers(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    """Each BAD_ARGUMENTS call's result, from one server session on a project of its own: a
    refused call changes nothing, so the cases read one session's answers (a server's start costs
    more than its answers)."""
    root = make_project(tmp_path_factory.mktemp("bad-arguments") / "proj")
    return call(root, *((name, arguments) for name, arguments, _ in BAD_ARGUMENTS))


@pytest.mark.parametrize(("name", "arguments", "message"), BAD_ARGUMENTS)
def test_bad_arguments_get_a_tool_error_with_the_fix(
    bad_argument_answers: list[Any], name: str, arguments: dict[str, Any], message: str
) -> None:
    result = bad_argument_answers[BAD_ARGUMENTS.index((name, arguments, message))]
    assert result.is_error is True
    assert text_of(result) == message


def test_a_command_error_is_the_cli_message_as_a_tool_error(small: Path) -> None:
    (result,) = call(small, ("scope_set", {"allow": ["../elsewhere/**"]}))
    assert result.is_error is True
    done = cli(small, "scope", "set", "--allow", "../elsewhere/**", "--project", str(small))
    assert done.returncode == 1 and done.stdout == ""
    assert text_of(result) + "\n" == done.stderr
    assert "Traceback" not in text_of(result)


def test_an_unexpected_failure_is_a_tool_error_and_logged_not_a_traceback(
    small: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp import types

    from sidekit_hooks.cli.commands import mcp

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("index exploded")

    monkeypatch.setattr(mcp_tools, "answer", broken)
    server = mcp.Server(str(small))
    params = types.CallToolRequestParams(name="usages", arguments={"name": "add"})
    result = anyio.run(server.call_tool, None, params)
    assert result.is_error is True
    text = result.content[0].text
    log = small / ".sidekit" / "log" / "cli-errors.log"
    assert text == (
        f"sidekit: usages: unexpected error: RuntimeError: index exploded\n  details: {log}\n"
        "  fix: sidekit doctor, then report the details file"
    )
    logged = log.read_text()
    assert "RuntimeError: index exploded" in logged and "Traceback" in logged


SLOW_SUITE = {
    **{
        f"tests/test_s{n}.py": "import time\n\n\ndef test_quick():\n    time.sleep(0.2)\n"
        for n in range(1, 5)
    },
    "tests/test_z.py": """\
        import subprocess


        def test_hangs():
            subprocess.run(["sleep", "120"])
        """,
    "pytest.ini": "[pytest]\n",
}


@pytest.mark.slow  # the MCP SDK's server at a real pace (signals, cancellation, two clients)
def test_cancelled_test_leaves_no_pytest_behind(tmp_path: Path) -> None:
    root = make_project(tmp_path / "slow", SLOW_SUITE)
    progress: list[float] = []

    async def run() -> list[str]:
        async with connect(root) as session:

            async def on_progress(value: float, total: float | None, message: str | None) -> None:
                progress.append(value)

            with anyio.move_on_after(60) as scope:
                async with anyio.create_task_group() as group:

                    async def call_test() -> None:
                        await session.call_tool("test", {}, progress_callback=on_progress)

                    group.start_soon(call_test)
                    while not (progress and progress[-1] >= 80 and _running(root, "sleep 120")):
                        await anyio.sleep(0.1)
                    group.cancel_scope.cancel()  # the client gives up: notifications/cancelled
            assert not scope.cancelled_caught, f"no progress reached 80% in 60 s: {progress}"
            deadline = time.monotonic() + 10
            while (
                _running(root, "run_module('pytest'", "sleep 120") and time.monotonic() < deadline
            ):
                await anyio.sleep(0.2)
            left = [
                line
                for line in processes_in(root)
                if "run_module('pytest'" in line or "sleep 120" in line
            ]
            # The server still answers after the cancellation.
            assert not (await session.call_tool("scope_show", {})).is_error
            return left

    assert anyio.run(run) == []
    assert progress == sorted(progress) and 80 in progress


def _running(root: Path, *words: str) -> bool:
    return any(word in line for line in processes_in(root) for word in words)


@pytest.mark.slow  # the MCP SDK's server at a real pace (signals, cancellation, two clients)
def test_two_clients_at_once_keep_the_cache_whole(small: Path) -> None:
    async def one(results: list[str]) -> None:
        async with connect(small) as session:
            for name, arguments in (
                ("test", {}),
                ("status", {}),
                ("usages", {"name": "add"}),
                ("test", {}),
            ):
                result = await session.call_tool(name, arguments)
                assert result.is_error is False, text_of(result)
                results.append(text_of(result))

    async def both() -> tuple[list[str], list[str]]:
        first: list[str] = []
        second: list[str] = []
        async with anyio.create_task_group() as group:
            group.start_soon(one, first)
            group.start_soon(one, second)
        return first, second

    first, second = anyio.run(both)
    for text in first + second:
        json.loads(text)
    for text in first[::3] + second[::3]:  # the test answers
        assert json.loads(text).get("failed") == 1 and "error" not in json.loads(text), text
    summary = json.loads((small / ".sidekit" / "status.json").read_text())
    table = json.loads((small / ".sidekit" / "status-tests.json").read_text())
    assert summary["run"]["counts"] == {"passed": 2, "failed": 1}
    assert set(table["tests"]) == {
        "tests/test_ops.py::test_add",
        "tests/test_ops.py::test_mul",
        "tests/test_report.py::test_summary",
    }
    assert json.loads(cli_line(small, "status"))["generation"] == summary["generation"]


@pytest.mark.slow  # the MCP SDK's server at a real pace (signals, cancellation, two clients)
def test_a_client_that_goes_away_mid_run_leaves_no_pytest(tmp_path: Path) -> None:
    root = make_project(tmp_path / "slow", SLOW_SUITE)

    async def run() -> None:
        async with connect(root) as session:
            async with anyio.create_task_group() as group:
                group.start_soon(session.call_tool, "test", {})
                with anyio.fail_after(60):
                    while not _running(root, "sleep 120"):
                        await anyio.sleep(0.1)
                group.cancel_scope.cancel()
        # The session is closed: stdin shut, the server told to go (SIGTERM if it lingers).

    anyio.run(run)
    deadline = time.monotonic() + 15
    while (
        _running(root, "run_module('pytest'", "sleep 120", "sidekit_hooks.cli mcp")
        and time.monotonic() < deadline
    ):
        time.sleep(0.2)
    assert processes_in(root) == []


@pytest.mark.slow  # the MCP SDK's server at a real pace (signals, cancellation, two clients)
def test_sigterm_to_the_server_stops_its_pytest_first(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    from testing.mcp import environment

    root = make_project(tmp_path / "slow", SLOW_SUITE)
    server = subprocess.Popen(
        [sys.executable, "-m", "sidekit_hooks.cli", "mcp", "--project", str(root)],
        cwd=root,
        env=environment(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None
    for message in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "test", "arguments": {}},
        },
    ):
        server.stdin.write(json.dumps(message).encode() + b"\n")
        server.stdin.flush()
    try:
        deadline = time.monotonic() + 60
        while not _running(root, "sleep 120") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _running(root, "sleep 120"), processes_in(root)
        os.kill(server.pid, signal.SIGTERM)
        assert server.wait(15) == 128 + signal.SIGTERM
        assert processes_in(root) == []
    finally:
        server.kill()
        server.wait()
