"""The first moments of `sidekit mcp`, before the MCP SDK is imported (standard library only).

Importing the SDK's server takes over a second on a busy 2-core machine (its protocol types for two
protocol eras, pydantic, asyncio, the HTTP transports the lowlevel server module imports), while a
client asks for `initialize` and `tools/list` within milliseconds and Claude Code does not wait:
tools missing then are missing from the first requests. So the front answers the handshake,
`tools/list` and `ping` itself, with what the SDK answers (a test compares the two), while a thread
imports the SDK. Both protocol eras the SDK serves: the 2025 handshake (`initialize`, then
`notifications/initialized`) and the 2026-07-28 one, where a client opens with `server/discover` and
every request carries its own `_meta` envelope (Claude Code 2.1.328 does, and sends `initialize`
only when `server/discover` is refused; docs/warm-path.md). A tool call that comes while the SDK is
still being imported is answered here too, through the same function the SDK's server calls
(`tools.outcome`), so the first call after start does not wait a second for imports it does not
need; `test` (progress, cancellation) is always the SDK's. The first other message, or the end of
the import while no message waits (its server then starts while the client is quiet, not while a
call waits), hands the connection to the SDK's server: it is replayed the opening request
(`initialize` and the `initialized` notification, or `server/discover`: the same request decides
the SDK's era; its answer to it is dropped, the client has it), then gets that message and
everything after.

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
# What it serves through `server/discover` and per-request envelopes
# (mcp_types.version.MODERN_PROTOCOL_VERSIONS; a test holds them equal).
MODERN_VERSIONS = ("2026-07-28",)
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
RESERVED_PREFIX = "io.modelcontextprotocol/"
SDK_MODULES = ("anyio", "mcp.server.lowlevel", "mcp.server.stdio", "mcp.types")
MAX_LINE = 64 * 1024 * 1024  # bytes: a line longer than this is the SDK's to refuse
IMPORT_POLL = 0.02  # seconds between looks at the import while the client is quiet


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

    def __init__(self, lines: list[bytes], buffered: bytes, opening_id: Any) -> None:
        self.lines = lines  # whole messages, in the order the client sent them
        self.buffered = buffered  # bytes read past the last whole message
        # the SDK's answer to this request id (the replayed `initialize` or `server/discover`) is
        # dropped (None: no drop)
        self.opening_id = opening_id


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
    """Answers the opening (`initialize` or `server/discover`), `tools/list` and `ping` until a
    message needs the SDK, and tool calls while `importing()` says the SDK is not there yet."""

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
        self.kept: list[bytes] = []  # the opening, replayed to the SDK
        self.opening_id: Any = None
        self.modern = False  # opened with `server/discover`: every request carries its envelope
        self.sdk_ready = False

    def serve(self) -> Replay | None:
        """Answer until a message needs the SDK, or the SDK is there while the client is quiet: then
        what to replay to it. None: the client left."""
        while True:
            line = self._next_line()
            if line is None and self.sdk_ready:
                return Replay(list(self.kept), self.buffer, self.opening_id)
            if line is None:
                return None
            answer = self.answer(line)
            if answer is None:
                return Replay([*self.kept, line], self.buffer, self.opening_id)
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
            self.opening_id = message["id"]
            return self._result(
                message["id"],
                {
                    "capabilities": {"tools": {"listChanged": False}},
                    "protocolVersion": version,
                    "serverInfo": {"name": self.name, "version": self.version},
                },
            )
        if method == "server/discover" and not self.kept and enveloped(message):
            self.kept.append(line)
            self.opening_id = message["id"]
            self.modern = True
            return self._discovered(message["id"])
        if not self.kept:
            return None
        if self.modern:
            return self._modern_answer(message) if enveloped(message) else None
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

    def _discovered(self, request_id: Any) -> bytes:
        """The SDK's `server/discover` result: its capabilities for the 2026 era (no
        `subscriptions/listen`, so no `listChanged`), its versions, the cache hints' defaults."""
        return self._modern_result(
            request_id,
            {
                "cacheScope": "private",
                "capabilities": {"tools": {"listChanged": False}},
                "resultType": "complete",
                "supportedVersions": list(MODERN_VERSIONS),
                "ttlMs": 0,
            },
        )

    def _modern_answer(self, message: dict[str, Any]) -> bytes | None:
        """An enveloped request after `server/discover`, in the 2026 wire form (the SDK's surface
        models order their keys by name); None: the SDK's (`ping` is none of that era's)."""
        method, params, request_id = message.get("method"), message["params"], message["id"]
        if method == "server/discover":
            return self._discovered(request_id)
        if method == "tools/list" and set(params) == {"_meta"}:
            tools = [dict(sorted(tool.items())) for tool in self.definitions()]
            return self._modern_result(
                request_id,
                {"cacheScope": "private", "resultType": "complete", "tools": tools, "ttlMs": 0},
            )
        if method == "tools/call":
            answer = self._call_result(params)
            if answer is None:
                return None
            return self._modern_result(request_id, {**answer, "resultType": "complete"})
        return None

    def _modern_result(self, request_id: Any, result: dict[str, Any]) -> bytes:
        """`result` stamped with the server's identity, as the SDK stamps every 2026 result."""
        stamp = {SERVER_INFO_KEY: {"name": self.name, "version": self.version}}
        return self._result(request_id, {**result, "_meta": stamp})

    def _call(self, request_id: Any, params: Any) -> bytes | None:
        """The answer to a well-formed tool call while the SDK is being imported; else None (the
        SDK's: it also says what is wrong with a malformed one)."""
        answer = self._call_result(params)
        return None if answer is None else self._result(request_id, answer)

    def _call_result(self, params: Any) -> dict[str, Any] | None:
        """The tool call's result, or None when it is the SDK's to answer."""
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
        return {"content": [{"text": text, "type": "text"}], "isError": failed}

    @staticmethod
    def _result(request_id: Any, result: dict[str, Any]) -> bytes:
        text = json.dumps(
            {"jsonrpc": "2.0", "id": request_id, "result": result},
            separators=(",", ":"),
            ensure_ascii=False,
        )
        return text.encode() + b"\n"

    def _next_line(self) -> bytes | None:
        """The next whole message, or None: the client left, or (`sdk_ready`) the SDK is imported
        and no message waits, so its server starts while the client is quiet, not on a call."""
        while b"\n" not in self.buffer:
            if not self._wait_for_input():
                self.sdk_ready = True
                return None
            chunk = os.read(self.wire.read_fd, 65536)
            if not chunk:
                return None  # (a last line without a newline is no whole message)
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE and b"\n" not in self.buffer:
                line, self.buffer = self.buffer, b""
                return line
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line + b"\n"

    def _wait_for_input(self) -> bool:
        """Wait until the wire has bytes to read (True), or until the SDK is imported (False)."""
        if os.name != "posix":  # (select takes no pipes there: the next message hands over)
            return True
        import select

        while self.importing():
            if select.select([self.wire.read_fd], [], [], IMPORT_POLL)[0]:
                return True
        return bool(select.select([self.wire.read_fd], [], [], 0)[0])


def enveloped(message: dict[str, Any]) -> bool:
    """Whether `message` is a request the SDK serves in the 2026 era without a complaint: an id, and
    a `_meta` envelope in a version it serves whose every field has the type the SDK's models want.
    Anything less plain (a log level, icons, a malformed field) is left to the SDK, which says what
    is wrong with it."""
    request_id, params = message.get("id"), message.get("params")
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        return False
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict) or meta.get(VERSION_KEY) not in MODERN_VERSIONS:
        return False
    known = {VERSION_KEY, CLIENT_INFO_KEY, CAPABILITIES_KEY}
    if any(key.startswith(RESERVED_PREFIX) and key not in known for key in meta):
        return False
    token = meta.get("progressToken")
    if token is not None and (isinstance(token, bool) or not isinstance(token, str | int)):
        return False
    return _plain_capabilities(meta.get(CAPABILITIES_KEY, False)) and _plain_info(
        meta.get(CLIENT_INFO_KEY, {"name": "", "version": ""})
    )


def _plain_capabilities(capabilities: Any) -> bool:
    """ClientCapabilities: objects all the way to the depth its model types."""
    if not isinstance(capabilities, dict):
        return False
    for key in ("elicitation", "sampling", "experimental", "extensions", "roots"):
        value = capabilities.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            return False
        if key != "roots" and not all(
            inner is None or isinstance(inner, dict) for inner in value.values()
        ):
            return False
    return True


def _plain_info(info: Any) -> bool:
    """Implementation: a name and a version, the optional texts as text, no icons."""
    if not isinstance(info, dict) or info.get("icons") is not None:
        return False
    if not (isinstance(info.get("name"), str) and isinstance(info.get("version"), str)):
        return False
    return all(
        info.get(key) is None or isinstance(info[key], str)
        for key in ("title", "description", "websiteUrl")
    )
