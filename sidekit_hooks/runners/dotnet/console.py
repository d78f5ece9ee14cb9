"""What `dotnet test` printed: the part of a run that no TRX report holds.

- MSBuild diagnostics, in MSBuild's documented format `Origin : [Subcategory] Category Code : Text`
  (learn.microsoft.com, "MSBuild diagnostic format for tasks"), where Origin is empty, a tool name,
  `File(line)`, `File(line,col)` or `File(line,col,endline,endcol)`, and dotnet adds the project in
  brackets: `src/Calc.cs(12,5): error CS0103: The name 'x' does not exist ... [/p/App.csproj]`. A
  compiler's error (CS, FS, BC codes) is a compile error at its file and line; any other error code
  (MSB, NU, NETSDK) is the build's, at its file or project. One entry per file (its first error):
  MSBuild prints each error again in its closing summary.
- VSTest's per-assembly summary, `Failed!  - Failed: 1, Passed: 2, Skipped: 0, Total: 3, Duration: 8 ms
  - App.Tests.dll (net8.0)`: a red assembly with no TRX report is an error of that assembly.
- A run that could not finish: `The active test run was aborted. Reason: Test host process crashed
  ...`.
- No tests: VSTest's `No test is available in ...` and `No test matches the given testcase filter
  ...`, MTP's `Zero tests ran` (exit code 8).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.runners.dotnet.sources import SourceIndex

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
DIAGNOSTIC = re.compile(
    r"^\s*(?:\d+>)?(?:(?P<origin>(?:[A-Za-z]:)?[^:()]*?)"
    r"(?:\((?P<line>\d+)(?:-\d+)?(?:,(?P<col>\d+)(?:-\d+)?(?:,\d+,\d+)?)?\))?"
    r"\s*:\s*)?(?:[^:]*?\s+)?error\s+(?P<code>[A-Za-z]+\d+)\s*:\s*(?P<text>.*?)"
    r"(?:\s+\[(?P<project>[^\]]*)\])?\s*$",
    re.IGNORECASE,
)
COMPILERS = ("CS", "FS", "BC")
SUMMARY = re.compile(
    r"^\s*(?P<verdict>Passed|Failed)!\s*-\s*Failed:\s*(?P<failed>\d+),\s*Passed:\s*\d+,\s*Skipped:\s*\d+,"
    r"\s*Total:\s*\d+,\s*Duration:.*?-\s*(?P<assembly>\S+\.(?:dll|exe))"
)
ABORTED = re.compile(
    r"(?i)(test run (?:was )?aborted|test host process crashed|testhost process exited|test "
    r"session aborted)"
)
NO_TESTS = re.compile(
    r"(?i)(No test is available in|No test matches the given testcase filter|Zero tests ran)"
)
MAX_CHARS = 4_000_000  # of the output read (the end, where the summaries are)


class Said:
    """What one run's output says outside its reports."""

    def __init__(self) -> None:
        self.build_errors: dict[
            str, dict[str, Any]
        ] = {}  # where -> failure (the first of each file)
        self.red_assemblies: dict[str, int] = {}  # assembly file name (lower case) -> failed tests
        self.aborted = ""
        self.no_tests = ""
        self.last_words = ""


def read(text: str, index: SourceIndex) -> Said:
    from sidekit_hooks.runners import frames as shared

    said = Said()
    lines = [ANSI.sub("", line).rstrip() for line in text[-MAX_CHARS:].splitlines()]
    for line in lines:
        if "error" in line.lower():
            found = DIAGNOSTIC.match(line)
            if found:
                where, failure = diagnostic(found, index)
                said.build_errors.setdefault(where, shared.with_shape(failure))
                continue
        summary = SUMMARY.match(line)
        if summary and summary.group("verdict") == "Failed":
            said.red_assemblies[summary.group("assembly").lower()] = int(summary.group("failed"))
        if not said.aborted and ABORTED.search(line):
            said.aborted = " ".join(line.split())[:300]
        if not said.no_tests and NO_TESTS.search(line):
            said.no_tests = " ".join(line.split())[:300]
    said.last_words = verdict(lines, said)
    return said


def diagnostic(found: re.Match[str], index: SourceIndex) -> tuple[str, dict[str, Any]]:
    """(where, failure) of one MSBuild error line."""
    origin, code = (found.group("origin") or "").strip(), found.group("code")
    path = (
        index.file_of_path(origin)
        if origin and ("/" in origin or "\\" in origin or "." in origin)
        else ""
    )
    project = index.file_of_path(found.group("project") or "") if found.group("project") else ""
    message = f"{code}: {found.group('text').strip()}"
    if code.upper().startswith(COMPILERS) and found.group("line"):
        at = f"{path or origin}:{found.group('line')}"
        return path or origin, {"type": "compile error", "message": message, "at": at}
    where = path or project or origin or "."
    return where, {"type": "build failed", "message": message, **({"at": path} if path else {})}


def verdict(lines: list[str], said: Said) -> str:
    """The run's own last words: its first error, its abort, its no-tests line, else its last
    line."""
    for first in (
        next(iter(said.build_errors.values()), {}).get("message", ""),
        said.aborted,
        said.no_tests,
    ):
        if first:
            return str(first)
    return next((line.strip() for line in reversed(lines) if line.strip()), "")
