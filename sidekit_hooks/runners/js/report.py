"""The Jest-shaped JSON report (vitest's `json` reporter and jest's `--json`) as per-test records.

Pure: a parsed report in, records out. Test ids are `<file>::<describe> > <title>` with the file
relative to the workspace root, so the shared cache files them like pytest node ids. Tests of one
name in one file (a table-driven `test.each` with two equal rows, a copied test) are distinct
records: the first keeps the id, the later ones in report order get ` #2`, ` #3`... (neither
reporter gives a location by default, and rows of one table share it anyway), so none overwrites
another.

Never greener than the report can say: a file that failed outside any test (an import error, a
throwing `afterAll`: status `failed` with no failed test, or jest's "Test suite failed to run") is a
suite error, filed like pytest's collection errors; an unknown test status counts as an error.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from sidekit_hooks.runners.js import frames as js_frames
from sidekit_hooks.runners.js import subject as js_subject

OUTCOMES = {
    "passed": "passed",
    "failed": "failed",
    "skipped": "skipped",
    "pending": "skipped",
    "todo": "skipped",
    "disabled": "skipped",
    "focused": "passed",
}
SUITE_FAILED = "Test suite failed to run"
MESSAGE_LINES = 40  # lines of a suite's message read for its error
DUPLICATE = " #"  # `<id> #2`: the second test of that id in the report


@dataclass
class Parsed:
    """One report: tests by id, suite errors by file, and the report's own counts."""

    tests: dict[str, dict[str, Any]] = field(default_factory=dict)
    suite_errors: dict[str, dict[str, Any]] = field(default_factory=dict)
    files: int = 0
    success: bool | None = None
    runtime_errors: int = 0  # jest's numRuntimeErrorTestSuites
    interrupted: bool = False
    run_files: set[str] = field(
        default_factory=set
    )  # files the report says ran (status passed or failed)


def parse(report: dict[str, Any], root: str, maps: bool = True) -> Parsed:
    """Records from a parsed report; `root` is the workspace root the ids are relative to."""
    js_subject.forget()  # the sources as they are now (an MCP server parses many runs)
    parsed = Parsed(
        success=report.get("success") if isinstance(report.get("success"), bool) else None
    )
    parsed.runtime_errors = _int(report.get("numRuntimeErrorTestSuites"))
    parsed.interrupted = bool(report.get("wasInterrupted"))
    for suite in report.get("testResults") or ():
        if not isinstance(suite, dict):
            continue
        parsed.files += 1
        path = display_path(str(suite.get("name", "")), root)
        failed_here = 0
        for result in suite.get("assertionResults") or ():
            if not isinstance(result, dict):
                continue
            test_id, entry = test_record(path, result, root, maps)
            parsed.tests[unique(test_id, parsed.tests)] = entry
            failed_here += entry["o"] in ("failed", "error")
        error = suite_error(suite, failed_here, root, maps)
        if error is not None:
            parsed.suite_errors[path] = error
        if str(suite.get("status", "")) in ("passed", "failed"):
            parsed.run_files.add(path)
    return parsed


def test_record(
    path: str, result: dict[str, Any], root: str, maps: bool
) -> tuple[str, dict[str, Any]]:
    """(test id, entry) for one assertion result: outcome `o`, seconds `d`, failure `f`."""
    titles = [str(t) for t in result.get("ancestorTitles") or ()] + [str(result.get("title", ""))]
    test_id = f"{path}::{' > '.join(titles)}"
    status = str(result.get("status", ""))
    outcome = OUTCOMES.get(status, "error")
    duration = result.get("duration")
    seconds = (
        float(duration) / 1000 if isinstance(duration, (int, float)) and _number(duration) else 0.0
    )
    entry: dict[str, Any] = {"o": outcome, "d": round(seconds, 4)}
    messages = [str(m) for m in result.get("failureMessages") or () if m]
    if outcome in ("failed", "error"):
        if messages:
            entry["f"] = js_subject.resolve(js_frames.describe(messages[0], root, maps), root)
        else:
            entry["f"] = {
                "type": "Error",
                "message": f"status {status!r} without a failure message",
            }
        entry["p"] = "call"
    return test_id, entry


def unique(test_id: str, taken: dict[str, Any]) -> str:
    """`test_id`, or `test_id #N` with the least N >= 2 not yet `taken` (a later test of the same
    name)."""
    if test_id not in taken:
        return test_id
    number = 2
    while f"{test_id}{DUPLICATE}{number}" in taken:
        number += 1
    return f"{test_id}{DUPLICATE}{number}"


def suite_error(
    suite: dict[str, Any], failed_tests: int, root: str, maps: bool
) -> dict[str, Any] | None:
    """The file's own failure (outside any test), or None when its tests explain its status."""
    status = str(suite.get("status", ""))
    message = js_frames.strip_ansi(str(suite.get("message") or ""))
    if (
        SUITE_FAILED in message
    ):  # jest's rendering of a file that did not run (or whose afterAll threw)
        body = message.partition(SUITE_FAILED)[2]
    elif (
        status == "failed" and message.strip() and "●" not in message
    ):  # vitest: only file-level errors
        body = message
    elif status == "failed" and not failed_tests:
        body = message
    elif status not in ("failed", "passed", "skipped", "pending", "focused", ""):
        return {
            "type": "Error",
            "message": f"file status {status!r}",
            "at": display_path(str(suite.get("name")), root),
        }
    else:
        return None
    lines = [line for line in body.splitlines()[:MESSAGE_LINES] if not line.strip().startswith("●")]
    text = "\n".join(
        line.strip() if line.lstrip().startswith("at ") else line.strip() for line in lines
    )
    failure = js_frames.describe(text, root, maps) if text.strip() else {}
    if not failure.get("message"):
        failure = {
            "type": "Error",
            "message": "the file failed outside its tests (no message in the report)",
        }
    failure.setdefault("at", display_path(str(suite.get("name", "")), root))
    return failure


def place_load_failures(
    parsed: Parsed, files: list[dict[str, Any]], root: str, maps: bool = True
) -> None:
    """Each suite error of a file that did not load, placed where its runner says it broke: vitest's
    JSON report keeps only the message, so its reporter saves each such file's errors beside it
    (`files`: `{"name": <test file>, "errors": [{"name", "message", "stack", "loc"}]}`): the
    `require`d file's compile error header or vite's `loc` (`File:`), else the stack's innermost
    project frame, not the test file (issue #33, item 6)."""
    for file in files:
        path = display_path(str(file.get("name", "")), root)
        errors = [e for e in file.get("errors") or () if isinstance(e, dict)]
        if path not in parsed.suite_errors or not errors:
            continue
        first = errors[0]
        stack = str(first.get("stack") or "") or f"{first.get('name')}: {first.get('message')}"
        loc = str(first.get("loc") or "")
        failure = js_frames.describe(f"File: {loc}\n{stack}" if loc else stack, root, maps)
        if failure.get("frame"):  # a project file broke; else the test file stays its place
            parsed.suite_errors[path] = failure


def display_path(path: str, root: str) -> str:
    """A test file as the cache names it: workspace-relative when inside, else as given."""
    shown, _ = js_frames.where(path, root) if path else (".", False)
    return shown


def counts(parsed: Parsed) -> dict[str, int]:
    found: dict[str, int] = {}
    for entry in parsed.tests.values():
        found[entry["o"]] = found.get(entry["o"], 0) + 1
    return found


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value


def _int(value: object) -> int:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else 0


def relative(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")
