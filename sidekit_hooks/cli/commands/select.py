"""`sidekit select [--base REV]`: the tests the working tree's changes (or those since REV) need, and why.

`sidekit test --select` runs exactly this selection.
"""

from __future__ import annotations

import argparse
from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._code import add_common
from sidekit_hooks.cli.commands._shared import project_of
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.impact.selection import Selection, selection

BUDGET = 150  # bytes (contract)
PATH_CHARS = 40
# runner -> the module with its graph's `selection` (TypeScript/JavaScript, Java)
GRAPHS = {
    "vitest": "sidekit_hooks.impact.scripts",
    "jest": "sidekit_hooks.impact.scripts",
    "junit": "sidekit_hooks.impact.java",
    "cargo": "sidekit_hooks.impact.rust",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", metavar="REV", help="compare with this git revision instead of HEAD")
    add_common(parser)


def answer_for(chosen: Selection) -> dict[str, Any]:
    head: dict[str, Any] = {
        "tests": len(chosen.tests),  # pytest arguments: node ids and whole files
        "files": None,
        "moreFiles": None,
        "ofFiles": chosen.suite_files,
        "basis": chosen.basis,
        "why": chosen.why[:60] or None,
        "lastFailed": chosen.last_failed or None,
        "changed": len(chosen.changed) or None,
    }
    files = [render.short_path(path, PATH_CHARS) for path in chosen.test_files]
    return render.fit(head, "files", files, BUDGET, more="moreFiles")


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.base), args.format)
    return 0


def answer(project: str, base: str | None = None) -> dict[str, Any]:
    """The answer `sidekit select` prints and the MCP `select` tool returns."""
    from sidekit_hooks import runners

    runner = runners.detect(project)
    if runner == "go":
        from sidekit_hooks.runners.go import graph as go_graph

        head = dict(go_graph.selection(project, base)[1])
        files = [render.short_path(str(f), PATH_CHARS) for f in head.pop("files", None) or ()]
        return render.fit({**head, "files": None, "moreFiles": None}, "files", files, BUDGET, more="moreFiles")
    if runner in GRAPHS:
        import importlib

        from sidekit_hooks.code.index import Index
        from sidekit_hooks.impact import changes

        if base and not changes.has_revision(project, base):
            raise SidekitError(f"--base {base} is not a commit of a git repository here", "git log --oneline -5")
        graph = importlib.import_module(GRAPHS[runner])
        with Index.open(project) as index:
            head = graph.selection(project, index, changes.changed_files(project, base or "HEAD"), runner)
        files = [render.short_path(str(f), PATH_CHARS) for f in head.pop("files")]
        return render.fit({**head, "files": None, "moreFiles": None}, "files", files, BUDGET, more="moreFiles")
    if runner not in ("pytest", runners.NONE):  # no import graph for this runner yet: every test
        return {"runner": runner, "basis": "all", "why": f"no selection graph for {runner} yet: run all tests"}
    return answer_for(selection(project, base))  # pytest: the import graph (budgets as before)
