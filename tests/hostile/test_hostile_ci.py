"""The toolz project-environment test may skip on a laptop without the package index, never quietly
in CI (#19): with CI set and the index out of reach it fails, saying why."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from testing.hostile import ROOT
from testing.runs import environment_without, run_text

NO_PACKAGE_INDEX = {  # pip reaches no index: fetching the sdist fails at once
    "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
    "PIP_RETRIES": "0",
    "PIP_TIMEOUT": "2",
    "PIP_NO_CACHE_DIR": "1",
    "PIP_FIND_LINKS": "",
}
CANDIDATES = (
    "tests/runners/test_project_env.py",
    "tests/status/test_project_env.py",
)  # after / before #21's move


@pytest.mark.slow  # a run of this suite's own registry test, with pip facing an unreachable index
def test_the_project_environment_test_fails_in_ci_without_the_package_index() -> None:
    test_file = next(ROOT / path for path in CANDIDATES if (ROOT / path).exists())
    env = dict(
        environment_without("PYTEST_", "PIP_"),
        SIDEKIT_FULL_SUITE="1",
        CI="true",
        **NO_PACKAGE_INDEX,
    )
    argv = [
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        str(test_file),
        "-k",
        "records_select",
    ]
    done = run_text([sys.executable, *argv], cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 1, done.stdout[-2000:]
    assert "cannot fetch the toolz sdist from the package index" in done.stdout, done.stdout[-2000:]
    assert "CI is set: this test must run in CI" in done.stdout
    assert "skipped" not in done.stdout.splitlines()[-1]


CONFTEST = """
import importlib.util, sys
sys.path.insert(0, {tests!r})
spec = importlib.util.spec_from_file_location("suite_conftest", {conftest!r})
suite = importlib.util.module_from_spec(spec)
spec.loader.exec_module(suite)
pytest_runtest_makereport = suite.pytest_runtest_makereport
pytest_terminal_summary = suite.pytest_terminal_summary
"""
SKIPPING = """
import pytest
from testing import requires

def test_needs_a_tool():
    requires.missing("frobnicate is not installed", "install frobnicate")

def test_skips_by_hand():
    pytest.skip("no network here")

def test_needs_what_no_ci_has():
    requires.not_run_here("no gc on this machine")

@pytest.mark.xfail(reason="a known miss")
def test_known_miss():
    assert False

def test_runs():
    assert True
"""


def _run_skipping_suite(tmp_path: Path, *, ci: bool) -> tuple[int, str]:
    suite = tmp_path / "suite"
    suite.mkdir(exist_ok=True)
    tests = ROOT / "tests"
    (suite / "conftest.py").write_text(
        CONFTEST.format(tests=str(tests), conftest=str(tests / "conftest.py"))
    )
    (suite / "test_skipping.py").write_text(SKIPPING)
    env = dict(environment_without("PYTEST_", "CI"), **({"CI": "true"} if ci else {}))
    argv = [
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:hypothesispytest",
        "-p",
        "no:anyio",
        "--rootdir",
        str(suite),
        str(suite),
    ]
    done = run_text([sys.executable, *argv], cwd=suite, env=env, timeout=120)
    return done.returncode, done.stdout


def test_in_ci_a_test_that_cannot_run_fails_unless_no_ci_machine_could_run_it(
    tmp_path: Path,
) -> None:
    code, out = _run_skipping_suite(tmp_path, ci=True)
    assert code == 1, out
    assert "2 failed, 1 passed, 1 skipped, 1 xfailed" in out.splitlines()[-1], out
    assert (
        "frobnicate is not installed; CI is set, so this test must run here (install frobnicate)"
        in out
    )
    assert "skipped in CI, where every promised test must run: no network here" in out
    assert "== not run: 1 ==" in out.replace("=" * 3, "==")
    assert "test_skipping.py::test_needs_what_no_ci_has: not run here: no gc on this machine" in out


def test_on_a_laptop_the_same_tests_skip_and_are_listed(tmp_path: Path) -> None:
    code, out = _run_skipping_suite(tmp_path, ci=False)
    assert code == 0, out
    assert "1 passed, 3 skipped, 1 xfailed" in out.splitlines()[-1], out
    assert (
        "test_skipping.py::test_needs_a_tool: frobnicate is not installed (to run it: install "
        "frobnicate)" in out
    )
    assert "test_skipping.py::test_skips_by_hand: no network here" in out
    assert "test_skipping.py::test_needs_what_no_ci_has: not run here: no gc on this machine" in out
