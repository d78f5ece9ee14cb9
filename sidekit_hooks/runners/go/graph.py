"""Go's package graph for `select`, `tests-for` and `test --select`: which packages' tests reach a
file.

`go list -e -deps -test ./...` lists each package's test binary (`p.test`) with `Deps`, every
package it links (transitively). A file's package is reached by the tests of every package whose
test binary links it; a `_test.go` file by its own package's tests. A change to go.mod, go.sum or
go.work, or a graph that cannot be listed, selects every package (basis `all`).
"""

from __future__ import annotations

import os
import subprocess
from typing import Any

FORMAT = '{{.ImportPath}}\t{{.Dir}}\t{{.Standard}}\t{{join .Deps " "}}'
WHOLE = ("go.mod", "go.sum", "go.work", "go.work.sum")
LIST_TIMEOUT = 120.0


class Graph:
    """Package dirs by import path, and what each test binary links."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.dirs: dict[str, str] = {}  # import path -> project-relative dir
        self.linked: dict[
            str, set[str]
        ] = {}  # package dir whose tests these are -> import paths linked
        self.ok = self._list()

    def _list(self) -> bool:
        try:
            done = subprocess.run(
                ["go", "list", "-e", "-deps", "-test", "-f", FORMAT, "./..."],
                cwd=self.root,
                capture_output=True,
                text=True,
                timeout=LIST_TIMEOUT,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.TimeoutExpired):
            return False
        if done.returncode != 0:
            return False
        for line in done.stdout.splitlines():
            path, folder, standard, deps = (line.split("\t") + ["", "", "", ""])[:4]
            if standard == "true" or not folder.startswith(self.root):
                continue
            rel = os.path.relpath(folder, self.root).replace(os.sep, "/")
            if path.endswith(".test") and " " not in path:
                self.linked[rel] = {d.split(" [", 1)[0] for d in deps.split()}
            elif " [" not in path:
                self.dirs[path] = rel
        return True

    def reaching(self, files: list[str]) -> list[str]:
        """Package dirs whose tests reach any of `files` (project-relative)."""
        found: set[str] = set()
        for name in files:
            folder = os.path.dirname(name) or "."
            if name.endswith("_test.go"):
                found.add(folder)
                continue
            for path, rel in self.dirs.items():
                if rel == folder:
                    found |= {tested for tested, links in self.linked.items() if path in links}
        return sorted(found)

    def test_files(self, dirs: list[str]) -> list[str]:
        files: list[str] = []
        for rel in dirs:
            try:
                names = sorted(os.listdir(os.path.join(self.root, rel)))
            except OSError:
                continue
            files += [f"{rel}/{n}" if rel != "." else n for n in names if n.endswith("_test.go")]
        return files


def relative(root: str, path: str) -> str:
    """`path` (relative to the cwd or absolute) as a project-relative path; an error when
    outside."""
    from sidekit_hooks.core.errors import SidekitError

    full = os.path.abspath(
        path if os.path.isabs(path) or os.path.exists(path) else os.path.join(root, path)
    )
    rel = os.path.relpath(full, root).replace(os.sep, "/")
    if rel.startswith("../") or rel == "..":
        raise SidekitError(
            f"{path} is outside the project {root}", "pass a path inside the project"
        )
    return rel


def tests_for(root: str, path: str) -> dict[str, Any]:
    graph = Graph(root)
    if not graph.ok:
        return {
            "runner": "go",
            "basis": "all",
            "why": "go list could not list the packages: all tests",
        }
    dirs = graph.reaching([path])
    return {
        "runner": "go",
        "packages": len(dirs),
        "files": graph.test_files(dirs),
        "basis": "imports",
    }


def selection(root: str, base: str | None) -> tuple[list[str], dict[str, Any]]:
    """(package patterns to test, the answer's head) for the change against `base` (default
    HEAD)."""
    from sidekit_hooks.impact.changes import changed_files

    changed = [
        f for f in changed_files(root, base or "HEAD") if f.endswith(".go") or f.endswith(WHOLE)
    ]
    head: dict[str, Any] = {"runner": "go", "changed": len(changed)}
    if any(f.endswith(WHOLE) for f in changed):
        return ["./..."], dict(head, basis="all", why="go.mod or go.sum changed: every package")
    graph = Graph(root)
    if not graph.ok:
        return ["./..."], dict(
            head, basis="all", why="go list could not list the packages: every package"
        )
    dirs = graph.reaching(changed)
    patterns = ["./" + d if d != "." else "." for d in dirs]
    return patterns, dict(head, packages=len(dirs), files=patterns, basis="imports")
