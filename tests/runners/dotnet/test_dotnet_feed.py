"""The agent's raw `dotnet test` after it ran: PreToolUse marked the rewritten call;
PostToolUse(Failure) hands what dotnet printed to the feed worker, which reads the TRX reports
written since the mark (runners/junit/feed.py, runners/dotnet/adapter.py) into the cache, and the
tests sidecar's word on a red run follows. dotnet cannot run here: its reports and console are the
recorded ones (cases/)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from dotnet_demo import place_report, recorded, solution

from testing.hooks import HookRunner, bash, pre_bash, status_now, wait_for_feed

CALC_RESULTS = "tests/Calc.Tests/TestResults"


def marked(project: Path, run_hook: HookRunner, command: str = "dotnet test") -> None:
    solution(project)
    (project / ".git").mkdir()
    old = place_report(
        "calc-green.trx", project, CALC_RESULTS
    )  # an earlier run's: never this run's
    os.utime(old, (time.time() - 60, time.time() - 60))
    pre = run_hook("PreToolUse", pre_bash(project, command))
    updated = json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert updated == command + " --logger trx -v q"
    time.sleep(0.01)


def fed(project: Path) -> list[tuple[str, int, int, int]]:
    return [(r["decision"], r["exit"], r["tests"], r["errors"]) for r in wait_for_feed(project)]


def test_a_red_run_s_reports_feed_the_cache_and_the_tests_sidecar_speaks(
    project: Path, run_hook: HookRunner
) -> None:
    marked(project, run_hook)
    place_report("calc-green.trx", project, CALC_RESULTS).rename(
        project / CALC_RESULTS / "sidekit_net8.0_1.trx"
    )
    place_report("words-red.trx", project, "tests/Words.Tests/TestResults")
    said = recorded("second-red.txt", project)
    post = run_hook(
        "PostToolUseFailure", bash(project, "dotnet test", error=f"Exit code 1\n{said}")
    )
    assert (post.returncode, post.stderr) == (0, "")
    assert fed(project) == [("junit-fed", 1, 4, 0)]
    found = status_now(project)
    assert {k: v for k, v in found.items() if k != "clusters"} == {
        "runner": "vstest",
        "state": "failed",
        "passed": 3,
        "failed": 1,
        "newFailures": 1,
    }
    assert found["clusters"][0]["at"] == "tests/Words.Tests/JoinTests.cs:11"
    queued = [json.loads(line) for line in (project / ".sidekit/log/decisions.jsonl").open()]
    words = [record["text"] for record in queued if record.get("text")]
    assert len(words) == 1 and words[0].startswith("[sidecar:tests] vstest: 1 failed, 3 passed"), (
        words
    )
    kept = [
        p.read_text()
        for p in (project / ".sidekit" / "vstest").iterdir()
        if p.name.startswith("raw-")
    ]
    assert kept == [said]


def test_a_build_error_of_a_raw_run_is_a_compile_error_not_the_earlier_green(
    project: Path, run_hook: HookRunner
) -> None:
    marked(project, run_hook)
    said = recorded("build-error.txt", project)
    run_hook("PostToolUseFailure", bash(project, "dotnet test", error=f"Exit code 1\n{said}"))
    assert fed(project) == [("junit-fed", 1, 0, 1)]
    found = status_now(project)
    assert found["runner"] == "vstest" and found["state"] == "failed"
    assert [(c["type"], c["at"]) for c in found["clusters"]] == [
        ("compile error", "src/Calc/Calculator.cs:12")
    ]


def test_a_green_raw_run_feeds_the_cache_too(project: Path, run_hook: HookRunner) -> None:
    marked(project, run_hook)
    place_report("calc-green.trx", project, CALC_RESULTS).rename(
        project / CALC_RESULTS / "sidekit_net8.0_2.trx"
    )
    post = run_hook(
        "PostToolUse", bash(project, "dotnet test", "Passed!  - Failed: 0, Passed: 2\n")
    )
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")
    assert fed(project) == [("junit-fed", 0, 2, 0)]
    assert status_now(project) == {"runner": "vstest", "state": "passed", "passed": 2}
