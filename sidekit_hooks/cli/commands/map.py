"""`sidekit map [--python PY] [-- PYTEST_ARGS]`: run the suite once and record which test executes
which function and method (the test-impact map that select, tests-for and blast-radius use).
"""

from __future__ import annotations

import argparse

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._code import add_common
from sidekit_hooks.cli.commands._shared import explicit_python, project_of
from sidekit_hooks.impact import testmap
from sidekit_hooks.runners.pytest import interpreter


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--python",
        metavar="PY",
        help="interpreter that runs the project's tests (default: the project's own, as `sidekit "
        "test` finds it)",
    )
    parser.add_argument(
        "pytest_args",
        nargs=argparse.REMAINDER,
        metavar="-- PYTEST_ARGS",
        help="passed to pytest as they are",
    )
    add_common(parser)


def run(args: argparse.Namespace) -> int:
    extra = list(args.pytest_args)
    if extra[:1] == ["--"]:
        extra = extra[1:]
    project = project_of(args)
    chosen = interpreter.find(project, explicit_python(args.python, "map"))
    recording = testmap.record(project, extra, chosen.path)
    answer = {
        "python": chosen.label(project) if chosen.source not in interpreter.OBVIOUS else None,
        "tests": len(recording.test_map.tests),
        "files": len(recording.test_map.files),
        "pytestExit": recording.exit_code
        or None,  # 1: some tests failed; the map holds them all the same
        "secs": round(recording.seconds, 1),
    }
    render.emit(answer, args.format)
    return 0
