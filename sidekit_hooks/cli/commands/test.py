"""`sidekit test [--select] [PATHS | -- PYTEST_ARGS]`: run pytest, answer compactly from the fresh cache.

pytest runs in a subprocess with the recording plugin; its own output is not shown (it is the noise
this command exists to remove); the exit code is pytest's. The project's `.venv` is used when it has
one, so the tests run where the project's dependencies are.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

from sidekit_hooks.cli import answers, shape
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.cli.pytest_process import Progress, Run, execute, one_at_a_time
from sidekit_hooks.core import workspace
from sidekit_hooks.status import cache, clusters

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NO_TESTS = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pytest_args", nargs="*", metavar="PATHS | -- PYTEST_ARGS",
                        help="test paths or node ids; after --, any pytest arguments")
    parser.add_argument("--select", action="store_true", help="run only the tests the current change needs")
    parser.add_argument("--base", metavar="REV", help="with --select: compare against this revision")
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    found, code = answer(project_of(args), list(args.pytest_args), args.select, args.base)
    answers.emit(found, args.format)
    return code


def answer(project: str, pytest_args: list[str], select_only: bool = False, base: str | None = None,
           progress: Progress | None = None, process: Run | None = None) -> tuple[dict[str, Any], int]:
    """Run pytest; the answer `sidekit test` prints (and the MCP `test` tool returns) and pytest's exit code.

    `progress` hears pytest's percentage as it runs; `process.stop()` from another thread ends the run.
    """
    root = cache.workspace_root(project)
    extra: dict[str, Any] = {}
    if select_only:
        tests, basis = select(root, base)
        extra = {"selected": len(tests), "basis": basis}
        if not tests:
            return shape.drop_zeros({"runner": "pytest", **extra, "exit": NO_TESTS}), NO_TESTS
        pytest_args = tests + pytest_args
    python = interpreter(root)
    run_id = os.urandom(6).hex()
    with one_at_a_time(root):
        done = execute(command(python, pytest_args), root, environment(python, root, run_id), progress, process)
        summary = cache.read(cache.summary_path(root)).data
        table = cache.read(cache.table_path(root)).data
    if (summary.get("run") or {}).get("id") != run_id:
        return unrecorded(done), done.returncode
    return shape.test_run(summary, run_clusters(summary, table), extra), done.returncode


def select(root: str, base: str | None) -> tuple[list[str], str]:
    from sidekit_hooks.impact.select import selection

    chosen = selection(root, base)
    return [str(t) for t in chosen.tests], chosen.basis


def interpreter(root: str) -> str:
    """The project's own venv interpreter when it has one, else this one."""
    for name in (".venv", "venv"):
        candidate = os.path.join(root, name, "bin", "python")
        if os.path.exists(candidate):
            return candidate
    return sys.executable


def command(python: str, pytest_args: list[str]) -> list[str]:
    argv = [python, "-m", "pytest"]
    if not _same_env(python):
        argv += ["-p", "sidekit_hooks.status.external"]
    return argv + pytest_args


def environment(python: str, root: str, run_id: str) -> dict[str, str]:
    env = dict(os.environ, SIDEKIT_RUN_ID=run_id)
    if not _same_env(python):
        # Only our package joins the other environment's path, through a folder holding a link to it.
        shim = os.path.join(workspace.state_dir(root), "pyshim")
        link = os.path.join(shim, "sidekit_hooks")
        if os.path.realpath(link) != os.path.realpath(PACKAGE_DIR):
            os.makedirs(shim, exist_ok=True)
            if os.path.lexists(link):
                os.unlink(link)
            os.symlink(PACKAGE_DIR, link)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (shim, env.get("PYTHONPATH", ""))))
    return env


def _same_env(python: str) -> bool:
    """Same virtual environment: venv interpreters are links to one base, so compare folders, not files."""
    return os.path.normpath(os.path.dirname(os.path.abspath(python))) == os.path.normpath(
        os.path.dirname(os.path.abspath(sys.executable)))


def unrecorded(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """pytest ended without our plugin writing (usage error, no pytest, -p no:sidekit): say why."""
    text = (done.stderr or "") + (done.stdout or "")
    if "No module named pytest" in text:
        return {"runner": "none", "exit": done.returncode, "error": "pytest is not installed for this project",
                "fix": "pip install pytest"}
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    why = next((line for line in reversed(lines) if "error" in line.lower()), lines[-1] if lines else "")
    return {"runner": "pytest", "exit": done.returncode, "error": answers.clip(why, 160) or "no test status recorded"}


def run_clusters(summary: dict[str, Any], table: dict[str, Any]) -> list[dict[str, Any]]:
    """Clusters of this run's failures only (the table also holds earlier runs' results)."""
    finished = (summary.get("run") or {}).get("finished")
    members = [clusters.Member(t, e.get("f") or {}, e.get("p", "call"), bool(e.get("new")))
               for t, e in (table.get("tests") or {}).items()
               if e.get("s") == finished and e.get("o") in clusters.FAILING]
    members += [clusters.Member(p, f, "collect", bool(f.get("new")))
                for p, f in (table.get("collect") or {}).items() if f.get("s") == finished]
    return clusters.build(members)
