"""`sidekit select [--base REV]`: the tests the working tree's changes (or those since REV) need,
and why.

`sidekit test --select` runs exactly this selection.
"""

from __future__ import annotations

import argparse
from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._code import add_common
from sidekit_hooks.cli.commands._shared import project_of, without_graph
from sidekit_hooks.impact.selection import Selection, selection

BUDGET = 150  # bytes (contract)
PATH_CHARS = 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base", metavar="REV", help="compare with this git revision instead of HEAD"
    )
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
    adapter = runners.load(runner)
    if adapter is not None and hasattr(adapter, "selection"):  # the runner's own graph
        head = dict(adapter.selection(project, base)[1])
        files = [render.short_path(str(f), PATH_CHARS) for f in head.pop("files", None) or ()]
        return render.fit(
            {**head, "files": None, "moreFiles": None}, "files", files, BUDGET, more="moreFiles"
        )
    if adapter is not None and hasattr(adapter, "graph_selection"):  # the language's own graph
        head = dict(adapter.graph_selection(project, base))
        files = [render.short_path(str(f), PATH_CHARS) for f in head.pop("files", None) or ()]
        return render.fit(
            {**head, "files": None, "moreFiles": None}, "files", files, BUDGET, more="moreFiles"
        )
    everything = without_graph(adapter, runner, "run all tests")
    if everything is not None:
        return everything
    return answer_for(selection(project, base))  # the Python import graph (budgets as before)
