"""The per-language near-copy sets of TypeScript, JavaScript, Go, Rust and Java
(nearcopy_heldout_<lang>.py, and the second sets nearcopy_heldout2_<lang>.py for TS, JS and Go, each
written by someone who never read the matcher), measured through the tools sidecar's matcher for those languages (`code.language_copies`),
as the background worker runs it: each case's function is written to a file of its pinned project
(fetched from its registry), read with tree-sitter, and compared against the project's indexed
functions. The first sets are tuning sets since wave 4 (see MEASURED); the second sets are held out
(measured, never read case by case).

Precision: of the helpers named, the share that are the copied helper (a near miss named counts
against it). Recall: the share of copies whose helper is named. The floors are the figures measured;
the issue's targets (0.95 / 0.80) are a strict xfail where they are not reached."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import nearcopy_heldout2_go
import nearcopy_heldout2_js
import nearcopy_heldout2_ts
import nearcopy_heldout_go
import nearcopy_heldout_java
import nearcopy_heldout_js
import nearcopy_heldout_rust
import nearcopy_heldout_ts
import pytest
import realprojects
from nearcopy_languages import as_file

from sidekit_hooks.code import language_copies
from sidekit_hooks.code.index import Index
from testing import requires

pytestmark = pytest.mark.slow
SETS = [
    nearcopy_heldout_ts,
    nearcopy_heldout_js,
    nearcopy_heldout_go,
    nearcopy_heldout_rust,
    nearcopy_heldout_java,
    nearcopy_heldout2_ts,
    nearcopy_heldout2_js,
    nearcopy_heldout2_go,
]
TARGET = (0.95, 0.80)  # precision, recall (issue #34)


def package_of(module: ModuleType, label: str) -> str:
    return str(
        {**getattr(module, "GO_PACKAGES", {}), **getattr(module, "JAVA_PACKAGES", {})}.get(
            label, ""
        )
    )


def named(module: ModuleType, case: object, root: Path) -> str:
    """The bare name of the helper the matcher names for the case's function ("" for none)."""
    language = module.LANGUAGE
    rel = (
        f"nearcopy_added{module.SUFFIX}"
        if language == "go"
        else f"added/nearcopy_added{module.SUFFIX}"
    )
    text = as_file(case, language, package_of(module, case.package))  # type: ignore[arg-type, attr-defined]
    target = root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)
    try:
        added = language_copies.added_functions(language, rel, text, text)
        if not added:
            return ""
        index = language_copies.project_functions(
            str(root), language, {(rel, f.qualname) for f in added}
        )
        source = "\n".join(text.splitlines()[added[0].line - 1 : added[0].end])
        found = language_copies.best_match(language, added[0], index, str(root), source)
        return language_copies.bare(found.name) if found is not None else ""
    finally:
        target.unlink()


def measure(module: ModuleType) -> tuple[float, float, int, int, int]:
    """(precision, recall, copies named right, named wrong, copies) of one language's set."""
    roots: dict[str, Path] = {}
    for label, project in module.PROJECTS.items():
        try:
            roots[label] = realprojects.laid_out(project)
        except (RuntimeError, OSError) as exc:
            requires.missing(
                str(exc), f"give this machine the {project.registry} registry and its client"
            )
        with Index.open(str(roots[label])):
            pass
    right = wrong = 0
    for case in module.COPIES:
        name = named(module, case, roots[case.package])
        right += name == case.helper
        wrong += bool(name) and name != case.helper
    for case in module.NEAR_MISSES:
        wrong += bool(named(module, case, roots[case.package]))
    said = right + wrong
    return (
        (right / said if said else 1.0),
        right / len(module.COPIES),
        right,
        wrong,
        len(module.COPIES),
    )


# set -> (precision, recall): the floors. The first sets were measured once (after merging #35's
# second pass) at ts 0.50 / 0.058 (1 right, 1 wrong), js - / 0.00, go 1.00 / 0.09 (2 right), rust
# 1.00 / 0.266 (4 right), java 0.75 / 0.15 (3 right, 1 wrong); since then they are tuning sets, tuned
# on by wave 4's decisions rewrites (`behaviour.body_start`, `parameters`, `early_answers`,
# `exits_loop`, `type_positions`, `calls_a_parameter`). The second sets (TS, JS, Go, written by a
# helper who never read the matcher) were measured before those rules and with them (see
# docs/code-index.md for how often): the same figures both times.
MEASURED = {
    "nearcopy_heldout_ts": (0.75, 3 / 17),  # 3 right, 1 wrong, 17 copies
    "nearcopy_heldout_js": (1.00, 0.0),  # 0 named, 19 copies
    "nearcopy_heldout_go": (1.00, 2 / 22),  # 2 right, 0 wrong, 22 copies
    "nearcopy_heldout_rust": (1.00, 4 / 15),  # 4 right, 0 wrong, 15 copies
    "nearcopy_heldout_java": (0.75, 3 / 19),  # 3 right, 1 wrong, 19 copies
    "nearcopy_heldout2_ts": (0.60, 3 / 27),  # 3 right, 2 wrong, 27 copies, 27 near misses
    "nearcopy_heldout2_js": (0.75, 3 / 27),  # 3 right, 1 wrong, 27 copies, 26 near misses
    "nearcopy_heldout2_go": (1.00, 4 / 29),  # 4 right, 0 wrong, 29 copies, 29 near misses
}


@pytest.mark.parametrize("module", SETS, ids=lambda module: module.__name__)
def test_held_out_copies_and_near_misses(module: ModuleType) -> None:
    precision, recall, right, wrong, copies = measure(module)
    print(
        f"{module.__name__}: precision {precision:.2f} recall {recall:.2f} ({right} right, "
        f"{wrong} wrong, {copies} copies)"
    )
    floor = MEASURED[module.__name__]
    assert precision >= floor[0] and recall >= floor[1]


@pytest.mark.xfail(
    strict=True,
    reason="measured far below the issue's targets (precision 0.95, recall 0.80): see MEASURED",
)
@pytest.mark.parametrize("module", SETS, ids=lambda module: module.__name__)
def test_held_out_sets_reach_the_issues_targets(module: ModuleType) -> None:
    precision, recall, *_ = measure(module)
    assert precision >= TARGET[0] and recall >= TARGET[1]
