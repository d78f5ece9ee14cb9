"""Selection by a language's own graph (TS/JS imports: impact.scripts; Java packages: impact.java; Rust
modules: impact.rust): what a runner's adapter answers `sidekit tests-for` and `sidekit select` with.

A graph module has `tests_for(project, index, path, runner)` and `selection(project, index, changed,
runner)`, each returning an answer's head whose `files` are the test files to run.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any


def tests_for(project: str, path: str, graph: ModuleType, suffixes: tuple[str, ...], runner: str) -> dict[str, Any]:
    """The test files a change to `path` (relative to the cwd, or absolute) can affect."""
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.impact.affected import workspace_path

    with Index.open(project) as index:
        head: dict[str, Any] = graph.tests_for(project, index, workspace_path(project, path, suffixes), runner)
    return head


def selection(project: str, base: str | None, graph: ModuleType, runner: str) -> dict[str, Any]:
    """The test files the working tree's changes (or those since `base`) need."""
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.core.errors import SidekitError
    from sidekit_hooks.impact import changes

    if base and not changes.has_revision(project, base):
        raise SidekitError(f"--base {base} is not a commit of a git repository here", "git log --oneline -5")
    with Index.open(project) as index:
        head: dict[str, Any] = graph.selection(project, index, changes.changed_files(project, base or "HEAD"), runner)
    return head
