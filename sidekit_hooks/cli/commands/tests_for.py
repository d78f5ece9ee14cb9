"""`sidekit tests-for PATH`: the tests a change to a file can affect.

`tests`: how many tests executed its code (from the map); `files`: the test files to run (the map's,
plus those importing the file; without a map, the import graph's).
"""

from __future__ import annotations

import argparse
from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._code import add_common
from sidekit_hooks.cli.commands._shared import project_of
from sidekit_hooks.code.index import Index
from sidekit_hooks.impact.affected import Impact, tests_of, workspace_path

BUDGET = 100  # bytes (contract)
SCRIPTS = ("sidekit_hooks.impact.scripts", (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"))
# runner -> (the module with its graph's `tests_for` and `selection`, the source files it answers for)
GRAPHS = {
    "vitest": SCRIPTS,
    "jest": SCRIPTS,
    "junit": ("sidekit_hooks.impact.java", (".java",)),
    "cargo": ("sidekit_hooks.impact.rust", (".rs",)),
}
PATH_CHARS = 32


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="a source file of the workspace (Python, TS/JS, Go, Java)")
    add_common(parser)


def answer_for(found: Impact) -> dict[str, Any]:
    files = found.test_files
    head: dict[str, Any] = {"tests": len(found.tests) or None, "files": None, "more": None, "basis": found.basis}
    if not files:
        head["files"] = 0  # zero is the answer here, not a missing field
        return head
    return render.fit(head, "files", [render.short_path(f, PATH_CHARS) for f in files], BUDGET)


def calling_first(project: str, path: str, files: Any) -> list[str]:
    """Go's test files, those that call a function or method the file defines first (the likeliest to
    catch a change to it; the rest of the package's tests still run, since a test reaches a function
    through others too)."""
    listed = [str(f) for f in files or ()]
    if len(listed) < 2:
        return listed
    from sidekit_hooks.impact.callers import test_files_calling

    with Index.open(project) as index:
        calling = test_files_calling(index, path, set(listed))
    return sorted(listed, key=lambda f: (f not in calling, listed.index(f)))


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.path), args.format)
    return 0


def answer(project: str, path: str) -> dict[str, Any]:
    """The answer `sidekit tests-for` prints and the MCP `tests_for` tool returns."""
    from sidekit_hooks import runners

    runner = runners.detect(project)
    if runner == "go":
        from sidekit_hooks.runners.go import graph as go_graph

        relative = go_graph.relative(project, path)
        head = dict(go_graph.tests_for(project, relative))
        files = [
            render.short_path(str(f), PATH_CHARS) for f in calling_first(project, relative, head.pop("files", None))
        ]
        return render.fit({**head, "files": None, "more": None}, "files", files, BUDGET) if files else head
    if runner in GRAPHS:
        import importlib

        graph = importlib.import_module(GRAPHS[runner][0])
        with Index.open(project) as index:
            relative = workspace_path(project, path, GRAPHS[runner][1])
            head = graph.tests_for(project, index, relative, runner)
        files = [render.short_path(str(f), PATH_CHARS) for f in head.pop("files")]
        return (
            render.fit({**head, "files": None, "more": None}, "files", files, BUDGET) if files else dict(head, files=0)
        )
    if runner not in ("pytest", runners.NONE):  # no import graph for this runner yet: every test
        return {"runner": runner, "basis": "all", "why": f"no selection graph for {runner} yet: all tests"}
    with Index.open(project) as index:
        found = tests_of(project, index, workspace_path(project, path))
    return answer_for(found)  # pytest: the import graph (budgets as before)
