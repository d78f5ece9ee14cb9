"""TRX reports into cache records: outcomes, durations, messages and the innermost project frame,
for xUnit, NUnit and MSTest through VSTest and MSTest through MTP (cases/, see dotnet_demo for the
public files they were checked against); and the defusing of a report that is hostile or not one."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from dotnet_demo import CASES, solution

from sidekit_hooks.runners.dotnet import sources, trx

CALC = "tests/Calc.Tests/CalculatorTests.cs"


def records(name: str, root: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    result = trx.from_reports([str(CASES / name)], str(solution(root)), 0.0, 1, "vstest")
    return result.tests, result.errors


def failure(kind: str, message: str, shape: str, *frames: str, module: str = "") -> dict[str, Any]:
    found: dict[str, Any] = {
        "type": kind,
        **({"module": module} if module else {}),
        "message": message,
    }
    if frames:
        found |= {"at": frames[0].partition(" in ")[0], "frames": list(frames)}
    return found | {"shape": shape}


def test_xunit_through_vstest_windows_paths_from_a_ci_agent_map_to_the_project(
    project: Path,
) -> None:
    tests, errors = records("xunit-vstest.trx", project)
    divide = failure(
        "DivideByZeroException",
        "Attempted to divide by zero.",
        "Attempted",
        "src/Calc/Calculator.cs:9 in Div",
        f"{CALC}:27 in Divides",
        module="System",
    )
    assert tests == {
        f"{CALC}::Adds": {"o": "passed", "d": 0.0012},
        f"{CALC}::Subtracts": {
            "o": "failed",
            "d": 0.0031,
            "p": "call",
            "f": failure(
                "assertion",
                "Assert.Equal() Failure Expected: 1 Actual: -1",
                "Assert.Equal()",
                f"{CALC}:21 in Subtracts",
            ),
        },
        f"{CALC}::Divides": {"o": "failed", "d": 0.0005, "p": "call", "f": divide},
        f"{CALC}::DividesByTwo": {
            "o": "failed",
            "d": 0.0004,
            "p": "call",
            "f": divide
            | {"frames": ["src/Calc/Calculator.cs:9 in Div", f"{CALC}:33 in DividesByTwo"]},
        },
        f"{CALC}::Later": {"o": "skipped", "d": 0.001},
        f"{CALC}::Adds two big numbers": {
            "o": "passed",
            "d": 0.0001,
        },  # a display name keeps its words
    }
    assert errors == {}


def test_nunit_a_one_time_setup_that_threw_fails_its_fixture_at_the_innermost_project_frame(
    project: Path,
) -> None:
    tests, errors = records("nunit-vstest.trx", project)
    setup = failure(
        "InvalidOperationException",
        "database is down",
        "database",
        "src/Db/Connection.cs:31 in Open",
        "tests/Db.Tests/MigrationTests.cs:12 in StartDatabase",
        module="System",
    )
    assert tests == {
        "tests/Db.Tests/RepositoryTests.cs::Saves": {"o": "passed", "d": 0.001},
        "tests/Db.Tests/RepositoryTests.cs::Loads(2)": {
            "o": "failed",
            "d": 0.001,
            "p": "call",
            "f": failure(
                "assertion",
                "Expected: 2 But was: 0",
                "Expected:",
                "tests/Db.Tests/RepositoryTests.cs:18 in Loads",
            ),
        },
        "tests/Db.Tests/RepositoryTests.cs::Ignored": {"o": "skipped", "d": 0.001},
        "tests/Db.Tests/MigrationTests.cs::Migrates": {
            "o": "failed",
            "d": 0.001,
            "p": "setup",
            "f": setup,
        },
        "tests/Db.Tests/MigrationTests.cs::RollsBack": {
            "o": "failed",
            "d": 0.001,
            "p": "setup",
            "f": setup,
        },
    }
    assert errors == {}


def test_mstest_through_vstest_class_initialize_timeout_and_an_assembly_qualified_class(
    project: Path,
) -> None:
    tests, _errors = records("mstest-vstest.trx", project)
    query = "tests/Db.Tests/QueryTests.cs"
    assert tests == {
        f"{query}::Counts": {
            "o": "failed",
            "d": 0.001,
            "p": "call",
            "f": failure(
                "assertion",
                "Assert.AreEqual failed. Expected:<3>. Actual:<2>.",
                "Assert.AreEqual",
                f"{query}:22 in Counts",
            ),
        },
        "tests/Db.Tests/CacheTests.cs::Finds": {
            "o": "failed",
            "d": 0.001,
            "p": "setup",
            "f": failure(
                "InvalidOperationException",
                "cache is cold.",
                "cache",
                "src/Db/Cache.cs:40 in Warm",
                "tests/Db.Tests/CacheTests.cs:15 in Init",
                module="System",
            ),
        },
        f"{query}::Slow": {
            "o": "failed",
            "d": 2.015,
            "p": "call",
            "f": failure(
                "timeout",
                "Test 'Slow' exceeded execution timeout period.",
                "Test '\u2026' exceeded execution timeout period.",
            ),
        },
        f"{query}::Lists": {"o": "passed", "d": 0.001},
        f"{query}::Connects": {
            "o": "failed",
            "d": 0.001,
            "p": "call",
            "f": failure(
                "ArgumentNullException",
                "Value cannot be null. (Parameter 'host')",
                "Value",
                "src/Db/Connection.cs:44 in Open",
                f"{query}:30 in Connects",
                module="System",
            ),
        },
    }


def test_mstest_through_mtp_a_timeout_outcome_and_deterministic_build_paths(project: Path) -> None:
    tests, errors = records("mstest-mtp.trx", project)
    assert tests == {
        f"{CALC}::Adds": {"o": "passed", "d": 0.001},
        f"{CALC}::Waits": {
            "o": "failed",
            "d": 1.003,
            "p": "call",
            "f": failure(
                "timeout",
                "Test 'Waits' timed out after 1000ms",
                "Test '\u2026' timed out after 1000ms",
            ),
        },
        f"{CALC}::Subtracts": {
            "o": "failed",
            "d": 0.001,
            "p": "call",
            "f": failure(
                "assertion",
                "Assert.AreEqual failed. Expected:<1>. Actual:<-1>.",
                "Assert.AreEqual",
                # `/_/tests/...`: a deterministic build's path, matched by its tail
                f"{CALC}:21 in Subtracts",
            ),
        },
    }
    assert (
        errors == {}
    )  # MTP's "Exit code indicates failure: '2'" RunInfo is the failures, not a broken run


def test_a_run_whose_test_host_crashed_is_an_error_of_its_report(project: Path) -> None:
    tests, errors = records("crashed.trx", project)
    assert tests == {f"{CALC}::Adds": {"o": "passed", "d": 0.001}}
    where = os.path.relpath(CASES / "crashed.trx", project)
    message = "The active test run was aborted. Reason: Test host process crashed : Stack overflow."
    assert errors == {
        where: {"type": "test run aborted", "message": message, "shape": "test run aborted"}
    }


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        ("Passed", "passed"),
        ("PassedButRunAborted", "passed"),
        ("NotExecuted", "skipped"),
        ("Inconclusive", "skipped"),
        ("Failed", "failed"),
        ("Timeout", "failed"),
        ("Error", "error"),
        ("Aborted", "error"),
        ("NotRunnable", "error"),
        ("InProgress", "error"),
        ("SomethingNew", "error"),
    ],
)
def test_only_passing_outcomes_are_green(outcome: str, expected: str) -> None:
    assert trx.outcome_of(outcome.lower()) == expected


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("00:00:00.0032953", 0.0033), ("01:02:03.5000000", 3723.5), ("00:00:00", 0.0), (None, 0.0)],
)
def test_durations_are_dotnet_timespans(text: str | None, seconds: float) -> None:
    assert trx.seconds(text) == seconds


def bomb(root: Path) -> Path:
    levels = "".join(
        f'<!ENTITY l{i} "&l{i - 1};&l{i - 1};&l{i - 1};&l{i - 1};">' for i in range(1, 12)
    )
    path = root / "bomb.trx"
    path.write_text(
        f'<?xml version="1.0"?><!DOCTYPE TestRun [<!ENTITY l0 "lol">{levels}]>'
        '<TestRun xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010"><Results>'
        '<UnitTestResult testName="&l11;" outcome="Passed"/></Results></TestRun>'
    )
    return path


def test_a_report_that_declares_entities_is_never_parsed(project: Path) -> None:
    result = trx.from_reports([str(bomb(project))], str(project), 0.0, 0, "vstest")
    assert (result.tests, result.errors) == (
        {},
        {
            "bomb.trx": {
                "type": "unreadable report",
                "message": "declares a DOCTYPE or entities (no TRX writer does); not parsed",
                "shape": "unreadable report",
            }
        },
    )


def test_a_huge_report_a_link_out_of_the_project_and_a_fifo_are_not_read(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trx, "MAX_REPORT_BYTES", 1000)
    big = project / "big.trx"
    big.write_text((CASES / "calc-green.trx").read_text())
    outside = tmp_path / "elsewhere.trx"
    outside.write_text((CASES / "calc-green.trx").read_text())
    (project / "link.trx").symlink_to(outside)
    os.mkfifo(project / "fifo.trx")
    paths = [str(project / name) for name in ("big.trx", "link.trx", "fifo.trx")]
    result = trx.from_reports(paths, str(project), 0.0, 0, "vstest")
    assert result.tests == {}
    assert {k: v["message"] for k, v in result.errors.items()} == {
        "big.trx": "over 1,000 bytes; not read",
        "link.trx": f"{project / 'link.trx'} is a symlink; refused",
        "fifo.trx": f"{project / 'fifo.trx'} is not a regular file; refused",
    }


def test_a_junit_file_handed_to_the_trx_reader_says_what_it_is(project: Path) -> None:
    (project / "r.trx").write_text('<testsuites><testsuite name="x"/></testsuites>')
    result = trx.from_reports([str(project / "r.trx")], str(project), 0.0, 0, "vstest")
    assert result.errors["r.trx"]["message"] == "not a TRX report (root element 'testsuites')"


def test_a_frame_maps_by_its_longest_unique_tail_and_an_ambiguous_file_name_maps_to_nothing(
    project: Path,
) -> None:
    solution(project)
    (project / "tests/Words.Tests/Calculator.cs").write_text("")  # a second Calculator.cs
    index = sources.SourceIndex(str(project))
    assert index.file_of_path(str(project / "src/Calc/Calculator.cs")) == "src/Calc/Calculator.cs"
    assert index.file_of_path("D:\\a\\1\\s\\src\\Calc\\Calculator.cs") == "src/Calc/Calculator.cs"
    assert index.file_of_path("/_/src/Calc/Calculator.cs") == "src/Calc/Calculator.cs"
    assert index.file_of_path("/elsewhere/Calculator.cs") == ""
    assert index.file_of_path("/elsewhere/Cache.cs") == "src/Db/Cache.cs"
    assert (
        index.file_of_class("Demo.Calc.Calculator") == "src/Calc/Calculator.cs"
    )  # the namespace's folders win
    assert index.file_of_class("Demo.Db.Tests.QueryTests+Nested") == "tests/Db.Tests/QueryTests.cs"
    assert index.file_of_class("Demo.Nowhere") == ""
