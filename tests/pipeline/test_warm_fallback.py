"""The warm path's `fallback` command hook (`hooks/<event>.py fallback`, run `async` by the client):
it claims and settles as the `warm` handler does, but when it acts it only queues what it finds,
drains nothing and replaces no tool output, since its output may reach the model a request late or
never (docs/warm-path.md). The next synchronous delivery says what it queued, once."""

from __future__ import annotations

import io
import json
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.cli.mcpserver import tools
from sidekit_hooks.core import hook_table
from sidekit_hooks.core.workspace import queue_root
from sidekit_hooks.nudges import queue
from sidekit_hooks.pipeline import claim, hook
from testing.hooks import bash, edited, payload
from testing.scenarios import set_scope
from testing.warm import templated

# A green `cargo test` with rustc's noise, which the synchronous hook folds (runners/cargo/noise.py)
GREEN = """warning: unused variable: `x`
 --> src/lib.rs:2:9
  |
2 |     let x = 1;
  |         ^ help: if this is intentional, prefix it with an underscore: `_x`

warning: `calc` (lib) generated 1 warning
     Running unittests src/lib.rs (target/debug/deps/calc-d405e164b70aaf93)

running 1 test
test tests::one ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

"""
SCOPE_LINE = (
    "[sidecar:scope] lib/util.py is outside this task's scope; if it must change, tell the user."
)


def by_fallback(
    event_name: str, event: dict[str, Any], handler: str = hook_table.FALLBACK_HANDLER
) -> str:
    """What the command hook prints for `event` when started with `handler`."""
    saved = sys.stdin, sys.stdout
    # hook.main run here, in the suite's process, ignores SIGTERM as a fallback (its own process
    # would): put it back, or every program a later test starts would ignore SIGTERM too.
    term = signal.getsignal(signal.SIGTERM)
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(event).encode()), encoding="utf-8")
    sys.stdout = out
    try:
        assert hook.main(event_name, [handler]) == 0
        out.flush()
        return out.buffer.getvalue().decode()
    finally:
        sys.stdin, sys.stdout = saved
        signal.signal(signal.SIGTERM, term)


def queued(project: Path, session: str = "sess-1") -> list[str]:
    return [nudge.message for _name, nudge in queue.pending(queue_root(str(project)), session)]


def prompt(project: Path, prompt_id: str) -> dict[str, Any]:
    return {**payload("UserPromptSubmit", project, prompt="go on"), "prompt_id": prompt_id}


def warm_answer(project: Path, event: dict[str, Any]) -> str:
    text, failed = tools.hook_outcome(templated(event), str(project))
    assert not failed
    return text


def context(printed: str) -> str:
    return str(json.loads(printed)["hookSpecificOutput"]["additionalContext"]) if printed else ""


@pytest.fixture
def out_of_scope_edit(project: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    set_scope(project, {"allow": ["src/**"]})
    return edited(project, "lib/util.py", "return 1", "return 2", "def helper():\n    return 1\n")


def test_a_fallback_that_won_the_event_queues_its_finding_and_drains_nothing(
    project: Path, out_of_scope_edit: dict[str, Any]
) -> None:
    queue.enqueue(queue_root(str(project)), "sess-1", queue.Nudge("check your mail", "mayor"))

    assert by_fallback("PostToolUse", out_of_scope_edit) == ""

    assert queued(project) == ["check your mail", SCOPE_LINE]
    key = claim.event_key("PostToolUse", out_of_scope_edit)
    assert (project / claim.CLAIMS / key / claim.TAKEN).read_text().startswith("command ")
    # the next synchronous delivery (the warm server's answer to the prompt) says both, once
    said = context(warm_answer(project, prompt(project, "p-2")))
    assert said.count("check your mail") == 1 and said.count(SCOPE_LINE) == 1, said
    assert queued(project) == [] and warm_answer(project, prompt(project, "p-3")) == ""


def test_the_warm_handler_still_says_the_finding_at_once(
    project: Path, out_of_scope_edit: dict[str, Any]
) -> None:
    """The same event through the synchronous `warm` command handler: delivered, not queued (the
    difference the fallback makes)."""
    assert SCOPE_LINE in context(
        by_fallback("PostToolUse", out_of_scope_edit, hook_table.WARM_HANDLER)
    )
    assert queued(project) == []


def test_a_fallback_is_silent_and_queues_nothing_once_the_warm_server_said_the_event(
    project: Path, out_of_scope_edit: dict[str, Any]
) -> None:
    said = context(warm_answer(project, out_of_scope_edit))
    assert SCOPE_LINE in said

    assert by_fallback("PostToolUse", out_of_scope_edit) == ""
    assert queued(project) == []


def test_a_fallback_takes_over_an_event_the_warm_server_gave_back_and_queues_it(
    project: Path, out_of_scope_edit: dict[str, Any]
) -> None:
    key = claim.event_key("PostToolUse", out_of_scope_edit)
    assert claim.claim(str(project), key, claim.WARM)
    claim.release(str(project), key)

    assert by_fallback("PostToolUse", out_of_scope_edit) == ""

    assert (project / claim.CLAIMS / key / claim.STOLEN).exists()
    assert queued(project) == [SCOPE_LINE]


def test_a_fallback_takes_over_from_a_warm_owner_that_died(
    project: Path, out_of_scope_edit: dict[str, Any]
) -> None:
    key = claim.event_key("PostToolUse", out_of_scope_edit)
    (project / claim.CLAIMS / key).mkdir(parents=True)
    (project / claim.CLAIMS / key / claim.TAKEN).write_text("warm 999999999\n")  # no such pid

    assert by_fallback("PostToolUse", out_of_scope_edit) == ""

    assert queued(project) == [SCOPE_LINE]


def test_a_fallback_waiting_out_a_slow_warm_server_is_not_cut_off_by_the_event_deadline(
    project: Path, out_of_scope_edit: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm owner alive but silent: the fallback waits `claim.SETTLE_SECONDS` (longer than the
    event's own deadline), then takes the event over and still has the event's time to run it."""
    from sidekit_hooks.core import hook_table

    monkeypatch.delenv(hook_table.DEADLINE_ENV, raising=False)  # the event's own 0.8 s
    key = claim.event_key("PostToolUse", out_of_scope_edit)
    assert claim.claim(str(project), key, claim.WARM)  # this process: alive, never commits

    assert by_fallback("PostToolUse", out_of_scope_edit) == ""

    assert (project / claim.CLAIMS / key / claim.STOLEN).exists()
    assert queued(project) == [SCOPE_LINE]
    assert not claim.commit(str(project), key)  # the warm server's late answer is not said


def test_the_warm_handler_waiting_out_a_hung_warm_server_takes_the_event_over_and_says_it(
    project: Path, out_of_scope_edit: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The synchronous `warm` handler too: its 1 s settle is not cut off by the event's 0.8 s
    alarm, so a warm server that claimed and hangs does not leave the event unanswered."""
    from sidekit_hooks.core import hook_table

    monkeypatch.delenv(hook_table.DEADLINE_ENV, raising=False)  # the event's own 0.8 s
    key = claim.event_key("PostToolUse", out_of_scope_edit)
    assert claim.claim(str(project), key, claim.WARM)  # this process: alive, never commits

    said = by_fallback("PostToolUse", out_of_scope_edit, hook_table.WARM_HANDLER)

    assert SCOPE_LINE in context(said)
    assert (project / claim.CLAIMS / key / claim.STOLEN).exists()
    assert not claim.commit(str(project), key)  # the hung server's late answer is not said


def test_a_fallback_replaces_no_tool_output(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A green compacted `cargo test` whose output the synchronous hook folds
    (updatedToolOutput): the fallback leaves it as the tool gave it."""
    from sidekit_hooks.runners.cargo import noise

    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    (project / "Cargo.toml").write_text('[package]\nname = "calc"\nversion = "0.1.0"\n')
    (project / ".git").mkdir()
    pre = payload("PreToolUse", project, tool_name="Bash", tool_input={"command": "cargo test"})
    rewritten = by_fallback("PreToolUse", pre, "test")
    command = json.loads(rewritten)["hookSpecificOutput"]["updatedInput"]["command"]
    assert noise.MARK in command
    first = bash(project, command, stdout=GREEN, tool_use_id="toolu_1")
    second = bash(project, command, stdout=GREEN, tool_use_id="toolu_2")

    assert "updatedToolOutput" in by_fallback("PostToolUse", first, hook_table.WARM_HANDLER)
    assert by_fallback("PostToolUse", second) == ""


def test_a_fallback_finishes_its_work_when_the_client_sends_sigterm_on_exit(
    project: Path, out_of_scope_edit: dict[str, Any], clean_env: dict[str, str]
) -> None:
    """Claude Code sends SIGTERM to its async hooks as it exits (docs/warm-path.md): a fallback
    waiting out a silent warm owner still takes the event over and queues what it finds."""
    import signal
    import subprocess
    import time

    from testing.hooks import HOOK_SCRIPTS

    key = claim.event_key("PostToolUse", out_of_scope_edit)
    assert claim.claim(str(project), key, claim.WARM)  # this process: alive, never commits
    fallback = subprocess.Popen(
        [sys.executable, "-S", str(HOOK_SCRIPTS["PostToolUse"]), hook_table.FALLBACK_HANDLER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
        cwd=project,
    )
    assert fallback.stdin is not None
    fallback.stdin.write(json.dumps(out_of_scope_edit).encode())
    fallback.stdin.close()
    status, until = Path(f"/proc/{fallback.pid}/status"), time.monotonic() + 10
    while status.exists() and time.monotonic() < until and not _catches_sigalrm(status):
        time.sleep(0.01)  # its deadline is armed: it reads the event and settles for 1 s
    if not status.exists():  # no /proc: give its start a generous moment
        time.sleep(0.5)
    fallback.send_signal(signal.SIGTERM)

    assert fallback.wait(timeout=20) == 0
    assert fallback.stdout is not None and fallback.stdout.read() == b""
    assert queued(project) == [SCOPE_LINE]


def _catches_sigalrm(status: Path) -> bool:
    """Whether the process of `/proc/PID/status` has its SIGALRM handler (its `SigCgt` mask)."""
    import signal

    for line in status.read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGALRM - 1) & 1)
    return False


def test_the_warm_wiring_pairs_the_server_with_an_async_fallback_on_the_keyed_events() -> None:
    from sidekit_hooks.core import hook_table
    from sidekit_hooks.pipeline import hook_events, warm

    made = hook_events.warm_hooks(lambda h: f"run {h.script} {h.argument}".rstrip(), "srv")
    wiring: Any = json.loads(json.dumps(made))
    plugin: Any = json.loads(json.dumps(hook_events.plugin_hooks()))

    assert set(wiring) == set(hook_table.EVENTS)
    assert wiring["PostToolUse"] == [
        {
            "matcher": "*",
            "hooks": [
                {
                    "type": "command",
                    "command": "trap '' TERM; sleep 0.3; exec run post_tool_use fallback",
                    "timeout": 5,
                    "async": True,
                },
                {
                    "type": "mcp_tool",
                    "server": "srv",
                    "tool": "hook",
                    "input": warm.INPUT,
                    "timeout": 5,
                },
            ],
        }
    ]
    assert [h["command"] for h in wiring["UserPromptSubmit"][0]["hooks"][:1]] == [
        "trap '' TERM; sleep 0.3; exec run user_prompt_submit fallback"
    ]
    for name in set(hook_table.EVENTS) - set(hook_table.WARM_KEYS):  # synchronous, as shipped
        assert [h.get("if") for h in wiring[name][0]["hooks"]] == [
            h.get("if") for h in plugin[name][0]["hooks"]
        ]
        assert all(h["type"] == "command" and "async" not in h for h in wiring[name][0]["hooks"]), (
            name
        )
    assert wiring["Stop"][0]["hooks"] == [{"type": "command", "command": "run stop", "timeout": 5}]
