"""The labelled scenario corpus: every `tests/scenarios/*.jsonl` case through the real hook runtime.

Format and scoring: `tests/scenariolib.py`. Targets (issue 4): precision >= 0.9 and recall >= 0.8 per
sidecar, and not one nudge on a clean session.
"""

from __future__ import annotations

import pytest
from scenariolib import CORPUS, Group, Outcome, Scores, describe, load_groups, play_group

GROUPS = load_groups()
PLAYED: dict[str, list[Outcome]] = {}


def outcomes_of(group: Group) -> list[Outcome]:
    if group.id not in PLAYED:
        PLAYED[group.id] = play_group(group)
    return PLAYED[group.id]


@pytest.mark.parametrize("group", GROUPS, ids=[g.id for g in GROUPS])
def test_scenario(group: Group, clean_env: dict[str, str]) -> None:
    failures = [describe(o) for o in outcomes_of(group) if not o.ok and not o.case.data.get("xfail")]
    assert failures == []


def test_corpus_is_big_enough_and_covers_clean_sessions() -> None:
    files = sorted(p.name for p in CORPUS.glob("*.jsonl"))
    assert {"scope.jsonl", "clean.jsonl"} <= set(files)
    assert sum(len(g.cases) for g in GROUPS) >= 60
    assert any(g.clean for g in GROUPS)


def test_targets_per_sidecar(clean_env: dict[str, str]) -> None:
    scores = Scores()
    for group in GROUPS:
        for outcome in outcomes_of(group):
            scores.add(outcome, group.clean)
    below = {
        name: (round(scores.precision(name), 3), round(scores.recall(name), 3))
        for name in scores.sidecars()
        if scores.precision(name) < 0.9 or scores.recall(name) < 0.8
    }
    assert below == {}
    assert scores.clean_nudges == 0


def test_the_real_entry_points_agree_with_the_in_process_runner(clean_env: dict[str, str]) -> None:
    group = next(g for g in GROUPS if g.id == "scope.jsonl:scope-no-issue")
    assert [(o.case.name, o.nudges) for o in play_group(group, in_process=False)] == [
        (o.case.name, o.nudges) for o in outcomes_of(group)]
