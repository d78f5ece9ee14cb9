"""Rust's graph for `select` and `tests-for` (runner `cargo`): the crate's module tree, its
integration tests, and the workspace crates that depend on it.

Inside a crate a module file (`src/a/b.rs` or `src/a/b/mod.rs`, module `a::b`) reaches the files
that `use crate::a::b...`, its parent module (which declares it and may re-export it; the crate root
for a top module), and its child modules (which may `use super::*`; not the crate root's, which
reach it as `crate::`); a `use crate::Name` of a root item reaches the crate root. Unit tests are
the files holding `#[test]` or `#[cfg(test)]`; every integration test (`tests/*.rs`,
`tests/*/main.rs`) uses the crate's public API, so each is reached by any change to the crate's
`src/`. A workspace crate that depends on a changed crate (`[dependencies]`, `[dev-dependencies]`)
has all its tests reached. A changed Cargo.toml, Cargo.lock or build.rs selects every test file.
"""

from __future__ import annotations

import os
import posixpath
import tomllib
from collections import defaultdict
from typing import Any

from sidekit_hooks.core import safepath
from sidekit_hooks.impact import by_graph

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.index import Index

WHOLE = ("Cargo.toml", "Cargo.lock", "build.rs", "rust-toolchain", "rust-toolchain.toml")
INERT_SUFFIXES = (".md", ".txt", ".png", ".svg", ".html")
INERT_NAMES = frozenset(
    {".gitignore", ".gitattributes", "LICENSE", "LICENSE-MIT", "LICENSE-APACHE", "CHANGELOG"}
)
MAX_BYTES = 1024 * 1024
DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")


class RustGraph:
    def __init__(self, project: str, files: list[str], imports: list[tuple[str, str]]) -> None:
        self.project = project
        self.crates = _crates(project)  # crate folder ("" for the root) -> (name, dependency names)
        self.crate_of = {path: self._crate_of(path) for path in files}
        self.module_file: dict[tuple[str, str], str] = {}  # (crate, "a::b") -> file
        for path in files:
            module = _module_path(path, self.crate_of[path])
            if module is not None:
                self.module_file.setdefault((self.crate_of[path], module), path)
        self.files = files
        self.tests = {path for path in files if self._is_test(path)}
        self.importers: dict[str, set[str]] = defaultdict(set)
        for (crate, module), path in self.module_file.items():
            parent = module.rpartition("::")[0] if "::" in module else ""
            if module:
                parent_file = self.module_file.get((crate, parent))
                if parent_file is not None:
                    self.importers[path].add(
                        parent_file
                    )  # the parent declares (and may re-export) it
                    if parent:  # a child may `use super::*` (the root's children name it `crate::`)
                        self.importers[parent_file].add(path)
        for importer, written in imports:
            if _module_path(importer, self.crate_of.get(importer, "")) is None:
                continue  # tests/x.rs is a crate of its own: its `crate::` is not src/'s
            for used in expand(written):
                if used.startswith("crate::"):
                    target = self._used_file(
                        self.crate_of.get(importer, ""), used[len("crate::") :]
                    )
                    if target is not None and target != importer:
                        self.importers[target].add(importer)

    @classmethod
    def of(cls, index: Index) -> RustGraph:
        files = sorted(index.modules("rust"))
        return cls(
            index.project, files, [(path, module) for path, module, _ in index.imports("rust")]
        )

    def _crate_of(self, path: str) -> str:
        folder = posixpath.dirname(path)
        while True:
            if folder in self.crates:
                return folder
            if not folder:
                return ""
            folder = posixpath.dirname(folder)

    def _used_file(self, crate: str, used: str) -> str | None:
        parts = used.split("::")
        while parts:
            found = self.module_file.get((crate, "::".join(parts)))
            if found is not None:
                return found
            parts.pop()
        return self.module_file.get((crate, ""))  # a root item: the crate root

    def _is_test(self, path: str) -> bool:
        inside = path[len(self.crate_of[path]) + 1 :] if self.crate_of[path] else path
        if inside.startswith("tests/"):
            return True
        data = safepath.read_project_file(self.project, path, MAX_BYTES) or b""
        return b"#[test]" in data or b"#[cfg(test)]" in data

    def _integration(self, crate: str) -> set[str]:
        prefix = crate + "/tests/" if crate else "tests/"
        return {path for path in self.tests if path.startswith(prefix)}

    def _dependents(self, crate: str) -> set[str]:
        """Workspace crates that depend on `crate`, directly or not."""
        name = self.crates.get(crate, ("", set()))[0]
        found: set[str] = set()
        frontier = [name] if name else []
        while frontier:
            wanted = frontier.pop()
            for folder, (other, deps) in self.crates.items():
                if wanted in deps and folder not in found and folder != crate:
                    found.add(folder)
                    frontier.append(other)
        return found

    def test_files(self) -> set[str]:
        return set(self.tests)

    def tests_reaching(self, paths: set[str]) -> set[str]:
        reached = {path for path in by_graph.reaching(self.importers, paths) if path in self.tests}
        for crate in {self.crate_of.get(path, "") for path in paths}:
            reached |= self._integration(crate)
            for other in self._dependents(crate):
                reached |= {path for path in self.tests if self.crate_of[path] == other}
        return reached


def expand(used: str) -> list[str]:
    """`crate::{a::b, c::{d, e}}` -> `crate::a::b`, `crate::c::d`, `crate::c::e` (a `use` tree's
    paths)."""
    used = "".join(used.split())
    start = used.find("{")
    if start < 0:
        return [used.removesuffix("::self")] if used else []
    depth, end, items, last = 0, len(used), [], start + 1
    for at in range(start, len(used)):
        if used[at] == "{":
            depth += 1
        elif used[at] == "}":
            depth -= 1
            if depth == 0:
                end = at
                break
        elif used[at] == "," and depth == 1:
            items.append(used[last:at])
            last = at + 1
    items.append(used[last:end])
    prefix, rest = used[:start], used[end + 1 :]
    return [path for item in items if item for path in expand(prefix + item + rest)]


def _module_path(path: str, crate: str) -> str | None:
    """`src/a/b.rs` -> "a::b", `src/lib.rs` -> "" (the crate root); None outside `src/`."""
    inside = path[len(crate) + 1 :] if crate else path
    if not inside.startswith("src/"):
        return None
    parts = inside[len("src/") : -len(".rs")].split("/")
    if parts[-1] == "mod":
        parts.pop()
    if parts in (["lib"], ["main"]):
        return ""
    return "::".join(parts)


def _crates(project: str) -> dict[str, tuple[str, set[str]]]:
    """Crate folder -> (package name, the names it depends on), for every Cargo.toml outside
    target/."""
    found: dict[str, tuple[str, set[str]]] = {}
    for folder, dirs, names in os.walk(project):
        dirs[:] = sorted(
            d for d in dirs if d not in ("target", "node_modules") and not d.startswith(".")
        )
        if "Cargo.toml" not in names:
            continue
        rel = os.path.relpath(folder, project).replace(os.sep, "/")
        rel = "" if rel == "." else rel
        data = safepath.read_project_file(
            project, f"{rel}/Cargo.toml" if rel else "Cargo.toml", MAX_BYTES
        )
        try:
            manifest = tomllib.loads((data or b"").decode("utf-8", "replace"))
        except tomllib.TOMLDecodeError:
            manifest = {}
        package = manifest.get("package")
        name = package.get("name") if isinstance(package, dict) else None
        deps: set[str] = set()
        for table in DEPENDENCY_TABLES:
            listed = manifest.get(table)
            if isinstance(listed, dict):
                deps |= {str(key).replace("-", "_") for key in listed}
        found[rel] = (str(name).replace("-", "_") if isinstance(name, str) else "", deps)
    return found


def _is_rust(path: str) -> bool:
    return path.endswith(".rs")


def _outside(path: str) -> bool:
    whole = path.rsplit("/", 1)[-1] in WHOLE
    return whole or (not _is_rust(path) and not by_graph.inert(path, INERT_NAMES, INERT_SUFFIXES))


def tests_for(project: str, index: Index, path: str, runner: str) -> dict[str, Any]:
    graph = RustGraph.of(index)
    files = sorted(graph.tests_reaching({path}) | ({path} if path in graph.tests else set()))
    return {"runner": runner, "files": files, "basis": "imports"}


def selection(project: str, index: Index, changed: list[str], runner: str) -> dict[str, Any]:
    graph = RustGraph.of(index)
    return by_graph.graph_selection(
        project,
        graph,
        changed,
        runner,
        is_source=_is_rust,
        is_test=graph.tests.__contains__,
        outside=_outside,
    )
