"""Which Python runs a project's tests: the discovery order, on real folders (fake venvs: a
pyvenv.cfg and an executable bin/python, which is all discovery looks at)."""

from __future__ import annotations

import base64
import hashlib
import os
import sys
from pathlib import Path

import pytest

from sidekit_hooks.runners.pytest import interpreter
from testing import red_run


@pytest.fixture(autouse=True)
def no_outer_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in (
        "SIDEKIT_PYTHON",
        "VIRTUAL_ENV",
        "UV_PROJECT_ENVIRONMENT",
        "POETRY_VIRTUALENVS_PATH",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("POETRY_CACHE_DIR", str(tmp_path / "poetry-cache"))


def make_env(folder: Path) -> Path:
    (folder / "bin").mkdir(parents=True)
    (folder / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (folder / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    python = folder / "bin" / "python"
    python.write_text("#!/bin/sh\n")
    python.chmod(0o755)
    return python


def test_nothing_found_is_sidekits_own(project: Path) -> None:
    found = interpreter.find(str(project))
    assert (found.path, found.source) == (os.path.abspath(sys.executable), "sidekit")
    assert found.is_sidekit


def test_project_venv_before_active_virtual_env(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_env(tmp_path / "active")
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "active"))
    assert interpreter.find(str(project)).source == "VIRTUAL_ENV"
    make_env(project / "venv")
    assert interpreter.find(str(project)).source == "venv"
    python = make_env(project / ".venv")
    found = interpreter.find(str(project))
    assert (found.path, found.source, found.label(str(project))) == (
        str(python),
        ".venv",
        ".venv/bin/python",
    )
    assert found.env == str(project / ".venv")


def test_setting_wins_over_venv_and_option_over_setting(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_env(project / ".venv")
    other = make_env(project / "envs" / "py312")
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.sidekit]\npython = "envs/py312/bin/python"\n'
    )
    assert (interpreter.find(str(project)).path, interpreter.find(str(project)).source) == (
        str(other),
        "setting",
    )
    third = make_env(tmp_path / "third")
    monkeypatch.setenv("SIDEKIT_PYTHON", str(third))
    assert interpreter.find(str(project)).path == str(third)
    assert interpreter.find(str(project), "/opt/py/bin/python3").source == "option"


def test_a_setting_that_does_not_exist_falls_through(project: Path) -> None:
    make_env(project / ".venv")
    (project / "pyproject.toml").write_text('[tool.sidekit]\npython = "nowhere/bin/python"\n')
    assert interpreter.find(str(project)).source == ".venv"


def test_uv_project_environment(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python = make_env(project / "build-env")
    monkeypatch.setenv("UV_PROJECT_ENVIRONMENT", "build-env")
    found = interpreter.find(str(project))
    assert (found.path, found.source) == (str(python), "uv")


def test_poetry_environment_found_as_poetry_names_it(project: Path, tmp_path: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.poetry]\nname = "My App"\nversion = "1"\n')
    real = os.path.normcase(os.path.realpath(project))
    digest = base64.urlsafe_b64encode(hashlib.sha256(real.encode()).digest()).decode()[:8]
    python = make_env(tmp_path / "poetry-cache" / "virtualenvs" / f"my_app-{digest}-py3.11")
    make_env(
        tmp_path / "poetry-cache" / "virtualenvs" / "my_app-XXXXXXXX-py3.11"
    )  # another project's
    found = interpreter.find(str(project))
    assert (found.path, found.source) == (str(python), "poetry")


def test_candidates_lists_each_env_once_in_order(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_env(project / ".venv")
    make_env(project / "venv")
    monkeypatch.setenv("VIRTUAL_ENV", str(project / ".venv"))
    assert [c.source for c in interpreter.candidates(str(project))] == [".venv", "venv"]


def test_site_packages_and_env_of(tmp_path: Path) -> None:
    python = make_env(tmp_path / "e")
    assert interpreter.env_of(str(python)) == str(tmp_path / "e")
    assert interpreter.site_packages(str(tmp_path / "e")) == str(
        tmp_path / "e" / "lib" / "python3.11" / "site-packages"
    )
    assert interpreter.env_of("/usr/bin/python3") == ""
    assert interpreter.site_packages(str(tmp_path / "nothing")) == ""


def test_sidekit_test_names_an_interpreter_that_is_not_the_obvious_one(tmp_path: Path) -> None:
    import json
    import subprocess

    root = tmp_path / "proj"
    root.mkdir()
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "test_a.py").write_text("def test_a():\n    pass\n")
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "SIDEKIT_", "CLAUDE_"))
    }
    # Without the suite's own plugins (hypothesis's import is most of a small run's start), as the
    # other throw-away runs (testing.red_run, testing.status).
    env["PYTEST_ADDOPTS"] = " ".join(red_run.LEFT_OUT)
    command = [sys.executable, "-m", "sidekit_hooks.cli", "test", "--project", str(root)]
    plain = json.loads(
        subprocess.run(command, env=env, capture_output=True, text=True, timeout=120).stdout
    )
    assert plain["passed"] == 1 and "python" not in plain  # sidekit's own, no project venv: obvious
    chosen = json.loads(
        subprocess.run(
            command,
            env=dict(env, SIDEKIT_PYTHON=sys.executable),
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )
    assert chosen["passed"] == 1 and chosen["python"] == sys.executable
