"""JUnit XML reports into cache records, only reports newer than the run, and `sidekit ingest`."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from sidekit_hooks.runners.junit import adapter as junit
from testing.hooks import run_sidekit

SUREFIRE = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.acme.CalcTest" tests="4" errors="1" skipped="1" failures="1" time="1,234.5">
  <testcase name="adds" classname="com.acme.CalcTest" time="0.001"/>
  <testcase name="divides" classname="com.acme.CalcTest" time="0.002">
    <error message="/ by zero" type="java.lang.ArithmeticException">java.lang.ArithmeticException: / by zero
\tat com.acme.Calc.divide(Calc.java:12)
\tat com.acme.CalcTest.divides(CalcTest.java:30)
</error>
  </testcase>
  <testcase name="compares" classname="com.acme.CalcTest" time="1,000.5">
    <failure message="expected: &lt;3&gt; but was: &lt;4&gt;" type="org.opentest4j.AssertionFailedError">org.opentest4j.AssertionFailedError: expected: &lt;3&gt; but was: &lt;4&gt;
\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:55)
\tat com.acme.CalcTest.compares(CalcTest.java:40)
</failure>
  </testcase>
  <testcase name="later" classname="com.acme.CalcTest"><skipped/></testcase>
</testsuite>
"""


CALC = "src/main/java/com/acme/Calc.java"


def maven_project(root: Path) -> Path:
    (root / "pom.xml").write_text("<project/>")
    for rel in ("src/main/java/com/acme/Calc.java", "src/test/java/com/acme/CalcTest.java"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("")
    earlier = (
        time.time() - 60
    )  # the sources were there before the run (a same-instant mtime reads as changed)
    for path in [root / "pom.xml", *(root / "src").rglob("*.java")]:
        os.utime(path, (earlier, earlier))
    reports = root / "target" / "surefire-reports"
    reports.mkdir(parents=True)
    (reports / "TEST-com.acme.CalcTest.xml").write_text(SUREFIRE)
    return reports


def test_a_surefire_report_with_failures_errors_and_skips(project: Path) -> None:
    maven_project(project)
    result = junit.collect(str(project), time.time() - 5, 1, str(project / "nothing.txt"))
    test = "src/test/java/com/acme/CalcTest.java::"
    assert result.tests == {
        test + "adds": {"o": "passed", "d": 0.001},
        test + "divides": {
            "o": "error",
            "d": 0.002,
            "p": "call",
            "f": {
                "type": "ArithmeticException",
                "module": "java.lang",
                "message": "/ by zero",
                "at": "src/main/java/com/acme/Calc.java:12",
                "shape": "/",
                "frames": [
                    "src/main/java/com/acme/Calc.java:12 in divide",
                    "src/test/java/com/acme/CalcTest.java:30 in divides",
                ],
            },
        },
        test + "compares": {
            "o": "failed",
            "d": 1000.5,
            "p": "call",
            "f": {
                "type": "AssertionFailedError",
                "module": "org.opentest4j",
                "message": "expected: <3> but was: <4>",
                "at": "src/test/java/com/acme/CalcTest.java:40",
                "shape": "expected:",
                "frames": ["src/test/java/com/acme/CalcTest.java:40 in compares"],
            },
        },
        test + "later": {"o": "skipped", "d": 0.0},
    }


def test_a_report_older_than_the_run_never_speaks_for_it(project: Path) -> None:
    reports = maven_project(project)
    old = time.time() - 3600
    os.utime(reports / "TEST-com.acme.CalcTest.xml", (old, old))
    raw = project / "mvn.txt"
    raw.write_text(
        "[INFO] BUILD FAILURE\n[ERROR] COMPILATION ERROR : \n"
        f"[ERROR] {project}/src/main/java/com/acme/Calc.java:[3,5] cannot find symbol\n"
        "[ERROR] Failed to execute goal "
        "org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile "
        "(default-compile) on project demo: Compilation failure\n"
    )
    result = junit.collect(str(project), time.time() - 5, 1, str(raw))
    failure = result.errors.pop("src/main/java/com/acme/Calc.java")
    assert (result.tests, result.errors, result.last_words) == ({}, {}, "cannot find symbol")
    assert failure == {
        "type": "compile error",
        "message": "cannot find symbol",
        "at": f"{CALC}:3",
        "shape": "cannot",
    }


def test_a_report_written_just_before_the_run_is_not_the_runs_own(project: Path) -> None:
    reports = maven_project(
        project
    )  # a green run's report, written a moment before this run started
    before = junit.before_run(str(project))
    raw = project / "mvn.txt"
    raw.write_text(
        "[ERROR] COMPILATION ERROR : \n[ERROR] /elsewhere/Calc.java:[3,5] ';' expected\n"
    )
    result = junit.collect(str(project), time.time() - 5, 1, str(raw), before)
    assert (result.tests, list(result.errors)) == ({}, ["pom.xml"])
    assert result.errors["pom.xml"]["at"] == "/elsewhere/Calc.java:3"
    (reports / "TEST-com.acme.CalcTest.xml").write_text(
        SUREFIRE.replace('time="0.001"', 'time="0.003"')
    )
    assert (
        len(junit.collect(str(project), time.time() - 5, 1, str(raw), before).tests) == 4
    )  # rewritten: its own


FORK_DIED = """[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project demo: \n[ERROR] \n[ERROR] Please refer to /p/target/surefire-reports for the individual test results.
[ERROR] Please refer to dump files (if any exist) [date].dump, [date]-jvmRun[N].dump and [date].dumpstream.
[ERROR] The forked VM terminated without properly saying goodbye. VM crash or System.exit called?
[ERROR] Command was /bin/sh -c cd '/p' && java -jar surefirebooter.jar
[ERROR] Error occurred in starting fork, check output in log
[ERROR] Process Exit Code: 3
[ERROR] Crashed tests:
[ERROR] com.acme.CalcTest
"""
MAVEN_REASONS = [
    (
        FORK_DIED,
        "src/test/java/com/acme/CalcTest.java",
        "The forked VM terminated without properly saying goodbye.",
    ),
    (
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test "
        "(default-test) on "
        "project demo: There was a timeout in the fork -> [Help 1]\n[ERROR] \n[ERROR] To see the "
        "full stack trace",
        "pom.xml",
        "There was a timeout in the fork",
    ),
    (
        "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test "
        "(default-test) on "
        'project demo: No tests matching pattern "Nope" were executed! (Set '
        "-Dsurefire.failIfNoSpecifiedTests=false "
        "to ignore this error.) -> [Help 1]",
        "pom.xml",
        'No tests matching pattern "Nope" were executed!',
    ),
    (  # Maven 3.8 without -B colours its lines even into a pipe (held-out gson)
        "[\x1b[1;31mERROR\x1b[m] Failed to execute goal "
        "\x1b[32morg.apache.maven.plugins:maven-surefire-plugin:3.5.3:test"
        "\x1b[m \x1b[1m(default-test)\x1b[m on project \x1b[36mdemo\x1b[m: \x1b[1;31mNo tests "
        "matching pattern "
        '"Nope" were executed! (Set -Dsurefire.failIfNoSpecifiedTests=false to ignore this '
        "error.)\x1b[m -> "
        "\x1b[1m[Help 1]\x1b[m\n[\x1b[1;31mERROR\x1b[m] \n\x1b[0m\x1b[0m",
        "pom.xml",
        'No tests matching pattern "Nope" were executed!',
    ),
    (
        "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for "
        "task ':test'.\n",
        "pom.xml",
        "Execution failed for task ':test'.",
    ),
]


@pytest.mark.parametrize(("output", "where", "reason"), MAVEN_REASONS)
def test_a_red_run_without_a_failing_test_carries_mavens_reason(
    project: Path, output: str, where: str, reason: str
) -> None:
    maven_project(project)
    raw = project / "mvn.txt"
    raw.write_text(output)
    result = junit.collect(
        str(project), time.time() - 5, 1, str(raw), junit.before_run(str(project))
    )
    assert list(result.errors) == [where], output
    assert (
        result.errors[where]["message"].startswith(reason)
        and result.errors[where]["type"] == "build failed"
    )
    assert result.last_words.startswith(reason) and result.tests == {}
    assert result.errors[where].get("at") == (where if where.endswith(".java") else None)


def test_a_broken_report_is_an_error_not_a_crash(project: Path) -> None:
    reports = maven_project(project)
    (reports / "TEST-broken.xml").write_text("<testsuite><testcase")
    result = junit.collect(str(project), time.time() - 5, 1, str(project / "none.txt"))
    assert list(result.errors) == ["target/surefire-reports/TEST-broken.xml"]
    assert len(result.tests) == 4


def test_sidekit_ingest_feeds_the_cache_and_exits_red_for_a_red_report(project: Path) -> None:
    reports = maven_project(project)
    (project / ".git").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    done = run_sidekit("ingest", str(reports), cwd=project, env=env)
    answer = json.loads(done.stdout)
    assert done.returncode == 1, done.stderr
    assert {
        k: answer[k] for k in ("runner", "reports", "exit", "passed", "failed", "errors", "skipped")
    } == {
        "runner": "junit",
        "reports": 1,
        "exit": 1,
        "passed": 1,
        "failed": 1,
        "errors": 1,
        "skipped": 1,
    }
    assert [c["at"] for c in answer["clusters"]] == [
        "src/main/java/com/acme/Calc.java:12",
        "src/test/java/com/acme/CalcTest.java:40",
    ]
    status = run_sidekit("status", cwd=project, env=env)
    assert json.loads(status.stdout)["runner"] == "junit" and "stale" not in json.loads(
        status.stdout
    )
    later = time.time() + 5
    os.utime(project / "src/main/java/com/acme/Calc.java", (later, later))
    status = run_sidekit("status", cwd=project, env=env)
    answer = json.loads(status.stdout)
    assert (answer["stale"], answer["changed"]) == (True, ["src/main/java/com/acme/Calc.java"])


def test_a_report_dated_after_the_run_is_not_the_runs_own(project: Path) -> None:
    """An archive or a checkout keeps a committed report's date: one "from 2035" is from no run
    here."""
    reports = maven_project(project)
    future = time.time() + 9 * 365 * 86400
    os.utime(reports / "TEST-com.acme.CalcTest.xml", (future, future))
    assert junit.find_reports(str(project), time.time() - 5) == []
    assert junit.find_reports(str(project), 0.0, since_ns=time.time_ns() - 10**9) == []
    assert junit.find_reports(str(project), 0.0, before={}) == []
    now = time.time_ns()
    os.utime(reports / "TEST-com.acme.CalcTest.xml", ns=(now, now))
    assert junit.find_reports(str(project), 0.0, since_ns=now - 1, until_ns=now) == [
        str(reports / "TEST-com.acme.CalcTest.xml")
    ]
    assert junit.find_reports(str(project), 0.0, since_ns=now - 1, until_ns=now - 1) == []


def unreadable_reports(project: Path, outside: Path) -> Path:
    """A report folder holding every kind of report that cannot be read, beside one that can."""
    reports = maven_project(project)
    (reports / "TEST-broken.xml").write_text("<testsuite><testcase")
    (reports / "TEST-big.xml").write_text(SUREFIRE + " " * 2000)
    other = outside / "TEST-other.xml"
    other.write_text(SUREFIRE.replace("CalcTest", "SecretTest"))
    (reports / "TEST-link.xml").symlink_to(other)
    os.mkfifo(reports / "TEST-fifo.xml")
    return reports


def test_a_report_that_cannot_be_read_is_an_error_with_its_fix(
    project: Path, tmp_path: Path
) -> None:
    reports = unreadable_reports(project, tmp_path)
    paths = sorted(str(p) for p in reports.iterdir())
    result = junit.from_reports(paths, str(project), time.time(), 0, limit=len(SUREFIRE) + 1000)
    where = "target/surefire-reports/"
    assert {
        rel.removeprefix(where): (e["type"], e["message"]) for rel, e in result.errors.items()
    } == {
        "TEST-big.xml": (
            "report too large",
            f"{len(SUREFIRE) + 2000} bytes, over {len(SUREFIRE) + 1000}; "
            f"fix: sidekit ingest --max-bytes {len(SUREFIRE) + 2000} {where}TEST-big.xml",
        ),
        "TEST-broken.xml": (
            "malformed report",
            "unclosed token: line 1, column 11; fix: rerun the build that writes it, then: "
            f"sidekit ingest {where}TEST-broken.xml",
        ),
        "TEST-fifo.xml": (
            "report refused",
            f"not a regular file (a FIFO, a device); fix: rm {where}TEST-fifo.xml, rerun the "
            "build, "
            f"then: sidekit ingest {where}TEST-fifo.xml",
        ),
        "TEST-link.xml": (
            "report refused",
            "a symlink, never followed; fix: put the report itself there, then: sidekit ingest "
            f"{where}TEST-link.xml",
        ),
    }
    assert sorted(result.tests) == sorted(
        f"src/test/java/com/acme/CalcTest.java::{n}"
        for n in ("adds", "divides", "compares", "later")
    )


def test_a_report_behind_a_folder_that_leads_out_is_refused(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "other-checkout" / "surefire-reports"
    outside.mkdir(parents=True)
    (outside / "TEST-x.xml").write_text(SUREFIRE)
    (project / "target").mkdir()
    (project / "target" / "surefire-reports").symlink_to(outside)
    report = str(project / "target" / "surefire-reports" / "TEST-x.xml")
    assert junit.report_files(str(project)) == []  # the walk never enters a linked folder
    result = junit.from_reports([report], str(project), time.time(), 0)
    assert result.tests == {}
    assert result.errors["target/surefire-reports/TEST-x.xml"]["message"] == (
        "outside the project; fix: cp target/surefire-reports/TEST-x.xml TEST-x.xml && sidekit "
        "ingest TEST-x.xml"
    )


def test_sidekit_ingest_of_a_report_it_cannot_read_exits_red_naming_the_fix(project: Path) -> None:
    reports = maven_project(project)
    (project / ".git").mkdir()
    (reports / "TEST-com.acme.CalcTest.xml").write_text(
        SUREFIRE.replace("<error", "<system-out")
        .replace("</error>", "</system-out>")
        .replace("<failure", "<system-err")
        .replace("</failure>", "</system-err>")
    )
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    size = (reports / "TEST-com.acme.CalcTest.xml").stat().st_size
    done = run_sidekit("ingest", "--max-bytes", str(size - 1), str(reports), cwd=project, env=env)
    rel = "target/surefire-reports/TEST-com.acme.CalcTest.xml"
    assert (done.returncode, done.stderr) == (
        1,
        f"sidekit: {rel}: report too large, {size} bytes, over {size - 1}\n  fix: sidekit ingest "
        f"--max-bytes {size} {rel}\n",
    )
    answer = json.loads(done.stdout)
    assert (
        answer["exit"],
        answer["buildErrors"],
        answer["clusters"][0]["type"],
        "passed" in answer,
    ) == (
        1,
        1,
        "report too large",
        False,
    )
    status = json.loads(run_sidekit("status", cwd=project, env=env).stdout)
    assert (status["state"], status["collectErrors"]) == ("failed", 1)
    done = run_sidekit("ingest", "--max-bytes", str(size), str(reports), cwd=project, env=env)
    assert (done.returncode, done.stderr, json.loads(done.stdout)["passed"]) == (0, "", 3)


def test_a_well_formed_report_sidekit_does_not_read_says_so(project: Path) -> None:
    reports = maven_project(project)
    (reports / "results.xml").write_text(
        '<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"/>'
    )
    result = junit.from_reports([str(reports / "results.xml")], str(project), time.time(), 1)
    rel = "target/surefire-reports/results.xml"
    assert (result.errors[rel]["type"], result.errors[rel]["message"]) == (
        "unreadable report",
        "a TRX report, not JUnit XML: `sidekit ingest` reads it with the .NET reader; "
        f"fix: write a JUnit XML report there, then: sidekit ingest {rel}",
    )
