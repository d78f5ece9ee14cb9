"""core/launch.py: how sidekit starts a Python without the working folder in front of sys.path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sidekit_hooks.core import launch


def planted(root: Path) -> Path:
    """A folder whose json.py and pytest.py would announce themselves; its own package `app` is
    fine."""
    for name in ("json.py", "pytest.py"):
        (root / name).write_text("raise SystemExit('the working folder came first: ' + __file__)\n")
    (root / "app").mkdir()
    (root / "app" / "__init__.py").write_text("VALUE = 42\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_app.py").write_text(
        "import json\nimport app\n\n\ndef test_app():\n    assert app.VALUE == 42\n"
    )
    return root


def test_project_code_runs_without_the_working_folder(tmp_path: Path) -> None:
    root = planted(tmp_path)
    done = subprocess.run(
        launch.project_code(sys.executable, "import json; print(json.dumps([1]))"),
        cwd=root,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (done.returncode, done.stdout) == (0, "[1]\n"), done.stderr


def test_project_pytest_finds_the_stdlib_and_pytest_first_and_the_projects_package_last(
    tmp_path: Path,
) -> None:
    root = planted(tmp_path)
    done = subprocess.run(
        launch.project_pytest(
            sys.executable, "-q", "-p", "no:randomly", "-p", "no:cacheprovider", "tests"
        ),
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_own_module_is_started_with_safe_path() -> None:
    assert launch.own_module("sidekit_hooks.cli", "status") == [
        sys.executable,
        "-P",
        "-m",
        "sidekit_hooks.cli",
        "status",
    ]
    assert launch.own_module("m", isolated_site=True)[1:3] == ["-P", "-S"]
