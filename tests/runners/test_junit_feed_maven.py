"""The agent's own raw `mvn test` through Bash, on the real two-module Maven build of
test_never_greener_maven.py, through the real hooks: PreToolUse marks the call, the raw run goes on
as written, PostToolUse(Failure) hands over, a detached worker feeds the cache from the reports this
run wrote. The cache starts green (the earlier run's reports, ingested, then touched to "a moment
ago"): a red run shows its failure, a compile error is a broken run (never the old green), and a run
of one module counts that module's tests only. Real Maven (its plugins cached in ~/.m2 between
runs)."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from realproj import env_for, git_init, shell, sidekit
from test_never_greener_maven import CALC, green_build, java_test, just_written, write

from testing.agent_shell import Ran
from testing.hooks import HOOK_SCRIPTS, bash, pre_bash
from testing.runs import run_text

pytestmark = pytest.mark.slow
__all__ = [
    "green_build"
]  # the module's fixture: one green build, shared with the never-greener cases

CUT = 10_000  # Claude Code keeps a longer error string as its head and tail


def hook(project: Path, event: str, payload: dict[str, Any], env: dict[str, str]) -> None:
    argv = [sys.executable, "-S", str(HOOK_SCRIPTS[event])]
    done = run_text(argv, stdin=json.dumps(payload), cwd=project, env=env, timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), done


def as_the_client_says(output: str, code: int) -> str:
    """PostToolUseFailure's `error`: `Exit code N`, then the output, its middle cut past 10,000
    characters."""
    text = f"Exit code {code}\n{output}"
    if len(text) <= CUT:
        return text
    return (
        f"{text[: CUT // 2]}\n... [{len(text) - CUT} characters truncated] ...\n{text[-CUT // 2 :]}"
    )


def agent_runs(project: Path, env: dict[str, str], command: str, call: str) -> Ran:
    """One Bash call of the agent, as Claude Code makes it, then the worker's feed."""
    hook(project, "PreToolUse", pre_bash(project, command, "s", tool_use_id=call), env)
    ran = shell(project, command, env, timeout=300)
    if ran.exit:
        after = bash(
            project,
            command,
            error=as_the_client_says(ran.output, ran.exit),
            session="s",
            tool_use_id=call,
        )
    else:
        after = bash(project, command, ran.output, session="s", tool_use_id=call)
    hook(project, str(after["hook_event_name"]), after, env)
    log, deadline = project / ".sidekit/log/decisions.jsonl", time.monotonic() + 60
    while time.monotonic() < deadline:
        lines = log.read_text().splitlines() if log.exists() else []
        if any(json.loads(line).get("decision") == "junit-fed" for line in lines):
            return ran
        time.sleep(0.1)
    raise AssertionError(f"the worker did not feed the cache: {log}")


def green_cache(green: Path, project: Path) -> dict[str, str]:
    """A copy of the green build whose cache holds that green run, its reports as if just
    written."""
    shutil.copytree(green, project, symlinks=True)
    git_init(project)
    env = env_for(project)
    found, code = sidekit(
        project, env, "ingest", "a/target/surefire-reports", "b/target/surefire-reports"
    )
    assert (code, found["passed"]) == (0, 2), found
    just_written(project)
    return env


def summary_of(project: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((project / ".sidekit/status.json").read_text())
    return found


def test_a_red_raw_run_shows_in_status(green_build: Path, tmp_path: Path) -> None:
    project = tmp_path / "m"
    env = green_cache(green_build, project)
    write(
        project, dict([java_test("b", "WordsTest", 'assertEquals("ab", "b" + "a", "b is wrong");')])
    )
    ran = agent_runs(project, env, "mvn -B test", "toolu_red")
    assert ran.exit == 1 and "Tests run: 1, Failures: 1" in ran.output
    status, code = sidekit(project, env, "status")
    top = status["clusters"][0]
    assert (code, status["state"], status["failed"], status["passed"]) == (0, "failed", 1, 1), (
        status
    )
    assert (top["type"], top["message"].startswith("b is wrong"), top["at"]) == (
        "AssertionFailedError",
        True,
        "b/src/test/java/demo/WordsTest.java:10",
    )
    failures, _ = sidekit(project, env, "failures")
    assert failures["failing"] == 1 and summary_of(project)["run"]["exit"] == 1


def test_a_compile_error_is_broken_never_the_old_green(green_build: Path, tmp_path: Path) -> None:
    project = tmp_path / "m"
    env = green_cache(green_build, project)
    write(project, {"a/src/main/java/demo/Calc.java": CALC.replace("a + b", "a + c")})
    ran = agent_runs(project, env, "mvn -B -q test", "toolu_javac")
    assert ran.exit == 1 and "cannot find symbol" in ran.output
    status, _ = sidekit(project, env, "status")
    top = status["clusters"][0]
    assert (status["state"], status["collectErrors"], top["type"], top["message"], top["at"]) == (
        "failed",
        1,
        "compile error",
        "cannot find symbol",
        "a/src/main/java/demo/Calc.java:7",
    ), status
    # No test of this run passed: the two passes status still counts are the earlier run's
    # (`older`), as after any run that did not reach them; the stale reports were not read as this
    # run's.
    summary = summary_of(project)
    assert (summary["run"]["exit"], summary["run"]["counts"], summary["run"]["complete"]) == (
        1,
        {},
        False,
    )
    assert (status["passed"], summary["older"]) == (2, 2)


def test_a_run_of_one_module_counts_that_modules_reports_only(
    green_build: Path, tmp_path: Path
) -> None:
    project = tmp_path / "m"
    env = green_cache(green_build, project)
    ran = agent_runs(project, env, "cd a && mvn -B -q test", "toolu_one")
    assert ran.exit == 0
    summary = summary_of(project)
    assert (summary["run"]["exit"], summary["run"]["counts"], summary["run"]["args"]) == (
        0,
        {"passed": 1},
        ["-B", "-q", "test"],
    )
