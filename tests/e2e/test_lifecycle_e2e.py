"""The whole session in the real client (2.1.328): the first call is covered, Stop re-checks and
reminds once, and the scope is said again after compaction. What reached the model is asserted byte
for byte."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from testing.acme import BAD, PACK, SPEC_NUDGE
from testing.claude import FINAL_TEXT, SessionRunner, ToolCall, reminder, result_text, split_result

PROMPT = "Carry on with the task."
HELPER = (
    "def slugify(text: str) -> str:\n    cleaned = text.strip().lower()\n    cleaned = "
    'cleaned.replace("_", "-")\n'
    '    cleaned = cleaned.replace(" ", "-")\n    while "--" in cleaned:\n        cleaned = '
    'cleaned.replace("--", "-")\n'
    "    return cleaned\n"
)
COPY = (
    "def make_slug(value: str) -> str:\n    result = value.strip().lower()\n    result = "
    'result.replace("_", "-")\n'
    '    result = result.replace(" ", "-")\n    while "--" in result:\n        result = '
    'result.replace("--", "-")\n'
    "    return result\n"
)
SCOPE_NUDGE = "[sidecar:scope] docs/notes.md is outside this task's scope (gt-7); if it must change, tell the user."
STOP_REMINDER = (
    "[sidecar:scope] Still there as you finish: docs/notes.md, outside gt-7's scope; tell the user."
)
PRIMER = "[sidecar:scope] This task's scope (gt-7): edit only api/**."


def installed(project: Path, sidekit: Callable[..., str]) -> None:
    """A freshly installed project: `sidekit install` wires every event, SessionStart and Stop
    included."""
    sidekit("install", "--project", str(project))


def test_first_call_of_a_session_gets_the_tools_nudge(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    (project / "util.py").write_text(HELPER)
    installed(project, sidekit)
    assert not (project / ".sidekit" / "index").exists()  # nothing built ahead of the session

    run = run_session(
        PROMPT, [ToolCall("Write", {"file_path": str(project / "names.py"), "content": COPY})]
    )

    assert split_result(result_text(run.tool_result(0)))[1] == [
        reminder(
            "PostToolUse:Write hook additional context",
            "[sidecar:tools] util.py:1 slugify(text) already does this; reuse it instead of "
            "make_slug().",
        )
    ]


# The subject here is the reminder itself: the nudge budget (which holds reminders to 5% of what
# the tools returned, nothing in these three-call sessions) is off; tests/nudges/test_spend.py has it.
NO_BUDGET = {"SIDEKIT_NUDGE_BUDGET": "off"}


def test_stop_reminds_once_of_the_open_scope_edit_and_the_report_shows_what_was_fixed(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "acme.toml").write_text(PACK)
    (project / "api").mkdir()
    (project / "docs").mkdir()
    installed(project, sidekit)
    sidekit("scope", "set", "--issue", "gt-7", "--allow", "api/**")
    items, notes = project / "api" / "items.py", project / "docs" / "notes.md"
    steps = [
        ToolCall("Write", {"file_path": str(items), "content": BAD}),
        ToolCall("Write", {"file_path": str(notes), "content": "notes\n"}),
        ToolCall(
            "Edit",
            {
                "file_path": str(items),
                "old_string": "status_code=400",
                "new_string": "status_code=422",
            },
        ),
    ]

    run = run_session(PROMPT, steps, env=NO_BUDGET)

    said = [split_result(result_text(run.tool_result(index)))[1] for index in range(3)]
    assert said == [
        [reminder("PostToolUse:Write hook additional context", SPEC_NUDGE)],
        [reminder("PostToolUse:Write hook additional context", SCOPE_NUDGE)],
        [],
    ]
    assert run.count(reminder("Stop hook additional context", STOP_REMINDER)) == 1
    assert (
        run.count("Still there as you finish") == 1
    )  # the second Stop (stop_hook_active) said nothing
    assert (
        len(run.conversation) == 5
    )  # 3 tool calls, the end of the turn, and one more turn for the reminder
    answer = json.loads(sidekit("report", "--format", "json"))
    rule = next(row for row in answer["rules"] if row["rule"] == "acme.api.status-422")
    scope = next(row for row in answer["sidecars"] if row["sidecar"] == "scope")
    assert (rule["delivered"], rule["fixed"], rule["ignored"]) == (1, 1, 0)
    assert (scope["fixed"], scope["ignored"]) == (0, 1)


def compacted(run_session: SessionRunner) -> str:
    """One turn, `/compact`, then one more turn: what the model received in that last turn."""
    run_session(PROMPT, ["working on it"], result="working on it")
    run_session("/compact", [FINAL_TEXT], resume=True, result="")
    after = run_session(PROMPT, [FINAL_TEXT], resume=True)
    return json.dumps(after.final_messages(), ensure_ascii=False)


def test_compaction_brings_the_scope_primer_back(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    installed(project, sidekit)
    sidekit("scope", "set", "--issue", "gt-7", "--allow", "api/**")

    received = compacted(run_session)

    # The summary replaced the conversation (the startup primer with it); SessionStart(compact) said
    # it again, and the resume that follows does not repeat it.
    said = json.dumps(reminder("SessionStart hook additional context", PRIMER), ensure_ascii=False)[
        1:-1
    ]
    assert received.count(said) == 1
    primers = [
        json.loads(line)
        for line in (project / ".sidekit" / "log" / "decisions.jsonl").read_text().splitlines()
        if '"scope.primer"' in line
    ]
    assert [row["source"] for row in primers] == ["startup", "compact"]


def test_compaction_without_a_scope_says_nothing(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    installed(project, sidekit)

    received = compacted(run_session)

    assert "SessionStart hook" not in received and "[sidecar:" not in received
