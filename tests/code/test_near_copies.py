"""Near copies (#18): the helper-reuse matcher on real helpers of packages from the index, rewritten
copies and near misses; the held-out set only measured (floors), the tuning set the rules were chosen on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nearcopies
import pytest
from nearcopy_heldout import COPIES as HELDOUT_COPIES
from nearcopy_heldout import HELDOUT, NEAR_MISSES
from nearcopy_heldout2 import HELDOUT2
from nearcopy_tuning import TUNING

from sidekit_hooks.code import function_index, functions, near_copies
from testing.hooks import context_of, payload

# Measured figures (floors here, so a better matcher passes). nearcopy_heldout.py, before #18 (shape rule
# only): precision 0.68 (13/19), recall 0.38 (13/34); with the final rules 0.87 (20/23), 0.59 (20/34). It was
# looked at while rules were chosen, so nearcopy_heldout2.py was written blind after them: before, nothing
# named (0/0, recall 0/17); after, precision 1.00 (13/13), recall 0.76 (13/17).
HELDOUT_PRECISION = 0.85
HELDOUT_RECALL = 0.55
BLIND_PRECISION = 1.0
BLIND_RECALL = 0.75
TUNING_RECALL = 0.8  # measured 0.83 (15/18), precision 1.00 (15/15)


@pytest.fixture(scope="module")
def packages() -> None:
    try:
        for package in nearcopies.PACKAGES:
            nearcopies.module_sources(package)
    except RuntimeError as exc:  # no package index reachable: nothing to measure against
        pytest.skip(str(exc))


def test_held_out_set_is_big_enough_and_apart_from_the_tuning_set() -> None:
    assert len(HELDOUT_COPIES) >= 30 and len(NEAR_MISSES) >= 30
    held_out = {c.package for c in HELDOUT}, {c.package for c in HELDOUT2}, {c.package for c in TUNING}
    assert all(
        a.isdisjoint(b) for a, b in ((held_out[0], held_out[1]), (held_out[0], held_out[2]), (held_out[1], held_out[2]))
    )
    assert all(c.helper == "" or c.helper in c.source or c.why for c in HELDOUT)


def test_every_copied_helper_exists_in_its_package(packages: None) -> None:
    for case in HELDOUT + HELDOUT2 + TUNING:
        files = nearcopies.project_index(case.package)["files"].values()
        names = {entry[0] for record in files for entry in record["f"]}
        assert not case.helper or case.helper in names, case


def test_held_out_precision_and_recall_floors(packages: None) -> None:
    found = nearcopies.score(HELDOUT)
    assert (found.positives, found.negatives) == (34, 32)
    assert found.precision >= HELDOUT_PRECISION and found.recall >= HELDOUT_RECALL, found.line()


def test_blind_held_out_set_has_no_wrong_nudge(packages: None) -> None:
    found = nearcopies.score(HELDOUT2)
    assert (found.positives, found.negatives) == (17, 17)
    assert found.precision >= BLIND_PRECISION and found.recall >= BLIND_RECALL, found.line()


def test_tuning_set_has_no_wrong_nudge(packages: None) -> None:
    found = nearcopies.score(TUNING)
    assert found.wrong == [] and found.recall >= TUNING_RECALL, found.line()


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [
        (
            ["'[^a-z0-9]+'", "'-'", "'-{2,}'", "1", "v1", "55296", "None", "'ascii'"],
            ["'[^a-z0-9]+'", "'-{2,}'", "55296"],
        ),
        (["b'\\\\x00'", "''", "0.001", "-1"], ["b'\\\\x00'", "0.001"]),
    ],
)
def test_literals_keep_the_distinctive_constants(tokens: list[str], expected: list[str]) -> None:
    assert near_copies.literals(tokens) == expected


def test_literal_agreement_and_disagreement() -> None:
    helper = ["'[^a-z0-9]+'", "'-{2,}'"]
    assert near_copies.literal_evidence(["'-{2,}'", "'[^a-z0-9]+'"], helper)  # order does not matter
    assert near_copies.literal_evidence(helper + ["'NFKD'"], helper)  # one step added: 2/3
    assert not near_copies.literal_evidence(["'[^a-z0-9]+'", "'_{2,}'"], helper)  # a replaced literal: 1/3
    assert near_copies.disagree(["'[^a-z0-9]+'", "'_{2,}'"], helper)
    assert not near_copies.disagree([], helper) and not near_copies.disagree(helper, [])  # nothing to compare


def test_inlinable_outside_names_are_functions_and_constants_not_classes() -> None:
    assert [n for n in ("make_func", "UNDERSCORE_RE", "User", "Mapping", "_is_none") if near_copies.inlinable(n)] == [
        "make_func",
        "UNDERSCORE_RE",
        "_is_none",
    ]


SLUG_FILE = '''"""Text helpers."""

import re


def slugify(value: str) -> str:
    value = value.strip().lower()
    value = re.sub(r"[^a-z0-9]+", "-", value)
    value = re.sub(r"-{2,}", "-", value)
    return value.strip("-")
'''
RESTRUCTURED_SLUG = '''def slug_for(title):
    """URL slug of a title."""
    if not title:
        return ""
    collapsed = re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", title.strip().lower()))
    return collapsed.strip("-")
'''
SNAKE_NAME = """def snake_name(value):
    value = value.strip().lower()
    value = re.sub(r"[^a-z0-9]+", "_", value)
    value = re.sub(r"_{2,}", "_", value)
    return value.strip("_")
"""


def added_function(project: Path, added: str) -> dict[str, Any]:
    """A PostToolUse payload for an Edit of app/views.py that appends `added` (Claude Code's shape)."""
    target, original = project / "app" / "views.py", "import re\n"
    new = "import re\n\n\n" + added
    target.write_text(new)
    lines = [" import re"] + [f"+{line}" for line in new.splitlines()[1:]]
    sent: dict[str, Any] = payload(
        "PostToolUse",
        project,
        tool_name="Edit",
        tool_use_id="toolu_1",
        tool_input={"file_path": str(target), "old_string": "import re", "new_string": new.rstrip("\n")},
        tool_response={
            "filePath": str(target),
            "oldString": "import re",
            "newString": new.rstrip("\n"),
            "originalFile": original,
            "userModified": False,
            "replaceAll": False,
            "structuredPatch": [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": len(lines), "lines": lines}],
        },
    )
    return sent


@pytest.mark.parametrize(
    ("added", "said"),
    [
        (
            RESTRUCTURED_SLUG,
            "[sidecar:tools] utils/text.py:6 slugify(value) already does this; reuse it instead of slug_for().",
        ),
        (SNAKE_NAME, ""),  # the shape of slugify, other literals: another behaviour, no nudge
    ],
)
def test_hook_on_a_restructured_copy_and_on_a_look_alike(project: Path, run_hook: Any, added: str, said: str) -> None:
    (project / "utils").mkdir()
    (project / "utils" / "text.py").write_text(SLUG_FILE)
    (project / "app").mkdir()
    (project / "app" / "views.py").write_text("import re\n")
    assert function_index.main(["build", str(project)]) == 0
    done = run_hook("PostToolUse", added_function(project, added))
    assert done.returncode == 0 and done.stderr == ""
    assert context_of(done.stdout) == said


def test_a_swapped_method_is_another_behaviour_an_added_one_is_not() -> None:
    lower = ["Return", "Call", "v1", ".replace", "'-'", "'_'", ".lower"]
    assert near_copies.replaced_attribute(["Return", "Call", "v1", ".replace", ".upper"], lower)
    assert not near_copies.replaced_attribute(lower + [".strip"], lower)  # a normalisation step added
    assert not near_copies.replaced_attribute(lower[:-1], lower)  # one left out


def test_two_look_alike_helpers_nearly_tied_are_both_left_unnamed() -> None:
    def match(name: str) -> functions.Match:
        return functions.Match("lib.py", 1, f"{name}(x)", name, 0.9, 0.5)

    assert functions.unambiguous([(1.80, match("get_in")), (1.78, match("has_path"))]) is None
    found = functions.unambiguous([(1.70, match("has_path")), (1.80, match("get_in")), (1.79, match("get_in"))])
    assert found is not None and found.name == "get_in"  # the same helper twice (two files) is no rivalry
    assert functions.unambiguous([]) is None
