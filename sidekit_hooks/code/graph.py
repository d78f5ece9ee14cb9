"""The static import graph from the index: which files (and so which tests) can reach a module.

Approximate by nature: dynamic imports, plugins, fixtures found by name and data files are invisible
to it. It is the fallback when there is no test-impact map, and the safety net for module-level
changes (constants read at import time leave no trace in a per-test coverage map).
"""

from __future__ import annotations

import posixpath
from collections import defaultdict

from sidekit_hooks.code.index import Index, packages_of
from sidekit_hooks.code.parse import module_name
from sidekit_hooks.code.testfiles import is_conftest, is_test_file


class ImportGraph:
    def __init__(self, modules: dict[str, str], imports: list[tuple[str, str, str]]) -> None:
        self.modules = modules  # path -> module
        self.packages = packages_of(list(modules))
        self.importers: dict[str, set[str]] = defaultdict(set)  # module -> paths that import it
        for path, module, name in imports:
            for target in _targets(module, name):
                self.importers[target].add(path)

    @classmethod
    def of(cls, index: Index) -> ImportGraph:
        return cls(index.modules(), index.imports())

    def module_of(self, path: str) -> str:
        return self.modules.get(path) or module_name(path, self.packages)

    def direct_importers(self, path: str) -> set[str]:
        return set(self.importers.get(self.module_of(path), set())) - {path}

    def reaching(self, paths: set[str]) -> set[str]:
        """Every file that imports any of `paths`, directly or through other files (paths
        included)."""
        seen = set(paths)
        frontier = list(paths)
        while frontier:
            path = frontier.pop()
            for importer in self.importers.get(self.module_of(path), ()):
                if importer not in seen:
                    seen.add(importer)
                    frontier.append(importer)
        return seen

    def test_files(self) -> set[str]:
        return {path for path in self.modules if is_test_file(path)}

    def tests_reaching(self, paths: set[str]) -> set[str]:
        """Test files that can reach `paths`; a conftest that can reaches every test file below
        it."""
        reached = self.reaching(paths)
        tests = {path for path in reached if is_test_file(path)}
        for conftest in (path for path in reached if is_conftest(path)):
            tests |= tests_below(posixpath.dirname(conftest), self.test_files())
        return tests

    def reached_by(self, test_files: list[str]) -> dict[str, list[str]]:
        """source file -> the given test files that import it, directly or through other files (the
        inverse of `tests_reaching`, from a few test files forward; a conftest above a test counts
        as it)."""
        path_of = {module: path for path, module in self.modules.items()}
        imported: dict[str, set[str]] = defaultdict(set)  # path -> paths it imports
        for module, importers in self.importers.items():
            target = path_of.get(module)
            if target:
                for importer in importers:
                    imported[importer].add(target)
        conftests = [path for path in self.modules if is_conftest(path)]
        reach: dict[str, set[str]] = defaultdict(set)
        for test in test_files:
            start = {test} | {
                c
                for c in conftests
                if test.startswith(posixpath.dirname(c) + "/" if "/" in c else "")
            }
            seen, frontier = set(start), list(start)
            while frontier:
                for target in imported.get(frontier.pop(), ()):
                    if target not in seen:
                        seen.add(target)
                        frontier.append(target)
            for path in seen:
                reach[path].add(test)
        return {path: sorted(tests) for path, tests in sorted(reach.items())}


def tests_below(folder: str, test_files: set[str]) -> set[str]:
    prefix = folder + "/" if folder else ""
    return {path for path in test_files if path.startswith(prefix)}


def _targets(module: str, name: str) -> list[str]:
    """Modules an import statement executes: the module, its parent packages, and `module.name`
    when the name is a submodule."""
    if not module:
        return []
    parts = module.split(".")
    targets = [".".join(parts[: i + 1]) for i in range(len(parts))]
    if name and name != "*":
        targets.append(f"{module}.{name}")
    return targets
