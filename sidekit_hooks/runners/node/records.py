"""The records sidekit's `node --test` reporter wrote (records.mjs: one JSON line per test that
ended) as one run of the shared cache."""

from __future__ import annotations

import json
import os

from sidekit_hooks.runners import Result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NAME = "node"
MAX_REPORT = 16 << 20  # bytes of one run's records read at most


def newest(folder: str, started: float) -> str:
    """The newest record file in `folder` written since `started`, or ''."""
    try:
        entries = [entry for entry in os.scandir(folder) if entry.name.endswith(".jsonl")]
        stamped = [(entry.stat(follow_symlinks=False).st_mtime, entry.path) for entry in entries]
    except OSError:
        return ""
    fresh = [(when, path) for when, path in stamped if when >= started - 1.0]
    return max(fresh)[1] if fresh else ""


def read(project: str, path: str) -> list[dict[str, Any]]:
    """The report's records (a line that is not one JSON object is skipped); [] when unreadable."""
    from sidekit_hooks.core import safepath

    try:
        text = safepath.read_inside(project, path, MAX_REPORT).decode("utf-8", "replace")
    except (OSError, ValueError):  # missing, a link out, too large: no records
        return []
    found = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            found.append(record)
    return found


def result(project: str, path: str, started: float, exit_code: int, raw_output_path: str) -> Result:
    """One run: each test the records name; a red run with none is an error of the run, in node's
    words."""
    run = Result(NAME, started, exit_code)
    for record in read(project, path) if path else []:
        if record.get("suite") or record.get("kind") == "subtestsFailed":
            # a suite, or a test failing through its subtests: its subtests are the records
            continue
        test, entry = _entry(record, project)
        run.tests[_unique(test, run.tests)] = entry
    if exit_code and not any(entry["o"] in ("failed", "error") for entry in run.tests.values()):
        run.last_words = _last_line(raw_output_path)
        run.errors["."] = {
            "type": "run failed",
            "message": run.last_words or f"node --test ended with {exit_code}",
        }
    return run


def _entry(record: dict[str, Any], project: str) -> tuple[str, dict[str, Any]]:
    from sidekit_hooks.runners import frames
    from sidekit_hooks.runners.js import frames as js_frames

    file = frames.relative(str(record.get("file") or ""), project) or str(record.get("file") or ".")
    test = f"{file}::{record.get('name') or '?'}"
    duration = record.get("duration")
    entry: dict[str, Any] = {
        "o": str(record.get("outcome") or "passed"),
        "d": round(float(duration) / 1000, 6) if isinstance(duration, (int, float)) else 0.0,
    }
    if entry["o"] == "failed":
        stack = (
            str(record.get("stack") or "")
            or f"{record.get('type') or 'Error'}: {record.get('message') or ''}"
        )
        failure = js_frames.describe(stack, project)
        if not failure.get("at") and record.get("line"):
            failure["at"] = f"{file}:{record['line']}"  # no frame: where the test is declared
        entry["f"] = frames.with_shape(dict(failure))
        entry["p"] = "call"
    return test, entry


def _unique(test: str, taken: dict[str, Any]) -> str:
    number = 2
    found = test
    while found in taken:
        found, number = f"{test} #{number}", number + 1
    return found


def _last_line(raw_output_path: str) -> str:
    from sidekit_hooks.core import safepath

    try:
        text = safepath.read_tail(raw_output_path, 64 << 10).decode("utf-8", "replace")
    except OSError:
        return ""
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")[:200]
