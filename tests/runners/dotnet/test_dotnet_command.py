"""The agent's raw `dotnet test` through the PreToolUse hook: the report option its platform takes
is appended (VSTest's TRX logger and quiet verbosity; MTP's TRX option, after `--` on SDK 8/9),
never one the command has, under the same permission judgment as every rewrite; where the platform
cannot be told, the command is left as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_dotnet_project import DOTNET_TEST_SUPPORT, MSTEST_RUNNER, MTP_GLOBAL, VSTEST, XUNIT_V3

from sidekit_hooks.runners.dotnet import command as dotnet_command
from testing.pretool import rewritten

TRX = "--logger trx"


def solution(root: Path, **files: str) -> Path:
    for relative, text in files.items():
        (root / relative.replace("__", "/")).parent.mkdir(parents=True, exist_ok=True)
        (root / relative.replace("__", "/")).write_text(text)
    return root


VSTEST_FILES = {"App.Tests.csproj": VSTEST}
DIRECT = {"App.Tests.csproj": MSTEST_RUNNER, "global.json": MTP_GLOBAL}
DIRECT_XUNIT = {"App.Tests.csproj": XUNIT_V3, "global.json": MTP_GLOBAL}
MSBUILD = {"App.Tests.csproj": MSTEST_RUNNER, "Directory.Build.props": DOTNET_TEST_SUPPORT}


@pytest.mark.parametrize(
    ("files", "command", "appended"),
    [
        (VSTEST_FILES, "dotnet test", f" {TRX} -v q"),
        (
            VSTEST_FILES,
            "cd tests && dotnet test App.Tests.csproj --filter Category=Fast",
            f" {TRX} -v q",
        ),
        (VSTEST_FILES, "DOTNET_NOLOGO=1 dotnet test --no-restore", f" {TRX} -v q"),
        (VSTEST_FILES, "/usr/share/dotnet/dotnet test", f" {TRX} -v q"),
        (VSTEST_FILES, "dotnet test -v n", f" {TRX}"),  # its own verbosity stays
        (VSTEST_FILES, "dotnet test --verbosity:detailed", f" {TRX}"),
        (
            VSTEST_FILES,
            'dotnet test --logger "console;verbosity=normal"',
            f" {TRX}",
        ),  # its console logger stays
        (VSTEST_FILES, "dotnet test --logger trx", " -v q"),  # its own report
        (VSTEST_FILES, "dotnet test '-l:trx;LogFileName=r.trx'", " -v q"),
        (
            VSTEST_FILES,
            "dotnet test -l:trx;LogFileName=r.trx",
            "",
        ),  # an unquoted `;` ends the command
        (VSTEST_FILES, "dotnet test --logger trx -v m", ""),  # nothing to add: left as written
        (
            VSTEST_FILES,
            "dotnet test -- RunConfiguration.MaxCpuCount=1",
            "",
        ),  # ours would be RunSettings
        (VSTEST_FILES, "dotnet test --list-tests", ""),
        (VSTEST_FILES, "dotnet test --help", ""),
        (VSTEST_FILES, "dotnet build", ""),
        (DIRECT, "dotnet test", " --report-trx"),
        (DIRECT, "dotnet test --project App.Tests.csproj --report-trx", ""),
        (DIRECT_XUNIT, "dotnet test", " --report-xunit-trx"),
        (DIRECT_XUNIT, "dotnet test --report-xunit-trx --report-xunit-trx-filename r.trx", ""),
        (MSBUILD, "dotnet test", " -- --report-trx"),
        (MSBUILD, "dotnet test -- --minimum-expected-tests 3", " --report-trx"),
        (MSBUILD, "dotnet test -- --report-trx", ""),
        (
            {"App.Tests.csproj": MSTEST_RUNNER},
            "dotnet test",
            "",
        ),  # MTP through the VSTest bridge: not told
        ({"README.md": ""}, "dotnet test", ""),  # no .NET project here
    ],
)
def test_the_hook_appends_the_report_option_of_the_project_s_platform(
    project: Path, clean_env: dict[str, str], files: dict[str, str], command: str, appended: str
) -> None:
    solution(project, **files)
    (project / "tests").mkdir(exist_ok=True)
    assert rewritten(project, command, clean_env) == (command + appended if appended else "")


def test_an_exact_permission_rule_for_dotnet_test_keeps_the_command_as_written(
    project: Path, clean_env: dict[str, str]
) -> None:
    """The one permission judgment (dispatch.permitted) holds for dotnet as for every runner."""
    solution(project, **VSTEST_FILES)
    (project / ".claude").mkdir()
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(dotnet test:*)"]}}))
    assert rewritten(project, "dotnet test", clean_env) == "dotnet test --logger trx -v q"
    settings.write_text(json.dumps({"permissions": {"deny": ["Bash(dotnet test)"]}}))
    assert rewritten(project, "dotnet test", clean_env) == ""
    settings.unlink()
    assert rewritten(project, "dotnet test", dict(clean_env, SIDEKIT_COMPACT="0")) == ""
    assert rewritten(project, "SIDEKIT_RAW=1 dotnet test", clean_env) == ""
    assert rewritten(project, "dotnet test | tail -5", clean_env) == ""


def test_the_rewritten_call_is_marked_for_its_reports_to_feed_the_cache(
    project: Path, clean_env: dict[str, str]
) -> None:
    solution(project, **VSTEST_FILES)
    assert rewritten(project, "dotnet test", clean_env)
    markers = list((project / ".sidekit" / "junit-feed").iterdir())
    assert len(markers) == 1 and json.loads(markers[0].read_text())["args"] == ["test"]


@pytest.mark.parametrize(
    ("args", "values"),
    [
        (["--logger", "trx"], ["trx"]),
        (["--logger:trx;LogFileName=a.trx"], ["trx;LogFileName=a.trx"]),
        (["-l=console;verbosity=quiet", "-l", "html"], ["console;verbosity=quiet", "html"]),
        (["--logger"], [""]),
    ],
)
def test_logger_values_in_every_form_dotnet_takes(args: list[str], values: list[str]) -> None:
    assert dotnet_command.logger_values(args) == values
