"""A module that does not compile is placed at its own line, not at the test file's import that read
it (issue #33, item 6: a SyntaxError in `inflection/__init__.py:204` was reported at
`test_inflection.py:4`)."""

from __future__ import annotations

from testing.status import Suite, suite  # noqa: F401 - the fixture

BROKEN = "def ok():\n    return 1\n\ndef broken(:\n    return 2\n"


def test_a_collection_error_from_a_module_that_does_not_compile_is_at_that_module_s_line(
    suite: Suite,
) -> None:
    suite.write("pkg/__init__.py", BROKEN)
    suite.write("tests/test_a.py", "import pkg\n\ndef test_a():\n    assert pkg.ok() == 1\n")
    assert suite.pytest().returncode == 2
    [cluster] = suite.summary()["clusters"]
    assert (cluster["type"], cluster["phase"], cluster["at"]) == (
        "SyntaxError",
        "collect",
        "pkg/__init__.py:4",
    )


def test_an_indentation_error_is_placed_the_same_way(suite: Suite) -> None:
    suite.write("pkg/__init__.py", "def ok():\nreturn 1\n")
    suite.write("tests/test_a.py", "import pkg\n\ndef test_a():\n    assert pkg.ok() == 1\n")
    suite.pytest()
    [cluster] = suite.summary()["clusters"]
    assert (cluster["type"], cluster["at"]) == ("IndentationError", "pkg/__init__.py:2")


def test_a_module_a_test_imports_as_it_runs_is_at_its_own_line_too(suite: Suite) -> None:
    suite.write("pkg/__init__.py", "")
    suite.write("pkg/late.py", BROKEN)
    suite.write(
        "tests/test_late.py",
        "import importlib\n\ndef test_late():\n    importlib.import_module('pkg.late')\n",
    )
    assert suite.pytest().returncode == 1
    [cluster] = suite.summary()["clusters"]
    assert (cluster["type"], cluster["phase"], cluster["at"]) == (
        "SyntaxError",
        "call",
        "pkg/late.py:4",
    )


def test_a_syntax_error_in_code_outside_the_project_stays_where_it_was_raised(suite: Suite) -> None:
    suite.write(
        "tests/test_text.py",
        "def test_text():\n    compile('def f(:', '/elsewhere/gen.py', 'exec')\n",
    )
    suite.pytest()
    [cluster] = suite.summary()["clusters"]
    assert (cluster["type"], cluster["at"]) == ("SyntaxError", "tests/test_text.py:2")
