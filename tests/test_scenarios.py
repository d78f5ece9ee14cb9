"""The labelled scenario corpus: every `tests/scenarios/*.jsonl` case through the real hook runtime.

Format and scoring: `tests/testing/scenarios.py`. A case that misses fails here unless it is a known
miss (`"xfail": "why (#N)"`); known misses are counted in the scores like any other case, and one
that starts passing is reported so its mark goes. The per-sidecar targets (precision >= 0.9, recall
>= 0.8, no nudge on a clean session) are rows of the bench (`bench/rows_scenarios.py`), measured,
not forced: here we check that the scores are computed right.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.cli.playback.steps import sidecar_of
from testing.scenarios import (
    CORPUS,
    Case,
    Group,
    Outcome,
    Scores,
    describe,
    figure,
    load_groups,
    play_group,
    played,
)

GROUPS = load_groups()
PLAYED: dict[str, list[Outcome]] = {}


def outcomes_of(group: Group) -> list[Outcome]:
    if group.id not in PLAYED:
        PLAYED[group.id] = played(group)
    return PLAYED[group.id]


def scores_of(groups: list[Group]) -> tuple[Scores, list[Outcome]]:
    scores, played = Scores(), []
    for group in groups:
        for outcome in outcomes_of(group) if group in GROUPS else play_group(group):
            scores.add(outcome, group.clean)
            played.append(outcome)
    return scores, played


@pytest.mark.parametrize("group", GROUPS, ids=[g.id for g in GROUPS])
def test_scenario(group: Group, clean_env: dict[str, str]) -> None:
    failures = [describe(o) for o in outcomes_of(group) if not o.ok and not o.case.xfail]
    assert failures == []


KNOWN = [(g, c) for g in GROUPS for c in g.cases if c.xfail]


@pytest.mark.parametrize(("group", "case"), KNOWN, ids=[f"{g.file}:{c.name}" for g, c in KNOWN])
def test_known_miss(group: Group, case: Case, clean_env: dict[str, str]) -> None:
    """Shown as xfailed in every run; a known miss that passes now (another change fixed it) fails
    here until its xfail mark is removed (the case stays)."""
    outcome = next(o for o in outcomes_of(group) if o.case is case)
    assert not outcome.xpassed, describe(outcome)
    pytest.xfail(case.xfail)


def test_every_known_miss_says_why_and_names_its_issue() -> None:
    reasons = {f"{c.file}:{c.line}": c.xfail for g in GROUPS for c in g.cases if "xfail" in c.data}
    assert reasons, "the corpus carries its known misses"
    assert [where for where, why in reasons.items() if not re.search(r"\S.*\(#\d+\)", why)] == []


def test_corpus_is_big_enough_and_covers_clean_sessions_and_held_out_tools() -> None:
    files = sorted(p.name for p in CORPUS.glob("*.jsonl"))
    assert {"scope.jsonl", "clean.jsonl", "tools-heldout.jsonl"} <= set(files)
    assert sum(len(g.cases) for g in GROUPS) >= 60
    held_out = [c for g in GROUPS for c in g.cases if c.held_out]
    assert (
        sum(1 for c in held_out if c.expect) >= 8 and sum(1 for c in held_out if not c.expect) >= 8
    )
    assert {w["sidecar"] for c in held_out for w in c.expect} == {"tools"}


def test_held_out_tools_are_scored_apart(clean_env: dict[str, str]) -> None:
    scores, played = scores_of([g for g in GROUPS if g.file == "tools-heldout.jsonl"])
    assert scores.sidecars() == ["tools (held out)"]
    wanted = sum(len(o.case.expect) for o in played)
    assert scores.tp["tools (held out)"] + scores.fn["tools (held out)"] == wanted


def test_clean_sessions_arm_every_sidecar() -> None:
    """Scope, a team pack, learned conventions, a red test cache and a function index, in every
    one."""
    clean = [g for g in GROUPS if g.clean]
    assert len(clean) >= 3
    for group in clean:
        files: dict[str, str] = {}
        for case in group.cases:
            files.update(case.data.get("files") or {})
        first = group.cases[0].data
        packs = [
            name for name in files if name.startswith("sidecar_rules/") and name.endswith(".toml")
        ]
        status = json.loads(files.get(".sidekit/status.json", "{}").replace("${NOW}", "0"))
        assert first.get("scope"), group.id
        assert "sidecar_rules/conventions.toml" in packs and len(packs) >= 2, group.id
        assert status.get("counts", {}).get("failed", 0) > 0, group.id
        assert json.loads(files.get(".sidekit/index/functions.json", "{}")).get("files"), group.id


# one step per sidecar that must speak in the clean sessions' project: their silence means something
CONTROLS = [
    (
        "scope",
        "Edit",
        {
            "file_path": "tests/test_cart.py",
            "old_string": "import pytest",
            "new_string": "import pytest  # x",
        },
    ),
    (
        "specs",
        "Edit",
        {
            "file_path": "shop/money.py",
            "old_string": '    return f"{cents // 100}',
            "new_string": '    cents = round(cents)\n    return f"{cents // 100}',
        },
    ),
    (
        "conventions",
        "Write",
        {
            "file_path": "shop/items.py",
            "content": "def getItemName(item: dict[str, str]) -> str:\n    return item['name']\n",
        },
    ),
    (
        "tests",
        "Edit",
        {
            "file_path": "shop/shipping.py",
            "old_string": "order_cents > FREE",
            "new_string": "order_cents >= FREE",
        },
    ),
    (
        "tools",
        "Write",
        {
            "file_path": "shop/forms.py",
            "content": "def to_int(value: str, fallback: int = 0) -> int:\n"
            "    try:\n        return int(value)\n    except ValueError:\n        return "
            "fallback\n",
        },
    ),
]


@pytest.mark.parametrize(("sidecar", "tool", "tool_input"), CONTROLS, ids=[c[0] for c in CONTROLS])
def test_the_clean_sessions_armed_sidecars_do_speak(
    sidecar: str, tool: str, tool_input: dict[str, str], clean_env: dict[str, str]
) -> None:
    first = next(g for g in GROUPS if g.id == "clean.jsonl:clean-other-tools").cases[0].data
    step = {
        "name": sidecar,
        "files": first["files"],
        "scope": first["scope"],
        "tool": tool,
        "input": tool_input,
    }
    [outcome] = play_group(Group("control.jsonl", sidecar, [Case("control.jsonl", 1, step)]))
    assert sidecar in [sidecar_of(line) for line in outcome.nudges]


def test_real_corpus_counts_its_known_misses(clean_env: dict[str, str]) -> None:
    """Every false positive and negative in the scores comes from a known miss, and every miss is in
    them."""
    scores, played = scores_of(GROUPS)
    known = [o for o in played if o.case.xfail]
    misses = sum(len(o.missing) + len(o.unexpected) for o in known)
    assert misses > 0
    assert sum(scores.fn.values()) + sum(scores.fp.values()) == misses
    assert sum(scores.known.values()) >= len(known)
    assert scores.events == len(played) == sum(len(g.cases) for g in GROUPS)


SYNTHETIC: dict[
    str, list[dict[str, Any]]
] = {  # file -> cases: every count below follows from what the scope sidecar says about src/**
    "synthetic.jsonl": [
        {
            "name": "tp",
            "session": "s",
            "files": {"src/a.py": "A = 1\n", "lib/a.py": "A = 1\n", "lib/b.py": "B = 1\n"},
            "scope": {"issue": "T-1", "allow": ["src/**"]},
            "tool": "Edit",
            "input": {"file_path": "lib/a.py", "old_string": "A = 1", "new_string": "A = 2"},
            "expect": [{"sidecar": "scope", "contains": "lib/a.py is outside"}],
        },
        {
            "name": "fp",
            "session": "s",
            "tool": "Edit",
            "input": {"file_path": "lib/b.py", "old_string": "B = 1", "new_string": "B = 2"},
            "expect": [],
        },
        {
            "name": "fn",
            "session": "s",
            "tool": "Edit",
            "input": {"file_path": "src/a.py", "old_string": "A = 1", "new_string": "A = 2"},
            "expect": ["scope"],
        },
        {
            "name": "known-miss",
            "session": "s",
            "tool": "Write",
            "input": {"file_path": "src/d.py", "content": "D = 1\n"},
            "expect": ["scope"],
            "xfail": "the scope sidecar is silent inside its globs (#0)",
        },
        {
            "name": "xpass",
            "session": "s",
            "tool": "Write",
            "input": {"file_path": "src/e.py", "content": "E = 1\n"},
            "expect": [],
            "xfail": "thought to fire (#0)",
        },
        {
            "name": "tests-said-nothing",
            "session": "s",
            "tool": "Write",
            "input": {"file_path": "src/f.py", "content": "F = 1\n"},
            "expect": ["tests"],
        },
    ],
    "synthetic-heldout.jsonl": [
        {
            "name": "held-tp",
            "scope": ["--allow", "src/**", "--allow", "docs/**"],
            "tool": "Write",
            "input": {"file_path": "lib/h.py", "content": "H = 1\n"},
            "expect": [{"sidecar": "scope", "contains": "lib/h.py is outside this task's scope;"}],
        },
    ],
    "zz.jsonl": [
        {
            "name": "edit",
            "session": "clean-x",
            "scope": {"allow": ["src/**"]},
            "tool": "Write",
            "input": {"file_path": "lib/z.py", "content": "Z = 1\n"},
            "expect": [],
            "xfail": "a clean session that is not (#0)",
        },
    ],
}


def test_scores_of_a_synthetic_corpus(tmp_path: Path, clean_env: dict[str, str]) -> None:
    for name, cases in SYNTHETIC.items():
        (tmp_path / name).write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    scores, played = scores_of(load_groups(tmp_path))
    assert [(o.case.name, o.ok) for o in played] == [
        ("held-tp", True),
        ("tp", True),
        ("fp", False),
        ("fn", False),
        ("known-miss", False),
        ("xpass", True),
        ("tests-said-nothing", False),
        ("edit", False),
    ]
    assert (dict(scores.tp), dict(scores.fp), dict(scores.fn)) == (
        {"scope": 1, "scope (held out)": 1},
        {"scope": 2},
        {"scope": 2, "tests": 1},
    )
    assert scores.sidecars() == ["scope", "scope (held out)", "tests"]
    assert (scores.precision("scope"), scores.recall("scope")) == (1 / 3, 1 / 3)
    assert (scores.precision("scope (held out)"), scores.recall("scope (held out)")) == (1.0, 1.0)
    assert (scores.precision("tests"), scores.recall("tests")) == (
        None,
        0.0,
    )  # it said nothing: no precision
    assert (figure(scores.precision("tests")), figure(scores.recall("scope"))) == ("n/a", "0.33")
    assert [scores.meets(name) for name in scores.sidecars()] == [False, True, False]
    assert scores.pooled() == (2, 2, 3)
    assert dict(scores.known) == {"scope": 2}  # the xpassed case said nothing and wanted nothing
    assert [line.split(" ", 1)[1] for line in scores.xpassed] == [
        "xpass; passes now: remove its xfail (thought to fire (#0))"
    ]
    assert (scores.events, scores.clean_events, dict(scores.clean_nudges), scores.clean_known) == (
        8,
        1,
        {"scope": 1},
        1,
    )


def test_a_sidecar_wanted_nowhere_has_no_recall() -> None:
    scores = Scores()
    scores.fp["tools"] += 2
    assert (scores.precision("tools"), scores.recall("tools"), scores.meets("tools")) == (
        0.0,
        None,
        False,
    )
    assert (scores.precision("nobody"), scores.recall("nobody")) == (None, None)


def test_the_real_entry_points_agree_with_the_in_process_runner(clean_env: dict[str, str]) -> None:
    group = next(g for g in GROUPS if g.id == "scope.jsonl:scope-no-issue")
    assert [(o.case.name, o.nudges) for o in play_group(group, in_process=False)] == [
        (o.case.name, o.nudges) for o in outcomes_of(group)
    ]
