"""`sidekit test [--select] [PATHS | -- PYTEST_ARGS]`: run the project's tests, answer compactly from the fresh cache.

The runner comes from the project's files (`runners.detect`: go.mod, Cargo.toml, pom.xml, ...;
`$SIDEKIT_RUNNER` names one); with none, the answer is `{"runner":"none"}`. For runners other than
pytest, the adapter's command runs and its `collect` reads the output and reports (runners/).

pytest runs in a subprocess with the recording plugin; its own output is not shown (it is the noise
this command exists to remove); the exit code is pytest's. The interpreter is the project's own
(`status.interpreter`: setting, `.venv`/`venv`, `$VIRTUAL_ENV`, uv, Poetry), so the tests run where
the project's dependencies are; `--python` overrides it, and the answer names it when it is not the
project's venv.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import Any

from sidekit_hooks import runners
from sidekit_hooks.answers import render, shape
from sidekit_hooks.cli.commands._shared import add_format, add_project, explicit_python, project_of
from sidekit_hooks.core import launch, workspace
from sidekit_hooks.runners import compact as runner_compact
from sidekit_hooks.runners.pytest import adapter as pytest_adapter
from sidekit_hooks.runners.pytest import interpreter
from sidekit_hooks.runners.pytest.process import Progress, Run, execute, one_at_a_time
from sidekit_hooks.status import cache, record

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NO_TESTS = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "pytest_args",
        nargs="*",
        metavar="PATHS | -- PYTEST_ARGS",
        help="test paths or node ids; after --, any pytest arguments",
    )
    parser.add_argument(
        "--select", action="store_true", help="run only the tests the current change needs"
    )
    parser.add_argument(
        "--base", metavar="REV", help="with --select: compare against this revision"
    )
    parser.add_argument(
        "--python",
        metavar="PY",
        help="interpreter that runs the tests (default: the project's, see doctor)",
    )
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    python = explicit_python(getattr(args, "python", None), "test")
    found, code = answer(
        project_of(args), list(args.pytest_args), args.select, args.base, python=python
    )
    render.emit(found, args.format)
    return code


def answer(
    project: str,
    pytest_args: list[str],
    select_only: bool = False,
    base: str | None = None,
    progress: Progress | None = None,
    process: Run | None = None,
    python: str | None = None,
) -> tuple[dict[str, Any], int]:
    """Run pytest; the answer `sidekit test` prints (and the MCP `test` tool returns) and pytest's
    exit code.

    `python`: the interpreter (`--python`); by default the project's own (`status.interpreter`).
    `progress` hears pytest's percentage as it runs; `process.stop()` from another thread ends the
    run.
    """
    root = cache.workspace_root(project)
    runner = runners.detect(project)
    adapter = runners.load(runner)
    if adapter is None:
        return runner_compact.none(), NO_TESTS
    if (
        runners.feeds(adapter) != "plugin"
    ):  # every runner but the one whose plugin records as it runs
        return other_runner(root, runner, pytest_args, select_only, progress, process, base)
    extra: dict[str, Any] = {}
    if select_only:
        tests, basis = select(root, base)
        extra = {"selected": len(tests), "basis": basis}
        if not tests:
            return shape.drop_zeros({"runner": runner, **extra, "exit": NO_TESTS}), NO_TESTS
        pytest_args = tests + pytest_args
    chosen = interpreter.find(root, python)
    python = chosen.path
    if chosen.source not in interpreter.OBVIOUS:
        extra["python"] = chosen.label(root)
    run_id = os.urandom(6).hex()
    with one_at_a_time(root):
        done = execute(
            command(python, pytest_args), root, environment(python, root, run_id), progress, process
        )
        summary = cache.read(cache.summary_path(root)).data
        table = cache.read(cache.table_path(root)).data
    if (summary.get("run") or {}).get("id") != run_id:
        return pytest_adapter.unrecorded(done), done.returncode
    return shape.test_run(summary, run_clusters(summary, table), extra), done.returncode


def other_runner(
    root: str,
    name: str,
    args: list[str],
    select_only: bool,
    progress: Progress | None,
    process: Run | None,
    base: str | None = None,
) -> tuple[dict[str, Any], int]:
    """Run the project's runner (go, cargo, Maven...), then answer from what its adapter
    collected."""
    import time

    from sidekit_hooks.runners import store

    adapter = runners.load(name)
    assert adapter is not None  # detect() names only runners this build has
    extra: dict[str, Any] = (
        {"basis": "all"} if select_only else {}
    )  # no selection graph for it yet: all tests
    if select_only and hasattr(adapter, "selection"):  # the runner's own graph
        patterns, head = adapter.selection(root, base)
        extra = {"selected": len(patterns), "basis": head["basis"]}
        if not patterns:
            return shape.drop_zeros({"runner": name, **extra, "exit": NO_TESTS}), NO_TESTS
        args = [*patterns, *args]
    if hasattr(
        adapter, "command"
    ):  # command(project, args), or command(project) with the args after it
        takes_args = adapter.command.__code__.co_argcount >= 2
        argv = list(
            adapter.command(root, list(args)) if takes_args else [*adapter.command(root), *args]
        )
    else:
        argv = (
            [*getattr(adapter, "COMMAND", []), *args] if getattr(adapter, "COMMAND", None) else []
        )
    if not argv:
        return {"runner": name, "exit": 2, "error": f"sidekit cannot run {name} itself yet"}, 2
    run_id = os.urandom(6).hex()
    started = time.time()
    if not shutil.which(argv[0], path=os.environ.get("PATH")):
        return {
            "runner": name,
            "exit": 127,
            "error": f"{argv[0]} is not installed or not on PATH",
        }, 127
    merged = [
        "/bin/sh",
        "-c",
        'exec "$@" 2>&1',
        "sh",
        *argv,
    ]  # one stream: tool lines stay in order
    with one_at_a_time(root):
        # What was there before (reports of earlier runs), for an adapter that must tell them apart.
        before = {"before": adapter.before_run(root)} if hasattr(adapter, "before_run") else {}
        done = execute(merged, root, dict(os.environ, SIDEKIT_RUN_ID=run_id), progress, process)
        raw = store.save_raw(root, name, (done.stdout or "") + (done.stderr or ""), "sidekit-test")
        result = adapter.collect(root, started, done.returncode, raw, **before)
        # the words that narrow the run (an adapter may know some that select nothing): [] for a
        # full run
        result.args = (
            adapter.filter_words(list(args)) if hasattr(adapter, "filter_words") else list(args)
        )
        summary, table = store.save(root, result)
    found = runner_compact.run_answer(dict(summary), dict(table), result, extra=extra)
    return found, done.returncode


def select(root: str, base: str | None) -> tuple[list[str], str]:
    from sidekit_hooks.impact.selection import selection

    chosen = selection(root, base)
    return [str(t) for t in chosen.tests], chosen.basis


def command(python: str, pytest_args: list[str]) -> list[str]:
    # Not `python -m pytest`: that puts the project first on sys.path, before sidekit and the
    # stdlib.
    plugin = [] if _same_env(python) else ["-p", "sidekit_hooks.runners.pytest.external"]
    return launch.project_pytest(python, *plugin, *pytest_args)


def environment(python: str, root: str, run_id: str) -> dict[str, str]:
    env = dict(os.environ, SIDEKIT_RUN_ID=run_id)
    if not _same_env(python):
        # Only our package joins the other environment's path, through a folder holding a link to
        # it.
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


run_clusters = (
    record.run_clusters
)  # the last run's clusters (also what the compact pytest answer shows)
