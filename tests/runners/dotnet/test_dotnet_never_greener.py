"""Never greener, `dotnet test`: a build error, a crash of the test host, no tests, a filter that
matches none, MTP's zero tests, a second project red (with and without its report). `sidekit test`
runs a stand-in `dotnet` (a POSIX sh script on PATH: there is no .NET SDK on the machines this is
built on) that prints a recorded console output (cases/) and writes the recorded TRX files where
dotnet writes them; a green TRX of an earlier run is already in the project and must never speak for
this one. The answer states dotnet's exit code, and never reads greener than the run."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from dotnet_demo import CASES, TEST_PROJECTS, place_report, recorded, solution
from test_dotnet_project import MSTEST_RUNNER, MTP_GLOBAL

from testing.hooks import run_sidekit

FAKE_DOTNET = """#!/bin/sh
# The stand-in dotnet: what it was asked, then the recorded run.
printf '%s\\n' "$@" > "$FAKE_DOTNET_DIR/argv"
if [ -d "$FAKE_DOTNET_DIR/reports" ]; then cp -R "$FAKE_DOTNET_DIR/reports/." "$PWD/"; fi
cat "$FAKE_DOTNET_DIR/out.txt"
exit "$(cat "$FAKE_DOTNET_DIR/exit")"
"""
CALC_RESULTS = "tests/Calc.Tests/TestResults"
WORDS_RESULTS = "tests/Words.Tests/TestResults"
LOST = ("generation", "secs")  # what moves from run to run


@pytest.fixture
def dotnet(tmp_path: Path, project: Path, clean_env: dict[str, str]) -> dict[str, str]:
    """The stand-in dotnet on PATH; its folder in FAKE_DOTNET_DIR. The project: the demo solution,
    with a green report an earlier run left."""
    folder = tmp_path / "fake-dotnet"
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "dotnet").write_text(FAKE_DOTNET)
    (folder / "bin" / "dotnet").chmod(0o755)
    solution(project)
    old = place_report("calc-green.trx", project, CALC_RESULTS)
    os.utime(old, (time.time() - 60, time.time() - 60))
    env = {k: v for k, v in clean_env.items() if not k.startswith("SIDEKIT_")}
    return dict(env, PATH=f"{folder / 'bin'}:{env.get('PATH', '')}", FAKE_DOTNET_DIR=str(folder))


def recorded_run(
    env: dict[str, str], project: Path, out: str, exit_code: int, reports: dict[str, str]
) -> None:
    """What the stand-in dotnet prints, exits with and writes (report name -> project folder)."""
    folder = Path(env["FAKE_DOTNET_DIR"])
    (folder / "out.txt").write_text(recorded(out, project) if out else "")
    (folder / "exit").write_text(str(exit_code))
    for name, target in reports.items():
        (folder / "reports" / target).mkdir(parents=True, exist_ok=True)
        (folder / "reports" / target / f"sidekit_{name}").write_bytes((CASES / name).read_bytes())


def sidekit_test(
    env: dict[str, str], project: Path, *args: str
) -> tuple[dict[str, Any], int, list[str]]:
    done = run_sidekit("test", "--project", str(project), *args, cwd=project, env=env)
    assert done.stdout.count("\n") == 1 and done.stderr == "", (done.stdout, done.stderr)
    found = {k: v for k, v in json.loads(done.stdout).items() if k not in LOST}
    argv = (Path(env["FAKE_DOTNET_DIR"]) / "argv").read_text().splitlines()
    return found, done.returncode, argv


def cluster(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in found["clusters"][0].items() if k != "id"}


def test_a_build_error_is_a_compile_error_at_its_file_and_line_never_zero_failed(
    dotnet: dict[str, str], project: Path
) -> None:
    recorded_run(dotnet, project, "build-error.txt", 1, {})
    found, code, argv = sidekit_test(dotnet, project)
    assert argv == ["test", "--logger", "trx", "-v", "q"]
    assert code == 1
    message = "CS0103: The name 'y' does not exist in the current context"
    assert {k: v for k, v in found.items() if k != "clusters"} == {
        "runner": "vstest",
        "exit": 1,
        "buildErrors": 1,
        "newFailures": 1,
    }
    assert cluster(found) == {
        "type": "compile error",
        "phase": "collect",
        "at": "src/Calc/Calculator.cs:12",
        "message": message,
        "new": 1,
        "first": "src/Calc/Calculator.cs",
    }


def test_a_crashed_test_host_is_an_error_of_the_run(dotnet: dict[str, str], project: Path) -> None:
    recorded_run(dotnet, project, "crash.txt", 1, {"crashed.trx": CALC_RESULTS})
    found, code, _argv = sidekit_test(dotnet, project)
    assert code == 1
    assert {k: v for k, v in found.items() if k != "clusters"} == {
        "runner": "vstest",
        "exit": 1,
        "passed": 1,
        "buildErrors": 1,
        "newFailures": 1,
    }
    assert cluster(found) == {
        "type": "test run aborted",
        "phase": "collect",
        "message": "The active test run was aborted. Reason: Test host process crashed : Stack "
        "over\u2026",
        "new": 1,
        "first": f"{CALC_RESULTS}/sidekit_crashed.trx",
    }


@pytest.mark.parametrize(
    ("out", "args"),
    [("no-tests.txt", ()), ("filter-none.txt", ("--filter", "FullyQualifiedName~Nope"))],
)
def test_no_tests_and_a_filter_that_matches_none_are_no_tests_not_a_pass(
    dotnet: dict[str, str], project: Path, out: str, args: tuple[str, ...]
) -> None:
    recorded_run(dotnet, project, out, 0, {"empty.trx": CALC_RESULTS})
    found, code, argv = sidekit_test(dotnet, project, "--", *args)
    assert argv == ["test", *args, "--logger", "trx", "-v", "q"]
    assert (code, found) == (0, {"runner": "vstest", "exit": 0, "state": "noTests"})


def test_mtp_s_zero_tests_keeps_its_exit_code(dotnet: dict[str, str], project: Path) -> None:
    for relative in TEST_PROJECTS:
        (project / relative).write_text(MSTEST_RUNNER)
    (project / "global.json").write_text(MTP_GLOBAL)
    recorded_run(dotnet, project, "mtp-zero.txt", 8, {})
    found, code, argv = sidekit_test(dotnet, project)
    assert argv == ["test", "--report-trx"]
    assert (code, found) == (
        8,
        {"runner": "mtp", "exit": 8, "state": "noTests", "said": "Zero tests ran"},
    )


def test_a_second_project_red(dotnet: dict[str, str], project: Path) -> None:
    recorded_run(
        dotnet,
        project,
        "second-red.txt",
        1,
        {"calc-green.trx": CALC_RESULTS, "words-red.trx": WORDS_RESULTS},
    )
    found, code, _argv = sidekit_test(dotnet, project)
    assert code == 1
    assert {k: v for k, v in found.items() if k != "clusters"} == {
        "runner": "vstest",
        "exit": 1,
        "passed": 3,
        "failed": 1,
        "newFailures": 1,
    }
    assert cluster(found) == {
        "type": "assertion",
        "at": "tests/Words.Tests/JoinTests.cs:11",
        "message": 'Assert.Equal() Failure: Strings differ Expected: "a b" Actual: "ab"',
        "new": 1,
        "first": "tests/Words.Tests/JoinTests.cs::Joins",
    }


def test_a_second_project_red_whose_report_is_missing_is_an_error_of_its_assembly(
    dotnet: dict[str, str], project: Path
) -> None:
    recorded_run(dotnet, project, "second-red.txt", 1, {"calc-green.trx": CALC_RESULTS})
    found, code, _argv = sidekit_test(dotnet, project)
    assert code == 1
    assert found == {
        "runner": "vstest",
        "exit": 1,
        "passed": 2,
        "buildErrors": 1,
        "newFailures": 1,
        "clusters": [
            {
                "id": found["clusters"][0]["id"],
                "type": "test run failed",
                "phase": "collect",
                "message": "1 failed in words.tests.dll; no TRX report of this run covers it",
                "new": 1,
                "first": "words.tests.dll",
            }
        ],
    }


def test_a_red_exit_with_nothing_else_to_show_is_an_error_in_dotnet_s_words(
    dotnet: dict[str, str], project: Path
) -> None:
    recorded_run(dotnet, project, "", 1, {})
    (Path(dotnet["FAKE_DOTNET_DIR"]) / "out.txt").write_text(
        "Something went wrong that sidekit cannot read.\n"
    )
    found, code, _argv = sidekit_test(dotnet, project)
    assert code == 1
    assert {k: v for k, v in found.items() if k != "clusters"} == {
        "runner": "vstest",
        "exit": 1,
        "buildErrors": 1,
        "newFailures": 1,
    }
    assert cluster(found) == {
        "type": "dotnet test failed",
        "phase": "collect",
        "message": "Something went wrong that sidekit cannot read. (exit 1)",
        "new": 1,
        "first": ".",
    }


JUNIT_LOGGER = """<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testsuite name="Words.Tests.dll" tests="2" failures="1" errors="0" skipped="0" time="0.02">
    <testcase classname="Demo.Words.Tests.JoinTests" name="Joins" time="0.011">
      <failure type="failure" message="Assert.Equal() Failure">at Demo.Words.Tests.JoinTests.Joins()</failure>
    </testcase>
    <testcase classname="Demo.Words.Tests.JoinTests" name="Empty" time="0.001" />
  </testsuite>
</testsuites>
"""


def test_junit_a_logger_writes_into_test_results_is_read_too(
    dotnet: dict[str, str], project: Path
) -> None:
    """`--logger junit` (JunitXml.TestLogger) writes `TestResults/TestResults.xml` beside the
    TRX."""
    recorded_run(dotnet, project, "", 1, {})
    folder = Path(dotnet["FAKE_DOTNET_DIR"]) / "reports" / WORDS_RESULTS
    folder.mkdir(parents=True)
    (folder / "TestResults.xml").write_text(JUNIT_LOGGER)
    found, code, _argv = sidekit_test(dotnet, project, "--", "--logger", "junit")
    assert code == 1
    assert {k: v for k, v in found.items() if k != "clusters"} == {
        "runner": "vstest",
        "exit": 1,
        "passed": 1,
        "failed": 1,
        "newFailures": 1,
    }
    assert (
        cluster(found)["first"] == "tests/Words.Tests/JoinTests.cs::Joins"
    )  # the class's file, as for TRX
