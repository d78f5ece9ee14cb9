"""Frames per language into the cache's failure records: Go, Rust, JVM."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sidekit_hooks.runners import frames
from testing import regex_oracle
from testing.regex_oracle import texts


def test_a_go_log_line_is_the_failure_with_its_package_path() -> None:
    lines = [
        "=== RUN   TestAdd\n",
        "    calc_test.go:12: Add(1,2) = 4, want 3\n",
        "--- FAIL: TestAdd (0.00s)\n",
    ]
    assert frames.go_failure(lines, "internal/calc", "/p") == {
        "type": "t.Error",
        "message": "Add(1,2) = 4, want 3",
        "at": "internal/calc/calc_test.go:12",
        "shape": "Add(N,N)",
    }


def test_a_go_panic_is_at_the_innermost_project_frame_of_the_first_goroutine() -> None:
    lines = [
        "--- FAIL: TestIndex (0.00s)\n",
        "panic: runtime error: index out of range [5] with length 3 [recovered, repanicked]\n",
        "\n",
        "goroutine 7 [running]:\n",
        "testing.tRunner.func1.2({0x5a, 0x6b})\n",
        "\t/usr/local/go/src/testing/testing.go:1734 +0x21c\n",
        "panic({0x5a?, 0x6b?})\n",
        "\t/usr/local/go/src/runtime/panic.go:792 +0x132\n",
        "example.com/m/calc.At(...)\n",
        "\t/p/calc/calc.go:9\n",
        "example.com/m/calc.TestIndex(0xc0000)\n",
        "\t/p/calc/calc_test.go:20 +0x1d\n",
        "\n",
        "goroutine 1 [chan receive]:\n",
        "\t/p/other.go:1 +0x1\n",
    ]
    assert frames.go_failure(lines, "calc", "/p") == {
        "type": "runtime error",
        "message": "index out of range [5] with length 3",
        "at": "calc/calc.go:9",
        "frames": ["calc/calc.go:9", "calc/calc_test.go:20"],
        "shape": "index",
    }


def test_a_go_timeout_is_its_own_kind() -> None:
    failure = frames.go_failure(
        ["panic: test timed out after 2s\n", "\trunning tests:\n", "\t\tTestSlow (2s)\n"], ".", "/p"
    )
    assert failure == {
        "type": "timeout",
        "message": "test timed out after 2s",
        "shape": "test timed out after 2s",
    }


def test_a_go_build_failure_names_the_file_and_line() -> None:
    lines = ["# example.com/m/calc\n", "calc/calc.go:3:22: undefined: x\n"]
    assert frames.go_build_failure(lines, "/p") == {
        "type": "build failed",
        "message": "undefined: x",
        "at": "calc/calc.go:3",
        "shape": "undefined:",
    }


def test_a_rust_panic_is_at_the_panic_location() -> None:
    lines = [
        "",
        "thread 'tests::adds' (4711) panicked at src/lib.rs:9:24:",
        "attempt to subtract with overflow",
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    ]
    assert frames.rust_failure(lines, "/p") == {
        "type": "panic",
        "message": "attempt to subtract with overflow",
        "at": "src/lib.rs:9",
        "shape": "attempt",
    }


def test_an_older_rust_panic_line_with_the_message_inline() -> None:
    lines = ["thread 'a' panicked at 'boom 3', /p/b/src/lib.rs:2:5"]
    assert frames.rust_failure(lines, "/p") == {
        "type": "panic",
        "message": "boom 3",
        "at": "b/src/lib.rs:2",
        "shape": "boom",
    }


def test_rust_compile_errors_with_their_locations() -> None:
    lines = [
        "error[E0308]: mismatched types",
        " --> src/lib.rs:3:5",
        "  |",
        "error: could not compile `c` (lib test)",
    ]
    assert frames.rust_compile_errors(lines, "/p") == [
        {
            "type": "compile error[E0308]",
            "message": "mismatched types",
            "at": "src/lib.rs:3",
            "shape": "mismatched",
        }
    ]


def test_a_jvm_trace_is_at_the_innermost_project_frame(tmp_path: Path) -> None:
    for rel in ("src/main/java/com/acme/Calc.java", "src/test/java/com/acme/CalcTest.java"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    trace = (
        "java.lang.ArithmeticException: / by zero\n"
        "\tat com.acme.Calc.divide(Calc.java:12)\n"
        "\tat com.acme.CalcTest.divides(CalcTest.java:30)\n"
        "\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)\n"
    )
    failure = frames.jvm_failure(
        "java.lang.ArithmeticException", "/ by zero", trace, frames.SourceIndex(str(tmp_path))
    )
    assert failure == {
        "type": "ArithmeticException",
        "module": "java.lang",
        "message": "/ by zero",
        "at": "src/main/java/com/acme/Calc.java:12",
        "frames": [
            "src/main/java/com/acme/Calc.java:12 in divide",
            "src/test/java/com/acme/CalcTest.java:30 in divides",
        ],
        "shape": "/",
    }


def test_a_multi_line_go_error_keeps_its_continuation_lines() -> None:
    lines = [
        "=== RUN   TestParse\n",
        "    parse_test.go:30: \n",
        "        got: 4\n",
        "        want: 3\n",
        "    parse_test.go:31: second\n",
        "--- FAIL: TestParse (0.00s)\n",
    ]
    assert frames.go_failure(lines, ".", "/p") == {
        "type": "t.Error",
        "message": "got: 4 want: 3",
        "at": "parse_test.go:30",
        "shape": "got:",
    }


def test_a_bare_go_t_fail_is_at_the_test_function_with_what_it_printed(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "all_test.go").write_text(
        'package p\n\nimport "testing"\n\nfunc TestAll(t *testing.T) {\n}\n'
    )
    lines = [
        "=== RUN   TestAll/Hello\n",
        "{\n",
        'input:"Hello",\n',
        "},\n",
        "--- FAIL: TestAll/Hello (0.00s)\n",
    ]
    assert frames.go_failure(lines, "pkg", str(tmp_path), test="TestAll/Hello") == {
        "type": "fail",
        "message": 'failed without a message (t.Fail); printed: { input:"Hello", },',
        "at": "pkg/all_test.go:5",
        "shape": "failed",
    }
    assert frames.go_failure(["{\n", "}\n"], "pkg", str(tmp_path), test="TestGone") == {
        "type": "fail",
        "message": "{",
        "shape": "{",
    }


GO_LOG_LINES = texts("    ", "calc_test.go", ".go", ":12", ": ", "a/b", "\t") | st.tuples(
    st.sampled_from(["    ", "\t", " \n", "", "\xa0"]),
    texts("calc_test", ".go", "/", "-", ".", "é"),
    st.sampled_from([".go:", ".go", "go:", ".go:12:"]),
    texts("12", "٣", ":", " ", "\n", "got 4, want 3"),
).map("".join)


@pytest.mark.parametrize("examples", regex_oracle.depths(3000))
def test_a_t_error_line_is_read_as_the_regular_expression_read_it(examples: int) -> None:
    @settings(max_examples=examples)
    @given(GO_LOG_LINES)
    def read_as_the_oracle(line: str) -> None:
        found = regex_oracle.pattern("go_log_line").match(line)
        assert frames.go_log_line(line) == (found.groups() if found else None)

    read_as_the_oracle()


@given(
    st.tuples(
        st.sampled_from(["func ", "func", "func  ", "fun "]),
        st.sampled_from(["Test", "Example", "Fuzz", "test", ""]),
        texts("Á", "_", "(", "[", " ", "x"),
    ).map("".join)
)
def test_a_test_function_is_found_as_the_regular_expression_found_it(line: str) -> None:
    found = regex_oracle.pattern("go_test_name").match(line)
    assert frames.go_test_name(line) == (found.group(1) if found else "")
