"""The warm server's `hook` tool answers an event exactly as the command hook does (pipeline/warm.py):
a differential test over the scenario corpus (tests/scenarios/), each session played twice in
fresh projects, once through the command hook's entry (`hook.main`, handler `warm`) and once
through the tool's answer function with the arguments Claude Code's template makes of the event."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.cli.mcpserver import tools
from sidekit_hooks.cli.playback.steps import FOREIGN_ENV, build_payload, settle, write_files
from sidekit_hooks.core import hook_table
from sidekit_hooks.core.workspace import queue_root
from sidekit_hooks.nudges import queue
from sidekit_hooks.pipeline import claim, hook, warm
from testing.hooks import payload
from testing.scenarios import Group, load_groups, set_scope
from testing.warm import templated

Answer = Callable[[str, dict[str, Any]], str]
GROUPS = load_groups()
# Sessions whose command hooks print something (checked by the test of each).
SPEAKING = {
    group.id
    for group in GROUPS
    if any(case.expect for case in group.cases) and not any(case.xfail for case in group.cases)
}


def by_command(event_name: str, payload: dict[str, Any]) -> str:
    """What the command hook prints for `payload`, run as Claude Code runs it (stdin, stdout)."""
    saved = sys.stdin, sys.stdout
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode()), encoding="utf-8")
    sys.stdout = out
    try:
        assert hook.main(event_name, [hook_table.WARM_HANDLER]) == 0
        out.flush()
        return out.buffer.getvalue().decode()
    finally:
        sys.stdin, sys.stdout = saved


def by_warm(event_name: str, payload: dict[str, Any]) -> str:
    """What the warm server's `hook` tool answers; an event it leaves to the command hook (no key:
    SessionStart, Stop) is answered by the command hook, as the wiring does."""
    if not claim.event_key(event_name, payload):
        return by_command(event_name, payload)
    text, failed = tools.hook_outcome(templated(payload), str(payload["cwd"]))
    assert not failed
    return text


def play(group: Group, project: Path, answer: Answer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    project.mkdir()
    for name in FOREIGN_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    monkeypatch.chdir(project)
    said = []
    for number, case in enumerate(group.cases, 1):
        write_files(str(project), case.data.get("files") or {})
        if case.data.get("scope"):
            set_scope(project, case.data["scope"])
        event_name, payload = build_payload(
            str(project), f"scn-{group.name}"[:100], case.data, number
        )
        payload.setdefault("prompt_id", f"prompt-{number}")
        settle(str(project))
        said.append(answer(event_name, payload).replace(str(project), "<project>"))
    return said


@pytest.mark.parametrize("group", GROUPS, ids=[group.id for group in GROUPS])
def test_both_paths_say_the_same_for_the_same_event_and_state(
    group: Group, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = play(group, tmp_path / "command", by_command, monkeypatch)
    served = play(group, tmp_path / "warm", by_warm, monkeypatch)
    assert served == command
    if group.id in SPEAKING:  # not a comparison of silences
        assert any(command), group.id
    # the warm path answered (it claimed every keyed event), the command path never needed to
    claims = tmp_path / "warm" / claim.CLAIMS
    assert sorted((p / claim.SAID).exists() for p in claims.iterdir()) == [True] * len(group.cases)


def test_the_corpus_says_something() -> None:
    """The differential test compares answers, not silences: sessions it plays say something."""
    assert len(SPEAKING) >= 10


def test_templated_arguments_give_back_the_event() -> None:
    event = {
        "session_id": "s",
        "transcript_path": "/t.jsonl",
        "cwd": "/p",
        "prompt_id": "p1",
        "permission_mode": "acceptEdits",
        "hook_event_name": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_input": {"command": "exit 3", "description": "fail"},
        "tool_use_id": "toolu_0003",
        "error": "Exit code 3\noops",
        "is_interrupt": False,
        "duration_ms": 19,
    }
    assert warm.payload(templated(event)) == event
    assert list(warm.payload(templated(event))) == list(event)  # the client's order


def test_the_hook_tool_is_listed_only_with_hooks() -> None:
    assert warm.TOOL not in [tool["name"] for tool in tools.definitions()]
    definition = tools.hook_definition()
    assert definition["name"] == "hook"
    assert sorted(definition["inputSchema"]["properties"]) == sorted(warm.FIELDS)


def prompt_event(project: Path, prompt_id: str) -> dict[str, Any]:
    return {
        **payload("UserPromptSubmit", project, prompt="go on"),
        "prompt_id": prompt_id,
        "cwd": str(project),
    }


def test_the_command_hook_says_nothing_once_the_warm_server_said_it(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    queue.enqueue(
        queue_root(str(project)), "sess-1", queue.Nudge("check your mail", sender="mayor")
    )
    said = prompt_event(project, "p-1")
    key = claim.event_key("UserPromptSubmit", said)
    assert claim.claim(str(project), key, claim.WARM) and claim.commit(str(project), key)
    assert by_command("UserPromptSubmit", said) == ""
    # the message was left for the next event, not drained by a hook that printed nothing
    given_back = prompt_event(project, "p-2")
    key = claim.event_key("UserPromptSubmit", given_back)
    assert claim.claim(str(project), key, claim.WARM)
    claim.release(str(project), key)  # the warm server failed: the command hook says it
    assert "check your mail" in by_command("UserPromptSubmit", given_back)


def test_where_no_claim_can_be_made_the_command_hook_answers(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    queue.enqueue(
        queue_root(str(project)), "sess-1", queue.Nudge("check your mail", sender="mayor")
    )
    (project / ".sidekit").mkdir()
    (project / claim.CLAIMS).write_text("not a folder")
    event = prompt_event(project, "p-1")
    assert tools.hook_outcome(templated(event), str(project)) == ("", False)
    assert "check your mail" in by_command("UserPromptSubmit", event)
