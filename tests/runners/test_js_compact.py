"""The answer a JS run gets: the runner's own words when its report cannot say, budgets, stale
reports."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.runners.js import compact as js_compact

# vitest 4.1.12's console output for an error thrown after a test ended (exit 1, JSON report
# success:true)
UNHANDLED = """ ✓ test/a.test.js (1 test) 22ms
⎯⎯⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯⎯⎯

Vitest caught 1 unhandled error during the test run.
This might cause false positive tests. Resolve unhandled errors to make sure your tests are not affected.

⎯⎯⎯⎯⎯ Uncaught Exception ⎯⎯⎯⎯⎯
Error: boom later
 ❯ Timeout._onTimeout test/a.test.js:1:128
 ❯ listOnTimeout node:internal/timers:581:17

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯

 Test Files  1 passed (1)
      Tests  1 passed (1)
     Errors  1 error
"""


def test_vitest_unhandled_errors_become_suite_errors_at_their_project_frame() -> None:
    assert js_compact.unhandled_errors(UNHANDLED, "/w/proj") == [
        {
            "type": "Error",
            "message": "boom later",
            "at": "test/a.test.js:1",
            "frame": "test/a.test.js:1",
        }
    ]
    assert js_compact.unhandled_errors(" ✓ test/a.test.js (1 test)\n", "/w/proj") == []


def test_the_runners_own_verdict() -> None:
    assert js_compact.verdict(UNHANDLED) == "Vitest caught 1 unhandled error during the test run."
    assert js_compact.verdict(
        "\x1b[31mNo test files found, exiting with code 1\n\x1b[39m\nfilter: x\n"
    ) == ("No test files found, exiting with code 1")
    assert js_compact.verdict(
        '  ●  process.exit called with "3"\n\n      at Object.exit (a.js:1:2)\n'
    ) == ('process.exit called with "3"')
    assert js_compact.verdict("just\nthe last line\n") == "the last line"
    # vitest 5.1.2 on Node 20: its own default reporter fails (Map.groupBy), raw or not
    failed_reporter = (
        "⎯⎯ Unhandled Error ⎯⎯\nTypeError: Map.groupBy is not a function\n ❯ x.js:1:2\n"
    )
    assert (
        js_compact.verdict(failed_reporter)
        == "Unhandled Error: TypeError: Map.groupBy is not a function"
    )


def _report(
    project: Path, runner: str, name: str, tests: list[tuple[str, str]], age: float = 0.0
) -> Path:
    folder = project / ".sidekit" / runner
    folder.mkdir(parents=True, exist_ok=True)
    stack = f"TypeError: bad\n    at f ({project}/lib/x.js:3:1)"
    results = [
        {
            "ancestorTitles": [],
            "title": title,
            "status": status,
            "duration": 1,
            "failureMessages": [stack] if status == "failed" else [],
        }
        for title, status in tests
    ]
    path = folder / name
    path.write_text(
        json.dumps(
            {
                "success": False,
                "testResults": [
                    {
                        "name": str(project / "t.test.js"),
                        "status": "failed"
                        if any(status == "failed" for _, status in tests)
                        else "passed",
                        "message": "",
                        "assertionResults": results,
                    }
                ],
            }
        )
    )
    if age:
        os.utime(path, (time.time() - age, time.time() - age))
    return path


def test_a_report_older_than_the_run_is_not_read(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    old = _report(tmp_path, "vitest", "report-1.json", [("a", "failed")], age=60)
    started = time.time() - 5
    assert js_compact.find_report(str(tmp_path), "vitest", started, str(old)) == ""
    assert js_compact.collect("vitest", str(tmp_path), started, 0, "") is None
    red = js_compact.collect(
        "vitest", str(tmp_path), started, 1, ""
    )  # red without a report: the run's error
    assert red is not None and (red.tests, list(red.collect_errors)) == ({}, ["(exit 1)"])
    fresh = _report(tmp_path, "vitest", "report-2.json", [("a", "failed")])
    assert js_compact.find_report(str(tmp_path), "vitest", started) == str(fresh)


def test_the_compact_answer_fits_the_budget_with_the_exit_code_and_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    started = time.time() - 1
    report = _report(
        tmp_path,
        "jest",
        "report-1.json",
        [(f"t{i} " + "x" * 80, "failed") for i in range(40)] + [("ok", "passed")],
    )
    raw = tmp_path / ".sidekit" / "jest" / "raw-1.txt"
    raw.write_text("FAIL t.test.js\n" + "  ● failure text\n" * 400)
    text = js_compact.finish("jest", str(tmp_path), started, 1, str(raw), str(report))
    head, body = text.rstrip("\n").split("\n")
    assert head == (
        f"sidekit: jest's output ({raw.stat().st_size:,} B) compacted; exit code 1; all of it: "
        ".sidekit/jest/raw-1.txt (prefix the command with SIDEKIT_RAW=1 to see it raw)"
    )
    answer = json.loads(body)
    assert (answer["runner"], answer["exit"], answer["failed"], answer["passed"]) == (
        "jest",
        1,
        40,
        1,
    )
    assert answer["clusters"][0]["at"] == "lib/x.js:3" and answer["clusters"][0]["affected"] == 40
    assert len(text.encode()) <= js_compact.ANSWER_BUDGET
    squeezed = js_compact.finish(
        "jest", str(tmp_path), started, 1, str(raw), str(report), before=400
    )
    assert (
        len(squeezed.encode()) <= js_compact.ANSWER_BUDGET - 400 + 60
    )  # npm's echo counted; one cluster kept
    assert json.loads(squeezed.split("\n")[1])["failed"] == 40
    # held-out bytes: npm echoed 480 B of the rewritten command; the head's hint gives way, the
    # answer fits
    echoed = js_compact.finish("jest", str(tmp_path), started, 1, str(raw), str(report), before=480)
    assert "SIDEKIT_RAW=1" not in echoed and json.loads(echoed.split("\n")[1])["failed"] == 40
    assert 480 + len(echoed.encode()) <= js_compact.ANSWER_BUDGET


def test_short_output_is_printed_as_the_command_alone_would_print_it(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    report = _report(tmp_path, "vitest", "report-9.json", [("ok", "passed")])
    raw = tmp_path / "raw.txt"
    raw.write_text(f" ✓ t.test.js (1 test)\n\nJSON report written to {report}\n")
    assert js_compact.finish(
        "vitest", str(tmp_path), time.time() - 1, 0, str(raw), str(report)
    ) == (" ✓ t.test.js (1 test)\n\n")


def test_no_report_says_so_with_the_exit_code_and_the_last_words(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    raw = tmp_path / "raw.txt"
    raw.write_text("x" * 3000 + "\nNo tests found, exiting with code 1\n")
    text = js_compact.finish("jest", str(tmp_path), time.time(), 1, str(raw), "")
    answer = json.loads(text.split("\n")[1])
    assert answer.pop("secs") < 5
    assert answer == {
        "generation": 1,
        "runner": "jest",
        "exit": 1,
        "note": "no test ran",
        "jest": "No tests found, exiting with code 1",
        "error": "no test report from this run",
        "newFailures": 1,
        "clusters": [
            {
                "id": answer["clusters"][0]["id"],
                "type": "NoTests",
                "phase": "collect",
                "message": "No tests found, exiting with code 1",
                "new": 1,
                "first": "(exit 1)",
            }
        ],
    }


def test_zero_tests_run_is_not_called_a_pass(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    report = _report(tmp_path, "jest", "report-1.json", [("a", "skipped")])
    raw = tmp_path / "raw.txt"
    raw.write_text("y" * 3000)
    text = js_compact.finish("jest", str(tmp_path), time.time() - 1, 0, str(raw), str(report))
    answer = json.loads(text.split("\n")[1])
    assert (answer["exit"], answer["skipped"], answer["note"]) == (0, 1, "no test ran")


def test_the_answerer_waits_for_the_request_and_answers_into_its_folder(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / ".git").mkdir()
    report = _report(tmp_path, "vitest", "report-1.json", [("ok", "passed")])
    raw = tmp_path / "raw.txt"
    raw.write_text(f" ✓ t.test.js (1 test)\nJSON report written to {report}\n")
    folder = tmp_path / "answerer"
    folder.mkdir()
    served = subprocess.Popen(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            "import sys; sys.path.insert(0, sys.argv.pop(1)); "
            "from sidekit_hooks.runners.js.compact import serve; sys.exit(serve(sys.argv[1]))",
            str(Path(js_compact.__file__).parents[3]),
            str(folder),
        ]
    )
    deadline = time.time() + 30
    while not (folder / "ready").exists() and time.time() < deadline:
        time.sleep(0.02)
    assert not (folder / "answer.txt").exists()
    request = [
        "vitest",
        str(tmp_path),
        str(time.time() - 5),
        "0",
        str(raw),
        str(report),
        "4.1.12",
        "0",
    ]
    (folder / "request.json").write_text(json.dumps(request))
    assert served.wait(timeout=30) == 0
    assert (folder / "answer.txt").read_text() == " ✓ t.test.js (1 test)\n"


def test_a_request_it_cannot_read_gets_an_empty_answer_so_the_raw_output_is_printed(
    tmp_path: Path,
) -> None:
    import threading

    (tmp_path / "request.json").write_text("[1, 2]")
    worker = threading.Thread(target=js_compact.serve, args=(str(tmp_path),))
    worker.start()
    worker.join(timeout=30)
    assert (tmp_path / "ready").exists() and (tmp_path / "answer.txt").read_text() == ""


def _recorded(project: Path, runner: str, name: str, fixture: str) -> Path:
    """A recorded report (tests/runners/js_reports/, paths under /w/proj) as this run's, paths under
    `project`."""
    text = (
        (Path(__file__).parent / "js_reports" / fixture)
        .read_text()
        .replace("/w/proj", str(project))
    )
    path = project / ".sidekit" / runner / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("runner", "fixture", "passed"),
    [("vitest", "vitest-same-name.json", 2), ("jest", "jest-same-name.json", 1)],
)
def test_a_failing_test_named_like_a_passing_one_keeps_the_run_red(
    runner: str, fixture: str, passed: int, tmp_path: Path
) -> None:
    from sidekit_hooks.status import cache

    (tmp_path / ".git").mkdir()
    green = _report(tmp_path, runner, "report-1.json", [("ok", "passed")])
    raw = tmp_path / "raw.txt"
    raw.write_text("z" * 3000)
    js_compact.finish(runner, str(tmp_path), time.time() - 1, 0, str(raw), str(green))
    red = _recorded(tmp_path, runner, "report-2.json", fixture)
    text = js_compact.finish(runner, str(tmp_path), time.time() - 1, 1, str(raw), str(red))
    answer = json.loads(text.split("\n")[1])
    assert (answer["exit"], answer["failed"], answer["passed"], len(answer["clusters"])) == (
        1,
        1,
        passed,
        1,
    )
    summary = cache.read(cache.summary_path(str(tmp_path))).data
    assert (summary["run"]["state"], summary["run"]["counts"], summary["failing"]) == (
        "failed",
        {"failed": 1, "passed": passed},
        1,
    )


def test_a_timed_out_repeat_gets_its_message_from_the_heading_of_its_name() -> None:
    lost = {"type": "Error", "message": js_compact.LOST_MESSAGE}
    tests: dict[str, dict[str, Any]] = {
        "t.test.ts::a > slow": {"o": "failed", "f": dict(lost)},
        "t.test.ts::a > slow #2": {"o": "failed", "f": dict(lost)},
    }
    js_compact.recover_messages(
        tests, " FAIL  t.test.ts > a > slow\nError: Test timed out in 200ms.\n"
    )
    assert [entry["f"]["message"] for entry in tests.values()] == ["Test timed out in 200ms."] * 2


# vitest 4.1.12, `npx vitest run nomatchfile` on unjs/ufo: exit 1, an empty JSON report (success
# false, no files)
NO_TEST_FILES = (
    "\n RUN  v4.1.12 /w/proj\n\nNo test files found, exiting with code 1\n\nfilter: nomatchfile\n"
    "include: **/*.{test,spec}.?(c|m)[jt]s?(x)\nexclude:  **/node_modules/**, **/.git/**\n\n"
)


def _status(project: Path) -> dict[str, Any]:
    from sidekit_hooks.answers import render
    from sidekit_hooks.cli.commands import status

    found = dict(json.loads(render.dumps(status.answer(str(project)))))
    found.pop("age", None)
    return found


def test_a_red_run_without_tests_is_not_green_and_keeps_the_cached_results(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "t.test.js").write_text("")  # a cached test of a file that is gone is dropped
    raw = tmp_path / "raw.txt"
    raw.write_text("z" * 3000)
    green = _report(tmp_path, "vitest", "report-1.json", [("a", "passed"), ("b", "passed")])
    js_compact.finish("vitest", str(tmp_path), time.time() - 1, 0, str(raw), str(green))
    raw.write_text(NO_TEST_FILES)
    none = _recorded(tmp_path, "vitest", "report-2.json", "vitest-no-test-files.json")
    assert (
        js_compact.finish("vitest", str(tmp_path), time.time() - 1, 1, str(raw), str(none))
        == NO_TEST_FILES
    )
    assert _status(tmp_path) == {
        "generation": 2,
        "runner": "vitest",
        "state": "failed",
        "passed": 2,
        "collectErrors": 1,
        "newFailures": 1,
        "clusters": [
            {
                "id": _status(tmp_path)["clusters"][0]["id"],
                "type": "NoTests",
                "phase": "collect",
                "message": "No test files found, exiting with code 1",
                "new": 1,
                "first": "(exit 1)",
            }
        ],
    }
    again = _report(tmp_path, "vitest", "report-3.json", [("a", "passed"), ("b", "passed")])
    js_compact.finish("vitest", str(tmp_path), time.time() - 1, 0, str(raw), str(again))
    assert _status(tmp_path) == {
        "generation": 3,
        "runner": "vitest",
        "state": "passed",
        "passed": 2,
    }


def test_a_red_run_whose_tests_all_passed_is_an_error_of_the_run(tmp_path: Path) -> None:
    # jest 30 with a coverage threshold not met: every test passes, exit 1
    (tmp_path / ".git").mkdir()
    raw = tmp_path / "raw.txt"
    raw.write_text(
        'PASS t.test.js\nJest: "global" coverage threshold for lines (90%) not met: 50%\n'
    )
    report = _report(tmp_path, "jest", "report-1.json", [("a", "passed")])
    capture = js_compact.collect("jest", str(tmp_path), time.time() - 1, 1, str(raw), str(report))
    assert capture is not None and capture.collect_errors == {
        "(exit 1)": {
            "type": "Error",
            "message": 'Jest: "global" coverage threshold for lines (90%) not met: 50%',
        }
    }
    capture = js_compact.collect("jest", str(tmp_path), time.time() - 1, 0, str(raw), str(report))
    assert capture is not None and capture.collect_errors == {}


def test_a_name_filtered_run_leaves_the_tests_it_skipped_as_they_were(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "t.test.js").write_text("")  # a cached test of a file that is gone is dropped
    raw = tmp_path / "raw.txt"
    raw.write_text("z" * 3000)
    red = _report(tmp_path, "jest", "report-1.json", [("a", "failed"), ("b", "passed")])
    js_compact.finish("jest", str(tmp_path), time.time() - 1, 1, str(raw), str(red))
    # `npx jest -t b`: jest reports the tests the pattern leaves out as pending (vitest: skipped)
    filtered = _report(tmp_path, "jest", "report-2.json", [("a", "pending"), ("b", "passed")])
    text = js_compact.finish(
        "jest", str(tmp_path), time.time() - 1, 0, str(raw), str(filtered), name_filter="b"
    )
    assert (
        json.loads(text.split("\n")[1])["passed"],
        json.loads(text.split("\n")[1])["skipped"],
    ) == (1, 1)
    assert _status(tmp_path)["state"] == "failed" and _status(tmp_path)["failed"] == 1
    unfiltered = _report(tmp_path, "jest", "report-3.json", [("a", "pending"), ("b", "passed")])
    js_compact.finish(
        "jest", str(tmp_path), time.time() - 1, 0, str(raw), str(unfiltered)
    )  # a.skip: as reported
    assert _status(tmp_path)["state"] == "passed"


def _two_files(
    project: Path, name: str, first: list[tuple[str, str]], second: list[tuple[str, str]] | None
) -> Path:
    """A jest report of t.test.js (`first`) and, unless None, u.test.js (`second`): both files
    exist."""
    path = _report(project, "jest", name, first)
    report = json.loads(path.read_text())
    if second is not None:
        other = json.loads(_report(project, "jest", "other.json", second).read_text())[
            "testResults"
        ][0]
        report["testResults"].append(dict(other, name=str(project / "u.test.js")))
    path.write_text(json.dumps(report))
    for file in ("t.test.js", "u.test.js"):
        (project / file).write_text("")
    return path


def _cached(project: Path) -> dict[str, str]:
    from sidekit_hooks.status import cache

    table = cache.read(cache.table_path(str(project))).data
    return {test: entry["o"] for test, entry in table["tests"].items()}


@pytest.mark.parametrize(
    ("name_filter", "partial", "kept"),
    [("", "", False), ("a", "", True), ("", "bail", True), ("", "unknown", True)],
)
def test_a_file_run_whole_drops_its_cached_tests_the_run_no_longer_has(
    name_filter: str, partial: str, kept: bool, tmp_path: Path
) -> None:
    (tmp_path / ".git").mkdir()
    raw = tmp_path / "raw.txt"
    raw.write_text("z" * 3000)
    red = _two_files(
        tmp_path, "report-1.json", [("a", "passed"), ("old", "failed")], [("u", "failed")]
    )
    js_compact.finish("jest", str(tmp_path), time.time() - 1, 1, str(raw), str(red))
    assert _cached(tmp_path) == {
        "t.test.js::a": "passed",
        "t.test.js::old": "failed",
        "u.test.js::u": "failed",
    }
    # `old` deleted from t.test.js; `npx jest t.test.js` runs that file alone: u.test.js is not in
    # the report
    renamed = _two_files(tmp_path, "report-2.json", [("a", "passed")], None)
    js_compact.finish(
        "jest",
        str(tmp_path),
        time.time() - 1,
        0,
        str(raw),
        str(renamed),
        "",
        0,
        name_filter,
        partial,
    )
    expected = {"t.test.js::a": "passed", "u.test.js::u": "failed"}
    assert _cached(tmp_path) == ({**expected, "t.test.js::old": "failed"} if kept else expected)


def test_a_file_that_failed_to_load_covers_nothing() -> None:
    report = {
        "testResults": [
            {
                "name": "/w/proj/a.test.js",
                "status": "failed",
                "message": "SyntaxError: x",
                "assertionResults": [],
            },
            {
                "name": "/w/proj/b.test.js",
                "status": "passed",
                "message": "",
                "assertionResults": [],
            },
            {
                "name": "/w/proj/c.test.js",
                "status": "skipped",
                "message": "",
                "assertionResults": [],
            },
        ]
    }
    from sidekit_hooks.runners.js import report as js_report

    parsed = js_report.parse(report, "/w/proj")
    assert (parsed.run_files, set(parsed.suite_errors)) == (
        {"a.test.js", "b.test.js"},
        {"a.test.js"},
    )
