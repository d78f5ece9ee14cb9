"""The head lines of every runner's compact answer are read back into (runner, raw bytes)."""

from __future__ import annotations

from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.savings import heads, record
from sidekit_hooks.runners import compact as runner_compact
from sidekit_hooks.runners.pytest import compact


def test_each_runners_head_gives_its_raw_size() -> None:
    go = runner_compact.compacted("go test", "x" * 12345, ".sidekit/go/raw-1.txt", 1, {"exit": 1})
    output = "\n".join(
        [
            compact.head(45922, 1, ".sidekit/pytest/raw-1.txt").rstrip("\n"),
            '{"runner":"pytest","exit":1}',
            go.rstrip("\n"),
            "sidekit: go test output of ./invoice (1,875 B) compacted; exit code 1; all of it: "
            ".sidekit/go/raw-2.txt",
            "sidekit: vitest's output (230,114 B) compacted; exit code 1; all of it: "
            ".sidekit/vitest/raw-3.txt",
            "sidekit: cargo test output (9,001 B) compacted; exit code 101; all of it: "
            ".sidekit/cargo/raw-4.txt",
            "  sidekit: pytest's output (999 B) compacted; exit code 1; (indented: a test's own "
            "print, not a head)",
            "sidekit: pytest's output (lots B) compacted; exit code 1; (no size: not a head)",
        ]
    )
    assert heads(output) == [
        ("pytest", 45922),
        ("go test", 12345),
        ("go test", 1875),
        ("vitest", 230114),
        ("cargo test", 9001),
    ]


def test_a_red_runs_failure_payload_becomes_one_compacted_record() -> None:
    said = "Exit code 1\n" + compact.head(45922, 1, ".sidekit/pytest/raw-1.txt") + '{"exit":1}'
    payload = {
        "session_id": "s1",
        "tool_name": "Bash",
        "tool_input": {"command": "pytest"},
        "error": said,
    }
    assert record(parse_event("PostToolUseFailure", payload)) == {
        "session": "s1",
        "hook": "PostToolUseFailure",
        "sidecar": "tests",
        "decision": "compacted",
        "runner": "pytest",
        "runs": 1,
        "raw": 45922,
        "answer": len(said.encode()),
    }
    assert (
        record(parse_event("PostToolUse", {"tool_name": "Bash", "tool_response": {"stdout": "ok"}}))
        is None
    )
    assert record(parse_event("PostToolUse", {"tool_name": "Read", "tool_response": said})) is None
