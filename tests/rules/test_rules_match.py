from __future__ import annotations

import _signal
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.nudges.events import Event, parse_event
from sidekit_hooks.rules import match
from testing import hooks

PROJECT = "/proj"


def rule(**when: Any) -> dict[str, Any]:
    return {
        "id": "t.rule",
        "sidecar": "specs",
        "message": "m",
        "see": "",
        "severity": "medium",
        "enabled": True,
        "when": when,
        "pack": "t",
        "file": "t.toml",
        "layer": "project",
    }


def event_of(payload: dict[str, Any]) -> Event:
    return parse_event(payload["hook_event_name"], payload, PROJECT)


def write(path: str, content: str, original: str | None = None) -> Event:
    return event_of(hooks.write(Path(PROJECT), path, content, original))


def bash(command: str, stdout: str = "", error: str = "") -> Event:
    return event_of(hooks.bash(Path(PROJECT), command, stdout, error))


def test_added_sees_only_what_the_call_added() -> None:
    r = rule(added=r"status_code\s*=\s*400")
    old = "return Response(status_code=400)\n"
    assert match.match_rule(r, write("api/a.py", old + "x = 1\n", original=old)) is None
    hit = match.match_rule(
        r, write("api/a.py", old + "return Response(status_code = 400)\n", original=old)
    )
    assert hit is not None and (hit.field, hit.matched) == ("added", "status_code = 400")


def test_multiline_anchors_work_per_line() -> None:
    assert (
        match.match_rule(rule(added=r"^import pdb$"), write("a.py", "x = 1\nimport pdb\ny = 2\n"))
        is not None
    )


@pytest.mark.parametrize(
    ("line", "suppressed"),
    [
        ("x = eval(s)  # sidekit: ignore[t.rule]", True),
        ("x = eval(s)  # sidekit: ignore[other, t.rule]", True),
        ("x = eval(s)  # sidekit: ignore", True),
        ("x = eval(s)  # sidekit:ignore[t.rule]", True),
        ("x = eval(s)  # sidekit: ignore[other.rule]", False),
        ("x = eval(s)  # sidekit is great", False),
    ],
)
def test_inline_suppression_on_the_matched_line(line: str, suppressed: bool) -> None:
    hit = match.match_rule(rule(added=r"\beval\("), write("a.py", line + "\n"))
    assert (hit is None) is suppressed


def test_suppression_on_another_line_does_not_silence_a_match() -> None:
    text = "y = 1  # sidekit: ignore[t.rule]\nx = eval(s)\n"
    hit = match.match_rule(rule(added=r"\beval\("), write("a.py", text))
    assert hit is not None and hit.matched == "eval("


def test_paths_and_exclude_are_project_relative() -> None:
    r = rule(paths=["api/**/*.py"], exclude=["api/tests/**"], added="x")
    assert match.match_rule(r, write("api/v1/users.py", "x")) is not None
    assert match.match_rule(r, write("api/tests/test_users.py", "x")) is None
    assert match.match_rule(r, write("web/users.py", "x")) is None
    assert match.match_rule(r, write("/elsewhere/api/users.py", "x")) is None  # outside the project


@pytest.mark.parametrize(
    ("path", "fires"),
    [
        ("src/parse.ts", True),
        ("src/App.tsx", True),
        ("src/config.mts", True),
        ("lib/index.js", False),  # JavaScript is `js`
        ("main.go", False),
        ("src/parse.ts.md", False),
        ("/elsewhere/src/parse.ts", False),  # outside the project
    ],
)
def test_languages_select_by_the_files_suffix(path: str, fires: bool) -> None:
    assert (
        match.match_rule(rule(languages=["ts"], added="x"), write(path, "x")) is not None
    ) is fires


def test_languages_and_paths_must_both_hold() -> None:
    r = rule(languages=["go", "py"], paths=["internal/**"], added="x")
    assert match.match_rule(r, write("internal/a/b.go", "x")) is not None
    assert match.match_rule(r, write("internal/tool.pyi", "x")) is not None  # a stub is Python
    assert match.match_rule(r, write("internal/a/b.rs", "x")) is None
    assert match.match_rule(r, write("cmd/main.go", "x")) is None
    assert (
        match.match_rule(rule(languages=["go"], command="x"), bash("x")) is None
    )  # a command has no file


def test_exclude_alone_only_skips_the_files_it_names() -> None:
    r = rule(exclude=["scripts/**"], command="deploy|x")
    assert match.match_rule(r, bash("./deploy.sh")) is not None  # a command has no file to exclude
    assert (
        match.match_rule(rule(exclude=["scripts/**"], added="x"), write("scripts/a.py", "x"))
        is None
    )


def test_tools_filter_first() -> None:
    r = rule(tools=["Edit"], added="x")
    assert match.match_rule(r, write("a.py", "x")) is None
    assert match.match_rule(rule(tools=["Wr*"], added="x"), write("a.py", "x")) is not None


def test_absent_fires_when_the_added_text_lacks_the_pattern() -> None:
    r = rule(paths=["migrations/*.py"], absent=r"^def downgrade\(")
    assert (
        match.match_rule(r, write("migrations/0001.py", "def upgrade():\n    pass\n")) is not None
    )
    assert (
        match.match_rule(
            r, write("migrations/0001.py", "def upgrade(): ...\ndef downgrade(): ...\n")
        )
        is None
    )
    assert (
        match.match_rule(r, write("migrations/0001.py", "x = 1  # sidekit: ignore[t.rule]\n"))
        is None
    )


def test_command_and_output_and_failure_error() -> None:
    assert match.match_rule(rule(command=r"^\s*pytest\b"), bash("pytest -x")) is not None
    assert match.match_rule(rule(command=r"^\s*pytest\b"), bash("make test")) is None
    assert (
        match.match_rule(
            rule(output="Traceback"), bash("python x.py", stdout="Traceback (most recent")
        )
        is not None
    )
    failed = bash("python x.py", error="Exit code 1\nTraceback (most recent call last):")
    assert failed.event_name == "PostToolUseFailure"
    assert match.match_rule(rule(output="Traceback"), failed) is not None


def test_rule_without_the_text_it_needs_is_skipped_before_any_regex() -> None:
    r = rule(added="(")  # would raise if it were compiled
    assert not match.applies(r, bash("ls"))
    assert match.match_rule(r, bash("ls")) is None


def test_catastrophic_regex_is_abandoned_within_the_budget() -> None:
    event = write("a.py", "a" * 40 + "!\n")
    started = time.monotonic()
    with pytest.raises(match.RegexTimeout):
        match.match_rule(rule(added=r"^(a+)+$"), event)
    assert (
        time.monotonic() - started < 1.0
    )  # the budget is 50 ms; a real run of this regex takes hours


def test_match_rules_reports_the_timeout_and_keeps_going() -> None:
    timeouts: list[str] = []
    slow = dict(rule(added=r"^(a+)+$"), id="slow")
    fine = dict(rule(added="!"), id="fine")
    hits = match.match_rules(
        [slow, fine],
        write("a.py", "a" * 40 + "!\n"),
        float("inf"),
        lambda r, why: timeouts.append(f"{r['id']}: {why}"),
    )
    assert [h.rule["id"] for h in hits] == ["fine"]
    assert timeouts == ["slow: '^(a+)+$' ran past 50 ms"]


def test_the_outer_deadline_timer_and_handler_are_re_armed() -> None:
    fired: list[int] = []
    previous = _signal.signal(_signal.SIGALRM, lambda signum, frame: fired.append(signum))
    try:
        _signal.setitimer(_signal.ITIMER_REAL, 5.0)
        assert match.match_rule(rule(added="x"), write("a.py", "x")) is not None
        left = _signal.getitimer(_signal.ITIMER_REAL)[0]
        handler = _signal.getsignal(_signal.SIGALRM)
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        assert 4.0 < left <= 5.0
        assert handler is not match._on_alarm and not fired
    finally:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.signal(_signal.SIGALRM, previous)


def test_no_time_left_means_no_regex_runs() -> None:
    hits = match.match_rules([rule(added="x")], write("a.py", "x"), time.monotonic() - 1)
    assert hits == []
