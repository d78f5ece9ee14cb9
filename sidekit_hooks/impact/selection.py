"""The tests a change needs: `selection(project, base)`, used by `sidekit select` and `sidekit test
--select`.

Layers, each named in `basis` (pytest-testmon's precision where there is a map, an honest
approximation where there is not):

1. always: tests that failed last time, and changed test files (whole files);
2. with a map (`sidekit map`): tests that executed a changed function or method body; a change to a
   file's module-level code (imports, signatures, constants, class bodies) selects every test that
   touched the file, plus the test files that import it (constants read at import time leave no
   trace in coverage);
3. without a map: test files that import a changed module, directly or not (static import graph);
4. a changed file neither can see (configuration, data) selects the whole suite, and says why.

Changes are what git reports between `base` (default HEAD) and the working tree, plus, with a map,
every block that differs from the map's recording (so commits made since the map count too).
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass, field

from sidekit_hooks.code.blocks import MODULE, changed_blocks
from sidekit_hooks.code.graph import ImportGraph, tests_below
from sidekit_hooks.code.index import Index, content_hash
from sidekit_hooks.code.testfiles import is_conftest, is_test_file, test_file_of
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.impact import changes, lastfailed, testmap

# Changed files that cannot change a test's outcome.
INERT_SUFFIXES = (".md", ".rst", ".txt", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".pyi")
INERT_NAMES = frozenset(
    {".gitignore", ".gitattributes", "LICENSE", "CHANGELOG", "AUTHORS", ".editorconfig"}
)


@dataclass
class Selection:
    tests: list[str]  # pytest arguments: whole test files and node ids, workspace-relative, sorted
    basis: str  # "map" | "imports" | "all"
    why: str = ""  # for "all": what forced the whole suite
    changed: list[str] = field(default_factory=list)  # files the selection answers for
    last_failed: int = 0  # how many of the tests are there because they failed last time
    suite_files: int = 0  # test files in the workspace
    suite_tests: int = 0  # tests in the map (0 without one)

    @property
    def test_files(self) -> list[str]:
        return sorted({test_file_of(test) for test in self.tests})


def _inert(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name in INERT_NAMES or path.endswith(INERT_SUFFIXES) or path.startswith(".sidekit/")


def _current(project: str, path: str) -> bytes | None:
    from sidekit_hooks.core import safepath

    return safepath.read_project_file(project, path)  # no FIFO, device or link out of the project


def _changed_since_map(
    project: str, test_map: testmap.TestMap, hashes: dict[str, str]
) -> dict[str, set[str]]:
    """Blocks of mapped files that differ from what the map recorded."""
    from sidekit_hooks.code.blocks import blocks_of

    found: dict[str, set[str]] = {}
    for path, entry in test_map.files.items():
        if hashes.get(path) == entry.hash:
            continue
        data = _current(project, path)
        try:
            now = blocks_of(data).checksums if data is not None else {}
        except (SyntaxError, ValueError, RecursionError):
            now = {}
        blocks = {
            name
            for name in entry.blocks.keys() | now.keys()
            if entry.blocks.get(name) != now.get(name)
        }
        if not now:
            blocks = {MODULE}
        if blocks:
            found[path] = blocks
    return found


def changed_blocks_since(
    project: str, rev: str, in_git: bool, test_map: testmap.TestMap | None, hashes: dict[str, str]
) -> dict[str, set[str]]:
    """Changed file -> changed blocks: git's working tree against `rev`, plus what differs from the
    map.

    A non-Python file that matters (configuration, data) is reported as `{MODULE}`.
    """
    changed: dict[str, set[str]] = {}
    if in_git:
        for path in changes.changed_files(project, rev):
            if not path.endswith(".py"):
                if not _inert(path):
                    changed[path] = {MODULE}
                continue
            old = changes.content_at(project, rev, path)
            recorded = test_map.files.get(path) if test_map else None
            if recorded is not None and old is not None and content_hash(old) == recorded.hash:
                # the map recorded this very version: the comparison with the map covers it
                continue
            blocks = changed_blocks(old, _current(project, path))
            if blocks:
                changed[path] = blocks
    if test_map is not None:
        for path, blocks in _changed_since_map(project, test_map, hashes).items():
            changed.setdefault(path, set()).update(blocks)
    return changed


def affected(
    changed: dict[str, set[str]],
    test_map: testmap.TestMap | None,
    graph: ImportGraph,
    suite: set[str],
) -> tuple[set[str], set[str]]:
    """(whole test files, node ids) that the changed blocks can affect."""
    files: set[str] = set()
    node_ids: set[str] = set()
    for path, blocks in changed.items():
        if is_test_file(path):
            files.add(path)
            continue
        if test_map is not None:
            node_ids |= test_map.tests_in_blocks(path, blocks)
        if test_map is None or MODULE in blocks:
            files |= graph.tests_reaching({path})
            if is_conftest(path):
                files |= tests_below(posixpath.dirname(path), suite)
    return files, node_ids


def selection(project: str, base: str | None) -> Selection:
    project = os.path.abspath(project)
    with Index.open(project) as index:
        graph = ImportGraph.of(index)
        hashes = index.hashes()
    suite = graph.test_files()
    test_map = testmap.load(project)
    in_git = changes.is_repo(project)
    if base and not (in_git and changes.has_revision(project, base)):
        raise SidekitError(
            f"--base {base} is not a commit of a git repository here", "git log --oneline -5"
        )
    changed = changed_blocks_since(project, base or "HEAD", in_git, test_map, hashes)
    result = Selection(
        [],
        "map" if test_map else "imports",
        changed=sorted(changed),
        suite_files=len(suite),
        suite_tests=len(test_map.tests) if test_map else 0,
    )

    unseen = [path for path in changed if not path.endswith(".py")]
    if unseen:
        result.basis, result.why = (
            "all",
            f"{unseen[0]} changed" + (f" (+{len(unseen) - 1} more)" if len(unseen) > 1 else ""),
        )
    elif not in_git and test_map is None:
        result.basis, result.why = "all", "no git repository and no map: changes cannot be seen"
    if result.basis == "all":
        result.tests = sorted(suite)
        return result

    def exists(test: str) -> bool:
        return os.path.isfile(os.path.join(project, test_file_of(test)))

    failed = lastfailed.last_failed(project)
    files, node_ids = affected(changed, test_map, graph, suite)
    files |= {test for test in failed if "::" not in test}  # a file that failed to collect
    files = {path for path in files if exists(path)}
    node_ids = {
        test for test in node_ids | set(failed) if test_file_of(test) not in files and exists(test)
    }
    result.tests = sorted(files) + sorted(node_ids)
    result.last_failed = sum(
        1 for test in failed if test in node_ids or test_file_of(test) in files
    )
    return result
