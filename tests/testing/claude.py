"""Drive the real Claude Code CLI against a scripted model, offline, and keep what the model
received.

The scripted model is a small Messages API server on 127.0.0.1 (stdlib `http.server` in a thread).
For every `POST /v1/messages` it answers from a scenario: the next tool call to make, then text and
`end_turn`. Every request body is kept, so a test can assert byte for byte what reached the model.
Facts used here: /work/shared/reference/real-claude-code-offline.md (Claude Code 2.1.328).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from testing import interpreter

HERE = Path(__file__).resolve().parents[1] / "e2e"  # the CLI is cached beside the e2e tests
REPO = HERE.parent.parent
VERSION = "2.1.328"
CACHED_CLI = HERE / ".cache" / f"claude-code-{VERSION}" / "node_modules" / ".bin" / "claude"
CLI_ENV = "SIDEKIT_E2E_CLAUDE"  # path of a claude binary to use instead of the cached one
# set by .ci/run once the CLI is installed: a missing CLI fails, not skips
REQUIRED_ENV = "SIDEKIT_E2E_REQUIRED"
MODEL = "claude-sonnet-4-5"
# seconds for one whole `claude -p` run; a hung CLI fails the test, never the suite
RUN_TIMEOUT = 120.0
FINAL_TEXT = "done"
# a scenario that loops (a call the CLI keeps rejecting) ends its turn here, visibly
MAX_REQUESTS = 60
CAP_TEXT = "scripted model: request cap reached"


@dataclass(frozen=True)
class ToolCall:
    """One step of a scenario: the model calls `name` with `input`."""

    name: str
    input: dict[str, Any]


Step = ToolCall | str  # a str step is a text reply that ends the turn


def tool_use_id(step_index: int) -> str:
    """Ids are fixed by position so a test can find each call's result."""
    return f"toolu_e2e_{step_index:04d}"


# ---------------------------------------------------------------------------------------------------
# Finding the CLI (and our own)


def sidekit_argv() -> list[str]:
    """The `sidekit` command of the environment running the tests."""
    script = Path(sys.executable).parent / "sidekit"
    return [str(script)] if script.exists() else [sys.executable, "-m", "sidekit_hooks.cli"]


def sidekit_shell() -> str:
    """The same, quoted for a Bash command line the scripted model sends."""
    return " ".join(f'"{part}"' for part in sidekit_argv())


def find_cli() -> tuple[Path | None, str]:
    """The claude binary to drive and '', or None and why it is unavailable (with the command that
    mends it).

    Nothing is installed here: a test run must not stall on a 356 MB download; .ci/run installs it.
    """
    override = os.environ.get(CLI_ENV)
    if override:
        path = Path(override)
        if not (path.is_file() and os.access(path, os.X_OK)):
            return None, f"Claude Code CLI not found at {path} (from ${CLI_ENV})"
        return path, ""
    if CACHED_CLI.exists():
        return CACHED_CLI, ""
    if shutil.which("npm") is None:
        return (
            None,
            f"npm not found: cannot install @anthropic-ai/claude-code@{VERSION} "
            "(tests/e2e/install_claude.sh)",
        )
    return None, f"Claude Code {VERSION} is not installed; run: bash tests/e2e/install_claude.sh"


def pinned_cli() -> Path:
    """The CLI of the pinned version; else the test skips saying why, or fails under
    $SIDEKIT_E2E_REQUIRED (CI, after installing the CLI): never a silent skip."""
    import pytest

    cli, reason = find_cli()
    if cli is not None:
        version = cli_version(cli)
        if not version.startswith(f"{VERSION} "):
            cli, reason = (
                None,
                f"{cli} reports {version!r}; these tests are pinned to Claude Code {VERSION}",
            )
    if cli is None:
        if os.environ.get(REQUIRED_ENV):
            pytest.fail(f"{reason} (and ${REQUIRED_ENV} is set)", pytrace=False)
        pytest.skip(reason)
    return cli


def cli_version(cli: Path) -> str:
    done = subprocess.run(
        [str(cli), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, DISABLE_AUTOUPDATER="1"),
    )
    return done.stdout.strip()


# ---------------------------------------------------------------------------------------------------
# The scripted model


def sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def message_events(
    blocks: list[dict[str, Any]], stop_reason: str, model: str, message_id: str
) -> bytes:
    """One assistant message as the SSE stream the CLI expects."""
    start: dict[str, Any] = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    out = [sse("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        out.append(
            sse(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opening},
            )
        )
        out.append(
            sse(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
        )
        out.append(sse("content_block_stop", {"type": "content_block_stop", "index": index}))
    out.append(
        sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        )
    )
    out.append(sse("message_stop", {"type": "message_stop"}))
    return b"".join(out)


class ScriptedModel:
    """A Messages API on 127.0.0.1 that plays `steps` and records every request body."""

    def __init__(self, steps: Sequence[Step], pace: float = 0.0) -> None:
        self.steps = list(steps)
        self.pace = pace  # seconds the model "thinks" before each reply in the conversation
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> ScriptedModel:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def reply_to(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        """The next step is chosen by how many tool calls the conversation already holds."""
        if not body.get("tools"):  # a side query (titles, summaries): not part of the scenario
            return [{"type": "text", "text": FINAL_TEXT}], "end_turn"
        if len(self.requests) > MAX_REQUESTS:
            return [{"type": "text", "text": CAP_TEXT}], "end_turn"
        index = sum(
            1
            for message in body.get("messages", [])
            if message.get("role") == "assistant"
            for block in message.get("content", [])
            if isinstance(block, dict) and block.get("type") == "tool_use"
        )
        step = self.steps[index] if index < len(self.steps) else FINAL_TEXT
        if isinstance(step, str):
            return [{"type": "text", "text": step}], "end_turn"
        return [
            {"type": "tool_use", "id": tool_use_id(index), "name": step.name, "input": step.input}
        ], "tool_use"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet server
                pass

            def _send(self, status: int, content_type: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
                self.close_connection = True

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                self._send(200, "application/json", b"{}")

            def do_HEAD(self) -> None:  # noqa: N802
                self._send(200, "application/json", b"")

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                    self._send(200, "application/json", b'{"input_tokens":1}')
                    return
                body = json.loads(raw or b"{}")
                if model.pace and body.get("tools"):
                    time.sleep(
                        model.pace
                    )  # a model's pace: hooks' cooldowns see real gaps between calls
                with model.lock:
                    model.requests.append(body)
                    blocks, stop = model.reply_to(body)
                    # A distinct id per reply: the CLI merges consecutive messages that share one.
                    message_id = f"msg_e2e_{len(model.requests):04d}"
                if body.get("stream"):
                    self._send(
                        200,
                        "text/event-stream",
                        message_events(blocks, stop, body.get("model", MODEL), message_id),
                    )
                else:
                    message = {
                        "id": message_id,
                        "type": "message",
                        "role": "assistant",
                        "model": body.get("model", MODEL),
                        "content": blocks,
                        "stop_reason": stop,
                        "stop_sequence": None,
                        "usage": {"input_tokens": 1, "output_tokens": 1},
                    }
                    self._send(200, "application/json", json.dumps(message).encode())

        return Handler


# ---------------------------------------------------------------------------------------------------
# One run of `claude -p`


@dataclass
class Run:
    """What one `claude -p` run did and every request the model received."""

    returncode: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    home: Path
    hook_log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def conversation(self) -> list[dict[str, Any]]:
        """The main-loop requests (those that offer tools), in order."""
        return [body for body in self.requests if body.get("tools")]

    @property
    def result(self) -> str:
        """The final `result` text of the stream-json output ('' if the run never finished)."""
        for line in reversed(self.stdout.splitlines()):
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("type") == "result":
                return str(event.get("result", ""))
        return ""

    def user_notices(self) -> list[str]:
        """What hooks told the person at the terminal (`systemMessage`), from the stream-json
        output."""
        notices = []
        for line in self.stdout.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if (
                isinstance(event, dict)
                and event.get("type") == "system"
                and event.get("subtype") == "informational"
            ):
                notices.append(str(event.get("content", "")))
        return notices

    def hooks_per_call(self, event: str) -> list[list[dict[str, Any]]]:
        """`event`'s hook lifecycle messages (`hook_started`, `hook_response`; a run started with
        `hook_events=True`), by the tool call they came before: [0] before the first tool result,
        ..."""
        calls: list[list[dict[str, Any]]] = [[]]
        for line in self.stdout.splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if not isinstance(message, dict):
                continue
            if message.get("type") == "system" and message.get("hook_event") == event:
                calls[-1].append(message)
            elif message.get("type") == "user" and '"tool_result"' in line:
                calls.append([])
        return calls

    def final_messages(self) -> list[dict[str, Any]]:
        """The whole conversation as the last request carried it."""
        assert self.conversation, f"the model received no request\nstderr: {self.stderr[-2000:]}"
        messages: list[dict[str, Any]] = self.conversation[-1]["messages"]
        return messages

    def prompt_blocks(self) -> list[dict[str, Any]]:
        """The content blocks of the first user message (the prompt and what hooks added to it)."""
        first = self.conversation[0]["messages"][0]
        content = first["content"]
        return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)

    def tool_result(self, step_index: int) -> dict[str, Any]:
        """The tool_result block the model received for the call made at `step_index`."""
        wanted = tool_use_id(step_index)
        for block in iter_blocks(self.final_messages()):
            if block.get("type") == "tool_result" and block.get("tool_use_id") == wanted:
                return block
        raise AssertionError(
            f"no tool_result for {wanted} in the conversation\nstderr: {self.stderr[-2000:]}"
        )

    def count(self, text: str) -> int:
        """How many times `text` occurs in what the model received by the end of the run."""
        return json.dumps(self.final_messages(), ensure_ascii=False).count(
            json.dumps(text, ensure_ascii=False)[1:-1]
        )


SessionRunner = Callable[..., Run]  # the `run_session` fixture


def iter_blocks(messages: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            yield from (block for block in content if isinstance(block, dict))


def result_text(block: dict[str, Any]) -> str:
    """A tool_result's content as one string (it is either a string or a list of text blocks)."""
    content = block.get("content", "")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


# The CLI's own budget note, appended to every tool result; not ours, so tests set it aside.
TOKENS_REMINDER = re.compile(
    r"<system-reminder>\n<total_tokens>\d+ tokens left</total_tokens>\n</system-reminder>"
)
# Also the CLI's: when an MCP server (the plugin's .mcp.json) connects mid-conversation, the next
# tool result lists its tools as newly available deferred tools.
DEFERRED_TOOLS = re.compile(
    r"<system-reminder>\nThe following deferred tools are now available via ToolSearch\..*",
    re.DOTALL,
)
HOOK_TEXT = re.compile(r"^<system-reminder>\n\w+(:\w+)? hook ")


def split_result(text: str) -> tuple[str, list[str]]:
    """A tool result's text -> (the tool's own output, every reminder after it but the CLI's budget
    note)."""
    body, *rest = text.split("\n\n<system-reminder>\n")
    reminders = ["<system-reminder>\n" + part for part in rest]
    return body, [
        r for r in reminders if not TOKENS_REMINDER.fullmatch(r) and not DEFERRED_TOOLS.fullmatch(r)
    ]


def prompt_reminders(blocks: list[dict[str, Any]]) -> list[str]:
    """The hook reminders among a user message's text blocks."""
    return [
        b["text"] for b in blocks if b.get("type") == "text" and HOOK_TEXT.match(b.get("text", ""))
    ]


def reminder(label: str, text: str) -> str:
    """How Claude Code wraps hook output for the model, e.g. label 'PostToolUse:Write hook
    additional context'."""
    return f"<system-reminder>\n{label}: {text}\n</system-reminder>"


def settings_hooks(python: str, repo: Path = REPO) -> dict[str, Any]:
    """The settings form: hook commands `"<python>" -S "<repo>/hooks/<event>.py"`."""

    def entry(script: str, matcher: bool) -> list[dict[str, Any]]:
        command = {
            "type": "command",
            "command": f'"{python}" -S "{repo}/hooks/{script}.py"',
            "timeout": 5,
        }
        group: dict[str, Any] = {"hooks": [command]}
        if matcher:
            group = {"matcher": "*", **group}
        return [group]

    return {
        "hooks": {
            "PostToolUse": entry("post_tool_use", True),
            "PostToolUseFailure": entry("post_tool_use_failure", True),
            "UserPromptSubmit": entry("user_prompt_submit", False),
        }
    }


def write_settings(project: Path, python: str) -> None:
    folder = project / ".claude"
    folder.mkdir(exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(settings_hooks(python), indent=2) + "\n")


def clean_environment(home: Path, base_url: str) -> dict[str, str]:
    """Only what the CLI needs: nothing from Gas Town, the outer Claude Code or the user's HOME."""
    keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    if "PATH" in env:  # without the suite's interpreter folder (testing.interpreter says why)
        env["PATH"] = interpreter.users_path(env["PATH"])
    env.update(
        HOME=str(home),
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY="sk-e2e-offline",
        DISABLE_TELEMETRY="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_ERROR_REPORTING="1",
        NO_COLOR="1",
    )
    return env


PERMISSIONS = ("--permission-mode", "acceptEdits", "--allowedTools", "Write Edit Bash Read")


def run_claude(
    cli: Path,
    project: Path,
    prompt: str,
    steps: Sequence[Step],
    *,
    session_id: str,
    home: Path,
    plugin_dir: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = RUN_TIMEOUT,
    resume: bool = False,
    permissions: Sequence[str] = PERMISSIONS,
    pace: float = 0.0,
    hook_events: bool = False,
) -> Run:
    """Run `claude -p PROMPT` in `project` (HOME=`home`) against a scripted model playing `steps`.

    `resume`: continue the session `session_id` (`--resume`) instead of starting it; a prompt such
    as `/compact` then compacts it (SessionStart fires with `source: "compact"`). `permissions`: the
    permission flags (default: accept edits, allow Write Edit Bash Read). `pace`: seconds the
    scripted model waits before each answer (a model's pace). `hook_events`: the stream also carries
    every hook's start and response (`Run.hooks_per_call`)."""
    home.mkdir(parents=True, exist_ok=True)
    argv = [
        str(cli),
        "-p",
        prompt,
        "--output-format",
        "stream-json",
        "--verbose",
        *permissions,
        "--model",
        MODEL,
        "--resume" if resume else "--session-id",
        session_id,
    ]
    if plugin_dir is not None:
        argv += ["--plugin-dir", str(plugin_dir)]
    if hook_events:
        argv.append("--include-hook-events")
    with ScriptedModel(steps, pace) as model:
        try:
            done = subprocess.run(
                argv,
                cwd=project,
                env={**clean_environment(home, model.base_url), **(env or {})},
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(
                f"claude -p did not finish within {timeout:.0f} s; requests so far: "
                f"{len(model.requests)}\nstderr: {exc.stderr!r}"
            ) from None
        requests = list(model.requests)
    return Run(done.returncode, done.stdout, done.stderr, requests, home, read_hook_log(project))


def read_hook_log(project: Path) -> list[dict[str, Any]]:
    path = project / ".sidekit" / "log" / "hooks.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
