"""Helper copies in TypeScript, JavaScript, Go, Rust and Java: a restructured copy of a project
helper is named, a near miss (one step done otherwise) is not (`code.language_copies`,
`code.languages.behaviour`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sidekit_hooks.code import language_copies
from sidekit_hooks.code.index import Index
from sidekit_hooks.code.languages import behaviour
from testing import language_rewrites
from testing.language_copies import (
    GO_COPY,
    GO_HELPER,
    GO_NEAR_MISS,
    JAVA_COPY,
    JAVA_HELPER,
    JAVA_NEAR_MISS,
    JS_COPY,
    JS_HELPER,
    JS_NEAR_MISS,
    RUST_COPY,
    RUST_HELPER,
    RUST_NEAR_MISS,
    TS_COPY,
    TS_HELPER,
    TS_NEAR_MISS,
)

CASES = [
    ("ts", "src/utils.ts", TS_HELPER, "src/slashes.ts", TS_COPY, TS_NEAR_MISS, "withTrailingSlash"),
    ("go", "text/slug.go", GO_HELPER, "web/slug.go", GO_COPY, GO_NEAR_MISS, "Slugify"),
    (
        "rust",
        "src/pairs.rs",
        RUST_HELPER,
        "src/entries.rs",
        RUST_COPY,
        RUST_NEAR_MISS,
        "parse_pair",
    ),
    (
        "java",
        "src/main/java/app/util/Strings.java",
        JAVA_HELPER,
        "src/main/java/app/web/Titles.java",
        JAVA_COPY,
        JAVA_NEAR_MISS,
        "Strings.capitalizeWords",
    ),
    (
        "js",
        "lib/chunk.js",
        JS_HELPER,
        "src/groups.ts",
        JS_COPY,
        JS_NEAR_MISS,
        "chunk",
    ),  # a TS copy of a JS helper
]


def indexed(project: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)
    with Index.open(str(project)):
        pass


def matched(project: Path, language: str, rel: str, text: str) -> str | None:
    (project / rel).parent.mkdir(parents=True, exist_ok=True)
    (project / rel).write_text(text)
    added = language_copies.added_functions(language, rel, text, text)
    assert added, "the added function is read"
    index = language_copies.project_functions(
        str(project), language, {(rel, f.qualname) for f in added}
    )
    source = "\n".join(text.splitlines()[added[0].line - 1 : added[0].end])
    found = language_copies.best_match(language, added[0], index, str(project), source)
    return None if found is None else f"{found.path}:{found.line} {found.name}"


@pytest.mark.parametrize(
    ("language", "helper_at", "helper", "copy_at", "copy", "near_miss", "name"), CASES
)
def test_a_restructured_copy_is_named_and_a_near_miss_is_not(
    project: Path,
    language: str,
    helper_at: str,
    helper: str,
    copy_at: str,
    copy: str,
    near_miss: str,
    name: str,
) -> None:
    indexed(project, {helper_at: helper})
    line = next(
        n for n, text in enumerate(helper.splitlines(), 1) if name.rsplit(".", 1)[-1] + "(" in text
    )
    assert matched(project, language, copy_at, copy) == f"{helper_at}:{line} {name}"
    assert matched(project, language, copy_at, near_miss) is None


def test_only_functions_added_whole_are_compared(project: Path) -> None:
    text = TS_HELPER + "\n" + TS_COPY
    # one line added inside the helper: no function added
    inside = "    path = input.slice(0, fragmentIndex);\n"
    assert [f.qualname for f in language_copies.added_functions("ts", "a.ts", text, TS_COPY)] == [
        "ensureSlash"
    ]
    assert language_copies.added_functions("ts", "a.ts", text, inside) == []


def test_features_of_a_token_stream() -> None:
    tokens = 'function <self> ( v1 ) { if ( v1 !== "x" ) { return <self> ( v1 . .trim ( ) ) ; } return 0 ; }'.split()
    assert behaviour.features("ts", tokens, set()) == [
        "c:.trim",
        "c:SELF",
        "l:'x'",
        "l:0",
        "o:Eq",
        "r:l:0",
    ]
    assert behaviour.canonical(tokens) == [
        "function",
        "<self>",
        "v1",
        "if",
        "v1",
        "===",
        "l:'x'",
        "return",
        "<self>",
        "v1",
        ".",
        ".trim",
        "return",
        "l:0",
    ]


GO_MESSAGES = """package flags

import "fmt"

func validateRequired(groups map[string][]string, set map[string]bool) error {
\tfor group, names := range groups {
\t\tmissing := []string{}
\t\tfor _, name := range names {
\t\t\tif !set[name] {
\t\t\t\tmissing = append(missing, name)
\t\t\t}
\t\t}
\t\tif len(missing) > 0 && len(missing) < len(names) {
\t\t\treturn fmt.Errorf("if any flags in the group [%v] are set they must all be set; missing %v", group, missing)
\t\t}
\t}
\treturn nil
}
"""
# the same loop, the other rule: messages that start alike (the index keeps 24 characters of each)
GO_OTHER_RULE = """package flags

import "fmt"

func validateExclusive(groups map[string][]string, set map[string]bool) error {
\tfor group, names := range groups {
\t\tpresent := []string{}
\t\tfor _, name := range names {
\t\t\tif set[name] {
\t\t\t\tpresent = append(present, name)
\t\t\t}
\t\t}
\t\tif len(present) > 1 && len(present) < len(names) {
\t\t\treturn fmt.Errorf("if any flags in the group [%v] are set none of the others can be; %v were set", group, present)
\t\t}
\t}
\treturn nil
}
"""
GO_MORE_WORK = GO_MESSAGES.replace(
    "missing = append(missing, name)", "missing = append(missing, strings.TrimSpace(name))"
)


@pytest.mark.parametrize(
    "other", [GO_OTHER_RULE, GO_MORE_WORK], ids=["messages-differ-past-the-cut", "more-calls"]
)
def test_a_look_alike_that_does_other_work_is_not_named(project: Path, other: str) -> None:
    indexed(project, {"flags/required.go": GO_MESSAGES})
    assert (
        matched(
            project, "go", "flags/exclusive.go", other.replace("validateRequired", "checkFlags")
        )
        is None
    )
    assert matched(
        project, "go", "flags/copy.go", GO_MESSAGES.replace("validateRequired", "checkFlags")
    ) == ("flags/required.go:5 validateRequired")


def test_tests_are_not_compared(project: Path) -> None:
    test = GO_MESSAGES.replace(
        "func validateRequired(groups map[string][]string, set map[string]bool)",
        "func TestFlags(t *testing.T)",
    )
    assert not language_copies.helper_like("TestFlags", "flags/flags_test.go")
    assert language_copies.helper_like("Flags", "flags/flags_test.go")  # a helper in a test file
    assert not language_copies.helper_like("testParse", "src/parse.ts")
    assert language_copies.added_functions("go", "flags/flags_test.go", test, test) == []


@pytest.mark.parametrize(
    ("language", "helper_at", "helper", "copy_at", "copy", "near_miss", "name"),
    language_rewrites.CASES,
    ids=[case[-1] for case in language_rewrites.CASES],
)
def test_a_copy_one_rewrite_away_is_named_and_its_near_miss_is_not(
    project: Path,
    language: str,
    helper_at: str,
    helper: str,
    copy_at: str,
    copy: str,
    near_miss: str,
    name: str,
) -> None:
    """`.some` as a loop that returns, `.filter().map()` as a loop that pushes, mirrored comparisons
    and else branches, an index loop as a range loop, `.any()` and `anyMatch` as loops, a private
    helper written inline, a guard for a test (see `testing.language_rewrites`)."""
    indexed(project, {helper_at: helper})
    line = next(
        n for n, text in enumerate(helper.splitlines(), 1) if name.rsplit(".", 1)[-1] + "(" in text
    )
    assert matched(project, language, copy_at, copy) == f"{helper_at}:{line} {name}"
    assert matched(project, language, copy_at, near_miss) is None


def test_the_decisions_are_read_from_the_body_alone() -> None:
    """`find<T>(xs: Iterable<T>)`: the signature's brackets are no comparisons; a parameter keeps its
    place (`p1`: the type parameter before it shifts nothing), a local of the body is unnamed (a
    copy declares its locals otherwise)."""
    tokens = (
        "function <self> < v1 > ( v2 : Iterable < v1 > , v3 : number ) : v1 "
        "{ const v4 = v3 + 1 ; return v4 < v2 . .length ; }"
    ).split()
    assert behaviour.deciding(tokens) == {"< v | p1 . .length": 1}


@pytest.mark.parametrize(
    ("body", "calls"),
    [
        ("{ return v2 . .map ( v1 ) ; }", True),  # handed to a method that calls it per item
        ("{ return v2 . .map ( ( v3 ) => v1 ( v3 ) ) ; }", True),
        ("{ return v2 . .concat ( v1 ) ; }", False),  # a value passed on, not called
        ("{ return v4 ( v2 ) ; }", False),  # a local of the body, not a parameter
    ],
)
def test_a_function_given_and_called_is_told_from_a_value_given(body: str, calls: bool) -> None:
    tokens = f"function <self> ( v1 , v2 ) {body}".split()
    assert behaviour.calls_a_parameter(tokens) is calls
