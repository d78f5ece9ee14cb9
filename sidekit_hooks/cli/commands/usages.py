"""`sidekit usages NAME`: every place the name is used, from the AST (never comments or strings).

Both shapes are built from the complete list: flat `file:line` sites, and grouped by file (busiest
first). The smaller one is sent. There is no threshold: where grouping starts to pay depends on the
paths, the line numbers and the name itself. The chosen shape is then fitted to the budget; what is
left out is counted.
"""

from __future__ import annotations

from collections import Counter

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._code import add_common, searched
from sidekit_hooks.cli.commands._code import fast_arguments as fast_arguments
from sidekit_hooks.cli.commands._shared import project_of
from sidekit_hooks.code.index import Index

# bytes: the budget for 480 uses (docs/usage.md) across 60 files, and the most we ever send
BUDGET_MAX = 900
BUDGET_BASE = 90  # bytes for the fields every answer carries ...
BUDGET_PER_USE = 30  # ... plus this much per use, so a light answer stays light (9 uses: 360 bytes)
PATH_CHARS = 60
LINES_PER_FILE = 5  # in the fitted grouped shape; the file's `uses` count says how many there are


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name",
        metavar="NAME",
        help="a name; a qualified one (Class.method) is matched by its last part",
    )
    add_common(parser)


def budget(uses: int) -> int:
    return min(BUDGET_MAX, BUDGET_BASE + BUDGET_PER_USE * uses)


def short_paths(sites: list[tuple[str, int]]) -> dict[str, str]:
    """Each file's shortened path, made once per file (a name used 900 times is used in a few
    hundred)."""
    return {path: render.short_path(path, PATH_CHARS) for path in {path for path, _ in sites}}


def flat(
    sites: list[tuple[str, int]], coverage: dict[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    short = short_paths(sites)
    items = [f"{short[path]}:{line}" for path, line in sites]
    return {"uses": len(sites), "at": None, "more": None, **coverage}, items


def grouped(
    sites: list[tuple[str, int]], coverage: dict[str, Any], lines_per_file: int | None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    counts = Counter(path for path, _ in sites)
    lines: dict[str, list[int]] = {}
    for path, line in sites:
        lines.setdefault(path, []).append(line)
    order = sorted(counts, key=lambda path: (-counts[path], path))
    short = short_paths(sites)
    items = [
        {"file": short[path], "uses": counts[path], "lines": lines[path][:lines_per_file]}
        for path in order
    ]
    return {
        "uses": len(sites),
        "files": len(order),
        "in": None,
        "moreFiles": None,
        **coverage,
    }, items


def answer_for(sites: list[tuple[str, int]], coverage: dict[str, Any]) -> dict[str, Any]:
    if not sites:
        return {"uses": 0, **coverage}
    flat_head, flat_items = flat(sites, coverage)
    group_head, group_items = grouped(sites, coverage, None)
    complete_flat = render.size(dict(flat_head, at=flat_items))
    complete_grouped = render.size(dict(group_head, **{"in": group_items}))
    limit = budget(len(sites))
    if complete_flat <= complete_grouped:
        return render.fit(flat_head, "at", flat_items, limit)
    group_head, group_items = grouped(sites, coverage, LINES_PER_FILE)
    return render.fit(group_head, "in", group_items, limit, more="moreFiles")


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.name), args.format)
    return 0


def answer(project: str, name: str) -> dict[str, Any]:
    """The answer `sidekit usages` prints and the MCP `usages` tool returns."""
    bare = name.replace(":", ".").rsplit(".", 1)[-1]
    with Index.open(project) as index:
        return answer_for(index.references(bare), searched(index.coverage))
