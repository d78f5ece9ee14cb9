"""`sidekit symbol NAME`: where a function, class, method or module-level name is defined.

NAME is bare (`parse`), qualified (`Parser.parse`) or module-qualified (`pkg.mod.Parser.parse` or
`pkg.mod:Parser.parse`). Several matches come best first: exact qualified names, then classes and
functions before methods and variables, code before tests, shorter paths first.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._code import add_common, searched
from sidekit_hooks.cli.commands._code import fast_arguments as fast_arguments
from sidekit_hooks.cli.commands._shared import project_of
from sidekit_hooks.code.index import Index, Symbol
from sidekit_hooks.code.testfiles import is_test_path

BUDGET_ONE = 170  # bytes, one match (contract)
BUDGET_MANY = 400  # bytes, several matches
# rapidfuzz ratio (edit similarity, 0-100) at or above which a defined name is offered when nothing
# matches
CLOSE_SCORE = 80
CLOSE_SHOWN = 3
PATH_CHARS = 60
KIND_RANK = {
    **dict.fromkeys(("class", "function", "interface", "struct", "trait", "enum", "type"), 0),
    **dict.fromkeys(("method", "namespace", "module", "macro"), 1),
    **dict.fromkeys(("variable", "const"), 2),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name",
        metavar="NAME",
        help="bare or qualified name: parse, Parser.parse, pkg.mod:Parser.parse",
    )
    add_common(parser)


def match_rank(query: str, symbol: Symbol) -> int | None:
    """0: the exact (module-)qualified name; 1: a qualified tail of it; 2: the bare name; None: not
    it."""
    wanted = query.replace(":", ".")
    full = f"{symbol.module}.{symbol.qualname}" if symbol.module else symbol.qualname
    if wanted in (symbol.qualname, full):
        return 0
    if full.endswith("." + wanted):
        return 1
    return 2 if "." not in wanted else None


def ranked(query: str, symbols: list[Symbol]) -> list[Symbol]:
    scored = []
    for symbol in symbols:
        rank = match_rank(query, symbol)
        if rank is not None:
            key = (
                rank,
                KIND_RANK.get(symbol.kind, 3),
                is_test_path(symbol.path),
                len(symbol.path),
                symbol.path,
                symbol.line,
            )
            scored.append((key, symbol))
    return [symbol for _, symbol in sorted(scored, key=lambda pair: pair[0])]


def entry(
    query: str, symbol: Symbol, path_chars: int = PATH_CHARS, signature: bool = True
) -> dict[str, Any]:
    return {
        "name": None if match_rank(query, symbol) == 0 else symbol.qualname,
        "kind": symbol.kind,
        "at": f"{render.short_path(symbol.path, path_chars)}:{symbol.line}",
        "sig": symbol.signature if signature else None,
    }


def close_names(query: str, index: Index) -> list[str]:
    """Defined names near a query that matched nothing (a typo, a half-remembered name)."""
    from rapidfuzz import fuzz, process, utils

    wanted = (
        query.replace(":", ".").rsplit(".", 1)[-1]
        if query.count(".") > 1
        else query.replace(":", ".")
    )
    candidates = index.defined_names(qualified="." in wanted)
    found = process.extract(
        wanted,
        candidates,
        scorer=fuzz.ratio,
        processor=utils.default_process,
        limit=CLOSE_SHOWN,
        score_cutoff=CLOSE_SCORE,
    )
    return [name for name, _, _ in found]


def answer_for(
    query: str, symbols: list[Symbol], coverage: dict[str, Any], close: list[str] | None = None
) -> dict[str, Any]:
    matches = ranked(query, symbols)
    if not matches:
        return {"found": 0, "close": close, **coverage}
    if (
        len(matches) == 1
    ):  # its budget (docs/usage.md): degrade the signature, then the path, never the place
        for path_chars, signature in (
            (PATH_CHARS, True),
            (PATH_CHARS, False),
            (40, False),
            (24, False),
        ):
            answer = {"matches": [entry(query, matches[0], path_chars, signature)], **coverage}
            if render.size(answer) <= BUDGET_ONE:
                break
        return answer
    return render.fit(
        {"matches": None, "more": None, **coverage},
        "matches",
        [entry(query, symbol) for symbol in matches],
        BUDGET_MANY,
    )


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.name), args.format)
    return 0


def answer(project: str, name: str) -> dict[str, Any]:
    """The answer `sidekit symbol` prints and the MCP `symbol` tool returns."""
    with Index.open(project) as index:
        symbols = index.definitions(name)
        close = None if ranked(name, symbols) else close_names(name, index)
        return answer_for(name, symbols, searched(index.coverage), close)
