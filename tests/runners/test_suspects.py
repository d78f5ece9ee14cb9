"""The function a run's stackless failures share, by the run's own verdicts (runners/suspects.py)."""

from __future__ import annotations

from sidekit_hooks.runners import suspects


def test_the_node_every_failing_test_reaches_takes_them_all() -> None:
    failing = {"t1": {"slug": 0, "join": 1}, "t2": {"snake": 0, "join": 1}}
    assert suspects.assign(failing, [{"shout": 0}], 2) == {"t1": "join", "t2": "join"}


def test_a_node_passing_tests_reach_more_often_is_less_suspicious() -> None:
    failing = {"t1": {"slug": 0, "join": 1}, "t2": {"snake": 0, "join": 1}}
    passing = [{"join": 0}, {"join": 0}, {"join": 0}]  # join: 2/sqrt(2*5) < slug: 1/sqrt(2*1)
    assert suspects.assign(failing, passing, 2) == {"t1": "slug", "t2": "snake"}


def test_of_a_caller_and_its_callee_that_no_verdict_tells_apart_the_caller_is_named() -> None:
    failing = {"t1": {"print": 0, "quote": 1}, "t2": {"print": 0, "quote": 1}}
    assert suspects.most_suspicious(list(failing.values()), [], 2) == "print"


def test_a_failure_that_reaches_nothing_is_left_where_it_is() -> None:
    assert suspects.assign({"t1": {}, "t2": {"f": 0}}, [], 2) == {"t2": "f"}
