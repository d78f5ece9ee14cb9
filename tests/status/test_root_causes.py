"""Root causes where they are (#18): doctest, subtest and plugin-item failures cluster at the
project's own frame (or the doctest example's line), never inside pytest; messages are cut between
values, not in one; the tests sidecar's re-run command names the doctest too. A real pytest run of a
small project."""

from __future__ import annotations

from pathlib import Path

import pytest

from sidekit_hooks.detectors.tests import after_edit
from sidekit_hooks.status.clip import clip
from testing import made_once
from testing.status import Suite, suite, suite_env  # noqa: F401 - the fixture

NUMBER = '''
    def parse(text):
        """Parse a whole number.

        >>> parse("12")
        12
        >>> parse("x1")
        1
        """
        if not text.isdigit():
            raise ValueError(f"not a number: {text!r}")
        return int(text)


    def double(n):
        """Twice n.

        >>> double(2)
        5
        """
        return n * 2


    def check(row):
        if row:
            raise KeyError(repr(row))
'''
TESTS = """
    import unittest

    from pkg.number import check, parse


    def test_parse_bad():
        assert parse("x2") == 2


    def test_long_message():
        check({"id": 7, "name": "a, b", "tags": ["x" * 30, "y" * 30, "z" * 30], "more": "w" * 300})


    class Parsing(unittest.TestCase):
        def test_each(self):
            for text in ("1", "y3"):
                with self.subTest(text=text):
                    self.assertEqual(parse(text), int(text.strip("y")))

        def test_sum(self):
            self.assertEqual(sum([1, 2]), 4)
"""
PLUGIN_ITEMS = """
    import pytest

    from pkg.number import parse


    def pytest_collect_file(parent, file_path):
        if file_path.suffix == ".num":
            return NumberFile.from_parent(parent, path=file_path)


    class NumberFile(pytest.File):
        def collect(self):
            for index, line in enumerate(self.path.read_text().splitlines()):
                yield NumberItem.from_parent(self, name=f"line{index + 1}", text=line)


    class NumberItem(pytest.Item):
        def __init__(self, *, text, **kwargs):
            super().__init__(**kwargs)
            self.text = text

        def runtest(self):
            parse(self.text)
"""


@pytest.fixture(scope="module")
def red_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The suite after its red run (doctests, subtests, plugin items): made once, read by the tests
    through copies (`red`)."""
    with made_once.as_a_test_sees_it(tmp_path_factory) as env:
        made = Suite(made_once.new_folder(tmp_path_factory, "red"), suite_env(env))
        made.write("pkg/__init__.py", "")
        made.write("pkg/number.py", NUMBER)
        made.write("tests/test_number.py", TESTS)
        made.write("conftest.py", PLUGIN_ITEMS)
        made.write("tests/data.num", "5\nz9\n")
        done = made.pytest("--doctest-modules", "-p", "no:randomly", "-p", "no:cacheprovider")
    assert done.returncode == 1, done.stdout[-2000:]
    return made.root


@pytest.fixture
def red(red_once: Path, suite: Suite) -> Suite:
    """This test's own copy of the red suite."""
    made_once.copy_into(red_once, suite.root)
    return suite


def test_doctest_subtest_and_plugin_item_join_the_test_at_the_projects_line(red: Suite) -> None:
    clusters = {(c["type"], c["at"]): c for c in red.summary()["clusters"]}
    assert sorted(clusters) == [
        ("AssertionError", "tests/test_number.py:22"),
        ("DocTestFailure", "pkg/number.py:18"),
        ("KeyError", "pkg/number.py:26"),
        ("ValueError", "pkg/number.py:11"),
    ]
    parse_cluster = clusters["ValueError", "pkg/number.py:11"]
    assert parse_cluster["affected"] == 4 and parse_cluster["frame"] == ""
    table = red.table()["tests"]
    members = sorted(t for t, e in table.items() if e.get("c") == parse_cluster["id"])
    assert members == [
        "pkg/number.py::pkg.number.parse",
        "tests/data.num::line2",
        "tests/test_number.py::Parsing::test_each",
        "tests/test_number.py::test_parse_bad",
    ]
    assert table["pkg/number.py::pkg.number.parse"]["f"] == {
        "type": "ValueError",
        "message": "not a number: 'x1'",
        "at": "pkg/number.py:11",
        "frame": "pkg/number.py:11",
        "frames": ["pkg/number.py:7 in <module>", "pkg/number.py:11 in parse"],
        "doctest": True,
    }
    assert table["tests/data.num::line2"]["f"]["frames"] == [
        "conftest.py:24 in runtest",
        "pkg/number.py:11 in parse",
    ]
    wrong_output = clusters["DocTestFailure", "pkg/number.py:18"]
    assert (wrong_output["message"], wrong_output["tests"]) == (
        "double(2) -> expected 5, got 4",
        ["pkg/number.py::pkg.number.double"],
    )
    assert not any("_pytest" in str(e.get("f", {})) for e in table.values())


def test_a_long_message_is_cut_between_values_and_marked(red: Suite) -> None:
    [cluster] = [c for c in red.summary()["clusters"] if c["type"] == "KeyError"]
    stored = red.table()["tests"]["tests/test_number.py::test_long_message"]["f"]["message"]
    tags = ", ".join(f"'{c * 30}'" for c in "xyz")
    assert (
        stored == f"\"{{'id': 7, 'name': 'a, b', 'tags': [{tags}], 'more': …}}\""
    )  # 300 characters at most
    assert cluster["message"] == stored and len(stored) == 150  # the summary keeps 160


def test_the_rerun_command_names_the_doctest_file(red: Suite) -> None:
    summary = red.summary()
    spot = summary["files"]["pkg/number.py"]
    assert (
        spot[0] == 6
        and spot[3] == ["pkg/number.py", "tests/data.num", "tests/test_number.py"]
        and spot[4] == 1
    )
    [finding] = after_edit("pkg/number.py", summary)
    assert finding.message.endswith(
        "re-run: sidekit test pkg/number.py tests/data.num tests/test_number.py -- "
        "--doctest-modules"
    ), finding.message
    assert "4 root causes" in finding.message


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("short", 10, "short"),
        ("not a number: '" + "x" * 400 + "'", 60, "not a number: …"),
        (
            "bad row {'id': 3, 'name': \"a, b\"} and more words here to be cut",
            40,
            "bad row {'id': 3, 'name': \"a, b\"} and …",
        ),
        ("it's a long message with words and words", 30, "it's a long message with …"),
        ("x" * 100, 20, "x" * 19 + "…"),
        ("[" + "1, " * 50 + "]", 30, "[1, 1, 1, 1, 1, 1, 1, 1, 1, …]"),
        ("'" + "y" * 50 + "'", 20, "'" + "y" * 17 + "…'"),
        ("[" + "y" * 50 + "]", 20, "…"),
    ],
)
def test_clip_cuts_at_a_top_level_boundary(text: str, limit: int, expected: str) -> None:
    assert clip(text, limit) == expected and len(clip(text, limit)) <= limit


@pytest.mark.parametrize(
    ("spot", "args", "expected"),
    [
        (
            [2, "c1", "tests/test_a.py::test_x"],
            [],
            "; re-run: sidekit test tests/test_a.py",
        ),  # short spot
        (
            [2, "c1", "", [], 0],
            [],
            "; re-run: sidekit test tests/test_a.py",
        ),  # the path itself, a long first id
        (
            [3, "c1", "tests/test_a.py::t", ["pkg/a.py", "tests/test_a.py"], 1],
            ["--doctest-modules"],
            "; re-run: sidekit test pkg/a.py tests/test_a.py -- --doctest-modules",
        ),
        (
            [3, "c1", "tests/test_a.py::t", ["pkg/a.py", "tests/test_a.py"], 1],
            [],
            "; re-run: sidekit test pkg/a.py tests/test_a.py",
        ),  # --doctest-modules in the project's config
        (
            [9, "c1", "t.py::t", ["a.py", "b.py", "c.py", "d.py"], 0],
            [],
            "; re-run: sidekit test --select",
        ),
        ([2, "c1", ""], [], ""),  # a summary from before #18 with a long id: nothing to name
    ],
)
def test_rerun_clause_of_each_spot_shape(
    spot: list[object], args: list[str], expected: str
) -> None:
    from sidekit_hooks.detectors.tests import rerun_clause

    assert (
        rerun_clause("tests/test_a.py", spot, str(spot[2]), {"run": {"args": args}}, 100)
        == expected
    )
