"""A Go failure without a stack is placed at the project function its test checks
(runners/go_subject)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from sidekit_hooks.runners import frames
from sidekit_hooks.runners.go import subject as go_subject
from testing import regex_oracle
from testing.regex_oracle import texts

CONV = """package caseconv

import "strings"

func ToSnake(s string) string {
\treturn strings.ToLower(s)
}

func Trim(s string) string { return s }

func (c *Caser) Upper(s string) string { return s }

func assertEqual(t testingT, want, got string) {}
"""

TABLE_TEST = """package caseconv

import "testing"

func TestToSnake(t *testing.T) {
\tfor _, tc := range []struct{ in, want string }{
\t\t{"A", "a"},
\t} {
\t\tgot := ToSnake(Trim(tc.in))
\t\tif got != tc.want {
\t\t\tt.Errorf("ToSnake(%q) = %q, want %q", tc.in, got, tc.want) // Trim( in a comment
\t\t}
\t}
}

func TestHelper(t *testing.T) {
\tgot := ToSnake("B")
\tassertEqual(t, "b", got)
}

func TestMethod(t *testing.T) {
\tc := &Caser{}
\tif c.Upper("x") != "X" {
\t\tt.Fail()
\t}
}
"""

EXTERNAL_TEST = """package caseconv_test

import (
\t"testing"

\t"example.com/caseconv"
)

func TestExternal(t *testing.T) {
\tif got := caseconv.ToSnake("Ab"); got != "ab" {
\t\tt.Errorf("got %q", got)
\t}
}
"""


def package(tmp_path: Path) -> Path:
    folder = tmp_path / "caseconv"
    folder.mkdir()
    (folder / "caseconv.go").write_text(CONV)
    (folder / "caseconv_test.go").write_text(TABLE_TEST)
    (folder / "external_test.go").write_text(EXTERNAL_TEST)
    go_subject._FOLDERS.clear()
    go_subject._SUBJECTS.clear()
    return folder


def test_a_table_driven_t_errorf_is_placed_at_the_last_call_before_it(tmp_path: Path) -> None:
    package(tmp_path)
    lines = [
        "=== RUN   TestToSnake/A\n",
        '    caseconv_test.go:11: ToSnake("A") = "A", want "a"\n',
        "--- FAIL: TestToSnake/A (0.00s)\n",
    ]
    assert frames.go_failure(lines, "caseconv", str(tmp_path), test="TestToSnake/A") == {
        "type": "t.Error",
        "message": 'ToSnake("A") = "A", want "a"',
        "at": "caseconv/caseconv.go:5",
        "checks": "ToSnake, asserted at caseconv/caseconv_test.go:11",
        "shape": 'ToSnake("…")',
    }


def test_a_helper_handed_t_is_not_the_subject_and_a_bare_fail_scans_its_whole_function(
    tmp_path: Path,
) -> None:
    folder = package(tmp_path)
    assert go_subject.subject(str(folder), "caseconv_test.go", 16) == (
        "ToSnake",
        "caseconv.go:5",
    )  # func line
    assert go_subject.subject(str(folder), "caseconv_test.go", 18) == ("ToSnake", "caseconv.go:5")


def test_an_external_test_package_calls_through_the_package_name(tmp_path: Path) -> None:
    folder = package(tmp_path)
    assert go_subject.subject(str(folder), "external_test.go", 11) == ("ToSnake", "caseconv.go:5")


def test_nothing_to_resolve_keeps_the_test_line(tmp_path: Path) -> None:
    package(tmp_path)
    lines = ["=== RUN   TestMethod\n", "--- FAIL: TestMethod (0.00s)\n"]
    assert frames.go_failure(
        lines, "caseconv", str(tmp_path), test="TestMethod"
    ) == {  # methods are not resolved
        "type": "fail",
        "message": "failed without a message (t.Fail)",
        "at": "caseconv/caseconv_test.go:21",
        "shape": "failed",
    }
    gone = {"type": "t.Error", "message": "x", "at": "caseconv/missing_test.go:3"}
    assert go_subject.resolve(dict(gone), str(tmp_path / "caseconv"), "caseconv/") == gone
    helper = {"type": "t.Error", "message": "x", "at": "caseconv/caseconv.go:9"}  # not a test file
    assert go_subject.resolve(dict(helper), str(tmp_path / "caseconv"), "caseconv/") == helper


def test_a_panic_keeps_its_own_frame(tmp_path: Path) -> None:
    package(tmp_path)
    root = str(tmp_path)
    lines = [
        "--- FAIL: TestToSnake (0.00s)\n",
        "panic: boom [recovered]\n",
        "\n",
        "goroutine 7 [running]:\n",
        "example.com/caseconv.ToSnake(...)\n",
        f"\t{root}/caseconv/caseconv.go:6 +0x1d\n",
        "example.com/caseconv.TestToSnake(0xc000)\n",
        f"\t{root}/caseconv/caseconv_test.go:9 +0x2a\n",
    ]
    failure = frames.go_failure(lines, "caseconv", root, test="TestToSnake")
    assert failure["at"] == "caseconv/caseconv.go:6" and "checks" not in failure


def test_the_cluster_brief_shows_where_it_was_asserted() -> None:
    from sidekit_hooks.answers import shape
    from sidekit_hooks.status import clusters

    failure = {
        "type": "t.Error",
        "message": "m",
        "at": "a.go:5",
        "checks": "F, asserted at a_test.go:9",
        "shape": "m",
    }
    found = clusters.build(
        [clusters.Member("p::TestA", dict(failure)), clusters.Member("p::TestB", dict(failure))]
    )
    brief = shape.brief(found[0], 80)
    assert (brief["at"], brief["checks"], brief["affected"]) == (
        "a.go:5",
        "F, asserted at a_test.go:9",
        2,
    )


def test_each_run_reads_the_sources_as_they_are_then(tmp_path: Path) -> None:
    """A long-lived process (the MCP server runs `test` in-process) sees an edit made between
    runs."""
    from sidekit_hooks.runners.go import adapter as go

    folder = package(tmp_path)
    events = [
        {"Action": "run", "Package": "caseconv", "Test": "TestToSnake"},
        {
            "Action": "output",
            "Package": "caseconv",
            "Test": "TestToSnake",
            "Output": "    caseconv_test.go:11: no\n",
        },
        {"Action": "fail", "Package": "caseconv", "Test": "TestToSnake"},
        {"Action": "fail", "Package": "caseconv"},
    ]

    def at() -> str:
        result = go.from_events(events, str(tmp_path), 0.0, 1, lambda name: name)
        return str(result.tests["caseconv::TestToSnake"]["f"]["at"])

    assert at() == "caseconv/caseconv.go:5"
    (folder / "caseconv.go").write_text(
        CONV.replace("func ToSnake", "// moved down\n\nfunc ToSnake")
    )
    assert at() == "caseconv/caseconv.go:7"


GO_LINE_WORDS = (
    "func ",
    "func",
    "Name",
    "pkg.",
    "t",
    " *testing.T",
    " *testing.B",
    "(",
    ")",
    "[",
    "//",
    "`",
    "\\",
)


def assert_scanned_as_the_oracle(line: str) -> None:
    found = regex_oracle.pattern("defined_function").match(line)
    assert go_subject.defined_function(line) == (found.group(1) if found else "")
    assert go_subject._starts_function(line) == bool(
        regex_oracle.pattern("starts_function").match(line)
    )
    assert go_subject.testing_params(line) == regex_oracle.pattern("testing_params").findall(line)
    expected = [
        (m.group(1) or "", m.group(2), m.end())
        for m in regex_oracle.pattern("calls").finditer(line)
    ]
    assert go_subject.calls(line) == expected
    assert go_subject.without_literals(line) == regex_oracle.pattern("without_literals").sub(
        '""', line
    )


@pytest.mark.parametrize("examples", regex_oracle.depths(2000))
def test_go_lines_are_scanned_as_the_regular_expressions_scanned_them(examples: int) -> None:
    settings(max_examples=examples)(given(texts(*GO_LINE_WORDS))(assert_scanned_as_the_oracle))()


@pytest.mark.parametrize(
    "line",
    [
        "\tgot := caseconv.ToSnake(Trim(tc.in)) // ToSnake(x)",
        '\tif got := Double(n); got != 2*n { t.Errorf("Double(%d) = %d", n, got) }',
        "func TestX(t *testing.T, b *testing.B) {",
        "func Generic[T any](v T) T { return v }",
        '\tx := `raw ( string` + \'r\' + "s\\"(" + f (1) + a.b.c(2) + é(3) + _x (4)',
        '\tunterminated "string ( f(1) // g(2)',
    ],
)
def test_go_lines_of_real_tests_are_scanned_as_the_regular_expressions_scanned_them(
    line: str,
) -> None:
    assert_scanned_as_the_oracle(line)


PARSE = """package dec

func NewFromString(s string) (int, error) {
\treturn len(s), nil
}

func RequireFromString(s string) int {
\td, _ := NewFromString(s)
\treturn d
}

func New(n int) int { return n }

func (d Dec) Parse(s string) int { return New(len(s)) }
"""


CEIL_TEST = """package dec

func TestCeil(t *testing.T) {
\tcheck := func(in string, want int) {
\t\tif len(in) != want {
\t\t\tt.Errorf("Ceil(%s)", in)
\t\t}
\t}
\tfor _, in := range []string{"1.5"} {
\t\td, _ := NewFromString(in)\n\t\tcheck(in, d)
\t}
}

func TestNew(t *testing.T) {
\tt.Errorf("New(1) = %d", New(1))
}
"""


def test_failures_at_a_caller_of_the_function_most_failures_are_at_join_it(tmp_path: Path) -> None:
    folder = tmp_path / "dec"
    folder.mkdir()
    (folder / "dec.go").write_text(PARSE)
    (folder / "dec_test.go").write_text(CEIL_TEST)
    go_subject.forget()

    def placed(function: str, line: int) -> dict[str, str]:
        return {
            "type": "t.Error",
            "at": f"dec/dec.go:{line}",
            "checks": f"{function}, asserted at dec/dec_test.go:9",
        }

    failures = [
        placed("NewFromString", 3),
        placed("NewFromString", 3),
        placed("RequireFromString", 7),
    ]
    failures += [placed("New", 12), {"type": "t.Error", "at": "dec/dec_test.go:20"}]
    failures += [
        {"type": "t.Error", "at": "dec/dec_test.go:6"},
        {"type": "t.Error", "at": "dec/dec_test.go:16"},
    ]
    go_subject.join_callers(failures, str(folder), "dec/")
    assert failures == [
        placed("NewFromString", 3),
        placed("NewFromString", 3),
        {
            "type": "t.Error",
            "at": "dec/dec.go:3",
            "checks": "NewFromString through RequireFromString, asserted at dec/dec_test.go:9",
        },
        placed(
            "New", 12
        ),  # calls nothing the others are at (the method's call to New is not New's)
        {"type": "t.Error", "at": "dec/dec_test.go:20"},  # no test function around it
        {
            "type": "t.Error",
            "at": "dec/dec.go:3",
            "checks": "NewFromString, called by TestCeil, asserted at dec/dec_test.go:6",
        },
        {"type": "t.Error", "at": "dec/dec_test.go:16"},  # its test calls only New
    ]
