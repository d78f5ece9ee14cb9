"""What `dotnet test` printed: MSBuild errors in MSBuild's documented diagnostic format, VSTest's
per-assembly summaries, an aborted run, no tests (recorded output in cases/, see dotnet_demo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dotnet_demo import recorded, solution

from sidekit_hooks.runners.dotnet import console, sources


def said(text: str, root: Path) -> console.Said:
    return console.read(text, sources.SourceIndex(str(solution(root))))


def test_a_compile_error_is_at_its_file_and_line_once_though_msbuild_prints_it_twice(
    project: Path,
) -> None:
    found = said(recorded("build-error.txt", project), project)
    message = "CS0103: The name 'y' does not exist in the current context"
    assert found.build_errors == {
        "src/Calc/Calculator.cs": {
            "type": "compile error",
            "message": message,
            "at": "src/Calc/Calculator.cs:12",
            "shape": "CS0103:",
        }
    }
    assert (found.last_words, found.aborted, found.no_tests, found.red_assemblies) == (
        message,
        "",
        "",
        {},
    )


def test_compile_errors_in_two_files_are_two_errors_each_file_s_first(project: Path) -> None:
    lines = [
        "{root}/src/Db/Cache.cs(3,1): error CS1002: ; expected [{root}/src/Db/Db.csproj]",
        "{root}/src/Db/Cache.cs(9,1): error CS1513: } expected [{root}/src/Db/Db.csproj]",
        "{root}/src/Calc/Calculator.cs(12,20): error CS0103: The name 'y' does not exist "
        "[{root}/src/Calc/Calc.csproj]",
    ]
    found = said("\n".join(lines).replace("{root}", str(project)), project)
    assert {where: failure["at"] for where, failure in found.build_errors.items()} == {
        "src/Db/Cache.cs": "src/Db/Cache.cs:3",
        "src/Calc/Calculator.cs": "src/Calc/Calculator.cs:12",
    }


def test_a_restore_error_is_the_build_s_at_the_project_file(project: Path) -> None:
    found = said(recorded("restore-error.txt", project), project)
    message = "NU1101: Unable to find package Demo.Missing. No packages exist with this id in source(s): offline"
    assert found.build_errors == {
        "tests/Calc.Tests/Calc.Tests.csproj": {
            "type": "build failed",
            "message": message,
            "at": "tests/Calc.Tests/Calc.Tests.csproj",
            "shape": "NU1101:",
        }
    }


@pytest.mark.parametrize(
    ("line", "where", "at", "kind", "message"),
    [
        (  # another machine's Windows path, F#'s compiler
            "C:\\src\\demo\\src\\Calc\\Calculator.cs(3,5): error FS0039: The value 'x' is not "
            "defined. [C:\\src\\demo\\src\\Calc\\Calc.csproj]",
            "src/Calc/Calculator.cs",
            "src/Calc/Calculator.cs:3",
            "compile error",
            "FS0039: The value 'x' is not defined.",
        ),
        (  # msbuild -v n's node prefix and a range origin
            "  1>{root}/src/Db/Cache.cs(7,1,7,9): error CS1002: ; expected "
            "[{root}/src/Db/Db.csproj]",
            "src/Db/Cache.cs",
            "src/Db/Cache.cs:7",
            "compile error",
            "CS1002: ; expected",
        ),
        (  # the format page's own examples: an origin before ` : `, and no origin at all
            "C:\\dir1\\strings.resx(2) : error BC30188: Declaration expected.",
            "C:\\dir1\\strings.resx",
            "C:\\dir1\\strings.resx:2",
            "compile error",
            "BC30188: Declaration expected.",
        ),
        (
            "error CS0006: Metadata file 'System.dll' could not be found.",
            ".",
            "",
            "build failed",
            "CS0006: Metadata file 'System.dll' could not be found.",
        ),
        (  # a tool's origin: no file
            "MSBUILD : error MSB1009: Project file does not exist.",
            "MSBUILD",
            "",
            "build failed",
            "MSB1009: Project file does not exist.",
        ),
    ],
)
def test_msbuild_diagnostic_forms(
    project: Path, line: str, where: str, at: str, kind: str, message: str
) -> None:
    found = said(line.replace("{root}", str(project)), project)
    assert {
        k: {f: v[f] for f in ("type", "message")} | ({"at": v["at"]} if "at" in v else {})
        for k, v in found.build_errors.items()
    } == {where: {"type": kind, "message": message, **({"at": at} if at else {})}}


@pytest.mark.parametrize(
    "line",
    [
        "{root}/src/Calc/Calculator.cs(12,20): warning CS0168: The variable 'e' is declared but "
        "never used [{root}/src/Calc/Calc.csproj]",
        "Main.cs(17,20): warning CS0168: The variable 'x' is declared but never used",
        "cl : Command line warning D4024 : unrecognized source file type 'file1.cs', object . . .",
        "{root}/tests/Calc.Tests/Calc.Tests.csproj : error run failed: Tests failed: "
        "'{root}/TestResults/x.log' [net8.0|x64]",
        "  Error Message:",
        "   Assert.Equal() Failure: error CS0103 in a message",
    ],
)
def test_warnings_test_failures_and_words_in_messages_are_not_build_errors(
    project: Path, line: str
) -> None:
    assert said(line.replace("{root}", str(project)), project).build_errors == {}


def test_the_red_assemblies_of_vstest_s_summary_lines(project: Path) -> None:
    found = said(recorded("second-red.txt", project), project)
    assert found.red_assemblies == {"words.tests.dll": 1}
    assert found.last_words.startswith("Failed!  - Failed:     1, Passed:     1")


@pytest.mark.parametrize(
    ("case", "aborted", "no_tests"),
    [
        (
            "crash.txt",
            "The active test run was aborted. Reason: Test host process crashed : Stack overflow.",
            "",
        ),
        (
            "no-tests.txt",
            "",
            "No test is available in {root}/tests/Calc.Tests/bin/Debug/net8.0/Calc.Tests.dll.",
        ),
        (
            "filter-none.txt",
            "",
            "No test matches the given testcase filter `FullyQualifiedName~Nope` in {root}/",
        ),
        ("mtp-zero.txt", "", "Zero tests ran"),
    ],
)
def test_an_aborted_run_and_a_run_of_no_tests(
    project: Path, case: str, aborted: str, no_tests: str
) -> None:
    found = said(recorded(case, project), project)
    assert found.aborted == aborted
    assert found.no_tests.startswith(no_tests.replace("{root}", str(project))) and bool(
        found.no_tests
    ) == bool(no_tests)
    assert found.last_words == (aborted or found.no_tests)
