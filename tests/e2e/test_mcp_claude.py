"""`sidekit mcp` inside the real Claude Code CLI (2.1.328), wired by `sidekit install --project DIR
--mcp`.

What 2.1.328 needs to start a project's `.mcp.json` server in `claude -p`: the server approved in
the settings (`enabledMcpjsonServers`, which `install --mcp` writes, with `permissions.allow` for
its tools) and a trusted workspace (`projects[DIR].hasTrustDialogAccepted` in `$HOME/.claude.json`,
what accepting the trust dialog once records; without it the project's settings are ignored). The
tools reach the model as `mcp__sidekit__<tool>`. By default the CLI defers MCP tools: the first
request names them in a "deferred tools" reminder (schemas load through ToolSearch); with
`ENABLE_TOOL_SEARCH=false` it sends their whole definitions in `tools`. MCP servers connect in the
background by default (`MCP_CONNECTION_NONBLOCKING`): a server slower than the CLI's first request
(a loaded machine) joins from the next request on, so these tests ask the CLI to wait for it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.cli.mcpserver import tools
from testing.claude import REPO, SessionRunner, ToolCall

FILES = {
    "calc/__init__.py": "",
    "calc/ops.py": "def add(a, b):\n    return a + b\n\n\ndef twice(a):\n    return add(a, a)\n",
    "tests/test_ops.py": "from calc.ops import add\n\n\ndef test_add():\n    assert add(1, 2) == "
    "3\n",
}

WAIT_FOR_SERVERS = {"MCP_CONNECTION_NONBLOCKING": "false"}


def trust(home: Path, project: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / ".claude.json").write_text(
        json.dumps({"projects": {str(project): {"hasTrustDialogAccepted": True}}})
    )


def first_text(block: dict[str, Any]) -> str:
    """The tool's own text in a tool_result (the CLI appends its reminders as further text
    blocks)."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    assert isinstance(content, list) and content and content[0].get("type") == "text", content
    return str(content[0]["text"])


@pytest.mark.parametrize("tool_search", ["deferred", "full"])
def test_the_model_sees_sidekit_tools_and_gets_the_cli_answers(
    run_session: SessionRunner,
    project: Path,
    sidekit: Callable[..., str],
    tmp_path: Path,
    tool_search: str,
) -> None:
    for name, text in FILES.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    sidekit("install", "--project", str(project), "--mcp")
    home = tmp_path / "home"
    trust(home, project)
    steps = [
        ToolCall("mcp__sidekit__status", {}),
        ToolCall("mcp__sidekit__usages", {"name": "add"}),
    ]
    env = {**WAIT_FOR_SERVERS, **({"ENABLE_TOOL_SEARCH": "false"} if tool_search == "full" else {})}

    run = run_session("How are the tests?", steps, home=home, env=env)

    first = run.conversation[0]
    names = [f"mcp__sidekit__{name}" for name in tools.TOOLS]
    if tool_search == "full":
        sent = {
            tool["name"]: tool
            for tool in first["tools"]
            if tool["name"].startswith("mcp__sidekit__")
        }
        assert sorted(sent) == sorted(names)  # the CLI sorts tools by name
        for name, (description, schema) in tools.TOOLS.items():
            assert sent[f"mcp__sidekit__{name}"]["description"] == description
            assert sent[f"mcp__sidekit__{name}"]["input_schema"] == schema
    else:
        listed = json.dumps(first)
        assert all(name in listed for name in names), [name for name in names if name not in listed]
    # The next requests carry the answers in the tool_results, exactly as the CLI prints them.
    assert first_text(run.tool_result(0)) == sidekit("status")
    assert first_text(run.tool_result(1)) == sidekit("usages", "add")
    assert json.loads(first_text(run.tool_result(1)))["uses"] == 3
    assert run.tool_result(0).get("is_error") is not True


def test_the_plugin_form_serves_the_same_tools(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str], tmp_path: Path
) -> None:
    """`--plugin-dir` (this checkout): the plugin's .mcp.json starts `bin/sidekit mcp`; the tools
    are scoped."""
    for name, text in FILES.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    prefix = "mcp__plugin_sidekit-hooks_sidekit__"
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": [prefix[:-2]]}})
    )
    home = tmp_path / "home"
    trust(home, project)

    run = run_session(
        "How are the tests?",
        [ToolCall(prefix + "symbol", {"name": "twice"})],
        home=home,
        plugin_dir=REPO,
        env=WAIT_FOR_SERVERS,
    )

    listed = json.dumps(run.conversation[0])
    assert all(prefix + name in listed for name in tools.TOOLS)
    assert first_text(run.tool_result(0)) == sidekit("symbol", "twice")


def test_the_front_answers_the_clients_opening_and_first_call_before_the_sdk_loads(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str], tmp_path: Path
) -> None:
    """2.1.328 opens with `server/discover` (2026-07-28), then `tools/list` and the calls, each with
    its `_meta` envelope: the front answers all three while the SDK is still being imported
    (held back until then by the trace, so the order holds at any load), and the SDK serves the
    next call once it is there."""
    for name, text in FILES.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    sidekit("install", "--project", str(project), "--mcp")
    trace = tmp_path / "front-trace.jsonl"
    script = REPO / "tests" / "testing" / "mcp_front_trace.py"  # -P: not its folder on sys.path
    traced = [sys.executable, "-P", str(script), str(trace)]
    server = {"command": traced[0], "args": [*traced[1:], "mcp", "--project", str(project)]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"sidekit": server}}))
    home = tmp_path / "home"
    trust(home, project)
    steps = [
        ToolCall("mcp__sidekit__symbol", {"name": "add"}),
        ToolCall("mcp__sidekit__usages", {"name": "add"}),
    ]

    run = run_session("Where is add?", steps, home=home, env=WAIT_FOR_SERVERS)

    assert first_text(run.tool_result(0)) == sidekit("symbol", "add")
    assert first_text(run.tool_result(1)) == sidekit("usages", "add")
    said = [json.loads(line) for line in trace.read_text().splitlines()]
    traced_calls = [(s["method"], s["by"], s["importing"]) for s in said]
    assert traced_calls[:3] == [
        ("server/discover", "front", True),
        ("tools/list", "front", True),
        ("tools/call", "front", True),
    ]
    # the second call went to the SDK: handed over with it, or before it (the import ended while
    # the client was quiet); the front answered nothing after the first call
    assert traced_calls[3:] in ([], [("tools/call", "sdk", False)]), traced_calls
