"""TRX reports (vstst.xsd's shape) written for tests: many results at once, for the budgets."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

NS = "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"


def write(
    path: Path, results: list[tuple[str, str, str, str, str]], storage: str = "/p/bin/App.Tests.dll"
) -> Path:
    """A TRX report of `results`: (class name, test name, outcome, message, stack trace) each."""
    rows, definitions = [], []
    for index, (class_name, name, outcome, message, stack) in enumerate(results):
        test_id, run_id = (
            f"d{index:07d}-0000-0000-0000-000000000000",
            f"e{index:07d}-0000-0000-0000-000000000000",
        )
        error = (
            f"<Output><ErrorInfo><Message>{escape(message)}</Message><StackTrace>{escape(stack)}</StackTrace>"
            "</ErrorInfo></Output>"
            if message
            else ""
        )
        rows.append(
            f'<UnitTestResult executionId="{run_id}" testId="{test_id}" testName={quoteattr(name)} '
            f'duration="00:00:00.0010000" outcome="{outcome}">{error}</UnitTestResult>'
        )
        definitions.append(
            f'<UnitTest name={quoteattr(name)} storage="{storage}" id="{test_id}"><Execution '
            f'id="{run_id}" />'
            f'<TestMethod className="{class_name}" name={quoteattr(name)} /></UnitTest>'
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'<?xml version="1.0" encoding="utf-8"?><TestRun id="r" name="budget" xmlns="{NS}">'
        f"<Results>{''.join(rows)}</Results><TestDefinitions>{''.join(definitions)}</TestDefinitions>"
        '<ResultSummary outcome="Failed"><Counters total="0" /></ResultSummary></TestRun>'
    )
    return path
