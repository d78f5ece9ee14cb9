"""Who is affected by a file or one of its symbols: callers and importers from the index, tests from
the map (or, without one, from the static import graph)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from sidekit_hooks.code.blocks import MODULE
from sidekit_hooks.code.graph import ImportGraph
from sidekit_hooks.code.index import Index, Symbol
from sidekit_hooks.code.languages import language_of
from sidekit_hooks.code.testfiles import is_test_file
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.impact import testmap


@dataclass
class Impact:
    basis: str  # "map" | "imports"
    tests: set[str] = field(default_factory=set)  # node ids that executed the code (map only)
    reached: set[str] = field(
        default_factory=set
    )  # test files a change can affect (map and imports)
    callers: list[str] = field(default_factory=list)  # files referencing the symbol, busiest first
    importers: list[str] = field(default_factory=list)  # files importing the module, sorted
    symbol: str = ""  # the symbol asked about, "" for a whole file

    @property
    def test_files(self) -> list[str]:
        return sorted({test.split("::", 1)[0] for test in self.tests} | self.reached)


def workspace_path(project: str, given: str, suffixes: tuple[str, ...] = (".py",)) -> str:
    """A project-relative source path for what the user typed (relative, absolute or `./x.py`);
    `suffixes`: the kinds of file the caller can answer for."""
    absolute = os.path.abspath(os.path.join(project, given)) if not os.path.isabs(given) else given
    relative = os.path.relpath(absolute, project).replace(os.sep, "/")
    if relative.startswith("../") or not relative.endswith(suffixes):
        kind = "a Python" if suffixes == (".py",) else "a source"
        raise SidekitError(
            f"{given} is not {kind} file inside the workspace {project}",
            "pass a .py path relative to the workspace, e.g. sidekit tests-for pkg/mod.py"
            if suffixes == (".py",)
            else "pass a source path relative to the workspace, e.g. sidekit blast-radius "
            "src/parse.ts",
        )
    if not os.path.isfile(os.path.join(project, relative)):
        raise SidekitError(
            f"{relative} does not exist",
            "check the path: sidekit symbol NAME finds a file by what it defines",
        )
    return relative


def tests_of(project: str, index: Index, path: str, blocks: set[str] | None = None) -> Impact:
    """Tests a change to `path` (or to only those `blocks` of it) can affect.

    With a map: the tests that executed those blocks, plus, for module-level code, the test files
    that import the file (a constant read at import time leaves no trace in coverage). Without: the
    import graph.
    """
    graph = ImportGraph.of(index)
    test_map = testmap.load(project)
    blocks = blocks or {MODULE}
    if test_map is None:
        return Impact("imports", reached=graph.tests_reaching({path}))
    if is_test_file(path):
        return Impact("map", {t for t in test_map.tests if t.split("::", 1)[0] == path}, {path})
    reached = graph.tests_reaching({path}) if MODULE in blocks else set()
    return Impact("map", test_map.tests_in_blocks(path, blocks), reached)


def impact(project: str, index: Index, path: str, symbol_name: str = "") -> Impact:
    graph = ImportGraph.of(index)
    if language_of(path) == "py":
        importers = sorted(graph.direct_importers(path))
    else:
        from sidekit_hooks.code.languages.importers import importers_of

        importers = importers_of(index, path)
    if not symbol_name:
        found = tests_of(project, index, path)
        found.importers = importers
        return found
    symbols = [s for s in index.definitions_in(path) if s.qualname == symbol_name]
    if not symbols:
        known = ", ".join(sorted({s.qualname for s in index.definitions_in(path)})[:5])
        raise SidekitError(
            f"{path} defines no {symbol_name}" + (f" (it defines {known}, ...)" if known else ""),
            f"sidekit symbol {symbol_name}",
        )
    symbol = symbols[0]
    found = tests_of(project, index, path, _blocks_of(symbol, index.definitions_in(path)))
    found.callers, found.importers, found.symbol = (
        _callers(index, graph, path, symbol),
        importers,
        symbol_name,
    )
    return found


def _blocks_of(symbol: Symbol, everything: list[Symbol]) -> set[str]:
    """The map blocks a symbol's behaviour lives in: its body, a class's methods, or module
    level."""
    if symbol.kind in ("function", "method"):
        return {symbol.qualname}
    if symbol.kind == "class":
        return {s.qualname for s in everything if s.qualname.startswith(symbol.qualname + ".")} | {
            MODULE
        }
    return {MODULE}


def _callers(index: Index, graph: ImportGraph, path: str, symbol: Symbol) -> list[str]:
    """Files that reference the symbol's name and can see it: its own file and files importing its
    module. Outside Python (no import graph of that language here yet): files of the same language
    that reference the name."""
    name = symbol.qualname.rsplit(".", 1)[-1]
    language = index.language_of(path)
    counts: dict[str, int] = {}
    if language == "py":
        reach = graph.direct_importers(path) | {path}
        sites = [site for site, _ in index.references(name) if site in reach]
    else:
        sites = [site for site, _ in index.references(name) if language_of(site) == language]
    for site in sites:
        counts[site] = counts.get(site, 0) + 1
    return sorted(counts, key=lambda p: (-counts[p], p))
