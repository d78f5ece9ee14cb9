"""`sidekit tests-for PATH`: the tests a change to a file can affect.

`tests`: how many tests executed its code (from the map); `files`: the test files to run (the map's,
plus those importing the file; without a map, the import graph's).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._code import add_common
from sidekit_hooks.cli.commands._shared import project_of, without_graph
from sidekit_hooks.code.index import Index
from sidekit_hooks.impact.affected import Impact, tests_of, workspace_path

BUDGET = 100  # bytes (contract)
PATH_CHARS = 32


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path", metavar="PATH", help="a source file of the workspace (Python, TS/JS, Go, Java)"
    )
    add_common(parser)


def answer_for(found: Impact) -> dict[str, Any]:
    files = found.test_files
    head: dict[str, Any] = {
        "tests": len(found.tests) or None,
        "files": None,
        "more": None,
        "basis": found.basis,
    }
    if not files:
        head["files"] = 0  # zero is the answer here, not a missing field
        return head
    return render.fit(head, "files", [render.short_path(f, PATH_CHARS) for f in files], BUDGET)


def calling_first(project: str, path: str, files: Any) -> list[str]:
    """A runner's test files, those that call a function or method the file (`path`: relative to the
    cwd, or absolute) defines first: the likeliest to catch a change to it, kept when the budget
    cuts (go's other tests of the package still run, since a test reaches a function through others
    too)."""
    listed = [str(f) for f in files or ()]
    if len(listed) < 2:
        return listed
    from sidekit_hooks.impact.callers import test_files_calling

    full = os.path.abspath(
        path if os.path.isabs(path) or os.path.exists(path) else os.path.join(project, path)
    )
    with Index.open(project) as index:
        calling = test_files_calling(
            index, os.path.relpath(full, project).replace(os.sep, "/"), set(listed)
        )
    return sorted(listed, key=lambda f: (f not in calling, listed.index(f)))


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.path), args.format)
    return 0


def answer(project: str, path: str) -> dict[str, Any]:
    """The answer `sidekit tests-for` prints and the MCP `tests_for` tool returns."""
    from sidekit_hooks import runners

    runner = runners.detect(project)
    adapter = runners.load(runner)
    if adapter is not None and hasattr(adapter, "tests_for"):  # the runner's own graph
        head = dict(adapter.tests_for(project, path))
        files = [
            render.short_path(str(f), PATH_CHARS)
            for f in calling_first(project, path, head.pop("files", None))
        ]
        return (
            render.fit({**head, "files": None, "more": None}, "files", files, BUDGET)
            if files
            else dict(head, files=0)
        )
    everything = without_graph(adapter, runner, "all tests")
    if everything is not None:
        return everything
    with Index.open(project) as index:
        found = tests_of(project, index, workspace_path(project, path))
    return answer_for(found)  # the Python import graph (budgets as before)
