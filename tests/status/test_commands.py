"""`sidekit status`, `sidekit test` and `sidekit failures` as an agent runs them (subprocess, real
pytest)."""

from __future__ import annotations

import os
import sys
import sysconfig
import time
import types
from pathlib import Path

from sidekit_hooks.answers import render, shape
from testing.status import BROKEN_FIXTURE, FORTY, Suite, suite  # noqa: F401 - the fixture


def _age(suite: Suite, seconds: float = 5) -> None:
    """Make every source look older than the last run (the run must not look stale)."""
    past = time.time() - 3600
    for path in suite.root.rglob("*.py"):
        os.utime(path, (past, past))
    (suite.root / "pytest.ini").touch()
    os.utime(suite.root / "pytest.ini", (past, past))


def test_status_and_failures_before_any_run(suite: Suite) -> None:
    answer, line, code = suite.answer("status")
    assert (code, line) == (0, '{"generation":0,"runner":"pytest","state":"noRuns"}')
    answer, line, code = suite.answer("failures")
    assert (code, line) == (0, '{"generation":0,"runner":"pytest","state":"noRuns"}')


def test_test_then_status_then_unchanged(suite: Suite) -> None:
    suite.write("conftest.py", BROKEN_FIXTURE)
    suite.write("tests/test_db.py", FORTY)
    _age(suite)
    answer, line, code = suite.answer("test")
    assert code == 1 and len(line.encode()) <= shape.TEST_BUDGET
    assert (
        answer["exit"] == 1
        and answer["passed"] == 1
        and answer["errors"] == 40
        and answer["newFailures"] == 40
    )
    [cluster] = answer["clusters"]
    assert cluster == {
        "id": cluster["id"],
        "type": "TypeError",
        "phase": "setup",
        "at": "conftest.py:7",
        "message": "'NoneType' object is not subscriptable",
        "affected": 40,
        "new": 40,
        "first": "tests/test_db.py::test_uses_db[0]",
    }
    status, line, _ = suite.answer("status")
    assert (
        len(line.encode()) <= shape.STATUS_BUDGET and status["generation"] == answer["generation"]
    )
    assert (
        status["state"] == "failed"
        and status["clusters"][0]["affected"] == 40
        and "stale" not in status
    )
    since, line, _ = suite.answer("status", "--since", str(status["generation"]))
    assert line == f'{{"generation":{status["generation"]},"unchanged":true}}'
    time.sleep(0.01)
    suite.write("conftest.py", BROKEN_FIXTURE.replace("None", "{'users': 1}"))
    stale, _, _ = suite.answer("status", "--since", str(status["generation"]))
    assert stale["stale"] is True and stale["changed"] == ["conftest.py"]
    fixed, line, code = suite.answer("test")
    assert (
        code == 0
        and fixed
        == {
            "generation": status["generation"] + 1,
            "runner": "pytest",
            "plugins": fixed.get("plugins", []),
            "exit": 0,
            "passed": 41,
            "secs": fixed["secs"],
        }
        and len(line.encode()) <= 200
    )


def test_failures_overview_and_details(suite: Suite) -> None:
    suite.write("conftest.py", BROKEN_FIXTURE)
    suite.write("tests/test_db.py", FORTY)
    suite.write("tests/test_cmp.py", "def test_compare():\n    assert [1, 2] == [1, 3]\n")
    suite.sidekit("test")
    overview, _, code = suite.answer("failures")
    assert code == 0 and overview["failing"] == 41
    assert [
        (c["affected"] if "affected" in c else 1, len(c["tests"]), c.get("moreTests"))
        for c in overview["clusters"]
    ] == [(40, 10, 30), (1, 1, None)]
    cluster_id = overview["clusters"][0]["id"]
    detail, _, _ = suite.answer("failures", "tests/test_cmp.py::test_compare", "--stacks")
    assert detail["failures"] == [
        {
            "test": "tests/test_cmp.py::test_compare",
            "outcome": "failed",
            "type": "AssertionError",
            "message": "assert [1, 2] == [1, 3]",
            "at": "tests/test_cmp.py:2",
            "compare": {"op": "==", "left": "[1, 2]", "right": "[1, 3]"},
            "cluster": detail["failures"][0]["cluster"],
            "new": True,
            "frames": ["tests/test_cmp.py:2 in test_compare"],
        }
    ]
    by_cluster, _, _ = suite.answer("failures", cluster_id, "no/such::test")
    assert len(by_cluster["failures"]) == 20 and by_cluster["moreFailures"] == 20
    assert by_cluster["unknown"] == ["no/such::test"]
    text = suite.sidekit("failures", "--format", "text").stdout
    assert "clusters:" in text and "affected: 40" in text


def test_test_passes_paths_and_pytest_args_through(suite: Suite) -> None:
    suite.write("test_a.py", "def test_one():\n    pass\n\ndef test_two():\n    assert 0\n")
    answer, _, code = suite.answer("test", "test_a.py::test_one")
    assert code == 0 and answer["passed"] == 1 and "failed" not in answer
    answer, _, code = suite.answer("test", "--", "-k", "two")
    assert code == 1 and answer["failed"] == 1
    answer, _, code = suite.answer("test", "--", "--no-such-option")
    assert code == 4 and answer == {
        "runner": "pytest",
        "exit": 4,
        "error": "python -m pytest: error: unrecognized arguments: --no-such-option",
    }


def test_test_select_runs_what_the_selection_names(suite: Suite) -> None:
    suite.write("test_a.py", "def test_one():\n    pass\n\ndef test_two():\n    assert 0\n")
    shim = suite.root / "shim" / "sidekit_hooks" / "impact"
    shim.mkdir(parents=True)
    # A stand-in selection module on the path, ahead of the package's own (if any).
    import sidekit_hooks

    real = Path(sidekit_hooks.__file__).parent
    (suite.root / "shim" / "sidekit_hooks" / "__init__.py").write_text(
        f"__path__ = [__path__[0], {str(real)!r}]\n__version__ = '0'\n"
    )
    (shim / "__init__.py").write_text("")
    (shim / "selection.py").write_text(
        "import types\ndef selection(project, base):\n"
        "    return types.SimpleNamespace(tests=['test_a.py::test_one'], "
        "basis='changed:test_a.py')\n"
    )
    suite.env["PYTHONPATH"] = str(suite.root / "shim")
    answer, line, code = suite.answer("test", "--select")
    assert (
        code == 0
        and answer["selected"] == 1
        and answer["basis"] == "changed:test_a.py"
        and answer["passed"] == 1
    )
    assert types is not None


def test_corrupt_cache_is_a_note_not_a_crash(suite: Suite) -> None:
    (suite.root / ".sidekit").mkdir()
    (suite.root / ".sidekit" / "status.json").write_text("\x00garbage")
    answer, _, code = suite.answer("status")
    assert code == 0 and answer["note"] == "status.json is corrupt; the next pytest run rebuilds it"
    assert render.size(answer) <= shape.STATUS_BUDGET


def _project_venv(suite: Suite, with_pytest: bool) -> None:
    """A `.venv` of the project's own: a second environment, sharing our packages only if asked."""
    venv = suite.root / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(os.path.realpath(sys.executable))
    (venv / "pyvenv.cfg").write_text(
        f"home = {os.path.dirname(os.path.realpath(sys.executable))}\ninclude-system-site-packages = false\n"
    )
    if with_pytest:
        site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
        site.mkdir(parents=True)
        (site / "ours.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")


def test_test_uses_the_projects_venv_and_records_once(suite: Suite) -> None:
    suite.write("test_a.py", "def test_one():\n    pass\n\ndef test_two():\n    assert 0\n")
    _project_venv(
        suite, with_pytest=True
    )  # its pytest also sees our `sidekit` entry point: loaded twice
    suite.env.pop("PYTHONPATH")
    answer, _, code = suite.answer("test")
    assert code == 1 and (answer["passed"], answer["failed"], answer["generation"]) == (1, 1, 1)
    assert (suite.root / ".sidekit" / "pyshim" / "sidekit_hooks").is_symlink()


def test_no_pytest_for_the_project_is_said_as_runner_none(suite: Suite) -> None:
    suite.write("test_a.py", "def test_one():\n    pass\n")
    _project_venv(suite, with_pytest=False)
    answer, _, code = suite.answer("test")
    assert code == 1 and answer == {
        "runner": "none",
        "exit": 1,
        "error": "pytest is not installed for this project",
        "fix": "pip install pytest",
    }
