"""`sidekit report`: fired, delivered and suppressed (by what), per sidecar and per rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.core import hooklog
from testing import requires
from testing.hooks import HookRunner, bash
from testing.status import Suite, suite  # noqa: F401 - the fixture


def report(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", "report", "--project", str(project), *args],
        capture_output=True,
        text=True,
        timeout=30,
    )


def log(project: Path, *records: dict[str, Any]) -> None:
    for record in records:
        hooklog.append(str(project), hooklog.DECISIONS, record)


def seed(project: Path) -> None:
    spec = "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400."
    log(
        project,
        {
            "session": "s1",
            "sidecar": "specs",
            "rule": "acme.api.status-422",
            "decision": "fired",
            "text": spec,
        },
        {"session": "s1", "sidecar": "specs", "decision": "delivered", "text": spec},
        {
            "session": "s1",
            "sidecar": "specs",
            "rule": "acme.api.status-422",
            "decision": "suppressed",
            "by": "duplicate",
            "text": spec,
        },
        {"session": "s1", "sidecar": "scope", "decision": "fired", "text": "[sidecar:scope] a"},
        {"session": "s2", "sidecar": "scope", "decision": "fired", "text": "[sidecar:scope] b"},
        {"session": "s2", "sidecar": "scope", "decision": "delivered", "text": "[sidecar:scope] b"},
        {
            "session": "s2",
            "sidecar": "tools",
            "decision": "suppressed",
            "by": "cooldown",
            "text": "[sidecar:tools] c",
        },
        {
            "session": "s2",
            "sidecar": "tools",
            "decision": "suppressed",
            "by": "cap",
            "text": "[sidecar:tools] d",
        },
        {
            "session": "s2",
            "sidecar": "tools",
            "decision": "suppressed",
            "by": "cooldown",
            "text": "[sidecar:tools] e",
        },
    )


def test_json_report(project: Path) -> None:
    seed(project)
    done = report(project, "--format", "json")
    starts = {r["session"]: r["start"] for r in json.loads(done.stdout)["timeline"]}
    specs = {
        "fired": 1,
        "delivered": 1,
        "suppressed": {"duplicate": 1},
        "fixed": 0,
        "ignored": 0,
        "moot": 0,
        "untrue": 0,
    }
    nudged = {
        "compactedRuns": 0,
        "rawBytes": 0,
        "answerBytes": 0,
        "savedBytes": 0,
        "savedTokens": 0,
        "nudges": 1,
    }
    assert json.loads(done.stdout) == {
        "decisions": 9,
        "sessions": 2,
        "sidecars": [
            {
                "sidecar": "scope",
                "fired": 2,
                "delivered": 1,
                "fixed": 0,
                "ignored": 0,
                "moot": 0,
                "untrue": 0,
            },
            {"sidecar": "specs", **specs},
            {
                "sidecar": "tools",
                "fired": 0,
                "delivered": 0,
                "suppressed": {"cooldown": 2, "cap": 1},
                "fixed": 0,
                "ignored": 0,
                "moot": 0,
                "untrue": 0,
            },
        ],
        "rules": [{"rule": "acme.api.status-422", "sidecar": "specs", **specs}],
        "timeline": [
            {"session": "s1", "start": starts["s1"], "delivered": 1},
            {"session": "s2", "start": starts["s2"], "delivered": 1},
        ],
        "saved": {
            **nudged,
            "nudges": 2,
            "nudgeBytes": 86,
            "nudgeTokens": 21,
            "sessions": [
                {"session": "s1", **nudged, "nudgeBytes": 69, "nudgeTokens": 17},
                {"session": "s2", **nudged, "nudgeBytes": 17, "nudgeTokens": 4},
            ],
        },
    }


def test_text_report_and_session_filter(project: Path) -> None:
    seed(project)
    assert report(project).stdout == (
        "9 decisions in 2 session(s), from .sidekit/log/decisions.jsonl\n"
        "Saved: no test run was compacted; the nudges added 86 B (~21 tokens) in 2 nudge(s).\n\n"
        "session  runs  raw B  answer B  saved B  ~tokens saved  nudges  nudge B\n"
        "s1          0      0         0        0              0       1       69\n"
        "s2          0      0         0        0              0       1       17\n\n"
        "sidecar  fired  delivered  fixed  ignored  untrue  uptake  calls to fix  suppressed (by "
        "what)\n"
        "scope        2          1      0        0       0       -             -  0\n"
        "specs        1          1      0        0       0       -             -  1 (duplicate 1)\n"
        "tools        0          0      0        0       0       -             -  3 (cooldown 2, "
        "cap 1)\n\n"
        "rule                 sidecar  fired  delivered  fixed  ignored  untrue  uptake  calls to "
        "fix  suppressed (by what)\n"
        "acme.api.status-422    specs      1          1      0        0       0       -           "
        "  -  1 (duplicate 1)\n\n"
        "fixed/ignored: delivered findings re-checked at Stop (gone / still there); uptake = "
        "fixed / (fixed + ignored);\n"
        "untrue: already not so when delivered (never counted as fixed);\n"
        "calls to fix: median tool calls from the nudge to the fix (docs/lifecycle.md).\n"
    )
    assert (
        json.loads(report(project, "--session", "s1", "--format", "json").stdout)["decisions"] == 4
    )


def test_nothing_logged_says_how_to_start(project: Path) -> None:
    done = report(project)
    assert (done.returncode, done.stdout) == (
        0,
        (
            "No decisions logged yet (.sidekit/log/decisions.jsonl is empty or missing): the "
            "hooks have not run in "
            "this project.\n  fix: sidekit install --project DIR, or try `sidekit demo`\n"
        ),
    )


# --- what the agent did with a nudge: fixed, ignored, uptake, calls to fix
# ---------------------------

DAY = 86400.0
NOW = 1_790_000_000.0  # a fixed moment, so the seeded week is the same on every run


def decided(ts: float, session: str, decision: str, **fields: Any) -> dict[str, Any]:
    """One line of the decision log."""
    return {"ts": ts, "session": session, "decision": decision, **fields}


def seed_week(project: Path, sessions_per_day: int = 3) -> None:
    """Seven days of sessions: each delivers a spec nudge (fixed in 2 of 3 sessions) and a scope
    nudge (reverted in 1 of 3), with the tool calls to the fix rising by session."""
    spec = "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400."
    records: list[dict[str, Any]] = []
    for day in range(7):
        for index in range(sessions_per_day):
            session = f"d{day}-s{index}"
            ts = NOW - (7 - day) * DAY + index * 3600
            key_spec, key_scope = (
                f"rule:acme.api.status-422:api/{session}.py:1",
                f"scope:write:docs/{session}.md",
            )
            specs = {"sidecar": "specs", "rule": "acme.api.status-422", "key": key_spec}
            scope = {"sidecar": "scope", "key": key_scope}
            raw_pytest = {"sidecar": "tools", "rule": "tools.raw-pytest", "text": "t"}
            spec_fixed = (
                {"outcome": "fixed", "calls": index + 1} if index < 2 else {"outcome": "still"}
            )
            scope_fixed = {"outcome": "fixed", "calls": 3} if index == 0 else {"outcome": "still"}
            records += [
                decided(ts, session, "fired", **specs, text=spec),
                decided(ts + 1, session, "delivered", **specs, text=spec),
                decided(ts + 2, session, "fired", **scope, text="s"),
                decided(ts + 3, session, "delivered", **scope, text="s"),
                decided(ts + 4, session, "suppressed", **raw_pytest, by="cooldown"),
                *[decided(ts + 5, session, "delivered", **raw_pytest)] * (day % 3),
                decided(ts + 9, session, "rechecked", **specs, **spec_fixed),
                decided(ts + 9, session, "rechecked", **scope, rule="", **scope_fixed),
            ]
    log(project, *records)


def test_outcomes_uptake_and_calls_to_fix(project: Path) -> None:
    seed_week(project)
    answer = json.loads(report(project, "--format", "json").stdout)
    rules = {row["rule"]: row for row in answer["rules"]}
    assert rules["acme.api.status-422"] == {
        "rule": "acme.api.status-422",
        "sidecar": "specs",
        "fired": 21,
        "delivered": 21,
        "fixed": 14,
        "ignored": 7,
        "moot": 0,
        "untrue": 0,
        "uptake": 0.667,
        "medianCallsToFix": 1.5,
    }
    scope = next(row for row in answer["sidecars"] if row["sidecar"] == "scope")
    assert (scope["fixed"], scope["ignored"], scope["uptake"], scope["medianCallsToFix"]) == (
        7,
        14,
        0.333,
        3.0,
    )
    assert (answer["sessions"], len(answer["timeline"]), answer["timeline"][0]["session"]) == (
        21,
        21,
        "d0-s0",
    )


def test_a_later_recheck_replaces_an_earlier_one(project: Path) -> None:
    log(
        project,
        {"session": "s", "sidecar": "scope", "decision": "delivered", "key": "k", "text": "x"},
        {
            "session": "s",
            "sidecar": "scope",
            "decision": "rechecked",
            "key": "k",
            "outcome": "still",
        },
        {
            "session": "s",
            "sidecar": "scope",
            "decision": "rechecked",
            "key": "k",
            "outcome": "fixed",
            "calls": 4,
        },
    )
    row = json.loads(report(project, "--format", "json").stdout)["sidecars"][0]
    assert (row["fixed"], row["ignored"], row["uptake"], row["medianCallsToFix"]) == (
        1,
        0,
        1.0,
        4.0,
    )


def test_window_by_days_and_by_sessions() -> None:
    from sidekit_hooks.cli.commands.report import window

    records = [{"session": f"s{n}", "ts": NOW - n * DAY, "decision": "fired"} for n in range(10)]
    assert [r["session"] for r in window(records, None, 3, None, now=NOW)] == [
        "s0",
        "s1",
        "s2",
        "s3",
    ]
    assert [r["session"] for r in window(records, None, None, 2, now=NOW)] == ["s0", "s1"]
    assert [r["session"] for r in window(records, "s5", None, None, now=NOW)] == ["s5"]


def test_bad_window_is_a_clear_error(project: Path) -> None:
    done = report(project, "--days", "0")
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        "sidekit: --days must be 1 or more, not 0\n  fix: sidekit report --days 7\n",
    )


# --- the HTML report
# ------------------------------------------------------------------------------------


def html_report(project: Path, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    seed_week(project)
    page = tmp_path / "report.html"
    done = report(project, "--format", "html", "--output", str(page))
    assert (done.returncode, done.stdout) == (0, f"wrote {page}\n")
    return page, json.loads(report(project, "--format", "json").stdout)


def test_html_is_one_offline_file_carrying_the_json_report(project: Path, tmp_path: Path) -> None:
    page, answer = html_report(project, tmp_path)
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "http://" not in text and "https://" not in text
    assert (
        "<link" not in text and " src=" not in text
    )  # nothing fetched: styles, charts and script inline
    data = text.split('<script type="application/json" id="report-data">', 1)[1].split(
        "</script>", 1
    )[0]
    assert json.loads(data) == answer


def chromium() -> str | None:
    import shutil

    return next(
        (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
    )


def rendered_dom(page: Path, tmp_path: Path) -> str:
    """The DOM after the page's scripts ran, from a real headless Chromium."""
    browser = chromium()
    if browser is None:
        requires.missing(
            "chromium is not installed", "apt-get install -y chromium; .ci/run installs it"
        )
    done = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'chromium'}",
            "--virtual-time-budget=2000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.slow
def test_html_charts_render_in_a_real_browser_with_the_json_numbers(
    project: Path, tmp_path: Path
) -> None:
    import re

    page, answer = html_report(project, tmp_path)
    dom = rendered_dom(page, tmp_path)
    assert 'data-charts="2"' in dom
    bars = re.findall(
        r'<rect class="bar" data-name="([^"]+)" data-uptake="([^"]+)"[^>]*data-drawn="(\d+)x(\d+)"',
        dom,
    )
    rules = {row["rule"]: row for row in answer["rules"] if row.get("uptake") is not None}
    scope = next(row for row in answer["sidecars"] if row["sidecar"] == "scope")
    assert {name: float(uptake) for name, uptake, _, _ in bars} == {
        **{rule: row["uptake"] for rule, row in rules.items()},
        "scope (sidecar)": scope["uptake"],
    }
    assert all(
        int(width) == round(360 * float(uptake)) and int(height) == 16
        for _, uptake, width, height in bars
    )
    sessions = re.findall(
        r'<rect class="session" data-session="([^"]+)" '
        r'data-delivered="(\d+)"[^>]*data-drawn="(\d+)x(\d+)"',
        dom,
    )
    assert [(s, int(n)) for s, n, _, _ in sessions] == [
        (p["session"], p["delivered"]) for p in answer["timeline"]
    ]
    assert all(int(w) > 0 for _, _, w, _ in sessions)
    top = max(int(n) for _, n, _, _ in sessions)
    assert [int(h) for _, _, _, h in sessions] == [
        round(140 * int(n) / top) for _, n, _, _ in sessions
    ]  # 2..4 drawn to scale
    cells = dict(
        re.findall(
            r'<tr data-rule="acme.api.status-422">.*?data-field="fixed" data-value="(\d+)">(\d+)<',
            dom,
        )
    )
    assert cells == {
        str(rules["acme.api.status-422"]["fixed"]): str(rules["acme.api.status-422"]["fixed"])
    }


# --- what a session saved: raw test output replaced by compact answers, against the nudges' bytes
# -----

RED_LIB = "def parse_price(text):\n    units, _, cents = text.partition('.')\n    return int(units) * 100 + int(cents[:1] or 0)\n"
RED_TESTS = "".join(
    f"\ndef test_price_{n}():\n    from lib import parse_price\n    assert "
    f"parse_price('{n}.{n + 10}') == {n * 100 + n + 10}\n"
    for n in range(40)
)


def test_a_session_with_a_compacted_red_run_shows_what_it_saved_and_what_the_nudges_added(
    suite: Suite, run_hook: HookRunner
) -> None:
    suite.write("lib.py", RED_LIB)
    suite.write("tests/test_prices.py", RED_TESTS)
    done = suite.pytest(
        "tests", "-p", "sidekit_hooks.runners.pytest.compact", "-p", "no:randomly", timeout=120
    )
    assert done.returncode == 1 and done.stdout.startswith("sidekit: pytest's output (")
    said = "Exit code 1\n" + done.stdout.rstrip("\n")  # what Claude Code hands PostToolUseFailure
    hook = run_hook(
        "PostToolUseFailure", bash(suite.root, "python -m pytest tests", error=said, session="s1")
    )
    assert (hook.returncode, hook.stderr) == (0, "")
    nudge = "[sidecar:scope] lib.py is outside this task's scope (T-1); if it must change, tell the user."
    log(suite.root, {"session": "s1", "sidecar": "scope", "decision": "delivered", "text": nudge})
    raw = len(raw_output(suite.root, done.stdout).encode())
    answer = len(said.encode())
    saved, added = raw - answer, len(nudge.encode())
    assert raw > 10 * answer  # a real red run's flood against its compact answer

    text = report(suite.root).stdout
    assert text.split("\n\n")[:2] == [
        f"{len(decisions(suite.root))} decisions in 1 session(s), from "
        ".sidekit/log/decisions.jsonl\n"
        f"Saved: {raw:,} B of raw test output (~{raw // 4:,} tokens) reached the model as "
        f"{answer:,} B of compact "
        f"answers in 1 run(s): {saved:,} B (~{saved // 4:,} tokens) saved; the nudges added "
        f"{added:,} B "
        f"(~{added // 4:,} tokens) in 1 nudge(s).",
        table(
            [
                "session",
                "runs",
                "raw B",
                "answer B",
                "saved B",
                "~tokens saved",
                "nudges",
                "nudge B",
            ],
            ["s1", "1", str(raw), str(answer), str(saved), str(saved // 4), "1", str(added)],
        ),
    ]
    expected = {
        "compactedRuns": 1,
        "rawBytes": raw,
        "answerBytes": answer,
        "savedBytes": saved,
        "savedTokens": saved // 4,
        "nudges": 1,
        "nudgeBytes": added,
        "nudgeTokens": added // 4,
    }
    assert json.loads(report(suite.root, "--format", "json").stdout)["saved"] == {
        **expected,
        "sessions": [{"session": "s1", **expected}],
    }
    page = report(suite.root, "--format", "html").stdout
    assert f'<p id="saved">Saved: {raw:,} B of raw test output' in page
    assert f'<td data-field="savedBytes">{saved}</td>' in page


def raw_output(project: Path, head: str) -> str:
    """The raw output a compacted run kept, from the file its head line names."""
    kept = head.split("all of it: ", 1)[1].split(" ", 1)[0]
    return (project / kept).read_text()


def decisions(project: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for line in (project / ".sidekit" / "log" / "decisions.jsonl").read_text().splitlines()
    ]


def table(headers: list[str], row: list[str]) -> str:
    """Two rows as the report aligns them: the first column left, the others right."""
    widths = [max(len(a), len(b)) for a, b in zip(headers, row, strict=True)]
    lines = []
    for cells in (headers, row):
        lines.append(
            "  ".join(
                [cells[0].ljust(widths[0])]
                + [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
            )
        )
    return "\n".join(lines)


def test_a_compacted_run_and_the_nudges_of_two_sessions_add_up() -> None:
    from sidekit_hooks.cli.commands.report import summarize

    records = [
        {
            "session": "a",
            "ts": 1.0,
            "decision": "compacted",
            "sidecar": "tests",
            "raw": 40000,
            "answer": 600,
            "runs": 2,
        },
        {"session": "a", "ts": 2.0, "decision": "delivered", "sidecar": "tests", "text": "x" * 100},
        {"session": "b", "ts": 3.0, "decision": "reminded", "sidecar": "scope", "text": "y" * 50},
        {
            "session": "b",
            "ts": 4.0,
            "decision": "compacted",
            "sidecar": "tests",
            "raw": "junk",
            "answer": -1,
        },
    ]
    saved = summarize(records)["saved"]
    assert {k: v for k, v in saved.items() if k != "sessions"} == {
        "compactedRuns": 3,
        "rawBytes": 40000,
        "answerBytes": 600,
        "savedBytes": 39400,
        "savedTokens": 9850,
        "nudges": 2,
        "nudgeBytes": 150,
        "nudgeTokens": 37,
    }
    assert [
        (row["session"], row["savedBytes"], row["nudgeBytes"]) for row in saved["sessions"]
    ] == [
        ("a", 39400, 100),
        ("b", 0, 50),
    ]
    assert summarize(records)["sidecars"] == [
        {
            "sidecar": "scope",
            "fired": 0,
            "delivered": 0,
            "suppressed": {},
            "fixed": 0,
            "ignored": 0,
            "moot": 0,
            "untrue": 0,
            "uptake": None,
            "medianCallsToFix": None,
        },
        {
            "sidecar": "tests",
            "fired": 0,
            "delivered": 1,
            "suppressed": {},
            "fixed": 0,
            "ignored": 0,
            "moot": 0,
            "untrue": 0,
            "uptake": None,
            "medianCallsToFix": None,
        },
    ]  # a compacted run is no sidecar decision: it never counts as fired or delivered
