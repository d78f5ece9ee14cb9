"""The first moments of `sidekit mcp`, before the MCP SDK is imported (standard library only).

Importing the SDK's server takes over a second on a busy 2-core machine (its protocol types for two
protocol eras, pydantic, asyncio, the HTTP transports the lowlevel server module imports), while a
client asks for `initialize` and `tools/list` within milliseconds and Claude Code does not wait:
tools missing then are missing from the first requests. So the front answers the handshake,
`tools/list` and `ping` itself, with what the SDK answers (a test compares the two), while a thread
imports the SDK. A tool call that comes while the SDK is still being imported is answered here too,
through the same function the SDK's server calls (`tools.outcome`), so the first call after start
does not wait a second for imports it does not need; `test` (progress, cancellation) is always the
SDK's. The first other message, or the first call after the import, hands the connection to the
SDK's server: it is replayed the `initialize` request and `initialized` notification (its answer to
that `initialize` is dropped, the client has it), then gets that message and everything after.

The wire is claimed first, as the SDK's stdio transport does: fd 0 reads the null device and fd 1
writes to stderr, so nothing a tool starts can read the client's messages or write into the stream.
"""

from __future__ import annotations

import json
import os
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# What the SDK negotiates through `initialize` (mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS; a
# test holds them equal). A client asking for anything else is handed to the SDK at once.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
SDK_MODULES = ("anyio", "mcp.server.lowlevel", "mcp.server.stdio", "mcp.types")
MAX_LINE = 64 * 1024 * 1024  # bytes: a line longer than this is the SDK's to refuse


class Wire:
    """The client's pipes, moved off fds 0 and 1."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd

    @classmethod
    def claim(cls) -> Wire:
        read_fd, write_fd = os.dup(0), os.dup(1)
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
        os.dup2(2, 1)
        return cls(read_fd, write_fd)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.write_fd, view) :]


class Replay:
    """What the SDK's server is given when it takes over."""

    def __init__(self, lines: list[bytes], buffered: bytes, initialize_id: Any) -> None:
        self.lines = lines  # whole messages, in the order the client sent them
        self.buffered = buffered  # bytes read past the last whole message
        # the SDK's answer to this request id is dropped (None: no drop)
        self.initialize_id = initialize_id


class Importer(threading.Thread):
    """Imports the SDK in the background while the front answers."""

    def __init__(self, modules: tuple[str, ...] = SDK_MODULES) -> None:
        super().__init__(name="sidekit-mcp-import", daemon=True)
        self.modules = modules
        self.error: BaseException | None = None

    def run(self) -> None:
        import importlib

        try:
            for module in self.modules:
                importlib.import_module(module)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread at hand-over
            self.error = exc


def bounded(work: Callable[[], tuple[str, bool]], seconds: float) -> tuple[str, bool] | None:
    """`work()` in a daemon thread, or None when it did not end within `seconds` (the thread is left
    to finish on its own, as the SDK's server abandons a call it stopped waiting for)."""
    done: list[tuple[str, bool]] = []
    worker = threading.Thread(
        target=lambda: done.append(work()), name="sidekit-mcp-call", daemon=True
    )
    worker.start()
    worker.join(seconds)
    return done[0] if done else None


class Front:
    """Answers `initialize`, `tools/list` and `ping` until a message needs the SDK, and tool calls
    while `importing()` says the SDK is not there yet."""

    def __init__(
        self,
        wire: Wire,
        definitions: Callable[[], list[dict[str, Any]]],
        version: str,
        name: str,
        tool_call: Callable[[str, dict[str, Any] | None], tuple[str, bool] | None] | None = None,
        importing: Callable[[], bool] = lambda: False,
    ) -> None:
        self.wire = wire
        self.definitions = definitions
        self.version = version
        self.name = name
        self.tool_call = tool_call
        self.importing = importing
        self.buffer = b""
        self.kept: list[bytes] = []  # the handshake, replayed to the SDK
        self.initialize_id: Any = None

    def serve(self) -> Replay | None:
        """Answer until a message needs the SDK: then what to replay to it. None: the client
        left."""
        while True:
            line = self._next_line()
            if line is None:
                return None
            answer = self.answer(line)
            if answer is None:
                return Replay([*self.kept, line], self.buffer, self.initialize_id)
            if answer:
                self.wire.write(answer)

    def answer(self, line: bytes) -> bytes | None:
        """The front's answer (b"" for a notification it keeps), or None: the SDK's to answer."""
        if not line.strip():
            return b""
        try:
            message = json.loads(line)
        except ValueError:
            return None
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return None
        method, known = message.get("method"), "id" in message
        if method == "initialize" and known and not self.kept:
            params = message.get("params")
            version = params.get("protocolVersion") if isinstance(params, dict) else None
            if version not in HANDSHAKE_VERSIONS:
                return None
            self.kept.append(line)
            self.initialize_id = message["id"]
            return self._result(
                message["id"],
                {
                    "capabilities": {"tools": {"listChanged": False}},
                    "protocolVersion": version,
                    "serverInfo": {"name": self.name, "version": self.version},
                },
            )
        if not self.kept:
            return None
        if method == "notifications/initialized" and not known:
            self.kept.append(line)
            return b""
        params = message.get("params")
        first_page = params is None or (isinstance(params, dict) and not params.get("cursor"))
        if method == "tools/list" and known and first_page:
            return self._result(message["id"], {"tools": self.definitions()})
        if method == "ping" and known:
            return self._result(message["id"], {})
        if method == "tools/call" and known:
            return self._call(message["id"], params)
        return None

    def _call(self, request_id: Any, params: Any) -> bytes | None:
        """The answer to a well-formed tool call while the SDK is being imported; else None (the
        SDK's: it also says what is wrong with a malformed one)."""
        if self.tool_call is None or not self.importing() or not isinstance(params, dict):
            return None
        name, arguments = params.get("name"), params.get("arguments")
        if not isinstance(name, str) or not (arguments is None or isinstance(arguments, dict)):
            return None
        if not set(params) <= {"name", "arguments", "_meta"}:
            return None
        outcome = self.tool_call(name, arguments)
        if outcome is None:
            return None
        text, failed = outcome
        # As the SDK's server serialises a CallToolResult (keys in its order).
        return self._result(
            request_id, {"content": [{"text": text, "type": "text"}], "isError": failed}
        )

    @staticmethod
    def _result(request_id: Any, result: dict[str, Any]) -> bytes:
        text = json.dumps(
            {"jsonrpc": "2.0", "id": request_id, "result": result},
            separators=(",", ":"),
            ensure_ascii=False,
        )
        return text.encode() + b"\n"

    def _next_line(self) -> bytes | None:
        while b"\n" not in self.buffer:
            chunk = os.read(self.wire.read_fd, 65536)
            if not chunk:
                return None  # (a last line without a newline is no whole message)
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer:
                line, self.buffer = self.buffer, b""
                return line
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line + b"\n"
