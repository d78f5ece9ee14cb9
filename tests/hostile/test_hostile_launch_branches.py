"""Every branch of the launchers keeps the repository out (#31, deliver 8).

`bin/sidekit` (the agent's shell, the plugin's MCP server) and `hooks/run` (the plugin form's hooks)
each choose an interpreter in several branches, and each branch starts it with its own flags: `-P`
(the working folder, the project, stays off the module path) and, for what runs on the standard
library, `-S` (no `site`: nothing an environment's `.pth` files or `sitecustomize` say runs in a
hook). One test per branch, with only that branch open (no `SIDEKIT_RUNTIME_PYTHON` unless it is the
branch under test). The branches today's main already starts right are guards against a regression,
so they are named as controls (they pass on both); the Python version probes, which ran the
environment's `site` in the project folder, are not:

- the project plants `sidekit_hooks/__init__.py` (and standard-library names) that leave a marker
  when imported: a branch without `-P` imports the project's `sidekit_hooks` first;
- the environment each branch finds is a small venv of our own whose site-packages holds a `.pth`
  that leaves a marker when `site` runs: a branch without `-S` runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from testing.hostile import ROOT, context_of, env_for, payload, put, queue_dir
from testing.planted import STANDARD_NAMES, plant
from testing.runs import run_text

MODULES = ("sidekit_hooks/__init__.py", *STANDARD_NAMES)
SITE_MARKER = "site-ran"


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv without pip whose `site` leaves SITE_MARKER in $HOSTILE_SITE_MARKERS (when set)."""
    folder = tmp_path_factory.mktemp("launch") / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", "--symlinks", str(folder)], check=True
    )
    purelib = subprocess.run(
        [
            str(folder / "bin" / "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    line = (
        "import os; d = os.environ.get('HOSTILE_SITE_MARKERS'); "
        f"d and open(os.path.join(d, {SITE_MARKER!r}), 'w').close()\n"
    )
    (Path(purelib) / "zz_hostile_marker.pth").write_text(line)
    (folder / ".sidekit-ready").touch()  # what hooks/bootstrap leaves in an environment it finished
    return folder


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    """This checkout as an installed plugin: no .venv, no environment built yet."""
    copy = tmp_path / "plugin"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(".venv", ".git", "tests", "*.egg-info", ".*cache*"),
    )
    for leftover in (".plugin-venv", ".plugin-data"):
        if os.path.lexists(copy / leftover):
            os.unlink(copy / leftover)
    return copy


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    project, markers = tmp_path / "hostile", tmp_path / "markers"
    markers.mkdir()
    plant(project, markers, MODULES)
    return project, markers


def data_folder(tmp_path: Path) -> Path:
    """A plugin data folder whose environment build failed a moment ago: hooks/bootstrap does not
    start again for ten minutes (its own Python would run `site`, as it should, and leave the
    marker)."""
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "bootstrap.failed").touch()
    return data


def place(venv: Path, plugin: Path, data: Path, where: str) -> None:
    """Put the environment where the branch under test looks for it."""
    target = {
        ".venv": plugin / ".venv",
        "data": data / "venv",
        ".plugin-venv": plugin / ".plugin-venv",
    }[where]
    target.symlink_to(venv)
    if where == "data":
        now = time.time() + 5  # newer than the plugin's pyproject.toml: no refresh build
        os.utime(venv / ".sidekit-ready", (now, now))


def launch_env(project: Path, markers: Path, **more: str) -> dict[str, str]:
    env: dict[str, str] = env_for(project, HOSTILE_SITE_MARKERS=str(markers), **more)
    env.pop("PYTHONPATH", None)
    return env


def landed(markers: Path) -> list[str]:
    return sorted(os.listdir(markers))


@pytest.mark.parametrize("where", [".venv", "data", ".plugin-venv"])
def test_control_bin_sidekit_in_each_environment_it_picks_runs_no_repository_code(
    venv: Path, plugin: Path, hostile: tuple[Path, Path], tmp_path: Path, where: str
) -> None:
    """`$venv/bin/python -P -m sidekit_hooks.cli`: the agent's shell has no
    SIDEKIT_RUNTIME_PYTHON."""
    project, markers = hostile
    data = data_folder(tmp_path)
    place(venv, plugin, data, where)
    env = launch_env(project, markers, CLAUDE_PLUGIN_DATA=str(data))
    done = run_text(
        [str(plugin / "bin" / "sidekit"), "--version"], cwd=project, env=env, timeout=60
    )
    assert done.returncode == 0 and done.stdout.startswith("sidekit "), done.stderr
    assert SITE_MARKER in landed(markers)  # the environment's own interpreter ran (with its site)
    assert [name for name in landed(markers) if name != SITE_MARKER] == []


def test_bin_sidekit_on_the_standard_library_runs_neither_repository_code_nor_site(
    venv: Path, plugin: Path, hostile: tuple[Path, Path], tmp_path: Path
) -> None:
    """While no environment is ready: the first Python >= 3.11 on PATH, `-S -P`."""
    project, markers = hostile
    env = launch_env(project, markers, CLAUDE_PLUGIN_DATA=str(data_folder(tmp_path)))
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"  # its python3 is the first on PATH
    done = run_text([str(plugin / "bin" / "sidekit"), "status"], cwd=project, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("{"), done.stderr
    assert landed(markers) == []


def test_control_bin_sidekit_with_the_runtime_python_runs_no_repository_code(
    venv: Path, plugin: Path, hostile: tuple[Path, Path]
) -> None:
    """The settings form's branch: $SIDEKIT_RUNTIME_PYTHON, `-P`."""
    project, markers = hostile
    env = launch_env(project, markers, SIDEKIT_RUNTIME_PYTHON=str(venv / "bin" / "python"))
    done = run_text(
        [str(plugin / "bin" / "sidekit"), "--version"], cwd=project, env=env, timeout=60
    )
    assert done.returncode == 0 and done.stdout.startswith("sidekit "), done.stderr
    assert [name for name in landed(markers) if name != SITE_MARKER] == []


def run_hook(plugin: Path, project: Path, env: dict[str, str]) -> None:
    """hooks/run user_prompt_submit: it ran (it delivers what was queued), on time, and said nothing
    else."""
    put(queue_dir(project), "rebase first")
    body = json.dumps(payload("UserPromptSubmit", project, prompt="go"))
    done = run_text(
        [str(plugin / "hooks" / "run"), "user_prompt_submit"],
        stdin=body,
        cwd=project,
        env=env,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert context_of(done.stdout) == "[from mayor] rebase first"


@pytest.mark.parametrize("where", [".venv", "data"])
def test_control_hooks_run_with_an_environment_starts_python_without_site(
    venv: Path, plugin: Path, hostile: tuple[Path, Path], tmp_path: Path, where: str
) -> None:
    """hooks/run: the checkout's .venv, or the ready plugin environment; `python -S
    hooks/<event>.py`."""
    project, markers = hostile
    data = data_folder(tmp_path)
    place(venv, plugin, data, where)
    run_hook(
        plugin,
        project,
        launch_env(project, markers, CLAUDE_PLUGIN_ROOT=str(plugin), CLAUDE_PLUGIN_DATA=str(data)),
    )
    assert landed(markers) == []


def test_hooks_run_on_the_standard_library_starts_python_without_site(
    venv: Path, plugin: Path, hostile: tuple[Path, Path], tmp_path: Path
) -> None:
    """hooks/run while the environment builds: the first Python >= 3.11 on PATH (found by a probe
    that must not run `site` either), `python -S hooks/<event>.py`."""
    project, markers = hostile
    data = data_folder(tmp_path)
    (
        data / "bootstrap.announced"
    ).mkdir()  # said already: the hook's own output is the delivery only
    env = launch_env(project, markers, CLAUDE_PLUGIN_ROOT=str(plugin), CLAUDE_PLUGIN_DATA=str(data))
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    run_hook(plugin, project, env)
    assert landed(markers) == []
