"""The toolz project-environment test may skip on a laptop without the package index, never quietly in
CI (#19): with CI set and the index out of reach it fails, saying why."""

from __future__ import annotations

import sys

from testing.hostile import ROOT
from testing.runs import environment_without, run_text

NO_PACKAGE_INDEX = {  # pip reaches no index: fetching the sdist fails at once
    "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
    "PIP_RETRIES": "0",
    "PIP_TIMEOUT": "2",
    "PIP_NO_CACHE_DIR": "1",
    "PIP_FIND_LINKS": "",
}
CANDIDATES = ("tests/runners/test_project_env.py", "tests/status/test_project_env.py")  # after / before #21's move


def test_the_project_environment_test_fails_in_ci_without_the_package_index() -> None:
    test_file = next(ROOT / path for path in CANDIDATES if (ROOT / path).exists())
    env = dict(environment_without("PYTEST_", "PIP_"), SIDEKIT_FULL_SUITE="1", CI="true", **NO_PACKAGE_INDEX)
    argv = ["-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", str(test_file), "-k", "records_select"]
    done = run_text([sys.executable, *argv], cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 1, done.stdout[-2000:]
    assert "cannot fetch the toolz sdist from the package index" in done.stdout, done.stdout[-2000:]
    assert "CI is set: this test must run in CI" in done.stdout
    assert "skipped" not in done.stdout.splitlines()[-1]
