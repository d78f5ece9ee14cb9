"""A pytest failure that stops in test code (an `assert`, a `self.assertEqual`) is placed at the
project function its test called (runners/pytest/subject.py): one broken function, one cluster,
however many assert lines check it (issue #33: Unidecode's planted bug was 14 clusters, all at
tests/)."""

from __future__ import annotations

from testing.status import Suite, suite  # noqa: F401 - the fixture

SLUG = """
def slug(text):
    return text.lower().replace(" ", "_")  # planted: "-" is the slug's separator


def title(text):
    return " ".join(word.capitalize() for word in slug(text).split("-"))
"""


def test_asserts_at_many_lines_that_check_one_function_are_one_cluster_at_its_def(
    suite: Suite,
) -> None:
    suite.write("pkg/__init__.py", "")
    suite.write("pkg/text.py", SLUG)
    suite.write(
        "tests/test_text.py",
        """
        import unittest
        import pkg.text
        from pkg.text import slug

        def test_plain():
            assert slug("A b") == "a-b"

        def test_through_the_module():
            made = pkg.text.slug("C d")
            assert made == "c-d"

        def test_over_lines():
            assert (
                "e-f"
                == slug("E f")
            )

        class TestBound(unittest.TestCase):
            make = staticmethod(slug)

            def test_method(self):
                self.assertEqual(self.make("G h"), "g-h")
    """,
    )
    suite.pytest()
    [cluster] = suite.summary()["clusters"]
    assert (cluster["type"], cluster["at"], cluster["affected"]) == (
        "AssertionError",
        "pkg/text.py:2",
        4,
    )
    tests = suite.table()["tests"]
    checks = {test.partition("::")[2]: entry["f"]["checks"] for test, entry in tests.items()}
    assert checks == {
        "test_plain": "slug, asserted at tests/test_text.py:7",
        "test_through_the_module": "slug, asserted at tests/test_text.py:11",
        "test_over_lines": "slug, asserted at tests/test_text.py:14",
        "TestBound::test_method": "make, asserted at tests/test_text.py:23",
    }


def test_the_call_on_the_failing_line_is_taken_before_earlier_ones(suite: Suite) -> None:
    suite.write("pkg/__init__.py", "")
    suite.write("pkg/text.py", SLUG)
    suite.write(
        "tests/test_title.py",
        """
        from pkg.text import slug, title

        def test_title():
            assert slug("x") == "x"
            assert title("a b") == "A-B"
    """,
    )
    suite.pytest()
    [failure] = [entry["f"] for entry in suite.table()["tests"].values() if "f" in entry]
    assert (failure["at"], failure["checks"]) == (
        "pkg/text.py:6",
        "title, asserted at tests/test_title.py:6",
    )


def test_a_failure_with_no_project_call_before_it_stays_at_its_line(suite: Suite) -> None:
    suite.write(
        "tests/test_alone.py",
        """
        def helper(x):
            return x + 1

        def test_alone():
            value = helper(1)
            assert value == 3
    """,
    )
    suite.pytest()
    [failure] = [entry["f"] for entry in suite.table()["tests"].values() if "f" in entry]
    assert (
        failure["at"] == "tests/test_alone.py:7" and "checks" not in failure
    )  # helper is test code


def test_a_property_of_the_test_s_objects_is_never_run_to_find_the_subject(suite: Suite) -> None:
    suite.write(
        "tests/test_prop.py",
        """
        class Box:
            @property
            def slug(self):
                with open("ran", "a") as noted:
                    noted.write("ran ")
                return "a"

        def test_prop():
            box = Box()
            assert box.slug == "b"
    """,
    )
    suite.pytest()
    [failure] = [entry["f"] for entry in suite.table()["tests"].values() if "f" in entry]
    assert failure["type"] == "AssertionError" and failure["at"] == "tests/test_prop.py:11"
    assert (suite.root / "ran").read_text() == "ran "  # once, by the test itself
