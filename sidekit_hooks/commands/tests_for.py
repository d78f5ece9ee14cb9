"""`sidekit tests-for PATH`: the tests that exercise a file (from the map, else the import graph)."""

from __future__ import annotations

import argparse
from typing import Any

from sidekit_hooks import answers
from sidekit_hooks.code.impact import tests_of, workspace_path
from sidekit_hooks.commands._code import add_common, open_index
from sidekit_hooks.commands._shared import project_of

BUDGET = 100  # bytes (contract)
PATH_CHARS = 32


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="a Python file of the workspace")
    add_common(parser)


def answer_for(basis: str, tests: set[str]) -> dict[str, Any]:
    files = sorted({test.split("::", 1)[0] for test in tests})
    head: dict[str, Any] = {"tests": len(tests) if basis == "map" else None, "files": None, "more": None, "basis": basis}
    if not tests:
        head["files"] = 0  # zero is the answer here, not a missing field
        return head
    return answers.fit(head, "files", [answers.short_path(f, PATH_CHARS) for f in files], BUDGET)


def run(args: argparse.Namespace) -> int:
    project = project_of(args)
    with open_index(args) as index:
        path = workspace_path(project, args.path)
        basis, tests = tests_of(project, index, path)
    answers.emit(answer_for(basis, tests), args.format)
    return 0
