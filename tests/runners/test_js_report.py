"""The Jest-shaped JSON report (vitest's and jest's) as per-test records and suite errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sidekit_hooks.runners.js import report as js_report

ROOT = "/w/proj"


def _result(
    title: str,
    status: str,
    ancestors: tuple[str, ...] = (),
    messages: tuple[str, ...] = (),
    duration: float | None = 5.0,
) -> dict[str, Any]:
    return {
        "ancestorTitles": list(ancestors),
        "title": title,
        "status": status,
        "duration": duration,
        "failureMessages": list(messages),
    }


def test_tests_are_filed_by_workspace_relative_file_and_title_path() -> None:
    report = {
        "success": False,
        "testResults": [
            {
                "name": "/w/proj/test/order.test.js",
                "status": "failed",
                "message": "",
                "assertionResults": [
                    _result(
                        "1.0.0 < 1.0.1",
                        "failed",
                        ("ordering",),
                        ("TypeError: boom\n    at compare (/w/proj/lib/c.js:5:2)",),
                    ),
                    _result("valid", "passed", duration=None),
                    _result("later", "todo"),
                    _result("off", "skipped"),
                    _result("pending one", "pending"),
                ],
            }
        ],
    }
    parsed = js_report.parse(report, ROOT)
    assert parsed.tests == {
        "test/order.test.js::ordering > 1.0.0 < 1.0.1": {
            "o": "failed",
            "d": 0.005,
            "p": "call",
            "f": {
                "type": "TypeError",
                "message": "boom",
                "at": "lib/c.js:5",
                "frame": "lib/c.js:5",
                "frames": ["lib/c.js:5 in compare"],
            },
        },
        "test/order.test.js::valid": {"o": "passed", "d": 0.0},
        "test/order.test.js::later": {"o": "skipped", "d": 0.005},
        "test/order.test.js::off": {"o": "skipped", "d": 0.005},
        "test/order.test.js::pending one": {"o": "skipped", "d": 0.005},
    }
    assert parsed.suite_errors == {}
    assert (parsed.files, parsed.success) == (1, False)
    assert js_report.counts(parsed) == {"failed": 1, "passed": 1, "skipped": 3}


def test_an_unknown_status_or_a_failure_without_message_is_never_a_pass() -> None:
    report = {
        "testResults": [
            {
                "name": "/w/proj/a.test.ts",
                "status": "failed",
                "message": "",
                "assertionResults": [_result("odd", "exploded"), _result("bare", "failed")],
            }
        ]
    }
    tests = js_report.parse(report, ROOT).tests
    assert tests["a.test.ts::odd"]["o"] == "error"
    assert tests["a.test.ts::bare"]["f"] == {
        "type": "Error",
        "message": "status 'failed' without a failure message",
    }


def test_a_vitest_file_that_failed_to_load_is_a_suite_error() -> None:
    # vitest 4.1.12: a syntax error; the file is `failed` with a message and no tests,
    # numFailedTests 0
    message = (
        "Failed to parse source for import analysis because the content contains invalid JS "
        "syntax. "
        "If you are using JSX, make sure to name the file with the .jsx or .tsx extension."
    )
    report = {
        "success": False,
        "testResults": [
            {
                "name": "/w/proj/test/a.test.js",
                "status": "passed",
                "message": "",
                "assertionResults": [_result("a", "passed")],
            },
            {
                "name": "/w/proj/test/b.test.js",
                "status": "failed",
                "message": message,
                "assertionResults": [],
            },
        ],
    }
    parsed = js_report.parse(report, ROOT)
    assert parsed.suite_errors == {
        "test/b.test.js": {"type": "Error", "message": message, "at": "test/b.test.js"}
    }


def test_a_vitest_after_all_failure_next_to_failed_tests_still_counts() -> None:
    report = {
        "testResults": [
            {
                "name": "/w/proj/t.test.js",
                "status": "failed",
                "message": "Error: teardown broke\n    at /w/proj/t.test.js:9:11",
                "assertionResults": [_result("x", "failed", messages=("Error: no",))],
            }
        ]
    }
    errors = js_report.parse(report, ROOT).suite_errors
    assert errors == {
        "t.test.js": {
            "type": "Error",
            "message": "teardown broke",
            "at": "t.test.js:9",
            "frame": "t.test.js:9",
            "frames": ["t.test.js:9"],
        }
    }


def test_jest_test_suite_failed_to_run_is_a_suite_error_even_with_passing_tests() -> None:
    # jest 30.5.2: a throwing afterAll lists the passed tests, numFailedTests 0,
    # numRuntimeErrorTestSuites 1
    message = (
        "  \u25cf Test suite failed to run\n\n    Cannot find module '../missing' from "
        "'test/a.test.js'\n\n"
        "      at Resolver._throwModNotFoundError "
        "(node_modules/jest-resolve/build/index.js:863:11)\n"
        "      at Object.require (test/a.test.js:1:1)\n"
    )
    rendered_failure = "  \u25cf t > x\n\n    expect(received).toBe(expected)\n"
    report = {
        "numRuntimeErrorTestSuites": 1,
        "testResults": [
            {
                "name": "/w/proj/test/a.test.js",
                "status": "failed",
                "message": message,
                "assertionResults": [_result("fine", "passed")],
            },
            {
                "name": "/w/proj/test/b.test.js",
                "status": "failed",
                "message": rendered_failure,
                "assertionResults": [
                    _result("x", "failed", ("t",), ("Error: expect(received).toBe(expected)",))
                ],
            },
        ],
    }
    parsed = js_report.parse(report, ROOT)
    assert parsed.runtime_errors == 1
    assert parsed.suite_errors == {
        "test/a.test.js": {
            "type": "Error",
            "message": "Cannot find module '../missing' from 'test/a.test.js'",
            "at": "node_modules/jest-resolve/build/index.js:863",
            "frame": "test/a.test.js:1",
            "frames": ["test/a.test.js:1 in require"],
        }
    }


RECORDED = Path(__file__).parent / "js_reports"


def _recorded(name: str) -> dict[str, Any]:
    """A report a real run wrote, trimmed to the tests that matter, paths under ROOT."""
    return dict(json.loads((RECORDED / name).read_text()))


def test_vitest_tests_of_one_name_in_one_file_are_distinct_records() -> None:
    # vitest 4.1.12 on unjs/ufo 1.6.3, test/query.test.ts: a table with two `/?test` + `{}` rows, the first
    # made to fail; the JSON reporter gives no location to tell them apart (1 failed | 2 passed in the report)
    parsed = js_report.parse(_recorded("vitest-same-name.json"), ROOT)
    assert {test: entry["o"] for test, entry in parsed.tests.items()} == {
        "test/query.test.ts::withQuery > ?test with {}": "passed",
        "test/query.test.ts::withQuery > /?test with {}": "failed",
        "test/query.test.ts::withQuery > /?test with {} #2": "passed",
    }
    assert parsed.tests["test/query.test.ts::withQuery > /?test with {}"]["f"]["message"] == (
        "expected '/?test' to be '/?WRONG' // Object.is equality"
    )
    assert js_report.counts(parsed) == {"failed": 1, "passed": 2}


def test_jest_tests_of_one_name_in_one_file_are_distinct_records() -> None:
    # jest 30 on vercel/ms: `test('same name', fail)` then `test('same name', pass)` (1 failed, 1
    # passed)
    parsed = js_report.parse(_recorded("jest-same-name.json"), ROOT)
    assert {test: entry["o"] for test, entry in parsed.tests.items()} == {
        "test/format.test.js::same name": "failed",
        "test/format.test.js::same name #2": "passed",
    }
    assert parsed.suite_errors == {}


def test_a_later_repeat_never_takes_the_id_of_a_test_named_like_a_repeat() -> None:
    report = {
        "testResults": [
            {
                "name": "/w/proj/a.test.js",
                "status": "failed",
                "message": "",
                "assertionResults": [
                    _result("x", "passed"),
                    _result("x #2", "failed", messages=("Error: own",)),
                    _result("x", "passed"),
                    _result("x", "failed", messages=("Error: third",)),
                ],
            },
            {
                "name": "/w/proj/b.test.js",
                "status": "passed",
                "message": "",
                "assertionResults": [_result("x", "passed")],
            },
        ]
    }
    tests = js_report.parse(report, ROOT).tests
    assert {test: entry["o"] for test, entry in tests.items()} == {
        "a.test.js::x": "passed",
        "a.test.js::x #2": "failed",
        "a.test.js::x #3": "passed",
        "a.test.js::x #4": "failed",
        "b.test.js::x": "passed",
    }
    assert tests["a.test.js::x #2"]["f"]["message"] == "own"
