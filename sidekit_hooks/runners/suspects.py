"""Which function of the code under test a run's stackless failures are about, by the run's own
verdicts.

Every runner whose failing asserts stop in test code (JUnit's `assertEquals`, pytest's `assert`)
knows, from a static call graph of the project (runners/junit/subject.py, runners/pytest/exercised.py),
which functions of the code under test each test reaches: a failing test up to its failing line, a
passing test in its whole body, each node with its distance in calls (a `{node: depth}` per test). One broken function is reached
by every test it fails and by few that pass: the most suspicious node (Ochiai: failing tests that
reach it, over the root of all failing tests times all tests that reach it) takes every failure that
reaches it. Of equals (a caller and the callee every test reaching one reaches too: the verdicts
cannot tell them apart) the one nearest the tests, where their paths meet first. Then the next, for
the failures left, until none reaches a node.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Iterable
    from typing import TypeVar

    Node = TypeVar("Node", bound=Hashable)


def reach(
    start: list[Node], callees: Callable[[Node], Iterable[Node]], depth: int
) -> dict[Node, int]:
    """Each node reachable from `start` through `callees` (breadth first, at most `depth` calls),
    with its distance in calls."""
    seen = {node: 0 for node in start}
    frontier = list(dict.fromkeys(start))
    for distance in range(1, depth + 1):
        following: list[Node] = []
        for node in frontier:
            for target in callees(node):
                if target not in seen:
                    seen[target] = distance
                    following.append(target)
        frontier = following
    return seen


def assign(
    failing: dict[str, dict[Node, int]], passing: list[dict[Node, int]], total_failed: int
) -> dict[str, Node]:
    """Each failing test (of `failing`) that reaches a suspect -> its node, most suspicious
    first."""
    placed: dict[str, Node] = {}
    left = {test: reach for test, reach in failing.items() if reach}
    while left:
        node = most_suspicious(list(left.values()), passing, total_failed)
        if node is None:
            break
        for test in sorted(left):
            if node in left[test]:
                placed[test] = node
                del left[test]
    return placed


def most_suspicious(
    failing: list[dict[Node, int]], passing: list[dict[Node, int]], total_failed: int
) -> Node | None:
    """The node the most failing tests reach and the fewest passing ones (Ochiai), of equals the
    nearest to the tests."""
    depths: dict[Node, list[int]] = {}
    for reach in failing:
        for node, depth in reach.items():
            depths.setdefault(node, []).append(depth)
    if not depths:
        return None
    passed: dict[Node, int] = {}
    for reach in passing:
        for node in reach:
            if node in depths:
                passed[node] = passed.get(node, 0) + 1

    def score(node: Node) -> tuple[float, float, str]:
        found = depths[node]
        ochiai = len(found) / (max(total_failed, 1) * (len(found) + passed.get(node, 0))) ** 0.5
        return (round(ochiai, 9), -sum(found) / len(found), str(node))

    return max(depths, key=score)


def read_sources(
    root: str,
    suffix: str,
    skip: frozenset[str],
    deadline: float,
    limits: tuple[int, int, int],
) -> list[tuple[str, str]] | None:
    """The project's `suffix` files as (project-relative path, text), for a call graph: regular
    files read without following a link, hidden and `skip` folders left out. `limits`: (files,
    bytes of one file, bytes in all); at most 4x as many entries are walked as files kept. None
    when together they pass the bytes in all, or the walk passes `deadline` (time.monotonic)."""
    import os
    import time

    from sidekit_hooks.core import safepath, workspace

    max_files, max_file_bytes, max_total_bytes = limits
    sources: list[tuple[str, str]] = []
    budget = max_total_bytes

    def descend(name: str) -> bool:
        return name not in skip and not name.startswith(".")

    for count, entry in enumerate(workspace.walk(root, descend)):
        if count >= max_files * 4 or len(sources) >= max_files:
            break
        if not entry.name.endswith(suffix) or entry.is_dir(follow_symlinks=False):
            continue
        if time.monotonic() > deadline:
            return None
        try:
            data = safepath.read_inside(root, entry.path, max_file_bytes)
        except (OSError, ValueError):
            continue
        budget -= len(data)
        if budget < 0:
            return None
        rel = os.path.relpath(entry.path, root).replace(os.sep, "/")
        sources.append((rel, data.decode("utf-8", "replace")))
    return sources
