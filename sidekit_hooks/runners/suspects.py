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
    from collections.abc import Hashable
    from typing import TypeVar

    Node = TypeVar("Node", bound=Hashable)


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
