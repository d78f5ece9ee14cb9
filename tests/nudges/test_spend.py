"""nudges/spend.py: what nudges may cost a session (5% of the tool-result bytes, whole reminders
included), through the real hook entry points (issue #35: semver's nudges came to 8.2% of what its
tools returned, 11.5% with the reminders)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.detectors.scope.model import Scope, save
from sidekit_hooks.nudges import session_ledger, spend
from sidekit_hooks.nudges.events import parse_event
from testing.hooks import HookRunner, bash, context_of, payload, run_sidekit, tool_call, write

SCOPE_NUDGE = "[sidecar:scope] docs/notes.md is outside this task's scope (gt-7); if it must change, tell the user."
REMINDER = (
    "[sidecar:scope] Still there as you finish: docs/notes.md, outside gt-7's scope; tell the user."
)
BUDGET_ON = {"SIDEKIT_NUDGE_BUDGET": "on"}  # reminders only by default (the tests' fixture: off)
LINES = "collected 12 items\n"  # 19 bytes a line of Bash output


def shown(label: str, text: str) -> int:
    """The bytes the model reads for a hook's text: Claude Code's reminder around it, as the corpus
    counts it."""
    return len(
        f"<system-reminder>\n{label} hook additional context: {text}\n</system-reminder>".encode()
    )


@pytest.fixture
def scoped(project: Path) -> Path:
    (project / "api").mkdir()
    (project / "docs").mkdir()
    save(str(project), Scope(["api/**"], issue="gt-7"))
    return project


def stop() -> dict[str, Any]:
    return {"stop_hook_active": False, "last_assistant_message": "done"}


def session(
    project: Path, run_hook: HookRunner, env: dict[str, str], output_lines: list[int]
) -> list[str]:
    """A Bash call, an edit outside the scope, more Bash calls (each with `output_lines` lines), a
    Stop after each of them: what the model got at each step."""
    said = [context_of(run_hook("PostToolUse", bash(project, "ls", LINES * 50), env=env).stdout)]
    (project / "docs" / "notes.md").write_text("notes\n")
    said.append(
        context_of(
            run_hook("PostToolUse", write(project, "docs/notes.md", "notes\n"), env=env).stdout
        )
    )
    for count in output_lines:
        said.append(
            context_of(
                run_hook("PostToolUse", bash(project, "pytest -q", LINES * count), env=env).stdout
            )
        )
        said.append(
            context_of(run_hook("Stop", payload("Stop", project, **stop()), env=env).stdout)
        )
    return said


def test_without_the_budget_this_session_costs_a_third_of_what_its_tools_returned(
    scoped: Path, run_hook: HookRunner
) -> None:
    said = session(scoped, run_hook, {}, [10])
    assert said == ["", SCOPE_NUDGE, "", REMINDER]
    book = session_ledger.read(str(scoped), "sess-1")
    spent = shown("PostToolUse:Write", SCOPE_NUDGE) + shown("Stop", REMINDER)
    assert (book.result_bytes, book.spent) == (19 * 60, spent)  # 30%: the session the budget is for
    assert spent == 341


def test_by_default_a_first_finding_goes_out_at_once_and_only_its_reminder_waits(
    scoped: Path, run_hook: HookRunner
) -> None:
    # The scope line is said with the edit, though 950 bytes read pay for 47 of it. Its reminder
    # (160 bytes) waits: 1,140 bytes read by the first Stop (57 of budget, 181 spent), 5,890 by the
    # second; it goes out at the third, once 10,640 bytes were read (532 of budget).
    said = session(scoped, run_hook, {"SIDEKIT_NUDGE_BUDGET": ""}, [10, 250, 250])
    assert said == ["", SCOPE_NUDGE, "", "", "", "", "", REMINDER]
    book = session_ledger.read(str(scoped), "sess-1")
    spent = shown("PostToolUse:Write", SCOPE_NUDGE) + shown("Stop", REMINDER)
    assert (book.result_bytes, book.spent) == (19 * 560, spent)
    assert book.spent <= spend.SHARE * book.result_bytes


def test_a_nudge_waits_until_the_session_has_read_enough_to_pay_for_it(
    scoped: Path, run_hook: HookRunner
) -> None:
    # 950 bytes of output: 47 bytes of budget, less than one scope line in its reminder (180): it
    # waits. 3,800 more (4,750 in all, 237 bytes): it goes out with that call's result; the Stop
    # after it has 57 bytes left, not enough for its reminder (160), which goes out at the next Stop
    # once 4,750 more bytes were read (9,500 in all: 475 bytes of budget, 340 spent).
    said = session(scoped, run_hook, BUDGET_ON, [200, 250])
    assert said == ["", "", SCOPE_NUDGE, "", "", REMINDER]
    book = session_ledger.read(str(scoped), "sess-1")
    spent = shown("PostToolUse:Bash", SCOPE_NUDGE) + shown("Stop", REMINDER)
    assert (book.result_bytes, book.spent) == (19 * 500, spent)
    assert book.spent <= spend.SHARE * book.result_bytes


def test_the_budget_counts_the_primer_and_holds_what_follows_it(
    scoped: Path, run_hook: HookRunner
) -> None:
    start = context_of(
        run_hook(
            "SessionStart", payload("SessionStart", scoped, source="startup"), env=BUDGET_ON
        ).stdout
    )
    assert (
        start == "[sidecar:scope] This task's scope (gt-7): edit only api/**."
    )  # said regardless: the task's frame
    primer = shown("SessionStart", start)
    assert session_ledger.read(str(scoped), "sess-1").spent == primer == 134
    said = session(scoped, run_hook, BUDGET_ON, [200])
    assert said == ["", "", "", ""]  # 4,750 bytes read: 237 of budget, 134 spent on the primer
    assert session_ledger.read(str(scoped), "sess-1").spent == primer


def test_a_failed_call_counts_its_error(scoped: Path, run_hook: HookRunner) -> None:
    failed = bash(scoped, "pytest -q", error="Exit code 1\n" + LINES * 100)
    run_hook("PostToolUseFailure", failed, env=BUDGET_ON)
    assert session_ledger.read(str(scoped), "sess-1").result_bytes == 12 + 1900


@pytest.mark.parametrize(
    ("tool", "response", "size"),
    [
        ("Bash", {"stdout": "abc", "stderr": "de", "interrupted": False}, 5),
        (
            "Read",
            {"type": "text", "file": {"filePath": "/p/a.py", "content": "x = 1\n", "numLines": 1}},
            6,
        ),
        ("Glob", {"filenames": ["a.py", "b.py"], "numFiles": 2}, 10),
        ("mcp__docs__search", [{"type": "text", "text": "héllo"}], 6),
        ("Write", {"type": "create", "filePath": "/p/a.py", "content": "x = 1\n"}, 0),
        (
            "Edit",
            {"filePath": "/p/a.py", "oldString": "a", "newString": "b", "originalFile": "a" * 900},
            0,
        ),
    ],
)
def test_result_bytes_are_what_the_payload_returned(
    tool: str, response: object, size: int, tmp_path: Path
) -> None:
    data = tool_call("PostToolUse", tmp_path, "s", tool, {}, tool_response=response)
    assert spend.result_bytes(parse_event("PostToolUse", data)) == size
    assert (
        spend.result_bytes(parse_event("PostToolUse", {**data, "agent_id": "a-1"})) == 0
    )  # a subagent's context


@pytest.mark.parametrize(
    ("value", "share"),
    [("", None), ("on", 0.05), ("0.1", 0.1), ("off", None), ("0", None), ("lots", None)],
)
def test_the_share_is_the_users_to_set(
    value: str, share: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIDEKIT_NUDGE_BUDGET", value)
    assert spend.share() == share
    # reminders are held to 5% unless the user turned the budget off or set another share
    assert spend.reminder_share() == (None if value in ("off", "0") else share or spend.SHARE)


def test_a_message_someone_else_queued_never_waits_for_sidekits_budget(
    scoped: Path, run_hook: HookRunner
) -> None:
    (scoped / "docs" / "notes.md").write_text("notes\n")
    assert (
        context_of(
            run_hook("PostToolUse", write(scoped, "docs/notes.md", "notes\n"), env=BUDGET_ON).stdout
        )
        == ""
    )
    done = run_sidekit(
        "nudge",
        "--session",
        "sess-1",
        "--sender",
        "mayor",
        "Rebase on main before you push.",
        cwd=scoped,
    )
    assert done.returncode == 0, done.stderr
    prompt = payload("UserPromptSubmit", scoped, prompt="go on")
    said = context_of(run_hook("UserPromptSubmit", prompt, env=BUDGET_ON).stdout)
    assert (
        said == "[from mayor] Rebase on main before you push."
    )  # the scope line still waits for the budget
    assert session_ledger.read(str(scoped), "sess-1").spent == shown("UserPromptSubmit", said)
