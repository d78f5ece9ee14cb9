"""`sidekit ingest` reads TRX: a file, or a folder holding `*.trx`, named by the project's
platform."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dotnet_demo import place_report, solution
from test_dotnet_project import MSTEST_RUNNER

from testing.hooks import run_sidekit


def ingest(project: Path, clean_env: dict[str, str], *paths: str) -> tuple[dict[str, Any], int]:
    env = {k: v for k, v in clean_env.items() if not k.startswith("SIDEKIT_")}
    done = run_sidekit("ingest", *paths, "--project", str(project), cwd=project, env=env)
    assert done.stdout.count("\n") == 1 and done.stderr == "", (done.stdout, done.stderr)
    return {
        k: v for k, v in json.loads(done.stdout).items() if k not in ("generation", "secs")
    }, done.returncode


def test_a_red_trx_file_is_read_and_the_exit_is_red(
    project: Path, clean_env: dict[str, str]
) -> None:
    solution(project)
    place_report("xunit-vstest.trx", project, "artifacts")
    found, code = ingest(project, clean_env, "artifacts/xunit-vstest.trx")
    assert code == 1
    assert {k: v for k, v in found.items() if k != "clusters"} == {
        "runner": "vstest",
        "reports": 1,
        "exit": 1,
        "passed": 2,
        "failed": 3,
        "skipped": 1,
        "newFailures": 3,
    }
    assert [(c["at"], c.get("affected", 1)) for c in found["clusters"]] == [
        ("src/Calc/Calculator.cs:9", 2),
        ("tests/Calc.Tests/CalculatorTests.cs:21", 1),
    ]


def test_a_folder_s_trx_files_of_an_mtp_project(project: Path, clean_env: dict[str, str]) -> None:
    solution(project, MSTEST_RUNNER)
    place_report("calc-green.trx", project, "results")
    found, code = ingest(project, clean_env, "results")
    assert (code, found) == (0, {"runner": "mtp", "reports": 1, "exit": 0, "passed": 2})


def test_no_report_at_the_path_is_an_error_that_says_what_to_pass(
    project: Path, clean_env: dict[str, str]
) -> None:
    (project / "empty").mkdir()
    done = run_sidekit("ingest", "empty", "--project", str(project), cwd=project, env=clean_env)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "pass a JUnit XML or TRX file, or a folder holding some" in done.stderr + done.stdout
