"""Selection by a language's own graph (TS/JS imports: impact.scripts; Java packages: impact.java;
Rust modules: impact.rust): what a runner's adapter answers `sidekit tests-for` and `sidekit select`
with.

A graph module has `tests_for(project, index, path, runner)` and `selection(project, index, changed,
runner)`, each returning an answer's head whose `files` are the test files to run; it builds them
with `reaching`, `graph_tests_for` and `graph_selection` below, from its graph (`test_files()`,
`tests_reaching(paths)`) and its language's tests of a path.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from types import ModuleType
    from typing import Any, Protocol

    class Graph(Protocol):
        def test_files(self) -> set[str]: ...

        def tests_reaching(self, paths: set[str]) -> set[str]: ...


def reaching(importers: Mapping[str, Iterable[str]], paths: set[str]) -> set[str]:
    """`paths` and every file that imports one of them, directly or through others."""
    seen = set(paths)
    frontier = list(paths)
    while frontier:
        for importer in importers.get(frontier.pop(), ()):
            if importer not in seen:
                seen.add(importer)
                frontier.append(importer)
    return seen


def inert(path: str, names: frozenset[str], suffixes: tuple[str, ...]) -> bool:
    """A changed file no test can notice (docs, images, a licence): it selects nothing."""
    return path.rsplit("/", 1)[-1] in names or path.endswith(suffixes)


def graph_tests_for(
    graph: Graph, path: str, runner: str, is_test: Callable[[str], bool]
) -> dict[str, Any]:
    """`tests-for`'s head: the test file itself, or the test files reaching `path`."""
    files = sorted({path} if is_test(path) else graph.tests_reaching({path}))
    return {"runner": runner, "files": files, "basis": "imports"}


def graph_selection(
    project: str,
    graph: Graph,
    changed: list[str],
    runner: str,
    *,
    is_source: Callable[[str], bool],
    is_test: Callable[[str], bool],
    outside: Callable[[str], bool],
) -> dict[str, Any]:
    """`select`'s head for these changed files: the test files reaching the changed sources (those
    present), or every test file (`basis` "all", and why) when a change is `outside` what the graph
    sees (a build file, a source of another language)."""
    head: dict[str, Any] = {"runner": runner, "changed": len(changed)}
    unseen = [path for path in changed if outside(path)]
    if unseen:
        why = f"{unseen[0]} changed" + (f" (+{len(unseen) - 1} more)" if len(unseen) > 1 else "")
        return dict(head, files=sorted(graph.test_files()), basis="all", why=why)
    sources = {path for path in changed if is_source(path)}
    tests = {path for path in sources if is_test(path)} | graph.tests_reaching(sources)
    present = {path for path in tests if os.path.isfile(os.path.join(project, path))}
    return dict(head, files=sorted(present), ofFiles=len(graph.test_files()), basis="imports")


def tests_for(
    project: str, path: str, graph: ModuleType, suffixes: tuple[str, ...], runner: str
) -> dict[str, Any]:
    """The test files a change to `path` (relative to the cwd, or absolute) can affect."""
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.impact.affected import workspace_path

    with Index.open(project) as index:
        head: dict[str, Any] = graph.tests_for(
            project, index, workspace_path(project, path, suffixes), runner
        )
    return head


def selection(project: str, base: str | None, graph: ModuleType, runner: str) -> dict[str, Any]:
    """The test files the working tree's changes (or those since `base`) need."""
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.core.errors import SidekitError
    from sidekit_hooks.impact import changes

    if base and not changes.has_revision(project, base):
        raise SidekitError(
            f"--base {base} is not a commit of a git repository here", "git log --oneline -5"
        )
    with Index.open(project) as index:
        head: dict[str, Any] = graph.selection(
            project, index, changes.changed_files(project, base or "HEAD"), runner
        )
    return head
