"""Sessions of the real CLI in which the scripted model only runs commands through Bash, then says
"done": what a raw test run sends back to the model (tests/e2e/test_raw_*.py)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from testing.claude import Run, Step, ToolCall, result_text, run_claude, split_result

PROMPT = "Run the tests."


def bash(command: str) -> ToolCall:
    return ToolCall("Bash", {"command": command, "description": "run the tests"})


def bash_session(
    cli: Path, project: Path, home: Path, commands: Sequence[str], **options: Any
) -> Run:
    """`commands` run one after the other in one session (HOME=`home`, `options` as run_claude takes
    them); the session must end with the model's "done"."""
    steps: list[Step] = [*map(bash, commands), "done"]
    run = run_claude(
        cli, project, PROMPT, steps, session_id=str(uuid.uuid4()), home=home, **options
    )
    assert run.returncode == 0 and run.result == "done", run.stderr[-3000:]
    return run


def answer(run: Run, index: int) -> tuple[dict[str, Any], str, list[str]]:
    """The result of the `index`th call: its block, its text without the hooks' reminders, and
    those."""
    block = run.tool_result(index)
    body, reminders = split_result(result_text(block))
    return block, body, reminders
