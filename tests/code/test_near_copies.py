"""Near copies (#18): the helper-reuse matcher on real helpers of packages from the index, rewritten
copies and near misses; the held-out set only measured (floors), the tuning set the rules were
chosen on."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import nearcopies
import pytest
from nearcopy_heldout import COPIES as HELDOUT_COPIES
from nearcopy_heldout import HELDOUT, NEAR_MISSES
from nearcopy_heldout2 import HELDOUT2
from nearcopy_heldout3 import COPIES as HELDOUT3_COPIES
from nearcopy_heldout3 import NEAR_MISSES as HELDOUT3_NEAR_MISSES
from nearcopy_heldout4 import COPIES as HELDOUT4_COPIES
from nearcopy_heldout4 import NEAR_MISSES as HELDOUT4_NEAR_MISSES
from nearcopy_mytuning import MYTUNING
from nearcopy_restructured import COPIES as RESTRUCTURED_COPIES
from nearcopy_restructured import NEAR_MISSES as RESTRUCTURED_NEAR_MISSES
from nearcopy_restructured import RESTRUCTURED
from nearcopy_rewrites_tuning import REWRITES_TUNING
from nearcopy_short import SHORT
from nearcopy_tuning import TUNING

from sidekit_hooks.code import function_index, functions, near_copies, rewrites
from sidekit_hooks.detectors.tools import reinvention
from testing import requires
from testing.hooks import context_of, edited, payload

# Measured figures (floors here, so a better matcher passes). nearcopy_heldout.py, before #18 (shape
# rule only): precision 0.68 (13/19), recall 0.38 (13/34); with the #18 rules 0.87 (20/23), 0.59
# (20/34); with the #35 behaviour rule and vetoes 1.00 (23/23), 0.68 (23/34); with #35's second pass
# 1.00 (27/27), 0.79 (27/34). It was looked at while #18's rules were chosen, so
# nearcopy_heldout2.py was written blind after them: before, nothing named (0/0, recall 0/17); after
# #18, precision 1.00 (13/13), recall 0.76 (13/17); after #35, 1.00 (14/14), 0.82 (14/17); after
# #35's second pass 1.00 (15/15), 0.88 (15/17). Both were looked at while #35's rules were chosen
# (with nearcopy_rewrites_tuning.py): they are tuning sets for #35.
HELDOUT_PRECISION = 0.95
HELDOUT_RECALL = 0.75
BLIND_PRECISION = 1.0
BLIND_RECALL = 0.85
# measured 0.95 (21/22), precision 1.00 (21/21); after #18 0.83 (15/18)... see git log
TUNING_RECALL = 0.9
# nearcopy_short.py (functions under the 5-line floor, compared by literal evidence only), written
# blind after that rule: precision 0.83 (5/6), recall 0.62 (5/8). Before it, nothing was named
# (recall 0/8).
SHORT_PRECISION = 0.8
SHORT_RECALL = 0.6
# nearcopy_restructured.py (#35), written and committed (7090e5e) before any #35 rule change and
# measured as held out once: before #35, precision 0.86 (19/22), recall 0.32 (19/59); after #35's
# first pass, 0.93 (42/45), 0.71 (42/59). #35's second pass was then tuned on it (its misses read
# one by one): 0.96 (48/50), 0.81 (48/59). It is a tuning set now; the targets are measured on the
# held-out sets written after it.
RESTRUCTURED_PRECISION = 0.95
RESTRUCTURED_RECALL = 0.8
# nearcopy_rewrites_tuning.py: the #35 rules and thresholds were chosen on it: 0.90 (19/21), 0.90
# (19/21); after the second pass 1.00 (20/20), 0.95 (20/21).
REWRITES_PRECISION = 0.95
REWRITES_RECALL = 0.9
# nearcopy_mytuning.py: written for #35's second pass and tuned on (24 copies, 32 near misses, the
# last 8 of them written late, as a held-out set would: a negated test, a missing branch or part,
# swapped branches; 5 of those 8 were named at first): after, 0.79 (23/29), 0.96 (23/24). Its first
# 48 cases before the second pass: 0.83 (19/23), 0.79 (19/24).
MYTUNING_PRECISION = 0.75
MYTUNING_RECALL = 0.95
# nearcopy_heldout3.py (#35): 41 copies and 41 near misses of werkzeug, jinja2 and packaging
# helpers, written by another helper who never read the matcher and committed (b905529..53983ea)
# before #35's second pass changed a rule, never looked at case by case, measured once when the
# second pass was final (f2f2c9a): before it (cc06162) precision 0.86 (32/37), recall 0.78 (32/41);
# after it 0.89 (32/36), 0.78 (32/41). The targets (0.95, 0.80) are NOT reached: floors at
# the measured figures, targets a strict xfail.
HELDOUT3_PRECISION = 0.88
HELDOUT3_RECALL = 0.78
HELDOUT3 = HELDOUT3_COPIES + HELDOUT3_NEAR_MISSES
# nearcopy_heldout4.py (#35): 45 copies and 45 near misses of validators, tornado and urllib3
# helpers, written by a helper who never read the matcher and committed (97b1015) before this
# wave's rule changes, never looked at case by case, measured once (the Python matcher unchanged
# since): precision 0.83 (30/36), recall 0.67 (30/45). Targets not reached: floors at the measured
# figures, targets a strict xfail.
HELDOUT4_PRECISION = 0.83
HELDOUT4_RECALL = 0.66
HELDOUT4 = HELDOUT4_COPIES + HELDOUT4_NEAR_MISSES
TARGETS = (0.95, 0.8)


# The sets' packages come from the package registry: these run in the full suite (`--full`).
REGISTRY = pytest.mark.slow


@pytest.fixture(scope="module")
def packages() -> None:
    try:
        for package in [*nearcopies.PACKAGES, *{case.package for case in HELDOUT3 + HELDOUT4}]:
            nearcopies.module_sources(package)
    except RuntimeError as exc:  # no package index reachable: nothing to measure against
        requires.missing(str(exc), "give this machine the package index")


def test_restructured_set_is_big_enough_and_uses_packages_no_other_set_uses() -> None:
    assert len(RESTRUCTURED_COPIES) >= 40 and len(RESTRUCTURED_NEAR_MISSES) >= 40
    assert all(case.helper for case in RESTRUCTURED_COPIES) and not any(
        c.helper for c in RESTRUCTURED_NEAR_MISSES
    )
    others = {c.package for c in HELDOUT + HELDOUT2 + TUNING + SHORT + REWRITES_TUNING}
    assert {c.package for c in RESTRUCTURED} == {"boltons", "toolz"} and others.isdisjoint(
        {"boltons", "toolz"}
    )
    assert all(functions.code_lines(c.source) >= functions.MIN_LINES for c in RESTRUCTURED)


@REGISTRY
def test_restructured_set_precision_and_recall_floors(packages: None) -> None:
    found = nearcopies.score(RESTRUCTURED)
    assert (found.positives, found.negatives) == (59, 52)
    assert found.precision >= RESTRUCTURED_PRECISION and found.recall >= RESTRUCTURED_RECALL, (
        found.line()
    )


@REGISTRY
def test_third_held_out_set_precision_and_recall_floors(packages: None) -> None:
    found = nearcopies.score(HELDOUT3)
    assert (found.positives, found.negatives) == (41, 41)
    assert found.precision >= HELDOUT3_PRECISION and found.recall >= HELDOUT3_RECALL, found.line()


@pytest.mark.xfail(
    reason="#35's targets are not reached: measured 0.89 (32/36), 0.78 (32/41)", strict=True
)
@REGISTRY
def test_third_held_out_set_reaches_the_targets(packages: None) -> None:
    found = nearcopies.score(HELDOUT3)
    assert found.precision >= TARGETS[0] and found.recall >= TARGETS[1], found.line()


@REGISTRY
def test_fourth_held_out_set_precision_and_recall_floors(packages: None) -> None:
    found = nearcopies.score(HELDOUT4)
    assert (found.positives, found.negatives) == (45, 45)
    assert found.precision >= HELDOUT4_PRECISION and found.recall >= HELDOUT4_RECALL, found.line()


@pytest.mark.xfail(
    reason="#35's targets are not reached: measured 0.83 (30/36), 0.67 (30/45)", strict=True
)
@REGISTRY
def test_fourth_held_out_set_reaches_the_targets(packages: None) -> None:
    found = nearcopies.score(HELDOUT4)
    assert found.precision >= TARGETS[0] and found.recall >= TARGETS[1], found.line()


@REGISTRY
def test_hand_written_tuning_set_floors(packages: None) -> None:
    found = nearcopies.score(MYTUNING)
    assert (found.positives, found.negatives) == (24, 32)
    assert found.precision >= MYTUNING_PRECISION and found.recall >= MYTUNING_RECALL, found.line()


@REGISTRY
def test_rewrites_tuning_set_floors(packages: None) -> None:
    found = nearcopies.score(REWRITES_TUNING)
    assert found.precision >= REWRITES_PRECISION and found.recall >= REWRITES_RECALL, found.line()


def test_held_out_set_is_big_enough_and_apart_from_the_tuning_set() -> None:
    assert len(HELDOUT_COPIES) >= 30 and len(NEAR_MISSES) >= 30
    held_out = (
        {c.package for c in HELDOUT},
        {c.package for c in HELDOUT2},
        {c.package for c in TUNING},
    )
    assert all(
        a.isdisjoint(b)
        for a, b in (
            (held_out[0], held_out[1]),
            (held_out[0], held_out[2]),
            (held_out[1], held_out[2]),
        )
    )
    assert {c.package for c in SHORT}.isdisjoint(
        held_out[2]
    )  # the short set: held-out packages only
    assert all(c.helper == "" or c.helper in c.source or c.why for c in HELDOUT)


@REGISTRY
def test_every_copied_helper_exists_in_its_package(packages: None) -> None:
    for case in HELDOUT + HELDOUT2 + TUNING + SHORT + RESTRUCTURED + REWRITES_TUNING + MYTUNING:
        files = nearcopies.project_index(case.package)["files"].values()
        names = {entry[0] for record in files for entry in record["f"]}
        assert not case.helper or case.helper in names, case


@REGISTRY
def test_held_out_precision_and_recall_floors(packages: None) -> None:
    found = nearcopies.score(HELDOUT)
    assert (found.positives, found.negatives) == (34, 32)
    assert found.precision >= HELDOUT_PRECISION and found.recall >= HELDOUT_RECALL, found.line()


@REGISTRY
def test_blind_held_out_set_has_no_wrong_nudge(packages: None) -> None:
    found = nearcopies.score(HELDOUT2)
    assert (found.positives, found.negatives) == (17, 17)
    assert found.precision >= BLIND_PRECISION and found.recall >= BLIND_RECALL, found.line()


@REGISTRY
def test_tuning_set_has_no_wrong_nudge(packages: None) -> None:
    found = nearcopies.score(TUNING)
    assert found.wrong == [] and found.recall >= TUNING_RECALL, found.line()


@REGISTRY
def test_short_set_precision_and_recall_floors(packages: None) -> None:
    assert all(functions.code_lines(case.source) < functions.MIN_LINES for case in SHORT)
    found = nearcopies.score(SHORT)
    assert (found.positives, found.negatives) == (8, 8)
    assert found.precision >= SHORT_PRECISION and found.recall >= SHORT_RECALL, found.line()


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
    assert near_copies.literal_evidence(
        ["'-{2,}'", "'[^a-z0-9]+'"], helper
    )  # order does not matter
    assert near_copies.literal_evidence(helper + ["'NFKD'"], helper)  # one step added: 2/3
    assert not near_copies.literal_evidence(
        ["'[^a-z0-9]+'", "'_{2,}'"], helper
    )  # a replaced literal: 1/3
    assert near_copies.disagree(["'[^a-z0-9]+'", "'_{2,}'"], helper)
    assert not near_copies.disagree([], helper) and not near_copies.disagree(
        helper, []
    )  # nothing to compare


def test_inlinable_outside_names_are_functions_and_constants_not_classes() -> None:
    assert [
        n
        for n in ("make_func", "UNDERSCORE_RE", "User", "Mapping", "_is_none")
        if near_copies.inlinable(n)
    ] == [
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
    """A PostToolUse payload for an Edit of app/views.py that appends `added` (Claude Code's
    shape)."""
    target, original = project / "app" / "views.py", "import re\n"
    new = "import re\n\n\n" + added
    target.write_text(new)
    lines = [" import re"] + [f"+{line}" for line in new.splitlines()[1:]]
    sent: dict[str, Any] = payload(
        "PostToolUse",
        project,
        tool_name="Edit",
        tool_use_id="toolu_1",
        tool_input={
            "file_path": str(target),
            "old_string": "import re",
            "new_string": new.rstrip("\n"),
        },
        tool_response={
            "filePath": str(target),
            "oldString": "import re",
            "newString": new.rstrip("\n"),
            "originalFile": original,
            "userModified": False,
            "replaceAll": False,
            "structuredPatch": [
                {
                    "oldStart": 1,
                    "oldLines": 1,
                    "newStart": 1,
                    "newLines": len(lines),
                    "lines": lines,
                }
            ],
        },
    )
    return sent


@pytest.mark.parametrize(
    ("added", "said"),
    [
        (
            RESTRUCTURED_SLUG,
            "[sidecar:tools] utils/text.py:6 slugify(value) already does this; reuse it instead "
            "of slug_for().",
        ),
        (SNAKE_NAME, ""),  # the shape of slugify, other literals: another behaviour, no nudge
    ],
)
def test_hook_on_a_restructured_copy_and_on_a_look_alike(
    project: Path, run_hook: Any, added: str, said: str
) -> None:
    (project / "utils").mkdir()
    (project / "utils" / "text.py").write_text(SLUG_FILE)
    (project / "app").mkdir()
    (project / "app" / "views.py").write_text("import re\n")
    assert function_index.main(["build", str(project)]) == 0
    done = run_hook("PostToolUse", added_function(project, added))
    assert done.returncode == 0 and done.stderr == ""
    assert context_of(done.stdout) == said


def test_a_swapped_separator_is_another_behaviour_an_added_or_dropped_one_is_not() -> None:
    snake = ["Call", "re", ".sub", "'[A-Z]'", "'_'", "v1", "BinOp", "'_'", ".lower"]
    assert near_copies.replaced_separator([t.replace("'_'", "'-'") for t in snake], snake)
    assert not near_copies.replaced_separator(snake + ["'-'"], snake)  # a step added
    assert not near_copies.replaced_separator(snake[:4], snake)  # one left out
    assert not near_copies.replaced_separator(
        ["'[A-Z]'", "'x'"], ["'[A-Z]'", "'y'"]
    )  # distinctive: not separators


def test_short_added_functions_are_compared_only_with_distinctive_literals() -> None:
    added = (
        "def one(x):\n    return x + 1\n\n\n"
        'def two(s):\n    return re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", s))\n\n\n'
        "def three(a):\n    b = a + 1\n    c = b * 2\n    d = c - 3\n    return d\n"
    )
    found = [
        (node.name, small) for node, _tokens, _outside, small in reinvention.added_functions(added)
    ]
    assert found == [("two", True), ("three", False)]


def test_a_swapped_method_is_another_behaviour_an_added_one_is_not() -> None:
    lower = ["Return", "Call", "v1", ".replace", "'-'", "'_'", ".lower"]
    assert near_copies.replaced_attribute(["Return", "Call", "v1", ".replace", ".upper"], lower)
    assert not near_copies.replaced_attribute(
        lower + [".strip"], lower
    )  # a normalisation step added
    assert not near_copies.replaced_attribute(lower[:-1], lower)  # one left out


def test_two_look_alike_helpers_nearly_tied_are_both_left_unnamed() -> None:
    def match(name: str) -> functions.Match:
        return functions.Match("lib.py", 1, f"{name}(x)", name, 0.9, 0.5)

    assert functions.unambiguous([(1.80, match("get_in")), (1.78, match("has_path"))]) is None
    found = functions.unambiguous(
        [(1.70, match("has_path")), (1.80, match("get_in")), (1.79, match("get_in"))]
    )
    assert (
        found is not None and found.name == "get_in"
    )  # the same helper twice (two files) is no rivalry
    assert functions.unambiguous([]) is None


def test_a_helper_with_the_added_function_s_very_body_has_no_rival() -> None:
    def match(name: str, body: float) -> functions.Match:
        return functions.Match("lib.py", 1, f"{name}(x)", name, body, 0.5)

    found = functions.unambiguous(
        [(1.0, match("itemfilter", 1.0)), (0.97, match("valfilter", 0.94))]
    )
    assert found is not None and found.name == "itemfilter"
    assert (
        functions.unambiguous([(1.0, match("itemfilter", 0.98)), (0.97, match("valfilter", 0.94))])
        is None
    )
    assert (
        functions.unambiguous([(1.0, match("keyfilter", 1.0)), (0.99, match("valfilter", 1.0))])
        is None
    )


KEYS_FILE = '''"""Key functions."""

_kwmark = (object,)


def hashkey(*args, **kwargs):
    """Return a cache key for the specified hashable arguments."""

    if kwargs:
        return args + _kwmark + tuple(sorted(kwargs.items()))
    else:
        return args


def methodkey(self, /, *args, **kwargs):
    """Return a cache key for use with cached methods."""

    if kwargs:
        return args + _kwmark + tuple(sorted(kwargs.items()))
    else:
        return args
'''
SORTED_KEY = """def _sorted_key(*args, **kwargs):
    if kwargs:
        return args + _kwmark + tuple(sorted(kwargs.items()))
    else:
        return args
"""
SORTED_KEY_DOCUMENTED = '''def _sorted_key(*args, **kwargs):
    """Positional arguments, then the keyword items sorted."""
    if kwargs:
        return args + _kwmark + tuple(sorted(kwargs.items()))
    return args
'''


@pytest.mark.parametrize("added", [SORTED_KEY, SORTED_KEY_DOCUMENTED])
def test_hook_names_one_of_two_identical_helpers(project: Path, run_hook: Any, added: str) -> None:
    """#18, the cachetools session: the project has two helpers with one body (`hashkey`,
    `methodkey`); an exact copy was left unnamed, the two being taken for rivals. Either is right:
    the closer name wins."""
    (project / "cache").mkdir()
    (project / "cache" / "keys.py").write_text(KEYS_FILE)
    assert function_index.main(["build", str(project)]) == 0
    done = run_hook(
        "PostToolUse",
        edited(project, "cache/keys.py", KEYS_FILE, KEYS_FILE + "\n\n" + added, KEYS_FILE),
    )
    assert done.returncode == 0 and done.stderr == ""
    assert context_of(done.stdout) == (
        "[sidecar:tools] cache/keys.py:6 hashkey(*args, **kwargs) already does this; reuse it "
        "instead of _sorted_key()."
    )


WORDS_FILE = '''import re


def underscore(word):
    """Make an underscored, lowercase form from the expression in the string."""
    word = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1_\\2", word)
    word = re.sub(r"([a-z\\d])([A-Z])", r"\\1_\\2", word)
    word = word.replace("-", "_")
    return word.lower()
'''
SNAKE_WORDS = '''def _snake_words(text):
    """Break a CamelCase expression into lowercase words joined by underscores."""
    return re.sub(r"([a-z\\d])([A-Z])", r"\\1_\\2",
                  re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1_\\2", text)).replace("-", "_").lower()
'''
CAMEL_TEST = '''def _is_camel(text):
    """Whether the text has a camel hump."""
    return bool(re.search(r"([a-z\\d])([A-Z])", text) or re.search(r"([A-Z]+)([A-Z][a-z])", text))
'''


@pytest.mark.parametrize(
    ("added", "said"),
    [
        (
            SNAKE_WORDS,
            "[sidecar:tools] lib/words.py:4 underscore(word) already does this; reuse it instead "
            "of _snake_words().",
        ),
        (CAMEL_TEST, ""),  # the same patterns searched: a predicate, not a copy
    ],
)
def test_hook_on_a_copy_with_its_temporaries_inlined(
    project: Path, run_hook: Any, added: str, said: str
) -> None:
    """#18, the inflection session: four lines with the docstring, under the 5-line floor; the same
    two regexes, the same calls in order."""
    (project / "lib").mkdir()
    (project / "lib" / "words.py").write_text(WORDS_FILE)
    assert function_index.main(["build", str(project)]) == 0
    done = run_hook(
        "PostToolUse",
        edited(project, "lib/words.py", WORDS_FILE, WORDS_FILE + "\n\n" + added, WORDS_FILE),
    )
    assert done.returncode == 0 and done.stderr == ""
    assert context_of(done.stdout) == said


PREFIX_FILE = '''"""Word helpers."""


def has_prefix(words, prefixes):
    """Whether any word starts with one of the prefixes, ignoring case."""
    lowered = [prefix.lower() for prefix in prefixes]
    if not lowered:
        return False
    return any(word.lower().startswith(tuple(lowered)) for word in words)
'''
# has_prefix() as an agent rewrites it: the comprehension as a loop with append, any() as a loop
# that returns, other names. The token rules see another function (neither rule names it); #35's
# does.
STARTS_WITH_ANY = """def starts_with_any(items, starts):
    wanted = []
    for start in starts:
        wanted.append(start.lower())
    if not wanted:
        return False
    for item in items:
        if item.lower().startswith(tuple(wanted)):
            return True
    return False
"""


@pytest.mark.parametrize(
    ("added", "said"),
    [
        (
            STARTS_WITH_ANY,
            "[sidecar:tools] lib/words.py:4 has_prefix(words, prefixes) already does this; "
            "reuse it instead of starts_with_any().",
        ),
        (
            STARTS_WITH_ANY.replace("startswith", "endswith").replace("starts_with", "ends_with"),
            "",
        ),  # another step
    ],
)
def test_hook_on_a_restructured_copy_the_token_rules_miss(
    project: Path, run_hook: Any, added: str, said: str
) -> None:
    """#35: the semver/sqlparse sessions' kind of copy (a loop for a comprehension, a loop for
    any())."""
    (project / "lib").mkdir()
    (project / "lib" / "words.py").write_text(PREFIX_FILE)
    assert function_index.main(["build", str(project)]) == 0
    node, tokens, outside, small = reinvention.added_functions(added)[0]
    index = functions.load(str(project))
    assert (
        index is not None
        and functions.token_match(node.name, tokens, index, outside=outside, shape=not small)
        is None
    )
    edit = edited(project, "lib/words.py", PREFIX_FILE, PREFIX_FILE + "\n\n" + added, PREFIX_FILE)
    done = run_hook("PostToolUse", edit)
    assert done.returncode == 0 and done.stderr == ""
    assert context_of(done.stdout) == said


def test_index_entries_carry_the_normalised_body_and_features(tmp_path: Path) -> None:
    (tmp_path / "words.py").write_text(
        PREFIX_FILE
        + "\n\ndef prefixed(words, prefixes):\n    return [w for w in words if has_prefix([w], "
        "prefixes)]\n"
    )
    index = function_index.build(str(tmp_path))
    assert index["behaviour"] == functions.BEHAVIOUR
    entries = {entry[0]: entry for entry in index["files"]["words.py"]["f"]}
    node = functions.parse(PREFIX_FILE)
    assert node is not None
    helper = node.body[1]
    assert isinstance(helper, ast.FunctionDef)
    assert entries["has_prefix"][functions.CANONICAL] == " ".join(rewrites.canonical(helper))
    assert entries["has_prefix"][functions.FEATURES] == " ".join(rewrites.features(helper))
    # what has_prefix() does travels with its caller, for a copy that inlines it
    callees = entries["prefixed"][functions.CALLEES].split()
    assert "c:.startswith" in callees and "d:prefix" not in callees


def test_entries_of_an_older_normaliser_are_redone(tmp_path: Path) -> None:
    (tmp_path / "words.py").write_text(PREFIX_FILE)
    fresh = function_index.build(str(tmp_path))
    older = dict(fresh, behaviour=functions.BEHAVIOUR - 1)
    older["files"] = {
        "words.py": dict(
            fresh["files"]["words.py"],
            f=[["has_prefix", 4, "has_prefix(words, prefixes)", 6, "", ""]],
        )
    }
    assert (
        function_index.build(str(tmp_path), older)["files"] == fresh["files"]
    )  # not reused: redone
    same = dict(older, behaviour=functions.BEHAVIOUR)
    assert (
        function_index.build(str(tmp_path), same)["files"]["words.py"]["f"][0][4] == ""
    )  # reused as it was


GRAFS_FILE = '''"""Text helpers."""


def paragraphs(text, ending="\\n\\n"):
    """Join the wrapped lines of each paragraph; the paragraphs by `ending` (None: the list)."""
    done = []
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            lines.append(line)
        else:
            done.append(" ".join(lines))
            lines = []
    if lines:
        done.append(" ".join(lines))
    if ending is None:
        return done
    return ending.join(done)
'''
GRAFS_COPY = """def _joined(text, sep):
    out = []
    current = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            current.append(line)
        else:
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return sep.join(out)
"""


def test_a_copy_that_leaves_out_a_mode_its_caller_never_uses_is_still_named(tmp_path: Path) -> None:
    """The boltons session (#35's second pass): `unwrap_text()` copied without its `ending is None`
    branch was named before; an identity test on one side only must not hide it."""
    (tmp_path / "text.py").write_text(GRAFS_FILE)
    index = function_index.build(str(tmp_path))
    node, tokens, outside, small = reinvention.added_functions(GRAFS_COPY)[0]
    found = functions.best_match(
        node.name, tokens, index, outside=outside, shape=not small, node=node
    )
    assert found is not None and (found.path, found.name) == ("text.py", "paragraphs")
