"""Which platform a .NET project's files say (`mtp` or `vstest`, the seed's names), how `dotnet
test` drives it, and which TRX option it takes; read within bounds, never through a link out of the
project."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from sidekit_hooks import runners
from sidekit_hooks.runners.dotnet import project as dotnet_project

VSTEST = '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="xunit" Version="2.9.2" /></ItemGroup></Project>'
MSTEST_RUNNER = (
    '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><EnableMSTestRunner>true</EnableMSTestRunner>'
    "<OutputType>Exe</OutputType></PropertyGroup>"
    '<ItemGroup><PackageReference Include="MSTest" Version="3.6.4" /></ItemGroup></Project>'
)
MTP_GLOBAL = json.dumps(
    {"sdk": {"version": "10.0.100"}, "test": {"runner": "Microsoft.Testing.Platform"}}
)
DOTNET_TEST_SUPPORT = "<Project><PropertyGroup><TestingPlatformDotnetTestSupport>true</TestingPlatformDotnetTestSupport></PropertyGroup></Project>"
XUNIT_V3 = "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><PackageReference Include='xunit.v3' Version='1.0.0' /></ItemGroup></Project>"
TUNIT = '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference Include="TUnit" Version="0.6.0" /></ItemGroup></Project>'
MSTEST_SDK = '<Project Sdk="MSTest.Sdk/3.6.4"><PropertyGroup><TargetFramework>net9.0</TargetFramework></PropertyGroup></Project>'
MSTEST_SDK_VSTEST = '<Project Sdk="MSTest.Sdk/3.6.4"><PropertyGroup><UseVSTest>true</UseVSTest></PropertyGroup></Project>'
TRX_EXTENSION = '<Project><ItemGroup><PackageReference Include="Microsoft.Testing.Extensions.TrxReport" Version="1.4.3" /></ItemGroup></Project>'
MTP_RUNNER_FALSE = "<Project><PropertyGroup><UseMicrosoftTestingPlatformRunner>false</UseMicrosoftTestingPlatformRunner></PropertyGroup></Project>"


@pytest.mark.parametrize(
    ("files", "platform", "mode", "option"),
    [
        ({"App.Tests/App.Tests.csproj": VSTEST}, "vstest", "vstest", ""),
        ({"App.slnx": "<Solution />"}, "vstest", "vstest", ""),
        ({"tests/Deep/App.Tests/App.Tests.fsproj": VSTEST}, "vstest", "vstest", ""),
        (
            {"App.Tests.csproj": MSTEST_RUNNER},
            "mtp",
            "",
            "--report-trx",
        ),  # the VSTest bridge: not told
        (
            {"App.Tests.csproj": MSTEST_RUNNER, "Directory.Build.props": DOTNET_TEST_SUPPORT},
            "mtp",
            "msbuild",
            "--report-trx",
        ),
        (
            {"App.Tests.csproj": MSTEST_RUNNER, "global.json": MTP_GLOBAL},
            "mtp",
            "direct",
            "--report-trx",
        ),
        (
            {"App.Tests.csproj": XUNIT_V3, "global.json": MTP_GLOBAL},
            "mtp",
            "direct",
            "--report-xunit-trx",
        ),
        (
            {
                "App.Tests.csproj": XUNIT_V3,
                "Directory.Build.props": TRX_EXTENSION,
                "global.json": MTP_GLOBAL,
            },
            "mtp",
            "direct",
            "--report-trx",
        ),
        (
            {"App.Tests.csproj": TUNIT, "global.json": MTP_GLOBAL},
            "mtp",
            "direct",
            "",
        ),  # no TRX option known there
        ({"App.Tests.csproj": MSTEST_SDK}, "mtp", "", "--report-trx"),
        ({"App.Tests.csproj": MSTEST_SDK_VSTEST}, "vstest", "vstest", "--report-trx"),
        (
            {"App.Tests.csproj": VSTEST, "Directory.Build.props": MTP_RUNNER_FALSE},
            "vstest",
            "vstest",
            "",
        ),
        ({"global.json": MTP_GLOBAL}, "mtp", "direct", ""),
        ({"global.json": json.dumps({"sdk": {"version": "8.0.100"}})}, "", "", ""),
        ({"README.md": "dotnet test"}, "", "", ""),
        (
            {"bin/Debug/App.Tests.csproj": VSTEST, "obj/x.csproj": VSTEST},
            "",
            "",
            "",
        ),  # build output is not the project
    ],
)
def test_the_platform_its_mode_and_its_trx_option_come_from_the_project_files(
    project: Path, files: dict[str, str], platform: str, mode: str, option: str
) -> None:
    for relative, text in files.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text(text)
    found = dotnet_project.read(str(project))
    assert (
        dotnet_project.platform(found),
        dotnet_project.mode(found),
        dotnet_project.mtp_report_option(found),
    ) == (
        platform,
        mode,
        option,
    )


@pytest.mark.parametrize(("text", "expected"), [(VSTEST, "vstest"), (MSTEST_RUNNER, "mtp")])
def test_the_registry_names_the_platform(
    project: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str
) -> None:
    monkeypatch.delenv("SIDEKIT_RUNNER", raising=False)
    (project / "App.Tests.csproj").write_text(text)
    assert runners.detect(str(project)) == expected


def test_a_project_file_that_links_out_of_the_project_is_not_read(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SIDEKIT_RUNNER", raising=False)
    outside = tmp_path / "other" / "App.Tests.csproj"
    outside.parent.mkdir()
    outside.write_text(MSTEST_RUNNER)
    (project / "App.Tests.csproj").symlink_to(outside)
    (project / "global.json").symlink_to(tmp_path / "other" / "global.json")
    (tmp_path / "other" / "global.json").write_text(MTP_GLOBAL)
    assert dotnet_project.read(str(project)).names == []
    assert runners.detect(str(project)) == "none"
    (project / "Real.csproj").write_text(VSTEST)  # the project's own file still counts
    assert runners.detect(str(project)) == "vstest"


def test_a_fifo_named_like_a_project_file_does_not_block_detection(project: Path) -> None:
    os.mkfifo(project / "App.Tests.csproj")
    os.mkfifo(project / "global.json")
    done: list[str] = []
    worker = threading.Thread(
        target=lambda: done.append(dotnet_project.platform(dotnet_project.read(str(project))))
    )
    worker.start()
    worker.join(5)
    assert done == [""]


def test_reads_are_bounded(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dotnet_project, "MAX_BYTES", 64)
    (project / "App.Tests.csproj").write_text(
        " " * 100 + MSTEST_RUNNER
    )  # the switch lies past the bound
    assert dotnet_project.platform(dotnet_project.read(str(project))) == "vstest"
    monkeypatch.setattr(dotnet_project, "MAX_FILES", 2)
    for index in range(5):
        (project / f"P{index}.csproj").write_text(VSTEST)
    assert len(dotnet_project.read(str(project)).names) == 2
    monkeypatch.setattr(
        dotnet_project, "MAX_FOLDERS", 1
    )  # the top folder only: a deeper project is not seen
    for path in project.iterdir():
        path.unlink()
    (project / "sub").mkdir()
    (project / "sub" / "App.Tests.csproj").write_text(VSTEST)
    assert dotnet_project.read(str(project)).names == []
