"""Clustering rules on hand-made failures."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from sidekit_hooks.status import clusters
from sidekit_hooks.status.clusters import Member, build, normalize
from testing import regex_oracle
from testing.regex_oracle import texts


def failure(kind: str, message: str, at: str, **extra: str) -> dict[str, str]:
    return {"type": kind, "message": message, "at": at, "frame": extra.pop("frame", at), **extra}


def test_normalize_numbers_addresses_and_quoted_values() -> None:
    assert (
        normalize("bad size 12 at 0x7f3a, got 'abc' and \"d\" (3.5e3)")
        == "bad size N at 0x…, got '…' and \"…\" (N)"
    )
    assert normalize("test_v2 in py311") == "test_v2 in py311"


def test_same_crash_from_library_splits_by_the_deepest_project_frame() -> None:
    members = [
        Member("t.py::a", failure("KeyError", "'x'", "json/decoder.py:355", frame="pkg/a.py:3")),
        Member("t.py::b", failure("KeyError", "'y'", "json/decoder.py:355", frame="pkg/b.py:9")),
        Member("t.py::c", failure("KeyError", "'z'", "json/decoder.py:355", frame="pkg/a.py:3")),
    ]
    found = build(members)
    assert [(c["frame"], c["affected"]) for c in found] == [("pkg/a.py:3", 2), ("pkg/b.py:9", 1)]


def test_phase_and_cause_type_are_part_of_the_key() -> None:
    members = [
        Member("t::a", failure("TypeError", "m", "c.py:1"), "setup"),
        Member("t::b", failure("TypeError", "m", "c.py:1"), "call"),
        Member("t::c", failure("TypeError", "m", "c.py:1", cause="OSError: disk")),
        Member("t::d", failure("TypeError", "m", "c.py:1"), "setup"),
    ]
    found = build(members)
    assert sorted((c["phase"], c["cause"], c["affected"]) for c in found) == [
        ("call", "", 1),
        ("call", "OSError: disk", 1),
        ("setup", "", 2),
    ]


def reporter(test: str, at: str, mention: str) -> Member:
    """A failed `assert 1 == 0` whose text mentions another exception."""
    return Member(test, failure("AssertionError", "assert 1 == 0", at, mentions=[mention]))  # type: ignore[arg-type]


def test_reporters_join_only_on_clear_evidence() -> None:
    cause = failure("ValueError", "unsupported format 'yaml' for export", "pkg/io.py:40")
    members = [
        Member("t::direct", cause),
        reporter("t::reports", "t.py:9", "ValueError: unsupported format 'toml' for export"),
        reporter("t::other_type", "t.py:12", "TypeError: unsupported format 'yaml' for export"),
        reporter("t::short", "t.py:15", "ValueError: unsupported"),
    ]
    found = build(members)
    assert [(c["type"], c["affected"], c["reported"]) for c in found][0] == ("ValueError", 2, 1)
    assert found[0]["tests"] == ["t::direct", "t::reports"]
    assert sum(c["affected"] for c in found) == 4


def test_new_failures_are_counted_per_cluster_and_order_is_biggest_first() -> None:
    members = [Member(f"t::a[{i}]", failure("E", "m", "x.py:1"), new=i < 2) for i in range(3)]
    members.append(Member("t::b", failure("F", "m", "y.py:1"), new=True))
    found = build(members)
    assert [(c["at"], c["affected"], c["new"]) for c in found] == [
        ("x.py:1", 3, 2),
        ("y.py:1", 1, 1),
    ]


def test_mentions_read_reprs_and_long_messages_from_an_assertion_text() -> None:
    from sidekit_hooks.runners.pytest.plugin import exception_mentions

    text = (
        'assert 1 == 0\n +  where 1 = <Result ValueError("invalid literal for int() with base 10: '
        "'Configuration file to use.\\n\\nIf not given, the environ...ariable "
        + "x" * 300
        + "'\")>.exit_code"
    )
    [mention] = exception_mentions(text)
    assert mention.startswith(
        "ValueError: invalid literal for int() with base 10: 'Configuration file"
    )
    assert normalize(mention.partition(": ")[2]) == "invalid literal for int() with base N: '…'"
    assert exception_mentions("KeyError: 'user'\nthen TypeError('bad')") == [
        "KeyError: 'user'",
        "TypeError: bad",
    ]


@pytest.mark.parametrize("examples", regex_oracle.depths(3000))
def test_normalize_is_what_the_regular_expressions_make_of_any_text(examples: int) -> None:
    @settings(max_examples=examples)
    @given(texts("0x", "0x1f", "'a\\'b'", '"q"', "1.5e3", "-7", "e+", "12.34.56"))
    def normalized_as_the_oracle(message: str) -> None:
        clusters._NORMALIZED.clear()
        assert normalize(message) == regex_oracle.normalized(message)

    normalized_as_the_oracle()


@pytest.mark.parametrize(
    "message",
    [
        "1.5x 1e5x 1.5e 12.34.56 +3 a-4 -x 0x 0xZZ 0x1F0x2 00x1 v2 .5 5. e5 1e+ 1e+5 ²2 ٣٤.٥",
        "'a\\'b' 'a\\\nb' 'open \"x\" 'y' \\' \"a\\\"b\" \"\\\"",
        "",
    ],
)
def test_normalize_on_the_regular_expressions_corner_cases(message: str) -> None:
    clusters._NORMALIZED.clear()
    assert normalize(message) == regex_oracle.normalized(message)


@given(texts("Test", "n=1", "/", "٣", "²"))
def test_natural_order_splits_as_the_regular_expression_did(test: str) -> None:
    try:
        expected = regex_oracle.natural(test)
    except (
        ValueError
    ):  # a lone non-decimal digit ("²") between decimals: int() refuses it either way
        with pytest.raises(ValueError):
            clusters.natural(test)
        return
    assert clusters.natural(test) == expected


def test_a_failure_that_ended_its_test_binary_comes_before_bigger_clusters() -> None:
    """objx, held out: 22 assertion failures and the timeout that killed the package (the tests
    after it never ran). The timeout led nowhere in the answer; it now comes first."""
    found = build(
        [
            *(Member(f"p::TestGet{n}", failure("t.Error", "got x", "map.go:86")) for n in range(3)),
            Member(
                "p::TestSleepy", failure("timeout", "test timed out after 2s", "sleepy_test.go:9")
            ),
            Member(
                "p::TestBoom", failure("panic", "runtime error: index out of range", "boom.go:4")
            ),
        ]
    )
    assert [(c["type"], c["affected"]) for c in found] == [
        ("panic", 1),
        ("timeout", 1),
        ("t.Error", 3),
    ]


def test_failures_at_one_spot_in_code_under_test_are_one_cluster_whatever_their_messages_say() -> (
    None
):
    checked = "Decimal, asserted at decimal_test.go:{}"
    members = [
        Member(
            "./::TestA",
            failure("t.Error", "expected 1.5, got 15", "decimal.go:180", shape="expected"),
        ),
        Member(
            "./::TestB", failure("t.Error", "Error: 15 != 1.5", "decimal.go:180", shape="Error:")
        ),
        Member(
            "./::TestC",
            failure("t.Error", "got 15", "decimal.go:180", shape="got", checks=checked.format(3)),
        ),
        Member(
            "./::TestD",
            failure("t.Error", "expected 2, got 3", "decimal_test.go:40", shape="expected"),
        ),
        Member(
            "./::TestE", failure("t.Error", "Error: 2 != 3", "decimal_test.go:40", shape="Error:")
        ),
        Member(
            "test::f",
            failure("AssertionError", "expected 1", "test/stringify.test.js:9", shape="expected"),
        ),
        Member(
            "test::g", failure("AssertionError", "got 1", "test/stringify.test.js:9", shape="got")
        ),
    ]
    found = build(members)
    assert [(c["at"], c["affected"]) for c in found] == [
        ("decimal.go:180", 3),
        ("decimal_test.go:40", 1),
        ("decimal_test.go:40", 1),
        ("test/stringify.test.js:9", 1),
        ("test/stringify.test.js:9", 1),
    ]


@pytest.mark.parametrize(
    ("at", "in_tests"),
    [
        ("decimal.go:180", False),
        ("src/utils.js:12", False),
        ("lib/src/main/java/org/x/Csv.java:8", False),
        ("decimal_test.go:40", True),
        ("test/stringify.test.js:9", True),
        ("src/__tests__/a.js:3", True),
        ("lib/src/test/java/org/x/CsvTest.java:8", True),
        ("pkg/test_things.py:2", True),
        ("tests/api.rs:7", True),
        ("src/parse.spec.ts:1", True),
    ],
)
def test_code_under_test_is_told_from_test_code_by_path(at: str, in_tests: bool) -> None:
    assert clusters.in_test_code(at) is in_tests
