"""`sidekit test [--select] [PATHS | -- PYTEST_ARGS]`: run pytest, answer compactly from the fresh cache.

pytest runs in a subprocess with the recording plugin; its own output is not shown (it is the noise
this command exists to remove); the exit code is pytest's. The interpreter is the project's own
(`status.interpreter`: setting, `.venv`/`venv`, `$VIRTUAL_ENV`, uv, Poetry), so the tests run where
the project's dependencies are; `--python` overrides it, and the answer names it when it is not the
project's venv.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

from sidekit_hooks.cli import answers, shape
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.core import workspace
from sidekit_hooks.status import cache, interpreter, record

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NO_TESTS = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pytest_args", nargs="*", metavar="PATHS | -- PYTEST_ARGS",
                        help="test paths or node ids; after --, any pytest arguments")
    parser.add_argument("--select", action="store_true", help="run only the tests the current change needs")
    parser.add_argument("--base", metavar="REV", help="with --select: compare against this revision")
    parser.add_argument("--python", metavar="PY", help="interpreter that runs the tests (default: the project's, see doctor)")
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    root = cache.workspace_root(project_of(args))
    extra: dict[str, Any] = {}
    pytest_args = list(args.pytest_args)
    if args.select:
        tests, basis = select(root, args.base)
        extra = {"selected": len(tests), "basis": basis}
        if not tests:
            answers.emit(shape.drop_zeros({"runner": "pytest", **extra, "exit": NO_TESTS}), args.format)
            return NO_TESTS
        pytest_args = tests + pytest_args
    chosen = interpreter.find(root, getattr(args, "python", None))
    python = chosen.path
    if chosen.source not in interpreter.OBVIOUS:
        extra["python"] = chosen.label(root)
    run_id = os.urandom(6).hex()
    done = subprocess.run(command(python, pytest_args), cwd=root, env=environment(python, root, run_id),
                          capture_output=True, text=True, errors="replace")
    summary = cache.read(cache.summary_path(root)).data
    if (summary.get("run") or {}).get("id") != run_id:
        answers.emit(unrecorded(done), args.format)
        return done.returncode
    table = cache.read(cache.table_path(root)).data
    answers.emit(shape.test_run(summary, run_clusters(summary, table), extra), args.format)
    return done.returncode


def select(root: str, base: str | None) -> tuple[list[str], str]:
    from sidekit_hooks.impact.select import selection

    chosen = selection(root, base)
    return [str(t) for t in chosen.tests], chosen.basis


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
    return interpreter.same_env(python, sys.executable)


def unrecorded(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """pytest ended without our plugin writing (usage error, no pytest, -p no:sidekit): say why."""
    text = (done.stderr or "") + (done.stdout or "")
    if "No module named pytest" in text:
        return {"runner": "none", "exit": done.returncode, "error": "pytest is not installed for this project",
                "fix": "pip install pytest"}
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    why = next((line for line in reversed(lines) if "error" in line.lower()), lines[-1] if lines else "")
    return {"runner": "pytest", "exit": done.returncode, "error": answers.clip(why, 160) or "no test status recorded"}


run_clusters = record.run_clusters  # the last run's clusters (also what the compact pytest answer shows)
