"""Start an MCP stdio server, list its tools, and time it: for `sidekit doctor` and bench/run.py.

Plain JSON-RPC over the pipes (newline-delimited, as the stdio transport frames it), standard
library only, so the measurement holds no client library's import time.

It opens as Claude Code 2.1.328 opens every stdio server (recorded: docs/warm-path.md, and the
bytes in tests/cli/recorded/): `server/discover` (protocol 2026-07-28) with the client's `_meta`
envelope, then `tools/list` and `tools/call` each carrying that envelope, never `initialize`. A
server that refuses `server/discover` (Method not found) gets the 2025 handshake next, as the client
does. `opening=HANDSHAKE` measures the 2025 handshake alone (`initialize`, then
`notifications/initialized`, then requests without the envelope).
"""

from __future__ import annotations

import copy
import json
import os
import selectors
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

TIMEOUT = 20.0  # seconds for the whole probe

CLIENT = "client"  # opening: as Claude Code 2.1.328 opens (server/discover, enveloped requests)
HANDSHAKE = "handshake"  # opening: the 2025 handshake (initialize, notifications/initialized)
DISCOVER = "server/discover"
INITIALIZE = "initialize"

# What the client sends, as recorded from Claude Code 2.1.328 (tests compare the bytes).
DISCOVER_ID = "server-discover-probe-1"
MODERN_VERSION = "2026-07-28"
HANDSHAKE_VERSION = "2025-11-25"  # its `initialize` once `server/discover` is refused
INITIALIZE_ID = "initialize-probe-1"  # (the probe's own: the recording holds no `initialize`)
LIST_ID = 0  # the client's `tools/list`; its tool calls are numbered from 1
CLIENT_INFO: dict[str, str] = {
    "name": "claude-code",
    "title": "Claude Code",
    "version": "2.1.328",
    "description": "Anthropic's agentic coding tool",
    "websiteUrl": "https://claude.com/claude-code",
}
CLIENT_CAPABILITIES: dict[str, Any] = {
    "roots": {"listChanged": True},
    "elicitation": {"form": {}, "url": {}},
}
METHOD_NOT_FOUND = -32601


def envelope() -> dict[str, Any]:
    """The `_meta` envelope the client puts in `server/discover` and in every request after it."""
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
        "io.modelcontextprotocol/clientInfo": dict(CLIENT_INFO),
        "io.modelcontextprotocol/clientCapabilities": copy.deepcopy(CLIENT_CAPABILITIES),
    }


def discover_request() -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": DISCOVER_ID,
        "method": DISCOVER,
        "params": {"_meta": envelope()},
    }


def list_request(number: int, modern: bool = True) -> dict[str, Any]:
    """`tools/list` (the client's keys in its order); `modern`: with the envelope."""
    return {
        "method": "tools/list",
        "jsonrpc": "2.0",
        "id": number,
        "params": {"_meta": envelope()} if modern else {},
    }


def call_request(
    number: int, name: str, arguments: dict[str, Any], modern: bool = True
) -> dict[str, Any]:
    """`tools/call` as the client sends it: its tool use id and a progress token (the request's
    number, as the client's first call had) in `_meta`, after the envelope when `modern`."""
    meta = {"claudecode/toolUseId": f"toolu_probe_{number:04d}", "progressToken": number}
    return {
        "method": "tools/call",
        "params": {
            "name": name,
            "arguments": arguments,
            "_meta": {**envelope(), **meta} if modern else meta,
        },
        "jsonrpc": "2.0",
        "id": number,
    }


def initialize_request(request_id: str) -> dict[str, Any]:
    """The 2025 handshake's opening, with the client's identity and capabilities."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": INITIALIZE,
        "params": {
            "protocolVersion": HANDSHAKE_VERSION,
            "capabilities": copy.deepcopy(CLIENT_CAPABILITIES),
            "clientInfo": dict(CLIENT_INFO),
        },
    }


def encode(message: dict[str, Any]) -> bytes:
    """One line on the wire, compact as the client writes it."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


@dataclass
class Probe:
    tools: list[str] = field(default_factory=list)
    opening: str = ""  # what opened the connection: DISCOVER, or INITIALIZE
    first_answer_ms: float = 0.0  # spawn -> the opening answered (server/discover or initialize)
    tools_ms: float = 0.0  # spawn -> the tools/list answer
    definitions_bytes: int = 0  # the tools array as the server sent it, compact JSON
    error: str = ""
    calls: list[tuple[str, float, str]] = field(
        default_factory=list
    )  # (tool, ms from sent to answered, text) in call order
    first_call_done_ms: float = 0.0  # spawn -> the first tools/call answered
    # the server's CPU over the calls after `settle` (Linux; 0 elsewhere)
    settled_cpu_ms: float = 0.0


class Refused(ValueError):
    """The server answered a request with a JSON-RPC error."""

    def __init__(self, code: Any, message: str) -> None:
        super().__init__(f"the server answered an error: {message}")
        self.code = code


def probe(
    argv: list[str],
    cwd: str,
    env: dict[str, str] | None = None,
    timeout: float = TIMEOUT,
    calls: list[tuple[str, dict[str, Any]]] | None = None,
    settle: float = 0.0,
    opening: str = CLIENT,
) -> Probe:
    """Spawn `argv`, open (`opening`: CLIENT or HANDSHAKE), list tools, make `calls` (each timed, the
    first sent as soon as tools/list is answered), close stdin and reap it.

    `settle`: after the first call, wait (at most this many seconds) until the server has spent no
    CPU for a while, so the calls after it meet a server whose start-up is over (`sidekit mcp`
    answers its first calls while it still imports the MCP SDK: a warm figure must not count that
    import)."""
    found = Probe()
    before = -1
    started = time.perf_counter()
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        found.error = f"cannot start {argv[0]}: {exc.strerror}"
        return found
    deadline = started + timeout
    reader = _Reader(process)
    try:
        modern = opening == CLIENT and _discover(process, reader, deadline)
        if not modern:
            _send(process, initialize_request(INITIALIZE_ID))
            reader.answer(INITIALIZE_ID, deadline)
            _send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        found.opening = DISCOVER if modern else INITIALIZE
        found.first_answer_ms = (time.perf_counter() - started) * 1000
        _send(process, list_request(LIST_ID, modern))
        listed = reader.answer(LIST_ID, deadline)
        found.tools_ms = (time.perf_counter() - started) * 1000
        tools = listed.get("result", {}).get("tools", [])
        found.tools = [str(tool.get("name")) for tool in tools]
        found.definitions_bytes = len(
            json.dumps(tools, separators=(",", ":"), ensure_ascii=False).encode()
        )
        for number, (name, arguments) in enumerate(calls or [], start=LIST_ID + 1):
            began = time.perf_counter()
            _send(process, call_request(number, name, arguments, modern))
            result = reader.answer(number, deadline).get("result", {})
            text = "".join(item.get("text", "") for item in result.get("content", []))
            found.calls.append((name, (time.perf_counter() - began) * 1000, text))
            if number == LIST_ID + 1:
                found.first_call_done_ms = (time.perf_counter() - started) * 1000
            if number == LIST_ID + 1 and settle:
                _settle(process.pid, settle)
                before = _cpu_ticks(process.pid)
        if settle and calls and len(calls) > 1:
            after = _cpu_ticks(process.pid)
            if before >= 0 and after >= 0:
                found.settled_cpu_ms = (after - before) * 1000 / os.sysconf("SC_CLK_TCK")
    except (TimeoutError, OSError, ValueError) as exc:
        found.error = str(exc) or type(exc).__name__
        last = reader.stderr_tail()
        if last:
            found.error += f" (stderr: {last})"
    finally:
        _close(process)
    return found


def _discover(process: subprocess.Popen[bytes], reader: _Reader, deadline: float) -> bool:
    """Send `server/discover`: True when answered, False when refused as an unknown method (the
    client then opens with `initialize`); any other error is raised."""
    _send(process, discover_request())
    try:
        reader.answer(DISCOVER_ID, deadline)
    except Refused as refused:
        if refused.code != METHOD_NOT_FOUND:
            raise
        return False
    return True


class _Reader:
    """Newline-delimited JSON-RPC messages from the server's stdout, with a deadline."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.buffer = b""
        self.errors = b""
        self.selector = selectors.DefaultSelector()
        assert process.stdout is not None and process.stderr is not None
        self.selector.register(process.stdout, selectors.EVENT_READ, "out")
        self.selector.register(process.stderr, selectors.EVENT_READ, "err")

    def answer(self, wanted: int | str, deadline: float) -> dict[str, Any]:
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if not line.strip():
                    continue
                message = json.loads(line)
                if (  # an answer to our request: not the server's own request of that id
                    isinstance(message, dict)
                    and "method" not in message
                    and type(message.get("id")) is type(wanted)
                    and message.get("id") == wanted
                ):
                    if "error" in message:
                        error = message["error"]
                        error = error if isinstance(error, dict) else {"message": str(error)}
                        raise Refused(error.get("code"), str(error.get("message", "")))
                    return message
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no answer in time")
            for key, _ in self.selector.select(left):
                chunk = os.read(key.fileobj.fileno(), 65536)  # type: ignore[union-attr]
                if key.data == "err":
                    self.errors = (self.errors + chunk)[-4000:]
                elif not chunk:
                    code = self.process.wait()
                    self._drain_stderr()
                    raise ValueError(f"the server exited (code {code}) before answering")
                else:
                    self.buffer += chunk

    def _drain_stderr(self) -> None:
        """What the exited server still had to say on stderr (briefly: a child may hold the pipe
        open)."""
        assert self.process.stdout is not None and self.process.stderr is not None
        self.selector.unregister(self.process.stdout)  # at its end: always "readable"
        while self.selector.select(0.5):
            chunk = os.read(self.process.stderr.fileno(), 65536)
            if not chunk:
                return
            self.errors = (self.errors + chunk)[-4000:]

    def stderr_tail(self) -> str:
        lines = [line for line in self.errors.decode(errors="replace").splitlines() if line.strip()]
        return lines[-1][:200] if lines else ""


def _settle(pid: int, limit: float, quiet: float = 0.3, step: float = 0.05) -> None:
    """Until the process has used no CPU for `quiet` seconds (Linux: /proc), or `limit` seconds
    passed."""
    deadline = time.monotonic() + limit
    last, still = -1, 0.0
    while time.monotonic() < deadline and still < quiet:
        used = _cpu_ticks(pid)
        if used < 0:  # no /proc here: wait the whole limit instead
            time.sleep(max(0.0, deadline - time.monotonic()))
            return
        still = still + step if used == last else 0.0
        last = used
        time.sleep(step)


def _cpu_ticks(pid: int) -> int:
    """utime + stime of a process in clock ticks (Linux /proc), or -1."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return -1


def _send(process: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert process.stdin is not None
    process.stdin.write(encode(message))
    process.stdin.flush()


def _close(process: subprocess.Popen[bytes]) -> None:
    """Close stdin (a stdio server's cue to exit), then make sure it is gone."""
    try:
        if process.stdin:
            process.stdin.close()
        process.wait(5)
    except (OSError, subprocess.TimeoutExpired):
        process.kill()
        process.wait()
    for stream in (process.stdout, process.stderr):
        if stream:
            stream.close()
