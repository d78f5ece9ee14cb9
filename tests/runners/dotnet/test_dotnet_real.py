"""The real `dotnet test` end to end, when the .NET SDK (and NuGet's registry, for xUnit) is on the
machine: `sidekit test` on a planted bug and on a compile error, and the agent's raw run through the
PreToolUse rewrite, dotnet itself, and the PostToolUseFailure feed. Where `dotnet` is not on PATH
this file is skipped, saying so (the machines sidekit is built on have no .NET SDK). Run it with:

    .venv/bin/python -m pytest -q --full tests/runners/dotnet/test_dotnet_real.py
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from testing import requires
from testing.hooks import HookRunner, bash, pre_bash, run_sidekit, status_now, wait_for_feed

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _dotnet() -> None:
    """No CI machine of this project has the .NET SDK: listed as not run there, never a silent
    skip."""
    if shutil.which("dotnet") is None:
        requires.not_run_here(
            "dotnet (the .NET SDK) is not on PATH: the real dotnet test end-to-end test"
        )


CALCULATOR = """namespace Demo.Calc;

public static class Calculator
{
    public static int Add(int a, int b) => a + b;

    public static int Sub(int a, int b) => a + b; // the planted bug

    public static int Div(int a, int b)
    {
        return a / b;
    }
}
"""
TESTS = """using Demo.Calc;
using Xunit;

namespace Demo.Calc.Tests;

public class CalculatorTests
{
    [Fact]
    public void Adds() => Assert.Equal(3, Calculator.Add(1, 2));

    [Fact]
    public void Subtracts() => Assert.Equal(1, Calculator.Sub(3, 2));

    [Fact]
    public void Divides() => Assert.Equal(0, Calculator.Div(1, 0));
}
"""
FILES = {
    "Calc/Calc.csproj": (
        '<Project Sdk="Microsoft.NET.Sdk">\n  '
        "<PropertyGroup><TargetFramework>net8.0</TargetFramework>"
        "<Nullable>enable</Nullable></PropertyGroup>\n</Project>\n"
    ),
    "Calc/Calculator.cs": CALCULATOR,
    "Calc.Tests/Calc.Tests.csproj": (
        '<Project Sdk="Microsoft.NET.Sdk">\n  '
        "<PropertyGroup><TargetFramework>net8.0</TargetFramework>"
        "<IsPackable>false</IsPackable><RollForward>Major</RollForward></PropertyGroup>\n  "
        "<ItemGroup>\n"
        '    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.11.1" />\n'
        '    <PackageReference Include="xunit" Version="2.9.2" />\n'
        '    <PackageReference Include="xunit.runner.visualstudio" Version="2.8.2" />\n'
        '    <ProjectReference Include="../Calc/Calc.csproj" />\n  </ItemGroup>\n</Project>\n'
    ),
    "Calc.Tests/CalculatorTests.cs": TESTS,
}


@pytest.fixture
def solution(project: Path, clean_env: dict[str, str]) -> tuple[Path, dict[str, str]]:
    for relative, text in FILES.items():
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        (project / relative).write_text(text)
    (project / ".git").mkdir()
    env = dict(
        {k: v for k, v in clean_env.items() if not k.startswith("SIDEKIT_")},
        DOTNET_CLI_TELEMETRY_OPTOUT="1",
        DOTNET_NOLOGO="1",
    )
    restored = subprocess.run(
        ["dotnet", "restore", "Calc.Tests"], cwd=project, env=env, capture_output=True, text=True
    )
    if restored.returncode != 0:
        requires.not_run_here(
            f"dotnet restore failed (no NuGet registry?): {restored.stdout[-300:]}"
        )
    return project, env


def test_sidekit_test_answers_a_real_red_run(solution: tuple[Path, dict[str, str]]) -> None:
    project, env = solution
    done = run_sidekit("test", "--project", str(project), cwd=project, env=env, timeout=600)
    found = json.loads(done.stdout)
    assert done.returncode == 1 and len(done.stdout.encode()) <= 800, done.stdout
    assert (found["runner"], found["exit"], found["passed"], found["failed"]) == ("vstest", 1, 1, 2)
    assert sorted(c["at"] for c in found["clusters"]) == [
        "Calc.Tests/CalculatorTests.cs:12",
        "Calc/Calculator.cs:11",
    ]


def test_a_real_compile_error_is_at_its_file_and_line(
    solution: tuple[Path, dict[str, str]],
) -> None:
    project, env = solution
    (project / "Calc/Calculator.cs").write_text(
        CALCULATOR.replace("return a / b;", "return a / c;")
    )
    done = run_sidekit("test", "--project", str(project), cwd=project, env=env, timeout=600)
    found = json.loads(done.stdout)
    assert done.returncode == 1 and "failed" not in found and found["buildErrors"] == 1, done.stdout
    assert (found["clusters"][0]["type"], found["clusters"][0]["at"]) == (
        "compile error",
        "Calc/Calculator.cs:11",
    )


def test_the_agent_s_raw_run_is_folded_and_feeds_the_cache(
    solution: tuple[Path, dict[str, str]], run_hook: HookRunner
) -> None:
    project, env = solution
    raw = subprocess.run(
        "dotnet test", shell=True, cwd=project, env=env, capture_output=True, text=True, timeout=600
    )
    pre = run_hook("PreToolUse", pre_bash(project, "dotnet test"))
    command = json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert command == "dotnet test --logger trx -v q"
    ran = subprocess.run(
        command, shell=True, cwd=project, env=env, capture_output=True, text=True, timeout=600
    )
    output = ran.stdout + ran.stderr
    assert ran.returncode == raw.returncode == 1
    assert len(output) < len(raw.stdout + raw.stderr), (
        output
    )  # restore, build and per-test blocks folded
    run_hook("PostToolUseFailure", bash(project, "dotnet test", error=f"Exit code 1\n{output}"))
    assert [(r["decision"], r["exit"], r["tests"]) for r in wait_for_feed(project, timeout=60)] == [
        ("junit-fed", 1, 3)
    ]
    status = status_now(project)
    assert (status["runner"], status["state"], status["failed"], status["passed"]) == (
        "vstest",
        "failed",
        2,
        1,
    )
