"""TRX reports (the Visual Studio test results format, schema `vstst.xsd`, namespace
`http://microsoft.com/schemas/VisualStudio/TeamTest/2010`) into cache records.

Written by VSTest's TRX logger (`dotnet test --logger trx`) and by Microsoft.Testing.Platform's TRX
extension (`--report-trx`) or xUnit v3's own (`--report-xunit-trx`). Read here:
- `TestRun/TestDefinitions/UnitTest@id` with its `TestMethod@className` (and `@storage`, the
  assembly);
- `TestRun/Results//UnitTestResult` (data-driven rows sit in `InnerResults`): `@testId`,
  `@testName`, `@outcome`, `@duration` (`hh:mm:ss.fffffff`), `Output/ErrorInfo/Message` and
  `StackTrace`;
- `ResultSummary/RunInfos/RunInfo[@outcome="Error"]/Text` saying the run was aborted or its test
  host crashed: an error of the run.

Outcomes (vstst.xsd's `TestOutcome`): `Passed`, `PassedButRunAborted`, `Completed` and `Warning`
pass; `NotExecuted`, `Inconclusive`, `Pending` are skipped; `Failed` and `Timeout` fail; `Error`,
`Aborted`, `NotRunnable`, `Disconnected`, `InProgress` and anything unknown are errors (never
greener).

Test ids are `<class's file>::<test name>` when the class's file is in the project
(`tests/Calc.Tests/CalculatorTests.cs::Divides`), else `<class name>::<test name>`, else
`<assembly>::<test name>` (xUnit v3's `[Test Class Cleanup Failure (...)]` rows name no class).

Defused like the JUnit reader: a report over MAX_REPORT_BYTES, or one that declares a DOCTYPE (no
TRX writer does; it is how entity expansion starts), is an unreadable report, never parsed; expat
refuses external entities. The file is read through safepath (no link followed, no FIFO opened).
"""

from __future__ import annotations

import os
import re

from sidekit_hooks.runners import Result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    from xml.etree.ElementTree import Element

    from sidekit_hooks.runners.dotnet.sources import SourceIndex

MAX_REPORT_BYTES = 50_000_000
PASSED = frozenset({"passed", "passedbutrunaborted", "completed", "warning"})
SKIPPED = frozenset({"notexecuted", "inconclusive", "pending"})
FAILED = frozenset({"failed", "timeout"})
RUN_BROKEN = ("aborted", "crashed", "test host process exited")
# `System.DivideByZeroException : Attempted to divide by zero.` (xUnit, NUnit) or
# `System.InvalidOperationException: boom` (MSTest, the exception's own ToString)
EXCEPTION = re.compile(r"((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*(?:Exception|Error))\s?: (.*)")
SETUP = (
    "Class Initialization method",
    "Assembly Initialization method",
    "Class Initialize",
    "OneTimeSetUp",
)
TEARDOWN = (
    "Class Cleanup method",
    "Assembly Cleanup method",
    "[Test Class Cleanup Failure",
    "OneTimeTearDown",
)


def is_trx(path: str) -> bool:
    """Whether a file is a TRX report: its name, or its root element (the first 4 KB)."""
    if path.lower().endswith(".trx"):
        return True
    from sidekit_hooks.core import safepath

    try:
        head = safepath.read_bytes(path, 4096).decode("utf-8", "replace")
    except OSError:
        return False
    return re.search(r"<(?:\w+:)?TestRun[\s>]", head) is not None


def from_reports(
    paths: list[str],
    project: str,
    started: float,
    exit_code: int,
    runner: str,
    seen: set[str] | None = None,
    index: SourceIndex | None = None,
) -> Result:
    """Every report's results in one run; a report that cannot be read is an error of that report.
    `seen` gets the test assemblies the reports cover (file names, lower case)."""
    from sidekit_hooks.runners.dotnet.sources import SourceIndex

    result = Result(runner, started, exit_code)
    index = index or SourceIndex(project)
    for path in paths:
        where = os.path.relpath(path, project).replace(os.sep, "/")
        try:
            run = _root(path)
        except (OSError, SyntaxError, ValueError) as exc:  # ParseError is a SyntaxError
            result.errors[where] = {
                "type": "unreadable report",
                "message": str(exc)[:200],
                "shape": "unreadable report",
            }
            continue
        for test, entry in records(run, index):
            if result.tests.get(test, {}).get("o") not in (
                "failed",
                "error",
            ):  # a second target keeps a red
                result.tests[test] = entry
        if seen is not None:
            seen.update(assemblies(run))
        broken = run_broken(run)
        if broken:
            result.errors[where] = {
                "type": "test run aborted",
                "message": broken[:300],
                "shape": "test run aborted",
            }
    return result


def _root(path: str) -> Element:
    import xml.etree.ElementTree as ElementTree

    from sidekit_hooks.core import safepath

    if os.lstat(path).st_size > MAX_REPORT_BYTES:  # the link itself: its target is never read
        raise ValueError(f"over {MAX_REPORT_BYTES:,} bytes; not read")
    data = safepath.read_bytes(path, MAX_REPORT_BYTES + 1)
    if b"<!DOCTYPE" in data[:4096] or b"<!ENTITY" in data:
        raise ValueError("declares a DOCTYPE or entities (no TRX writer does); not parsed")
    root = ElementTree.fromstring(data)
    if _local(root) != "TestRun":
        raise ValueError(f"not a TRX report (root element {_local(root)!r})")
    return root


def _local(element: Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _children(element: Element, name: str) -> list[Element]:
    return [child for child in element if _local(child) == name]


def _descendants(element: Element, name: str) -> list[Element]:
    return [child for child in element.iter() if _local(child) == name]


def _text(element: Element | None, *path: str) -> str:
    for name in path:
        if element is None:
            return ""
        element = next(iter(_children(element, name)), None)
    return (element.text or "") if element is not None else ""


def records(run: Element, index: SourceIndex) -> list[tuple[str, dict[str, Any]]]:
    """(test id, cache entry) for every result of one report."""
    definitions: dict[str, tuple[str, str]] = {}  # UnitTest id -> (class name, assembly)
    for unit in _descendants(run, "UnitTest"):
        method = next(iter(_children(unit, "TestMethod")), None)
        # MSTest may write an assembly-qualified name: `Ns.Class, Assembly, Version=1.0.0.0, ...`
        class_name = (
            (method.get("className", "") if method is not None else "").split(",", 1)[0].strip()
        )
        storage = (unit.get("storage") or "").replace("\\", "/").rsplit("/", 1)[-1]
        definitions[unit.get("id", "")] = (class_name, storage)
    found: list[tuple[str, dict[str, Any]]] = []
    for unit_result in _descendants(run, "UnitTestResult"):
        class_name, assembly = definitions.get(unit_result.get("testId", ""), ("", ""))
        found.append(
            (
                test_id(unit_result.get("testName") or "?", class_name, assembly, index),
                entry(unit_result, index),
            )
        )
    return found


def test_id(name: str, class_name: str, assembly: str, index: SourceIndex) -> str:
    short = (
        name[len(class_name) + 1 :] if class_name and name.startswith(class_name + ".") else name
    )
    path = index.file_of_class(class_name) if class_name else ""
    return f"{path or class_name or assembly or '.'}::{short}"


def entry(unit_result: Element, index: SourceIndex) -> dict[str, Any]:
    outcome = (unit_result.get("outcome") or "").lower()
    record: dict[str, Any] = {"o": outcome_of(outcome), "d": seconds(unit_result.get("duration"))}
    if record["o"] in ("failed", "error"):
        message = _text(unit_result, "Output", "ErrorInfo", "Message")
        trace = _text(unit_result, "Output", "ErrorInfo", "StackTrace")
        record["f"] = failure(message, trace, outcome, unit_result.get("testName") or "", index)
        record["p"] = phase(message or unit_result.get("testName") or "")
    return record


def outcome_of(outcome: str) -> str:
    if outcome in PASSED:
        return "passed"
    if outcome in SKIPPED:
        return "skipped"
    return "failed" if outcome in FAILED else "error"


def phase(text: str) -> str:
    if text.startswith(SETUP):
        return "setup"
    return "teardown" if text.startswith(TEARDOWN) else "call"


def seconds(text: str | None) -> float:
    """`hh:mm:ss.fffffff` (a .NET TimeSpan) in seconds; 0 when absent or not one."""
    hours, _, rest = (text or "").partition(":")
    minutes, _, secs = rest.partition(":")
    try:
        return round(int(hours) * 3600 + int(minutes) * 60 + float(secs), 4)
    except ValueError:
        return 0.0


def failure(
    message: str, trace: str, outcome: str, name: str, index: SourceIndex
) -> dict[str, Any]:
    """A failing result as the cache's failure: the exception's type and words (or the assertion's),
    `at` the innermost project frame."""
    from sidekit_hooks.runners import frames as shared
    from sidekit_hooks.runners.dotnet import sources

    lines = [line.strip() for line in message.replace("\r", "").splitlines() if line.strip()]
    kind, module, words = "failed", "", " ".join(lines)
    for line in lines[:3]:
        found = EXCEPTION.search(line)
        if found:
            module, kind = found.group(1).rstrip("."), found.group(2)
            words = " ".join([found.group(3).strip(), *lines[lines.index(line) + 1 :]]).strip()
            break
    # no exception: an assertion's words, or a test over its time limit in the framework's words
    else:
        timed_out = any(word in words.lower() for word in ("timeout", "timed out"))
        kind = (
            "timeout"
            if outcome == "timeout" or timed_out
            else "assertion"
            if outcome == "failed"
            else outcome
        )
    if not words:
        words = f"{name} ({outcome or 'failed'})"
    spots = sources.frames(trace, index)
    result: dict[str, Any] = {"type": kind, "module": module, "message": " ".join(words.split())}
    if spots:
        result["at"] = spots[0].partition(" in ")[0]
        result["frames"] = spots[: sources.MAX_FRAMES]
    return shared.with_shape(result)


def run_broken(run: Element) -> str:
    """What the run's own RunInfos say when it was aborted or its test host crashed, else ''."""
    for info in _descendants(run, "RunInfo"):
        text = " ".join(_text(info, "Text").split())
        if (info.get("outcome") or "").lower() == "error" and any(
            word in text.lower() for word in RUN_BROKEN
        ):
            return text
    return ""


def assemblies(run: Element) -> set[str]:
    """The test assemblies a report covers (file names, lower case)."""
    names = set()
    for unit in _descendants(run, "UnitTest"):
        storage = (unit.get("storage") or "").replace("\\", "/").rsplit("/", 1)[-1].lower()
        if storage:
            names.add(storage)
    return names
