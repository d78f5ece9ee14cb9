"""go test -json events into cache records, the -test.v=test2json framing, and the appended
-exec."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sidekit_hooks.runners import Result
from sidekit_hooks.runners.go import adapter as go
from testing import regex_oracle
from testing.regex_oracle import texts

MOD = "example.com/m"


def run(events: list[dict[str, object]], exit_code: int = 1) -> Result:
    lines = [json.dumps(e) for e in events]
    locate = go.package_locator("/nonexistent")
    return go.from_events(
        go.parse_json_lines(lines),
        "/p",
        0.0,
        exit_code,
        lambda path: locate(path).removeprefix(MOD + "/").replace(MOD, "."),
    )


def ev(
    action: str, test: str = "", output: str = "", package: str = f"{MOD}/calc", **more: object
) -> dict[str, object]:
    event: dict[str, object] = {"Action": action, "Package": package, **more}
    if test:
        event["Test"] = test
    if output:
        event["Output"] = output
    return event


def test_leaves_of_a_subtest_tree_are_the_tests_and_a_failing_one_carries_its_line() -> None:
    result = run(
        [
            ev("start"),
            ev("run", "TestAdd"),
            ev("run", "TestAdd/one"),
            ev("output", "TestAdd/one", "    calc_test.go:9: Add(1,1) = 3, want 2\n"),
            ev("fail", "TestAdd/one", Elapsed=0.01),
            ev("run", "TestAdd/two"),
            ev("pass", "TestAdd/two"),
            ev("fail", "TestAdd"),
            ev("run", "TestSkip"),
            ev("skip", "TestSkip"),
            ev("fail"),
        ]
    )
    assert result.tests == {
        "calc::TestAdd/one": {
            "d": 0.01,
            "o": "failed",
            "p": "call",
            "f": {
                "type": "t.Error",
                "message": "Add(1,1) = 3, want 2",
                "at": "calc/calc_test.go:9",
                "shape": "Add(N,N)",
            },
        },
        "calc::TestAdd/two": {"d": 0.0, "o": "passed"},
        "calc::TestSkip": {"d": 0.0, "o": "skipped"},
    }
    assert result.errors == {}


def test_a_build_failure_is_an_error_of_the_package_not_zero_failed() -> None:
    result = run(
        [
            {
                "ImportPath": f"{MOD}/calc [{MOD}/calc.test]",
                "Action": "build-output",
                "Output": f"# {MOD}/calc\n",
            },
            {
                "ImportPath": f"{MOD}/calc [{MOD}/calc.test]",
                "Action": "build-output",
                "Output": "calc/calc.go:3:22: undefined: x\n",
            },
            {"ImportPath": f"{MOD}/calc [{MOD}/calc.test]", "Action": "build-fail"},
            ev("start"),
            ev("output", output=f"FAIL\t{MOD}/calc [build failed]\n"),
            ev("fail", FailedBuild=f"{MOD}/calc [{MOD}/calc.test]"),
        ]
    )
    assert result.tests == {}
    assert result.errors == {
        "calc": {
            "type": "build failed",
            "message": "undefined: x",
            "at": "calc/calc.go:3",
            "shape": "undefined:",
        }
    }


def test_a_timeout_fails_the_test_that_was_running_though_go_reports_no_test_fail() -> None:
    result = run(
        [
            ev("start"),
            ev("run", "TestQuick"),
            ev("pass", "TestQuick"),
            ev("run", "TestSlow"),
            ev("output", output="panic: test timed out after 1s\n"),
            ev("output", output="\trunning tests:\n"),
            ev("output", output="\t\tTestSlow (1s)\n"),
            ev("fail", Elapsed=1.0),
        ]
    )
    assert result.tests["calc::TestSlow"] == {
        "d": 0.0,
        "o": "failed",
        "p": "call",
        "f": {
            "type": "timeout",
            "message": "test timed out after 1s",
            "shape": "test timed out after 1s",
        },
    }
    assert result.tests["calc::TestQuick"]["o"] == "passed"


def test_a_package_that_fails_with_every_test_passing_is_an_error() -> None:
    result = run(
        [
            ev("start"),
            ev("run", "TestA"),
            ev("pass", "TestA"),
            ev("output", output="TestMain: database unreachable\n"),
            ev("output", output="FAIL\n"),
            ev("fail"),
        ]
    )
    assert result.errors == {
        "calc": {
            "type": "fail",
            "message": "TestMain: database unreachable",
            "shape": "TestMain: database unreachable",
        }
    }


def test_a_red_exit_with_no_event_at_all_is_an_error() -> None:
    result = run([], exit_code=2)
    assert result.errors == {
        ".": {
            "type": "go test failed",
            "message": "exit code 2, no test reported",
            "shape": "exit code N, no test reported",
        }
    }


def test_the_test2json_framing_becomes_the_same_events() -> None:
    text = (
        "\x16=== RUN   TestAdd\n\x16=== RUN   TestAdd/one\n    p_test.go:9: bad\n"
        "\x16--- FAIL: TestAdd/one (0.02s)\n\x16=== NAME  TestAdd\n\x16--- FAIL: TestAdd (0.02s)\n"
        "\x16=== RUN   TestOK\n\x16--- PASS: TestOK (0.00s)\n\x16=== NAME  \n\x16FAIL\n"
    )
    events = go.parse_framed(text, "p")
    assert [
        (e["Action"], e.get("Test", ""), e.get("Output", ""))
        for e in events
        if e["Action"] != "output"
    ] == [
        ("start", "", ""),
        ("run", "TestAdd", ""),
        ("run", "TestAdd/one", ""),
        ("fail", "TestAdd/one", ""),
        ("fail", "TestAdd", ""),
        ("run", "TestOK", ""),
        ("pass", "TestOK", ""),
    ]
    result = go.from_events(
        events + [{"Action": "fail", "Package": "p"}], "/p", 0.0, 1, lambda name: name
    )
    assert result.tests["p::TestAdd/one"]["f"]["at"] == "p/p_test.go:9"
    assert sorted(result.tests) == ["p::TestAdd/one", "p::TestOK"]


EXEC = ["-exec", f"/bin/sh {Path(go.__file__).parent / 'goexec.sh'} {sys.executable}"]


@pytest.mark.parametrize(
    ("words", "appended"),
    [
        (["go", "test", "./..."], EXEC),
        (["go", "test", "-run", "TestX", "-v", "./calc"], EXEC),
        (["go", "test", "-count=1", "./..."], EXEC),
        (["go", "test", "-json", "./..."], None),
        (["go", "test", "./...", "-args", "-x"], None),
        (["go", "test", "-exec", "sudo", "./..."], None),
        (["go", "test", "-c", "./calc"], None),
        (["go", "test", "-list", ".", "./calc"], None),
        (["go", "test", "-fuzz=FuzzX", "./calc"], None),
        (["go", "test", "-bench", ".", "./calc"], None),
        (["go", "test", "-bench=.", "-run", "^$", "./calc"], None),
        (["go", "test", "-h"], None),
    ],
)
def test_only_options_are_appended_and_some_runs_are_left_alone(
    words: list[str], appended: list[str] | None
) -> None:
    wanted = go.compact_words(list(words), "/p")
    assert wanted == (None if appended is None else words + appended)


@pytest.mark.parametrize(
    ("args", "argv"),
    [
        ([], ["go", "test", "-json", "./..."]),
        (["./calc"], ["go", "test", "-json", "./calc"]),
        (["--", "-run", "TestAdd/one"], ["go", "test", "-json", "./...", "-run", "TestAdd/one"]),
        (["-run", "Test/x", "./calc/..."], ["go", "test", "-json", "-run", "Test/x", "./calc/..."]),
        (["example.com/m/calc"], ["go", "test", "-json", "example.com/m/calc"]),
    ],
)
def test_sidekit_test_runs_the_packages_asked_for_else_all(
    args: list[str], argv: list[str]
) -> None:
    assert go.command("/p", args) == argv


def test_the_wrapper_prints_short_output_as_the_binary_does_without_test2json() -> None:
    from sidekit_hooks.runners.go import goexec as goexec

    text = (
        "\x16=== RUN   TestAdd\n\x16=== RUN   TestAdd/one\n    p_test.go:9: bad\n        second "
        "line\n"
        "\x16--- FAIL: TestAdd/one (0.00s)\n\x16=== RUN   TestAdd/two\nprinted by the test\n"
        "\x16--- PASS: TestAdd/two (0.00s)\n\x16=== NAME  TestAdd\n\x16--- FAIL: TestAdd (0.01s)\n"
        "\x16=== RUN   TestOK\n    p_test.go:20: quiet when passing\n\x16--- PASS: TestOK (0.00s)\n"
        "\x16=== NAME  \n\x16FAIL\n"
    )
    events = go.parse_framed(text, "p")
    assert goexec._plain(text, False, events) == (
        "printed by the test\n--- FAIL: TestAdd (0.01s)\n    --- FAIL: TestAdd/one (0.00s)\n"
        "        p_test.go:9: bad\n            second line\nFAIL\n"
    )
    assert "=== NAME  \n" not in goexec._plain(text, True, events)
    assert "    p_test.go:20: quiet when passing\n" in goexec._plain(text, True, events)


# `go test` on a subtest whose own name holds a slash (`t.Run("Comparer/Nil", ...)` in TestDiff):
# the binary's framed output, and what go 1.26 printed for the same run without -json (times as
# recorded).
SLASHED = (
    "\x16=== RUN   TestDiff\n\x16=== RUN   TestDiff/Comparer/Nil\n    s_test.go:6: Equal = true, "
    "want false\n"
    "        reason: nils are equal\n\x16--- FAIL: TestDiff/Comparer/Nil (0.00s)\n\x16=== NAME  "
    "TestDiff\n"
    "\x16=== RUN   TestDiff/Comparer/Ok\n\x16--- PASS: TestDiff/Comparer/Ok (0.00s)\n\x16=== NAME "
    " TestDiff\n"
    "\x16=== RUN   TestDiff/Deep\n\x16=== RUN   TestDiff/Deep/a/b\n    s_test.go:9: logged\n"
    "    s_test.go:9: deep fail\n\x16--- FAIL: TestDiff/Deep/a/b (0.00s)\n\x16=== NAME  "
    "TestDiff/Deep\n"
    "\x16--- FAIL: TestDiff/Deep (0.00s)\n\x16=== NAME  TestDiff\n\x16--- FAIL: TestDiff "
    "(0.00s)\n\x16=== NAME  \n"
    "\x16FAIL\n"
)
SLASHED_PLAIN = (
    "--- FAIL: TestDiff (0.00s)\n    --- FAIL: TestDiff/Comparer/Nil (0.00s)\n"
    "        s_test.go:6: Equal = true, want false\n            reason: nils are equal\n"
    "    --- FAIL: TestDiff/Deep (0.00s)\n        --- FAIL: TestDiff/Deep/a/b (0.00s)\n"
    "            s_test.go:9: logged\n            s_test.go:9: deep fail\nFAIL\n"
)


def test_a_subtest_whose_name_holds_a_slash_is_printed_under_its_parent_as_go_prints_it() -> None:
    from sidekit_hooks.runners.go import goexec as goexec

    assert goexec._plain(SLASHED, False, go.parse_framed(SLASHED, "p")) == SLASHED_PLAIN


def test_a_subtest_whose_name_holds_a_slash_is_a_leaf_and_its_parents_are_not() -> None:
    events = [*go.parse_framed(SLASHED, "p"), {"Action": "fail", "Package": "p"}]
    result = go.from_events(events, "/nowhere", 0.0, 1, lambda name: name)
    assert {test: entry["o"] for test, entry in result.tests.items()} == {
        "p::TestDiff/Comparer/Nil": "failed",
        "p::TestDiff/Comparer/Ok": "passed",
        "p::TestDiff/Deep/a/b": "failed",
    }


def oracle_framing(line: str) -> tuple[str, str, str | None] | None:
    found = regex_oracle.pattern("framing").match(line)
    return (found.group(1), found.group(2), found.group(3)) if found else None


FRAMING_LINES = texts(
    "\x16",
    "=== RUN",
    "=== PAUSE",
    "=== CONT",
    "=== NAME",
    "--- PASS: ",
    "--- FAIL: ",
    "--- SKIP: ",
) | st.tuples(
    st.sampled_from(["", "  ", "\t", "\n"]),
    st.sampled_from(
        ["=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS: ", "--- FAIL: ", "--- RUN"]
    ),
    texts(" ", "TestA/b", " (", "s)", "0.01", "1.", "٣"),
    st.sampled_from(
        ["", " (0.00s)", " (12.50s)", " (1s)", " (1.5s) ", "s)", "\n", " (٣.٤s)", " (0.1s)\n"]
    ),
).map(lambda p: p[0] + "\x16" + p[1] + p[2] + p[3])


@pytest.mark.parametrize("examples", regex_oracle.depths(3000))
def test_the_framing_is_read_as_the_regular_expression_read_it(examples: int) -> None:
    @settings(max_examples=examples)
    @given(FRAMING_LINES)
    def framed_as_the_oracle(line: str) -> None:
        assert go.framing(line) == oracle_framing(line)

    framed_as_the_oracle()


def test_parallel_tests_still_paused_when_a_panic_ends_the_binary_never_ran() -> None:
    """go-envconfig, held out: a panic in one parallel test, 125 others paused behind it. go reports
    one failure; the cache said 132. A test that had resumed (=== CONT) was running: it fails with
    the cause."""
    text = (
        "\x16=== RUN   TestP1\n\x16=== PAUSE TestP1\n\x16=== RUN   TestP2\n\x16=== PAUSE TestP2\n"
        "\x16=== RUN   TestQ\n\x16=== PAUSE TestQ\n\x16=== CONT  TestQ\n"
        "\x16=== RUN   TestBoom\n\x16--- FAIL: TestBoom (0.00s)\n"
        "panic: planted boom [recovered]\n\tpanic: planted boom\n\ngoroutine 7 [running]:\n"
        "example.com/m/p.TestBoom(0xc000007)\n\t/nowhere/p/boom_test.go:9 +0x25\n"
    )
    events = [*go.parse_framed(text, "p"), {"Action": "fail", "Package": "p"}]
    result = go.from_events(events, "/nowhere", 0.0, 2, lambda name: name)
    found = {
        test: (entry["o"], entry["f"]["type"], entry["f"]["message"])
        for test, entry in result.tests.items()
    }
    assert found == {
        "p::TestQ": ("failed", "panic", "planted boom"),
        "p::TestBoom": ("failed", "panic", "planted boom"),
    }
