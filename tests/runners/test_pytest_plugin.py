"""The pytest plugin on small suites made here, run by a real pytest (serial, xdist, ^C)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from testing import made_once
from testing.status import BROKEN_FIXTURE, FORTY, Suite, suite, suite_env  # noqa: F401 - the fixture


@pytest.fixture(scope="module")
def forty_errors_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A suite whose shared fixture breaks in forty tests, after one serial pytest run (its exit
    code): made once, read by the tests through copies (`forty_errors`)."""
    with made_once.as_a_test_sees_it(tmp_path_factory) as env:
        made = Suite(made_once.new_folder(tmp_path_factory, "forty"), suite_env(env))
        made.write("conftest.py", BROKEN_FIXTURE)
        made.write("tests/test_db.py", FORTY)
        return made.root, made.pytest().returncode


@pytest.fixture
def forty_errors(forty_errors_once: tuple[Path, int], suite: Suite) -> tuple[Suite, int]:
    """This test's own copy of that suite after its serial run, and the run's exit code."""
    made_once.copy_into(forty_errors_once[0], suite.root)
    return suite, forty_errors_once[1]


def test_broken_shared_fixture_is_one_cluster_of_40(forty_errors: tuple[Suite, int]) -> None:
    suite, returncode = forty_errors
    assert returncode == 1
    summary = suite.summary()
    assert summary["counts"] == {"error": 40, "passed": 1}
    [cluster] = summary["clusters"]
    assert (cluster["type"], cluster["phase"], cluster["at"], cluster["affected"]) == (
        "TypeError",
        "setup",
        "conftest.py:7",
        40,
    )
    assert cluster["message"] == "'NoneType' object is not subscriptable"
    assert cluster["tests"][0] == "tests/test_db.py::test_uses_db[0]" and len(cluster["tests"]) == 3
    assert (
        summary["files"]["conftest.py"][0] == 40 and summary["files"]["tests/test_db.py"][0] == 40
    )
    assert summary["run"]["complete"] is True and summary["generation"] == 1


def test_broken_helper_with_parametrized_messages_is_one_cluster_with_variants(
    suite: Suite,
) -> None:
    suite.write("pkg/__init__.py", "")
    suite.write(
        "pkg/merge.py",
        """
        def merge(a, b):
            detail = f"cannot merge {b} into '{a}'" if b % 3 == 0 else f"bad size {b} at 0x{id(b):x}"
            raise ValueError(detail)
    """,
    )
    suite.write(
        "tests/test_merge.py",
        """
        import pytest
        from pkg.merge import merge

        @pytest.mark.parametrize("b", range(12))
        def test_merge(b):
            merge("x", b)
    """,
    )
    suite.pytest()
    [cluster] = suite.summary()["clusters"]
    assert (cluster["type"], cluster["at"], cluster["affected"]) == (
        "ValueError",
        "pkg/merge.py:4",
        12,
    )
    assert cluster["variants"] == [["bad size N at 0x…", 8], ["cannot merge N into '…'", 4]]
    failure = suite.table()["tests"]["tests/test_merge.py::test_merge[0]"]["f"]
    assert failure["frames"] == ["tests/test_merge.py:7 in test_merge", "pkg/merge.py:4 in merge"]
    assert cluster["tests"][:3] == [
        "tests/test_merge.py::test_merge[0]",
        "tests/test_merge.py::test_merge[1]",
        "tests/test_merge.py::test_merge[2]",
    ]


def test_chained_cause_and_compared_values_are_recorded(suite: Suite) -> None:
    suite.write(
        "test_x.py",
        """
        def test_chain():
            try:
                int("x")
            except ValueError as exc:
                raise RuntimeError("wrapped") from exc

        def test_compare():
            assert [1, 2] == [1, 3]
    """,
    )
    suite.pytest()
    tests = suite.table()["tests"]
    assert (
        tests["test_x.py::test_chain"]["f"]["cause"]
        == "ValueError: invalid literal for int() with base 10: 'x'"
    )
    assert tests["test_x.py::test_compare"]["f"]["compare"] == {
        "op": "==",
        "left": "[1, 2]",
        "right": "[1, 3]",
    }


def test_collection_errors_are_first_class(suite: Suite) -> None:
    suite.write("test_ok.py", "def test_ok():\n    pass\n")
    suite.write("test_broken.py", "import not_a_module_anywhere\n")
    done = suite.pytest()
    assert done.returncode == 2
    summary = suite.summary()
    assert summary["collectErrors"] == 1 and summary["run"]["interrupted"] is False
    [cluster] = summary["clusters"]
    assert (cluster["type"], cluster["phase"], cluster["at"]) == (
        "ModuleNotFoundError",
        "collect",
        "test_broken.py:1",
    )
    assert cluster["message"] == "No module named 'not_a_module_anywhere'"


def test_a_failing_assert_that_reports_another_failure_joins_its_cause(suite: Suite) -> None:
    suite.write(
        "app.py",
        """
        def run(command):
            if command == "boom":
                raise KeyError("missing config section 'database'")
            return 0

        class Result:
            def __init__(self, exc):
                self.exception = exc
            def __repr__(self):
                return f"<Result {self.exception!r}>"

        def invoke(command):
            try:
                run(command)
            except Exception as exc:
                return Result(exc)
            return Result(None)
    """,
    )
    suite.write(
        "test_app.py",
        """
        from app import invoke, run

        def test_direct():
            run("boom")

        def test_through_runner():
            result = invoke("boom")
            assert result.exception is None, result

        def test_unrelated():
            assert invoke("ok").exception == 1
    """,
    )
    suite.pytest()
    clusters = suite.summary()["clusters"]
    assert [(c["type"], c["affected"], c["reported"]) for c in clusters] == [
        ("KeyError", 2, 1),
        ("AssertionError", 1, 0),
    ]
    assert clusters[0]["tests"] == ["test_app.py::test_direct", "test_app.py::test_through_runner"]


def test_partial_runs_merge_and_generation_moves_only_with_content(suite: Suite) -> None:
    suite.write("test_a.py", "def test_one():\n    pass\n\ndef test_two():\n    pass\n")
    suite.write("test_b.py", "def test_three():\n    pass\n")
    suite.pytest()
    assert suite.summary()["generation"] == 1
    suite.pytest("test_a.py::test_one")
    summary = suite.summary()
    assert summary["generation"] == 1 and summary["counts"] == {"passed": 3}
    assert summary["older"] == 2 and summary["run"]["ran"] == 1
    suite.write("test_b.py", "def test_three():\n    assert 0\n")
    suite.pytest("test_b.py")
    summary = suite.summary()
    assert summary["generation"] == 2 and summary["counts"] == {"passed": 2, "failed": 1}
    assert summary["newFailures"] == 1
    suite.pytest("test_b.py")
    summary = suite.summary()
    assert summary["generation"] == 2 and summary["newFailures"] == 0
    suite.write("test_a.py", "def test_one():\n    pass\n")  # test_two deleted
    suite.pytest("test_a.py")
    assert sorted(suite.table()["tests"]) == ["test_a.py::test_one", "test_b.py::test_three"]
    assert suite.summary()["generation"] == 3


def test_ctrl_c_keeps_what_ran_and_says_interrupted(suite: Suite) -> None:
    suite.write(
        "test_stop.py",
        """
        import os, signal

        def test_first():
            pass

        def test_failing():
            assert 1 == 2

        def test_ctrl_c():
            os.kill(os.getpid(), signal.SIGINT)

        def test_never():
            pass
    """,
    )
    done = suite.pytest()
    assert done.returncode == 2
    summary = suite.summary()
    assert summary["run"]["interrupted"] is True and summary["run"]["complete"] is False
    assert summary["run"]["state"] == "interrupted"
    assert sorted(suite.table()["tests"]) == [
        "test_stop.py::test_failing",
        "test_stop.py::test_first",
    ]


@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="pytest-xdist not installed")
def test_xdist_controller_writes_once_with_the_serial_answer(
    forty_errors: tuple[Suite, int],
) -> None:
    suite, _ = forty_errors
    serial = suite.summary()
    (suite.root / ".sidekit" / "status.json").unlink()
    (suite.root / ".sidekit" / "status-tests.json").unlink()
    done = suite.pytest("-n", "2")
    assert done.returncode == 1, done.stdout[-500:]
    parallel = suite.summary()
    assert parallel["clusters"] == serial["clusters"] and parallel["counts"] == serial["counts"]
    assert "xdist" in parallel["plugins"]


def _normalized(text: str) -> str:
    return re.sub(r"\d+\.\d+s", "T", text)


def test_the_users_output_is_untouched_and_no_sidekit_turns_it_off(suite: Suite) -> None:
    suite.write("conftest.py", BROKEN_FIXTURE)
    suite.write("tests/test_db.py", FORTY)
    suite.write("test_x.py", "def test_compare():\n    assert [1, 2] == [1, 3]\n")
    plain = suite.pytest("-p", "no:sidekit")
    assert not (suite.root / ".sidekit").exists()
    recorded = suite.pytest()
    assert (
        _normalized(recorded.stdout) == _normalized(plain.stdout)
        and recorded.stderr == plain.stderr
    )
    assert (suite.root / ".sidekit" / "status.json").exists()


def test_a_failure_to_write_is_a_warning_not_a_failure(suite: Suite) -> None:
    suite.write("test_x.py", "def test_ok():\n    pass\n")
    (suite.root / ".sidekit").write_text("not a folder")
    done = suite.pytest()
    assert done.returncode == 0
    assert "sidekit: test status not recorded in .sidekit/" in done.stdout + done.stderr


def test_a_corrupt_cache_is_rebuilt_with_a_note(suite: Suite) -> None:
    suite.write("test_x.py", "def test_ok():\n    pass\n")
    (suite.root / ".sidekit").mkdir()
    (suite.root / ".sidekit" / "status.json").write_text("{not json")
    done = suite.pytest()
    assert done.returncode == 0
    summary = suite.summary()
    assert summary["note"] == "status.json is corrupt; the next pytest run rebuilds it"
    assert summary["counts"] == {"passed": 1}
