"""`sidekit mcp`: the compact answers as MCP tools, over stdio (for Claude Code's `.mcp.json`).

Built on the official MCP Python SDK's low-level server: the tool definitions are hand-written
(`cli/mcpserver/tools.py`, on a byte budget). The SDK is imported in the background while
`cli/mcpserver/front.py` answers the handshake and `tools/list` (the same answers, in milliseconds
instead of the SDK's second of imports); the first other message hands the connection to the SDK.
Each tool answers with the very line its CLI command prints, as one text item; a failure is a tool
error (`isError`) saying the cause and the fix, never a traceback (that goes to
`.sidekit/log/cli-errors.log`).

Calls run in worker threads, so a long `test` does not hold up other calls. `test` reports pytest's
progress when the client sent a progress token, and a cancelled `test` stops its pytest process
group (SIGINT, then SIGKILL): no stray pytest is left behind. The caches it shares with other
clients are written atomically under their own locks (`status/cache.py`, the sqlite index).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import Any

from sidekit_hooks.cli.commands._shared import add_project, project_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    parser.add_argument(
        "--hooks",
        action="store_true",
        help="also answer Claude Code's mcp_tool hook handlers (tool `hook`; docs/warm-path.md)",
    )


def run(args: argparse.Namespace) -> int:
    from importlib.util import find_spec

    project = project_of(args)
    if find_spec("mcp") is None or find_spec("anyio") is None:
        from sidekit_hooks.core.errors import SidekitError

        raise SidekitError(
            "the MCP SDK is not installed in sidekit's environment",
            f"{sys.executable} -m pip install mcp",
        )
    from sidekit_hooks import __version__
    from sidekit_hooks.cli.mcpserver import front, tools

    hooks = bool(getattr(args, "hooks", False))
    if hooks:
        from sidekit_hooks.pipeline import claim

        claim.sweep(project)
    importer = front.Importer()
    importer.start()
    wire = front.Wire.claim()
    server = Server(project, hooks)
    signal.signal(signal.SIGTERM, server.terminate)
    if (
        os.environ.get("SIDEKIT_MCP_FRONT") == "0"
    ):  # the SDK alone from the first message (to compare, to debug)
        replay: front.Replay | None = front.Replay([], b"", None)
    else:
        replay = front.Front(
            wire,
            server.definitions,
            __version__,
            tools.SERVER_NAME,
            _front_call(project, hooks),
            importer.is_alive,
        ).serve()
    if replay is None:  # the client left before it needed the SDK
        sys.stdout.flush()
        os._exit(0)  # (not waiting for the import thread to finish what nobody needs)
    importer.join()
    if importer.error is not None:
        raise importer.error
    import anyio

    anyio.run(server.serve, wire, replay)
    return 0


def _front_call(project: str, hooks: bool = False) -> Any:
    """How the front answers a tool call while the SDK is imported: the SDK server's own function,
    in a thread bounded by the same time. `test` is left to the SDK (progress reports,
    cancellation). `hook` (with --hooks) is answered at once: its event's command hook waits."""
    from sidekit_hooks.cli.mcpserver import front, tools

    def call(name: str, arguments: dict[str, Any] | None) -> tuple[str, bool] | None:
        if name == "test":
            return None
        if name == "hook" and hooks:
            return tools.hook_outcome(arguments, project)
        answered = front.bounded(
            lambda: tools.outcome(name, arguments, project), tools.seconds_for(name)
        )
        return answered if answered is not None else (tools.timed_out(name), True)

    return call


class Server:
    """One stdio connection: tools/list from the definitions, tools/call through the answer
    functions."""

    def __init__(self, project: str, hooks: bool = False) -> None:
        self.project = project
        self.hooks = hooks  # --hooks: the `hook` tool is listed and answered
        self.runs: set[Any] = (
            set()
        )  # pytest_process.Run in flight, stopped on cancel or SIGTERM (imported
        # with the first `test`: start-up pays only for what tools/list needs)

    async def serve(self, wire: Any, replay: Any) -> None:
        """The SDK's server on the claimed wire, replayed what the front answered
        (`front.Replay`)."""
        from mcp.server.lowlevel import Server as LowLevel
        from mcp.server.stdio import stdio_server

        from sidekit_hooks import __version__
        from sidekit_hooks.cli.mcpserver import tools

        server: Any = LowLevel(
            tools.SERVER_NAME,
            version=__version__,
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
        )
        lines = _Lines(wire.read_fd, replay.lines, replay.buffered)
        out = _Out(wire, replay.initialize_id)
        async with stdio_server(lines, out) as (read, write):  # type: ignore[arg-type]
            await server.run(read, write, server.create_initialization_options())

    def definitions(self) -> list[dict[str, Any]]:
        from sidekit_hooks.cli.mcpserver import tools

        return tools.definitions() + ([tools.hook_definition()] if self.hooks else [])

    async def list_tools(self, ctx: Any, params: Any) -> Any:
        import mcp.types as types

        return types.ListToolsResult(
            tools=[types.Tool.model_validate(tool) for tool in self.definitions()]
        )

    async def call_tool(self, ctx: Any, params: Any) -> Any:
        import anyio
        import mcp.types as types

        from sidekit_hooks.cli.mcpserver import tools

        name = params.name
        try:
            with anyio.fail_after(
                tools.seconds_for(name)
            ):  # a cancelled `test` stops its pytest (_test)
                if name == "hook" and self.hooks:
                    text, failed = await anyio.to_thread.run_sync(
                        tools.hook_outcome, params.arguments, self.project
                    )
                elif name == "test":
                    text, failed = await self._test(ctx, params.arguments)
                else:
                    text, failed = await anyio.to_thread.run_sync(
                        tools.outcome, name, params.arguments, self.project, abandon_on_cancel=True
                    )
        except TimeoutError:
            text, failed = tools.timed_out(name), True
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], is_error=failed
        )

    async def _test(self, ctx: Any, arguments: dict[str, Any] | None) -> tuple[str, bool]:
        """`test` in a worker thread, with progress and a cancellation that stops pytest's process
        group."""
        import anyio
        import anyio.from_thread

        from sidekit_hooks.cli.commands import test
        from sidekit_hooks.cli.mcpserver import tools
        from sidekit_hooks.runners.pytest.process import Run

        process = Run()

        def progress(percent: int) -> None:
            try:
                anyio.from_thread.run(ctx.session.report_progress, float(percent), 100.0, None)
            except Exception:  # noqa: BLE001 - progress is a courtesy; the run goes on without it
                pass

        def run_test(
            project: str, args: list[str], select_only: bool, base: str | None
        ) -> tuple[dict[str, Any], int]:
            return test.answer(project, args, select_only, base, progress, process)

        self.runs.add(process)
        try:
            return await anyio.to_thread.run_sync(
                tools.outcome, "test", arguments, self.project, run_test, abandon_on_cancel=True
            )
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(process.stop)
            raise
        finally:
            self.runs.discard(process)

    def terminate(self, signum: int, frame: object) -> None:
        """SIGTERM (the client shutting the server down): stop every pytest run first, then go."""
        for process in list(self.runs):
            process.stop()
        os._exit(128 + signum)


class _Lines:
    """The client's messages for the SDK's stdio transport: the replayed ones, then the wire's."""

    def __init__(self, fd: int, replayed: list[bytes], buffered: bytes) -> None:
        self.fd = fd
        self.pending = [line.decode("utf-8", "replace") for line in replayed]
        self.buffer = buffered

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        import anyio

        while not self.pending:
            if b"\n" in self.buffer:
                line, _, self.buffer = self.buffer.partition(b"\n")
                self.pending.append(line.decode("utf-8", "replace") + "\n")
                break
            chunk = await anyio.to_thread.run_sync(os.read, self.fd, 65536, abandon_on_cancel=True)
            if not chunk:
                if self.buffer:
                    self.pending.append(self.buffer.decode("utf-8", "replace"))
                    self.buffer = b""
                    break
                raise StopAsyncIteration
            self.buffer += chunk
        return clean_line(self.pending.pop(0))


class _Out:
    """The SDK's messages to the wire, less its answer to the replayed `initialize` (the front sent
    one)."""

    def __init__(self, wire: Any, initialize_id: Any) -> None:
        self.wire = wire
        self.drop = initialize_id

    async def write(self, text: str) -> None:
        import json

        import anyio

        if self.drop is not None:
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if (
                isinstance(message, dict)
                and message.get("id") == self.drop
                and "method" not in message
            ):
                self.drop = None
                return
        await anyio.to_thread.run_sync(self.wire.write, text.encode("utf-8"))

    async def flush(self) -> None:
        return None


def clean_line(line: str) -> str:
    """`line` with every lone surrogate in its JSON strings replaced by U+FFFD (other lines as they
    are)."""
    if "\\u" not in line:  # the cheap test first: start-up imports no `re`
        return line
    import json
    import re

    if not re.search(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}", line):
        return line
    try:
        data = json.loads(line)
    except ValueError:
        return line
    text = json.dumps(data, ensure_ascii=False)
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace") + "\n"
