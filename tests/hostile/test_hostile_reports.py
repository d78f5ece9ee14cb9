"""A report counts only for the run that wrote it (#31 Deliver 3), driven from the outside: the real
PreToolUse and PostToolUse hooks around an agent's raw `mvn test` (the run itself simulated: what
Maven prints, what it writes), then the detached worker's feed and `sidekit status`; and `sidekit
ingest`.

A repository can commit `target/surefire-reports/` (an archive or a checkout keeps the files' dates,
so a report can be "from 2035"), link a report to another checkout's, or hold a report too large to
read. None of these may make a run read greener, or another project's failures read as this
one's."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from testing.hooks import bash, pre_bash
from testing.hostile import cli, hook, tree

COMMAND = "mvn -B test"
NOTHING_RAN = "[INFO] --- surefire:3.2.5:test (default-test) @ demo ---\n[INFO] No tests to run.\n[INFO] BUILD SUCCESS\n"
IN_2035 = 2_051_222_400.0  # 2035-01-01: a date an archive kept


def suite(name: str, passed: int, failing: str = "") -> str:
    """A Surefire report: `passed` passing tests of class `name`, and one failing test when
    `failing` is its message."""
    cases = "".join(
        f'<testcase name="t{n}" classname="demo.{name}" time="0.001"/>' for n in range(passed)
    )
    if failing:
        cases += f'<testcase name="broken" classname="demo.{name}"><failure message="{failing}" type="AssertionError"/></testcase>'
    return f'<?xml version="1.0"?><testsuite name="demo.{name}" tests="{passed + bool(failing)}">{cases}</testsuite>'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "target" / "surefire-reports").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "pom.xml").write_text("<project/>")
    return root


def report(project: Path, name: str) -> Path:
    return project / "target" / "surefire-reports" / f"TEST-demo.{name}.xml"


def fed(project: Path, timeout: float = 30.0) -> dict[str, Any]:
    """The worker's decision record once it has fed the cache (or found nothing to feed)."""
    log, deadline = project / ".sidekit" / "log" / "decisions.jsonl", time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines() if log.exists() else []:
            record: dict[str, Any] = json.loads(line)
            if str(record.get("decision", "")).startswith("junit-"):
                return record
        time.sleep(0.1)
    raise AssertionError(f"the worker never fed the cache: {log}")


def agent_runs_mvn(project: Path, during: Any = None, output: str = NOTHING_RAN) -> dict[str, Any]:
    """One raw `mvn -B test` of the agent through the real hooks: PreToolUse marks it, `during()` is
    what the run writes, PostToolUse hands over, the worker feeds the cache; then `sidekit
    status`."""
    before = hook("PreToolUse", pre_bash(project, COMMAND, tool_use_id="toolu_mvn"), project)
    assert (before.returncode, before.stdout) == (0, ""), before
    assert list((project / ".sidekit" / "junit-feed").iterdir()), "PreToolUse marked no run"
    time.sleep(0.05)  # the run takes a moment: what it writes is dated after the mark
    if during is not None:
        during()
    after = hook("PostToolUse", bash(project, COMMAND, output, tool_use_id="toolu_mvn"), project)
    assert (after.returncode, after.stdout) == (0, ""), after
    fed(project)
    done = cli("status", project=project)
    assert done.returncode == 0, done.stderr
    status: dict[str, Any] = json.loads(done.stdout)
    return status


def test_a_committed_report_dated_2035_is_not_the_runs(project: Path) -> None:
    """The repository ships 40 passing tests in a report dated 2035; a `mvn test` that ran nothing
    must not read `{"state":"passed","passed":40}`."""
    shipped = report(project, "ShippedTest")
    shipped.write_text(suite("ShippedTest", 40))
    os.utime(shipped, (IN_2035, IN_2035))
    status = agent_runs_mvn(project)
    assert "passed" not in status and status.get("state") != "passed", status
    assert status == {"generation": 1, "runner": "junit", "state": "noTests"}, status


def test_control_a_report_the_run_writes_counts(project: Path) -> None:
    status = agent_runs_mvn(
        project, lambda: report(project, "CalcTest").write_text(suite("CalcTest", 3))
    )
    assert (status["state"], status["passed"]) == ("passed", 3), status


def test_a_report_linked_to_another_checkout_never_reaches_this_cache(
    project: Path, tmp_path: Path
) -> None:
    """`TEST-x.xml` is a committed link to another checkout's report, which that checkout's build
    rewrites while this run goes on: its failure is not this project's."""
    other = tmp_path / "other-checkout" / "target" / "surefire-reports" / "TEST-demo.SecretTest.xml"
    other.parent.mkdir(parents=True)
    other.write_text(suite("SecretTest", 1, "secret failure"))
    report(project, "SecretTest").symlink_to(other)
    outside = tree(other.parent.parent.parent)
    status = agent_runs_mvn(
        project, lambda: other.write_text(suite("SecretTest", 1, "secret failure"))
    )
    cache = (project / ".sidekit" / "status.json").read_text()
    assert "secret failure" not in cache and "SecretTest" not in cache, cache
    assert status == {"generation": 1, "runner": "junit", "state": "noTests"}, status
    assert tree(other.parent.parent.parent).keys() == outside.keys()


def test_a_report_linked_out_while_the_run_goes_on_is_an_error_naming_it(
    project: Path, tmp_path: Path
) -> None:
    """A link that appears during the run (so it is dated as the run's) is refused aloud: the run is
    an error at the link, never the other checkout's failure and never green."""
    other = tmp_path / "other-checkout" / "TEST-demo.SecretTest.xml"
    other.parent.mkdir(parents=True)
    other.write_text(suite("SecretTest", 1, "secret failure"))
    status = agent_runs_mvn(project, lambda: report(project, "SecretTest").symlink_to(other))
    cache = (project / ".sidekit" / "status.json").read_text()
    assert "secret failure" not in cache, cache
    assert (
        status["state"],
        status["collectErrors"],
        status["clusters"][0]["type"],
        status["clusters"][0]["first"],
    ) == (
        "failed",
        1,
        "report refused",
        "target/surefire-reports/TEST-demo.SecretTest.xml",
    ), status


def test_ingest_of_a_55_mb_report_with_a_failure_is_red(project: Path) -> None:
    """A report over the size limit was skipped in silence: exit 0 and `noTests` for a failing
    run."""
    big = report(project, "BigTest")
    with big.open("w") as out:
        out.write('<?xml version="1.0"?><testsuite name="demo.BigTest" tests="1">')
        out.write(
            '<testcase name="broken" classname="demo.BigTest"><failure message="big failure">'
        )
        out.write("x" * 55_000_000)
        out.write("</failure></testcase></testsuite>")
    size, rel = big.stat().st_size, "target/surefire-reports/TEST-demo.BigTest.xml"
    done = cli("ingest", rel, project=project)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert done.stderr == (
        f"sidekit: {rel}: report too large, {size} bytes, over 50000000\n  fix: sidekit ingest "
        f"--max-bytes {size} {rel}\n"
    )
    status = json.loads(cli("status", project=project).stdout)
    assert (status["state"], status["collectErrors"], status["clusters"][0]["type"]) == (
        "failed",
        1,
        "report too large",
    ), status
    again = cli("ingest", "--max-bytes", str(size), rel, project=project)
    assert (again.returncode, json.loads(again.stdout)["failed"]) == (1, 1), again.stderr


def test_control_ingest_of_a_green_report_is_green(project: Path) -> None:
    report(project, "CalcTest").write_text(suite("CalcTest", 2))
    done = cli("ingest", "target/surefire-reports", project=project)
    assert (done.returncode, json.loads(done.stdout)["passed"]) == (0, 2), done.stderr
