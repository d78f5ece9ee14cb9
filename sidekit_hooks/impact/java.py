"""Java's graph for `select` and `tests-for` (runner `junit`: Maven or Gradle): which test classes
reach a file through imports and packages, directly or not.

A file depends on what it imports (`import a.b.C`, `import static a.b.C.m`, a nested `a.b.C.Inner`),
every file of a package it imports with `a.b.*`, and every file of its own package (a class sees its
package's classes without an import, so each is a possible use). A class is named by its `package`
line and its file name, wherever Maven or Gradle keep it (`src/main/java`, `src/test/java`, any
module). Test files are those Surefire and Gradle run by default: under `src/test/` or named
`*Test`, `Test*`, `*Tests`, `*TestCase`, `*IT`. A changed build file (pom.xml, build.gradle,
settings.gradle) or resource selects every test file.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from sidekit_hooks.core import safepath
from sidekit_hooks.impact import by_graph

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.index import Index

PACKAGE_LINE = re.compile(rb"^\s*package\s+([\w.]+)\s*;", re.M)
TEST_NAMES = re.compile(r"(?:^Test\w*|\w*(?:Test|Tests|TestCase|IT))\.java$")
HEAD_BYTES = 64 * 1024  # the package line is at the top
INERT_SUFFIXES = (".md", ".txt", ".png", ".jpg", ".gif", ".svg", ".adoc", ".html")
INERT_NAMES = frozenset(
    {".gitignore", ".gitattributes", "LICENSE", "NOTICE", "CHANGELOG", ".editorconfig"}
)


def is_test_file(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return path.endswith(".java") and ("/src/test/" in f"/{path}" or bool(TEST_NAMES.match(name)))


class JavaGraph:
    def __init__(self, packages: dict[str, str], imports: list[tuple[str, str]]) -> None:
        self.package_of = packages  # path -> package ("" for the default package)
        self.by_class: dict[str, str] = {}  # a.b.C -> path
        self.in_package: dict[str, set[str]] = defaultdict(set)
        for path, package in packages.items():
            stem = path.rsplit("/", 1)[-1][: -len(".java")]
            self.by_class[f"{package}.{stem}" if package else stem] = path
            self.in_package[package].add(path)
        self.importers: dict[str, set[str]] = defaultdict(set)  # path -> paths depending on it
        for path, package in packages.items():
            for other in self.in_package[package] - {path}:
                self.importers[other].add(path)
        for importer, module in imports:
            for target in self.resolve(module):
                if target != importer:
                    self.importers[target].add(importer)

    @classmethod
    def of(cls, index: Index) -> JavaGraph:
        packages: dict[str, str] = {}
        for path in index.modules("java"):
            head = safepath.read_project_file(index.project, path, HEAD_BYTES) or b""
            found = PACKAGE_LINE.search(head)
            packages[path] = found.group(1).decode("ascii", "replace") if found else ""
        return cls(packages, [(path, module) for path, module, _ in index.imports("java")])

    def resolve(self, module: str) -> set[str]:
        """The files an import names: a class (or a member or nested class of one), or a package's
        files."""
        dotted = module.removeprefix("static ").strip()
        if dotted.endswith(".*"):
            owner = dotted[:-2]
            return set(self.in_package.get(owner, set())) or (
                {self.by_class[owner]} if owner in self.by_class else set()
            )
        parts = dotted.split(".")
        while parts:  # a.b.C.member or a.b.C.Inner: the longest prefix that is a class
            found = self.by_class.get(".".join(parts))
            if found is not None:
                return {found}
            parts.pop()
        return set()

    def test_files(self) -> set[str]:
        return {path for path in self.package_of if is_test_file(path)}

    def tests_reaching(self, paths: set[str]) -> set[str]:
        return {path for path in by_graph.reaching(self.importers, paths) if is_test_file(path)}


def _is_java(path: str) -> bool:
    return path.endswith(".java")


def _outside(path: str) -> bool:
    return not _is_java(path) and not by_graph.inert(path, INERT_NAMES, INERT_SUFFIXES)


def tests_for(project: str, index: Index, path: str, runner: str) -> dict[str, Any]:
    return by_graph.graph_tests_for(JavaGraph.of(index), path, runner, is_test_file)


def selection(project: str, index: Index, changed: list[str], runner: str) -> dict[str, Any]:
    return by_graph.graph_selection(
        project,
        JavaGraph.of(index),
        changed,
        runner,
        is_source=_is_java,
        is_test=is_test_file,
        outside=_outside,
    )
