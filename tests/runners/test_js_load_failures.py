"""A test file that fails to load because a source file it imports does not parse (or throws at
import) is placed at that source file and line as the runner reports it, not at the test file
(issue #33, item 6: a syntax error in `src/bytes.cjs` was reported at `test/format.test.js`).

The reports are recorded from real runs (tests/runners/js_reports/, paths under /w/proj): semver's
own source re-tested by two test files, `lib/semver/functions/compare.js` left without its closing
brace; three test files importing a `src/math.js` that vite cannot parse."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.runners.js import compact as js_compact
from sidekit_hooks.runners.js import frames as js_frames
from sidekit_hooks.runners.js import report as js_report

RECORDED = Path(__file__).parent / "js_reports"
ANSWER_LIMIT = 780  # the reporter's budget: the client's `Exit code 1` line brings it to 800 B


def _recorded(project: Path, runner: str, fixture: str) -> Path:
    """The recorded report (and the `.errors` file sidekit's vitest reporter saved beside it, when
    there is one) as this run's, paths under `project`."""
    folder = project / ".sidekit" / runner
    folder.mkdir(parents=True, exist_ok=True)
    report = folder / "report-1.json"
    for suffix in ("", js_compact.ERRORS_SUFFIX):
        source = RECORDED / (fixture + suffix)
        if source.exists():
            text = source.read_text().replace("/w/proj", str(project))
            Path(str(report) + suffix).write_text(text)
    return report


def _red_run(project: Path, runner: str, fixture: str) -> dict[str, Any]:
    """The compact answer sidekit's reporter prints for the recorded red run (exit 1)."""
    (project / ".git").mkdir()
    report = _recorded(project, runner, fixture)
    raw = project / "raw.txt"
    raw.write_text("z" * 3000)  # beyond the short output printed as it is
    text = js_compact.finish(runner, str(project), time.time() - 1, 1, str(raw), str(report))
    assert len(text.encode()) <= ANSWER_LIMIT, text
    return dict(json.loads(text.split("\n")[1]))


def _top(answer: dict[str, Any]) -> tuple[str, str, int]:
    [cluster] = answer["clusters"]
    return cluster["type"], cluster["at"], cluster["affected"]


def test_vitest_a_required_file_that_does_not_compile_is_one_cluster_at_its_line(
    tmp_path: Path,
) -> None:
    # vitest 4.1.12: the JSON report says only "Unexpected end of input"; the reporter saved the
    # error's stack, headed by node's `/w/proj/lib/semver/functions/compare.js:8`
    answer = _red_run(tmp_path, "vitest", "vitest-load-failure-require.json")
    assert (answer["exit"], answer["suiteErrors"]) == (1, 2)
    assert _top(answer) == ("SyntaxError", "lib/semver/functions/compare.js:8", 2)


def test_vitest_a_file_vite_cannot_parse_is_one_cluster_at_vite_s_file_line(
    tmp_path: Path,
) -> None:
    # vite 7's import analysis: `File: /w/proj/src/math.js:1:0` (the line vite gives), three test
    # files importing it
    answer = _red_run(tmp_path, "vitest", "vitest-load-failure-vite.json")
    assert (answer["exit"], answer["suiteErrors"]) == (1, 3)
    assert _top(answer) == ("Error", "src/math.js:1", 3)


def test_jest_a_file_node_cannot_compile_is_one_cluster_at_its_line(tmp_path: Path) -> None:
    # jest 30 with `"transform": {}` (no babel): node's compile error header in testExecError's
    # rendering, above a code frame of the `require` in lib/semver/index.js
    answer = _red_run(tmp_path, "jest", "jest-load-failure-cjs.json")
    assert (answer["exit"], answer["suiteErrors"]) == (1, 2)
    assert _top(answer) == ("SyntaxError", "lib/semver/functions/compare.js:8", 2)


def test_vitest_the_report_alone_keeps_each_test_file_s_error_at_that_file() -> None:
    # neither saved errors nor console output: nothing says where, and nothing is dropped
    parsed = js_report.parse(
        json.loads((RECORDED / "vitest-load-failure-require.json").read_text()), "/w/proj"
    )
    js_report.place_load_failures(parsed, [], "/w/proj")
    js_compact.place_from_console(parsed.suite_errors, "", "/w/proj")
    assert {path: error["at"] for path, error in parsed.suite_errors.items()} == {
        "test/order.test.js": "test/order.test.js",
        "test/parse.test.js": "test/parse.test.js",
    }


@pytest.mark.parametrize(
    ("fixture", "at", "kind", "files"),
    [
        # vite's `File: /w/proj/src/math.js:1:0` in the block the three FAIL headings share
        ("vitest-load-failure-vite", "src/math.js:1", "Error", 3),
        # vitest's console never names compare.js: its first project frame is the `require` of it
        ("vitest-load-failure-require", "lib/semver/index.js:17", "SyntaxError", 2),
    ],
)
def test_vitest_without_sidekit_s_reporter_the_console_places_a_load_failure(
    fixture: str, at: str, kind: str, files: int, tmp_path: Path
) -> None:
    # `sidekit test` runs vitest with its default console and JSON reporters only: no saved errors
    (tmp_path / ".git").mkdir()
    report = _recorded(tmp_path, "vitest", fixture + ".json")
    Path(str(report) + js_compact.ERRORS_SUFFIX).unlink()
    raw = tmp_path / "raw.txt"
    raw.write_text(
        (RECORDED / (fixture + ".console.txt")).read_text().replace("/w/proj", str(tmp_path))
    )
    capture = js_compact.collect("vitest", str(tmp_path), time.time() - 1, 1, str(raw))
    assert capture is not None
    placed = {(error["type"], error["at"]) for error in capture.collect_errors.values()}
    assert (placed, len(capture.collect_errors)) == ({(kind, at)}, files)


def _saved(stack: str, loc: str = "") -> list[dict[str, Any]]:
    error = {"name": "SyntaxError", "message": "x", "stack": stack, "loc": loc}
    return [{"name": "/w/proj/test/a.test.js", "errors": [error]}]


def _placed(files: list[dict[str, Any]]) -> dict[str, Any]:
    report = {
        "testResults": [
            {"name": "/w/proj/test/a.test.js", "status": "failed", "message": "x"},
        ]
    }
    parsed = js_report.parse(report, "/w/proj")
    js_report.place_load_failures(parsed, files, "/w/proj")
    return dict(parsed.suite_errors["test/a.test.js"])


def test_a_broken_file_outside_the_project_leaves_the_test_file_its_place() -> None:
    stack = "/elsewhere/gen.js:3\n\nSyntaxError: x\n    at wrapSafe (node:internal/x:1:1)\n"
    assert _placed(_saved(stack))["at"] == "test/a.test.js"
    assert _placed(_saved("Error: x\n", loc="/w/proj/node_modules/dep/index.js:4:2")) == {
        "type": "Error",
        "message": "x",
        "at": "test/a.test.js",
    }


def test_a_path_line_below_the_frames_is_not_a_load_spot() -> None:
    text = "Error: x\n    at f (/w/proj/src/a.js:2:1)\n/w/proj/src/b.js:9\n"
    assert js_frames.describe(text, "/w/proj")["at"] == "src/a.js:2"


def test_a_saved_errors_file_that_is_a_link_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(_saved("/w/proj/src/a.js:1\n\nSyntaxError: x\n")[0]) + "\n")
    os.symlink(outside, tmp_path / "report.json.errors")
    assert js_compact.json_lines(str(tmp_path / "report.json.errors")) is None


@pytest.mark.parametrize(
    ("line", "spot"),
    [
        ("/w/proj/src/math.cjs:8", "src/math.cjs:8"),
        ("File: /w/proj/src/math.js:1:0", "src/math.js:1"),
        ("file:///w/proj/src/math.mjs:3", "src/math.mjs:3"),
    ],
)
def test_the_load_spot_forms_the_runners_print(line: str, spot: str) -> None:
    found = js_frames.load_spot(
        f"{line}\n\nSyntaxError: x\n    at g (node:internal/a:1:1)\n", "/w/proj"
    )
    assert found is not None and found.spot() == spot
