"""`sidekit blast-radius PATH[:SYMBOL]`: what a change there can break.

For a symbol: the files that call it (they reference its name and can see it); for a file: the files
that import it. Both from the index. Then the tests: how many executed it (the map) and the test
files to run (the map's, plus importers for module-level code; without a map, the import graph's).
"""

from __future__ import annotations

import argparse
from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._code import add_common, searched
from sidekit_hooks.cli.commands._shared import project_of
from sidekit_hooks.code.index import Index
from sidekit_hooks.code.languages import INDEXED
from sidekit_hooks.impact.affected import Impact, impact, workspace_path

BUDGET = 200  # bytes (contract)
PATH_CHARS = 40


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target",
        metavar="PATH[:SYMBOL]",
        help="pkg/mod.py, pkg/mod.py:Class.method, src/parse.ts:parseURL",
    )
    add_common(parser)


def answer_for(found: Impact, scope: dict[str, Any] | None = None) -> dict[str, Any]:
    """Three capped lists sharing one budget: one more item to each in turn while it fits."""
    who = ("callers", found.callers) if found.symbol else ("importers", found.importers)
    lists = {
        who[0]: [render.short_path(p, PATH_CHARS) for p in who[1]],
        "testFiles": [render.short_path(p, PATH_CHARS) for p in found.test_files],
    }
    shown = {key: 0 for key in lists}

    def build() -> dict[str, Any]:
        answer: dict[str, Any] = {"tests": len(found.tests) or None}
        for key, items in lists.items():
            answer[key] = items[: shown[key]]
            answer[key + "More"] = len(items) - shown[key] or None
        answer["basis"] = found.basis
        answer.update(scope or {})
        return answer

    growing = True
    while growing:
        growing = False
        for key, items in lists.items():
            if shown[key] < len(items):
                shown[key] += 1
                if render.size(build()) <= BUDGET:
                    growing = True
                else:
                    shown[key] -= 1
    return build()


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.target), args.format)
    return 0


def answer(project: str, target: str) -> dict[str, Any]:
    """The answer `sidekit blast-radius` prints and the MCP `blast_radius` tool returns."""
    given, _, symbol = target.partition(":")
    with Index.open(project) as index:
        found = impact(project, index, workspace_path(project, given, INDEXED), symbol)
        scope = searched(index.coverage)  # callers and importers come from the whole index
    return answer_for(found, scope)
