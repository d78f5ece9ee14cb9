"""A .NET solution's files for the dotnet adapter's tests (no SDK needed), and the recorded reports
and console output of its runs (`cases/`).

The TRX files in `cases/` were written for these tests from the TRX schema (vstst.xsd: `TestRun`,
`Results/UnitTestResult`, `TestDefinitions/UnitTest/TestMethod`, `ResultSummary/Counters`,
`RunInfos`) and checked by hand, element by element and attribute by attribute, against TRX files
that public projects keep as fixtures (read, not copied):
- VSTest + xUnit v2 (passing, failing, skipped, a display name, an exception thrown below the test):
  dorny/test-reporter `__tests__/fixtures/dotnet-trx.trx`;
- MTP + xUnit v3 (no runUser, upper-case testType, class cleanup rows without a className, the exit
  code in a RunInfo): dorny/test-reporter `__tests__/fixtures/dotnet-xunitv3.trx`;
- a run aborted by a crashed test host: dorny/test-reporter
  `__tests__/fixtures/dotnet-trx-run-aborted.trx`;
- NUnit through VSTest (testName is the method, `Expected:`/`But was:` messages, an ignored test's
  message): EnricoMi/publish-unit-test-result-action
  `python/test/files/trx/nunit/NUnit-netcoreapp3.1-sample.trx`;
- MSTest: EnricoMi/publish-unit-test-result-action `python/test/files/trx/mstest/pickles.trx`.
The console files follow MSBuild's documented diagnostic format (`File(line,col): error CODE: text
[project]`) and the summary lines of VSTest's console logger (microsoft/vstest, ConsoleLogger) and
MTP.
"""

from __future__ import annotations

import shutil
from pathlib import Path

CASES = Path(__file__).parent / "cases"
RECORDED_ROOT = "/work/demo"  # the absolute root the recorded output and reports were written under

SOURCES = {
    "src/Calc/Calc.csproj": '<Project Sdk="Microsoft.NET.Sdk">\n</Project>\n',
    "src/Calc/Calculator.cs": "namespace Demo.Calc;\npublic static class Calculator {}\n",
    "src/Db/Db.csproj": '<Project Sdk="Microsoft.NET.Sdk">\n</Project>\n',
    "src/Db/Connection.cs": "namespace Demo.Db;\n",
    "src/Db/Cache.cs": "namespace Demo.Db;\n",
    "tests/Calc.Tests/CalculatorTests.cs": "namespace Demo.Calc.Tests;\n",
    "tests/Db.Tests/RepositoryTests.cs": "namespace Demo.Db.Tests;\n",
    "tests/Db.Tests/MigrationTests.cs": "namespace Demo.Db.Tests;\n",
    "tests/Db.Tests/QueryTests.cs": "namespace Demo.Db.Tests;\n",
    "tests/Db.Tests/CacheTests.cs": "namespace Demo.Db.Tests;\n",
    "tests/Words.Tests/JoinTests.cs": "namespace Demo.Words.Tests;\n",
    "Demo.sln": "Microsoft Visual Studio Solution File, Format Version 12.00\n",
}
VSTEST_PROJECT = (
    '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n'
    '    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.12.0" />\n'
    '    <PackageReference Include="xunit" Version="2.9.2" />\n'
    '    <PackageReference Include="xunit.runner.visualstudio" Version="2.8.2" />\n'
    "  </ItemGroup>\n</Project>\n"
)
TEST_PROJECTS = (
    "tests/Calc.Tests/Calc.Tests.csproj",
    "tests/Db.Tests/Db.Tests.csproj",
    "tests/Words.Tests/Words.Tests.csproj",
)


def solution(root: Path, test_project: str = VSTEST_PROJECT) -> Path:
    """The demo solution under `root`: sources, and each test project's file holding
    `test_project`."""
    for relative, text in SOURCES.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    for relative in TEST_PROJECTS:
        (root / relative).write_text(test_project)
    return root


def recorded(name: str, root: Path) -> str:
    """A recorded console output, its absolute paths moved under `root` (as dotnet prints them
    there)."""
    return (CASES / name).read_text().replace(RECORDED_ROOT, str(root))


def place_report(name: str, root: Path, folder: str) -> Path:
    """A recorded TRX file written where the run writes it (`folder`, project-relative); its
    path."""
    target = root / folder / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(CASES / name, target)
    return target
