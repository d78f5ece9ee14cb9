"""True at delivery, and standing findings after compaction, in the real client (2.1.328) (#18 items
1, 6).

A deferred tests finding followed by a green run delivers nothing (the wave-2 bug: "1 test that
failed in the last run lives in ...number.py" right after a green full-suite run); a `/compact`
brings the still-open out-of-scope edit back, and Stop may remind of it once more.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from testing.claude import FINAL_TEXT, SessionRunner, ToolCall, reminder, result_text, split_result

PROMPT = "Carry on with the task."
RED = "def fmt(value):\n    raise ValueError('no format for ' + repr(value))\n"
GREEN = "def fmt(value):\n    return f'{value:.2f}'\n"
TEST = "from pkg.number import fmt\n\n\ndef test_fmt():\n    assert fmt(1) == '1.00'\n"
COOLDOWN = 8  # seconds: the tests sidecar's cooldown here (30 by default), so the test waits less


def decisions(project: Path) -> list[dict[str, Any]]:
    path = project / ".sidekit" / "log" / "decisions.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def bash(command: str) -> ToolCall:
    return ToolCall("Bash", {"command": command, "description": "run"})


def test_a_deferred_tests_finding_followed_by_a_green_run_delivers_nothing(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    (project / "src" / "pkg").mkdir(parents=True)
    (project / "src" / "pkg" / "__init__.py").write_text("")
    number = project / "src" / "pkg" / "number.py"
    number.write_text(RED)
    (project / "tests").mkdir()
    (project / "tests" / "test_number.py").write_text(TEST)
    (project / "pytest.ini").write_text(
        "[pytest]\npythonpath = src\naddopts = -p no:randomly -p no:hypothesispytest\n"
    )
    (project / ".sidekit" / "rules").mkdir(parents=True)
    (project / ".sidekit" / "rules" / "local.toml").write_text(
        f'[pack]\nname = "local"\n\n[policy]\ncooldowns = {{ tests = {COOLDOWN} }}\n'
    )
    sidekit("install", "--project", str(project))
    # Piped, as agents do: the hooks see every run. Only the count reaches the model, not which test
    # failed, so the edit's tests finding is worth saying (a run whose output named it would hold it
    # back: seen_runs).
    run_tests = "python -m pytest -q 2>&1 | tail -1"
    steps = [
        bash(run_tests),  # red: the tests sidecar says so, and its cooldown starts
        ToolCall("Read", {"file_path": str(number)}),  # the client edits only files read first
        ToolCall(
            "Edit",
            {
                "file_path": str(number),  # the fix: its finding waits out the cooldown
                "old_string": "raise ValueError('no format for ' + repr(value))",
                "new_string": "return f'{value:.2f}'",
            },
        ),
        bash(run_tests),  # green
        bash(f"sleep {COOLDOWN + 1}"),  # the cooldown is over
        bash("echo done"),
    ]  # a boundary where a deferred finding would go out

    run = run_session(
        PROMPT,
        steps,
        env={"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]},
    )

    said = [split_result(result_text(run.tool_result(index)))[1] for index in range(len(steps))]
    assert said[0] and "[sidecar:tests] pytest: 1 failed; 1 root cause" in said[0][0]
    assert "1 passed" in result_text(run.tool_result(3))
    assert [text for text in said[1:] if any("[sidecar:tests]" in line for line in text)] == []
    rows = [
        row
        for row in decisions(project)
        if row.get("sidecar") == "tests" and row.get("key", "").startswith("tests:edit:")
    ]
    assert [row.get("by") for row in rows] == ["deferred", "moot"]
    assert number.read_text() == GREEN


STOP_REMINDER = (
    "[sidecar:scope] Still there as you finish: docs/notes.md, outside gt-7's scope; tell the user."
)
# The subject here is the reminder itself: the nudge budget (which holds reminders to 5% of what
# the tools returned, nothing in these three-call sessions) is off; tests/nudges/test_spend.py has it.
NO_BUDGET = {"SIDEKIT_NUDGE_BUDGET": "off"}
STANDING = "[sidecar:scope] Still open from before the compaction: docs/notes.md, outside gt-7's scope; tell the user."


def test_a_standing_finding_reminded_at_stop_is_not_said_again_after_compaction(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    (project / "api").mkdir()
    (project / "docs").mkdir()
    sidekit("install", "--project", str(project))
    sidekit("scope", "set", "--issue", "gt-7", "--allow", "api/**")
    notes = project / "docs" / "notes.md"

    first = run_session(
        PROMPT,
        [ToolCall("Write", {"file_path": str(notes), "content": "notes\n"})],
        env=NO_BUDGET,
    )
    assert (
        first.count(reminder("Stop hook additional context", STOP_REMINDER)) == 1
    )  # the one reminder, spent
    run_session("/compact", [FINAL_TEXT], resume=True, result="", env=NO_BUDGET)
    after = run_session(PROMPT, [FINAL_TEXT], resume=True, env=NO_BUDGET)

    received = json.dumps(after.final_messages(), ensure_ascii=False)
    # Issue #35: a standing finding is said again at most once after it was first said, at the first
    # Stop or compaction, whichever comes first (docs/policy.md); here the Stop came first, and
    # docs/notes.md did not change since: neither the compaction nor the next Stop says it again.
    assert received.count(json.dumps(STANDING, ensure_ascii=False)[1:-1]) == 0
    assert after.count(reminder("Stop hook additional context", STOP_REMINDER)) == 0
