"""The toolz project-environment test may skip on a laptop without the package index, never quietly in
CI (#19): with CI set and the index out of reach it fails, saying why."""

from __future__ import annotations

import os
import subprocess
import sys

from testing.hostile import ROOT

CANDIDATES = ("tests/runners/test_project_env.py", "tests/status/test_project_env.py")  # after / before #21's move


def test_the_project_environment_test_fails_in_ci_without_the_package_index() -> None:
    test_file = next(ROOT / path for path in CANDIDATES if (ROOT / path).exists())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PIP_"))}
    env.update(
        SIDEKIT_FULL_SUITE="1",
        CI="true",
        PIP_INDEX_URL="http://127.0.0.1:9/simple",
        PIP_RETRIES="0",
        PIP_TIMEOUT="2",
        PIP_NO_CACHE_DIR="1",
        PIP_FIND_LINKS="",
    )
    done = subprocess.run(
        [
            sys.executable,
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
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout[-2000:]
    assert "cannot fetch the toolz sdist from the package index" in done.stdout, done.stdout[-2000:]
    assert "CI is set: this test must run in CI" in done.stdout
    assert "skipped" not in done.stdout.splitlines()[-1]
