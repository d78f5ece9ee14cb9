"""`sidekit_hooks.cli.mcpserver.probe`: it opens an MCP server as Claude Code 2.1.328 does (the
recorded bytes in tests/cli/recorded/), measures the 2025 handshake when asked, and falls back to
it, as the client does, when a server refuses `server/discover`. Against the real `sidekit mcp`,
behind a logging pass-through (tests/testing/mcp_tee.py) that keeps what the probe sent."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.cli.commands import doctor
from sidekit_hooks.cli.mcpserver import config, probe, tools
from testing.hooks import REPO
from testing.mcp import cli, environment, make_project

# Claude Code 2.1.328's first three messages to `sidekit mcp` (server/discover, tools/list, one
# `symbol add` call from a scripted model), recorded as it wrote them.
RECORDED = Path(__file__).parent / "recorded" / "claude-code-2.1.328-mcp-opening.jsonl"
TEE = REPO / "tests" / "testing" / "mcp_tee.py"
SERVER = [sys.executable, "-P", "-m", "sidekit_hooks.cli", "mcp"]


@pytest.fixture
def small(tmp_path: Path) -> Path:
    root: Path = make_project(tmp_path / "proj")
    return root


def teed(log: Path, *flags: str) -> list[str]:
    return [sys.executable, "-P", str(TEE), str(log), *flags, "--", *SERVER]


def sent(log: Path) -> list[bytes]:
    return log.read_bytes().splitlines(keepends=True)


def test_the_probe_opens_as_claude_code_2_1_328_does_byte_for_byte(
    small: Path, tmp_path: Path
) -> None:
    log = tmp_path / "sent.jsonl"
    found = probe.probe(teed(log), str(small), environment(), calls=[("symbol", {"name": "add"})])
    assert found.error == ""
    assert found.opening == "server/discover"
    assert found.tools == list(tools.TOOLS)
    discover, listing, call = RECORDED.read_bytes().splitlines(keepends=True)
    # The tool use id is the model's (the scripted model's in the recording); the probe names its
    # own. Everything else, the envelope first, is the client's bytes.
    own_call = call.replace(b'"toolu_e2e_0000"', b'"toolu_probe_0001"')
    assert own_call != call
    assert sent(log) == [discover, listing, own_call]
    assert found.calls[0][0] == "symbol"
    assert found.calls[0][2] == cli(small, "symbol", "add").stdout.rstrip("\n")
    assert 0 < found.first_answer_ms <= found.tools_ms < found.first_call_done_ms


def test_the_2025_handshake_is_measured_when_asked(small: Path, tmp_path: Path) -> None:
    log = tmp_path / "sent.jsonl"
    found = probe.probe(
        teed(log),
        str(small),
        environment(),
        calls=[("symbol", {"name": "add"})],
        opening=probe.HANDSHAKE,
    )
    assert found.error == ""
    assert found.opening == "initialize"
    assert found.tools == list(tools.TOOLS)
    messages = [json.loads(line) for line in sent(log)]
    assert [message["method"] for message in messages] == [
        "initialize",
        "notifications/initialized",
        "tools/list",
        "tools/call",
    ]
    envelope = recorded_envelope()  # the client's identity and capabilities, in the 2025 form
    assert messages[0]["params"] == {
        "protocolVersion": "2025-11-25",
        "capabilities": envelope["io.modelcontextprotocol/clientCapabilities"],
        "clientInfo": envelope["io.modelcontextprotocol/clientInfo"],
    }
    assert messages[2]["params"] == {}
    assert messages[3]["params"]["_meta"] == {
        "claudecode/toolUseId": "toolu_probe_0001",
        "progressToken": 1,
    }
    assert found.calls[0][2] == cli(small, "symbol", "add").stdout.rstrip("\n")


def recorded_envelope() -> dict[str, Any]:
    """The `_meta` envelope of the recorded `server/discover`."""
    meta: dict[str, Any] = json.loads(RECORDED.read_bytes().splitlines()[0])["params"]["_meta"]
    return meta


def test_a_server_that_refuses_server_discover_gets_the_2025_handshake(
    small: Path, tmp_path: Path
) -> None:
    log = tmp_path / "sent.jsonl"
    found = probe.probe(teed(log, "--refuse-discover"), str(small), environment())
    assert found.error == ""
    assert found.opening == "initialize"
    assert found.tools == list(tools.TOOLS)
    methods = [json.loads(line)["method"] for line in sent(log)]
    assert methods == ["server/discover", "initialize", "notifications/initialized", "tools/list"]


def test_doctor_measures_the_real_server_through_the_clients_opening(
    small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "sent.jsonl"
    # doctor starts `python SERVER_ARGS`: here the pass-through in front of the real server
    monkeypatch.setattr(config, "SERVER_ARGS", tuple(teed(log)[1:]))
    check = doctor._mcp_check(str(small))
    assert (check.status, check.fix) == ("info", "")
    assert check.detail.startswith("`sidekit mcp` lists 10 tools, first answer in "), check.detail
    discover, listing, _ = RECORDED.read_bytes().splitlines(keepends=True)
    assert sent(log) == [discover, listing]


def test_a_request_of_the_server_with_the_wanted_id_is_not_taken_for_the_answer() -> None:
    """A server may ask the client something (`roots/list`) under an id the probe also uses; only
    a message without a method answers the probe's request."""
    import subprocess
    import time

    lines = [
        {"jsonrpc": "2.0", "id": 0, "method": "roots/list"},
        {"jsonrpc": "2.0", "id": False, "result": {"wrong": "type"}},
        {"jsonrpc": "2.0", "id": 0, "result": {"tools": []}},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    server = subprocess.Popen(
        [sys.executable, "-c", f"import sys; sys.stdout.write({text!r})"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        found = probe._Reader(server).answer(0, time.perf_counter() + 10)
    finally:
        server.wait(timeout=10)
    assert found == lines[2]
