"""After the run, the failures a pytest run placed at the functions its tests called join the
function of the code under test those share (runners/pytest/exercised.py): two public functions
over one broken helper are one cluster, at the helper (issue #33: Unidecode's one planted bug was
2 clusters of 20 and 10, at `unidecode_expect_ascii` and `unidecode_expect_nonascii`)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.runners.pytest import exercised
from testing.status import Suite, suite  # noqa: F401 - the fixture

TEXT = """
def _join(words, separator):
    return separator.join(words) + separator  # planted: a trailing separator


def slug(text):
    return _join(text.lower().split(), "-")


def snake(text):
    return _join(text.lower().split(), "_")


def glued(text):
    return _join([text], "")


def shout(text):
    return text.upper()
"""

TESTS = """
import os.path

from pkg.text import glued, shout, slug, snake


def test_slug():
    assert slug("A b") == "a-b"


def test_slug_of_one_word():
    assert slug("A") == "a"


def test_snake():
    assert snake("A b") == "a_b"


def test_glued():
    assert glued("ab") == "ab"


def test_shout():
    assert shout(os.path.join("a", "b")) == "A/B"
"""


def test_failures_at_two_functions_over_one_broken_helper_are_one_cluster_at_the_helper(
    suite: Suite,
) -> None:
    suite.write("pkg/__init__.py", "")
    suite.write("pkg/text.py", TEXT)
    suite.write("tests/test_text.py", TESTS)
    suite.pytest()
    [cluster] = suite.summary()["clusters"]
    assert (cluster["type"], cluster["at"], cluster["affected"]) == (
        "AssertionError",
        "pkg/text.py:2",
        3,
    )
    tests = suite.table()["tests"]
    checks = {
        test.partition("::")[2]: entry["f"]["checks"]
        for test, entry in tests.items()
        if entry["o"] == "failed"
    }
    assert checks == {
        "test_slug": "_join through slug, asserted at tests/test_text.py:8",
        "test_slug_of_one_word": "_join through slug, asserted at tests/test_text.py:12",
        "test_snake": "_join through snake, asserted at tests/test_text.py:16",
    }


def test_a_function_that_passing_tests_reach_as_often_is_not_the_shared_cause(suite: Suite) -> None:
    # `_join` is reached by the passing `glued` test too; `slug` only by failing ones: with one
    # failing function, the failures stay at the function their tests called.
    suite.write("pkg/__init__.py", "")
    suite.write("pkg/text.py", TEXT)
    suite.write(
        "tests/test_text.py",
        TESTS.replace('snake("A b") == "a_b"', 'snake("A b") == "a_b_"'),
    )
    suite.pytest()
    [cluster] = suite.summary()["clusters"]
    assert (cluster["at"], cluster["affected"], cluster["checks"]) == (
        "pkg/text.py:6",
        2,
        "slug, asserted at tests/test_text.py:8",
    )


def placed_tests() -> dict[str, dict[str, Any]]:
    """Two failures the subject placed at `slug` and `snake` (TEXT's lines 6 and 10)."""
    return {
        "tests/test_text.py::test_slug": {
            "o": "failed",
            "p": "call",
            "f": {"at": "pkg/text.py:6", "checks": "slug, asserted at tests/test_text.py:8"},
        },
        "tests/test_text.py::test_snake": {
            "o": "failed",
            "p": "call",
            "f": {"at": "pkg/text.py:10", "checks": "snake, asserted at tests/test_text.py:16"},
        },
    }


def test_the_shared_function_is_read_from_the_sources_without_running_them(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("raise SystemExit('imported')\n")
    (tmp_path / "pkg" / "text.py").write_text(TEXT)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_text.py").write_text(TESTS)
    tests = placed_tests()
    exercised.place(tests, str(tmp_path))
    assert [entry["f"]["at"] for entry in tests.values()] == ["pkg/text.py:2", "pkg/text.py:2"]


@pytest.mark.parametrize("bound", ["MAX_SECONDS", "MAX_TOTAL_BYTES"])
def test_sources_too_large_or_too_slow_to_read_leave_the_failures_where_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bound: str
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "text.py").write_text(TEXT)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_text.py").write_text(TESTS)
    monkeypatch.setattr(exercised, bound, 0)
    tests = placed_tests()
    exercised.place(tests, str(tmp_path))
    assert tests == placed_tests()


def test_parsing_past_the_time_bound_leaves_the_failures_where_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the sources is quick; parsing them is most of the time: the bound holds there too."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "text.py").write_text(TEXT)
    (tmp_path / "pkg" / "other.py").write_text("def other():\n    return 1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_text.py").write_text(TESTS)
    parse = exercised.read_module

    def slow(*args: Any) -> Any:
        time.sleep(0.2)
        return parse(*args)

    monkeypatch.setattr(exercised, "read_module", slow)
    monkeypatch.setattr(exercised, "MAX_SECONDS", 0.3)
    tests = placed_tests()
    exercised.place(tests, str(tmp_path))
    assert tests == placed_tests()
