from __future__ import annotations

import functools
from pathlib import Path

import pytest

from sidekit_hooks.nudges import payloads
from sidekit_hooks.nudges.events import added_lines, parse_event, relative_path, tool_kind

PROJ = "/proj"


post = functools.partial(
    payloads.tool_payload, PROJ, "s"
)  # post(tool, tool_input, response, **fields)


def test_edit_added_comes_from_the_structured_patch() -> None:
    # Real Claude Code 2.1.328 Edit payload (shared/reference/real-claude-code-offline.md).
    event = parse_event(
        "PostToolUse",
        post(
            "Edit",
            {
                "file_path": "/proj/a.py",
                "old_string": "x = 1",
                "new_string": "x = 2\ny = 3",
                "replace_all": False,
            },
            {
                "filePath": "/proj/a.py",
                "oldString": "x = 1",
                "newString": "x = 2\ny = 3",
                "originalFile": "x = 1\n",
                "structuredPatch": [
                    {
                        "oldStart": 1,
                        "oldLines": 1,
                        "newStart": 1,
                        "newLines": 2,
                        "lines": ["-x = 1", "+x = 2", "+y = 3"],
                    }
                ],
                "userModified": False,
                "replaceAll": False,
            },
        ),
        PROJ,
    )
    assert (event.kind, event.path, event.abs_path, event.added) == (
        "write",
        "a.py",
        "/proj/a.py",
        "x = 2\ny = 3",
    )
    assert event.old_text == "x = 1\n"


def test_edit_without_patch_diffs_new_against_old_string() -> None:
    event = parse_event(
        "PostToolUse",
        post("Edit", {"file_path": "/proj/a.py", "old_string": "a\nb", "new_string": "a\nb\nc"}),
        PROJ,
    )
    assert event.added == "c"


def test_write_over_an_existing_file_reports_only_new_lines() -> None:
    event = parse_event(
        "PostToolUse",
        post(
            "Write",
            {"file_path": "/proj/a.py", "content": "x = 5\ny = 3\n"},
            {
                "type": "update",
                "filePath": "/proj/a.py",
                "content": "x = 5\ny = 3\n",
                "originalFile": "x = 2\ny = 3\n",
            },
        ),
        PROJ,
    )
    assert event.added == "x = 5"
    assert event.new_text == "x = 5\ny = 3\n"


def test_write_create_adds_everything() -> None:
    event = parse_event(
        "PostToolUse",
        post(
            "Write",
            {"file_path": "/proj/b.py", "content": "def f():\n    return 1\n"},
            {
                "type": "create",
                "filePath": "/proj/b.py",
                "content": "def f():\n    return 1\n",
                "structuredPatch": [],
                "originalFile": None,
            },
        ),
        PROJ,
    )
    assert event.added == "def f():\n    return 1\n"


def test_legacy_multiedit_joins_every_edit() -> None:
    event = parse_event(
        "PostToolUse",
        post(
            "MultiEdit",
            {
                "file_path": "/proj/a.py",
                "edits": [
                    {"old_string": "a", "new_string": "a2"},
                    {"old_string": "b", "new_string": "b\nc"},
                ],
            },
        ),
        PROJ,
    )
    assert event.added == "a2\nc"


def test_notebook_edit() -> None:
    event = parse_event(
        "PostToolUse",
        post("NotebookEdit", {"notebook_path": "/proj/n.ipynb", "new_source": "print(1)"}),
        PROJ,
    )
    assert (event.kind, event.path, event.added) == ("write", "n.ipynb", "print(1)")


def test_bash_success_and_failure() -> None:
    ok = parse_event(
        "PostToolUse",
        post("Bash", {"command": "ls -1"}, {"stdout": "a.py", "stderr": "", "interrupted": False}),
        PROJ,
    )
    assert (ok.kind, ok.command, ok.output) == ("shell", "ls -1", "a.py")
    failed = parse_event(
        "PostToolUseFailure",
        post("Bash", {"command": "exit 3"}, error="Exit code 3\noops", is_interrupt=False),
        PROJ,
    )
    assert (failed.event_name, failed.command, failed.error) == (
        "PostToolUseFailure",
        "exit 3",
        "Exit code 3\noops",
    )


def test_read_glob_grep_paths() -> None:
    read = parse_event("PostToolUse", post("Read", {"file_path": "/elsewhere/x.txt"}), PROJ)
    assert (read.kind, read.path) == ("read", "/elsewhere/x.txt")
    grep = parse_event(
        "PostToolUse",
        post(
            "Grep",
            {"pattern": "x =", "path": "src"},
            {"mode": "content", "content": "a.py:1:x = 2", "filenames": []},
        ),
        PROJ,
    )
    assert (grep.kind, grep.pattern, grep.path, grep.output) == (
        "search",
        "x =",
        "src",
        "a.py:1:x = 2",
    )
    glob = parse_event(
        "PostToolUse", post("Glob", {"pattern": "**/*.py"}, {"filenames": ["a.py", "b.py"]}), PROJ
    )
    assert (glob.path, glob.output) == ("", "a.py\nb.py")


@pytest.mark.parametrize(
    "tool, kind",
    [
        ("Agent", "agent"),
        ("Task", "agent"),
        ("TaskCreate", "task"),
        ("TaskUpdate", "task"),
        ("TodoWrite", "task"),
        ("WebFetch", "web"),
        ("WebSearch", "web"),
        ("mcp__github__create_issue", "mcp"),
        ("Teleport", "opaque"),
        ("", "opaque"),
    ],
)
def test_every_contract_tool_has_a_kind(tool: str, kind: str) -> None:
    assert tool_kind(tool) == kind


def test_mcp_content_blocks_become_output_text() -> None:
    event = parse_event(
        "PostToolUse",
        post("mcp__x__y", {}, [{"type": "text", "text": "hello"}, {"type": "image"}]),
        PROJ,
    )
    assert event.output == "hello"


@pytest.mark.parametrize(
    "raw", [None, [], "text", 3, {"tool_name": 5, "tool_input": "nope", "tool_response": [1]}]
)
def test_malformed_payloads_give_an_empty_event(raw: object) -> None:
    event = parse_event("PostToolUse", raw, PROJ)
    assert (event.tool, event.path, event.added, event.session_id) == ("", "", "", "")


def test_subagent_events_carry_agent_id() -> None:
    event = parse_event(
        "PostToolUse",
        post("Read", {"file_path": "/proj/a.py"}, agent_id="def456", agent_type="Explore"),
        PROJ,
    )
    assert event.is_subagent and event.agent_id == "def456"


def test_windows_backslashes_are_normalised() -> None:
    assert relative_path("C:\\proj\\src\\a.py".replace("C:", ""), "/proj") == "src/a.py"


def test_relative_path_outside_and_inside(tmp_path: Path) -> None:
    assert relative_path("/proj/../etc/passwd", "/proj") == "/etc/passwd"
    assert relative_path("src/a.py", "/proj") == "src/a.py"
    assert relative_path("/proj", "/proj") == "."
    assert relative_path("/project2/a.py", "/proj") == "/project2/a.py"


def test_added_lines_is_a_multiset_difference() -> None:
    assert added_lines("a\nb\na\n", "a\nb\na\na\nc\n") == "a\nc"
    assert added_lines("", "x") == "x"
