"""Start an MCP stdio server, list its tools, and time it: for `sidekit doctor` and bench/run.py.

Plain JSON-RPC over the pipes (newline-delimited, as the stdio transport frames it), standard
library only, so the measurement holds no client library's import time.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

PROTOCOL = "2025-06-18"
TIMEOUT = 20.0  # seconds for the whole probe


@dataclass
class Probe:
    tools: list[str] = field(default_factory=list)
    first_answer_ms: float = 0.0  # spawn -> the initialize answer
    tools_ms: float = 0.0  # spawn -> the tools/list answer
    definitions_bytes: int = 0  # the tools array as the server sent it, compact JSON
    error: str = ""
    calls: list[tuple[str, float, str]] = field(
        default_factory=list
    )  # (tool, ms, text) in call order
    # the server's CPU over the calls after `settle` (Linux; 0 elsewhere)
    settled_cpu_ms: float = 0.0


def probe(
    argv: list[str],
    cwd: str,
    env: dict[str, str] | None = None,
    timeout: float = TIMEOUT,
    calls: list[tuple[str, dict[str, Any]]] | None = None,
    settle: float = 0.0,
) -> Probe:
    """Spawn `argv`, initialize, list tools, make `calls` (each timed), close stdin and reap it.

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
        _send(
            process,
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": PROTOCOL,
                    "capabilities": {},
                    "clientInfo": {"name": "sidekit-probe", "version": "1"},
                },
            },
        )
        reader.answer(1, deadline)
        found.first_answer_ms = (time.perf_counter() - started) * 1000
        _send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
        listed = reader.answer(2, deadline)
        found.tools_ms = (time.perf_counter() - started) * 1000
        tools = listed.get("result", {}).get("tools", [])
        found.tools = [str(tool.get("name")) for tool in tools]
        found.definitions_bytes = len(
            json.dumps(tools, separators=(",", ":"), ensure_ascii=False).encode()
        )
        for number, (name, arguments) in enumerate(calls or [], start=3):
            began = time.perf_counter()
            _send(
                process,
                {
                    "jsonrpc": "2.0",
                    "id": number,
                    "method": "tools/call",
                    "params": {"name": name, "arguments": arguments},
                },
            )
            result = reader.answer(number, deadline).get("result", {})
            text = "".join(item.get("text", "") for item in result.get("content", []))
            found.calls.append((name, (time.perf_counter() - began) * 1000, text))
            if number == 3 and settle:
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

    def answer(self, wanted: int, deadline: float) -> dict[str, Any]:
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                if not line.strip():
                    continue
                message = json.loads(line)
                if isinstance(message, dict) and message.get("id") == wanted:
                    if "error" in message:
                        raise ValueError(
                            f"the server answered an error: {message['error'].get('message', '')}"
                        )
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
    process.stdin.write(json.dumps(message).encode() + b"\n")
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
