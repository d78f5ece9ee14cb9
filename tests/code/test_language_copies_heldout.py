"""The held-out near-copy sets of TypeScript, JavaScript, Go, Rust and Java
(nearcopy_heldout_<lang>.py, written by someone who never read the matcher, committed before it
existed), measured through the tools sidecar's matcher for those languages (`code.language_copies`),
as the background worker runs it: each case's function is written to a file of its pinned project
(fetched from its registry), read with tree-sitter, and compared against the project's indexed
functions. Measured once; never tuned on.

Precision: of the helpers named, the share that are the copied helper (a near miss named counts
against it). Recall: the share of copies whose helper is named. The floors are the figures measured;
the issue's targets (0.95 / 0.80) are a strict xfail where they are not reached."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

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


# language -> (precision, recall), measured once (after merging #35's second pass): the floors
MEASURED = {
    # 1 right, 1 wrong, 17 copies: the tree-sitter normaliser's first pass named one copy fewer here
    # (it was 2 right, 1 wrong) while Go and Rust gained one each; kept as measured, a visible loss
    "ts": (0.50, 0.058),
    "js": (1.00, 0.00),  # 0 named, 19 copies
    "go": (
        1.00,
        0.09,
    ),  # 2 right, 0 wrong, 22 copies (the tree-sitter normaliser's first pass; was 1 right)
    "rust": (1.00, 0.266),  # 4 right, 0 wrong, 15 copies (the normaliser's first pass; was 3 right)
    "java": (0.75, 0.15),  # 3 right, 1 wrong, 19 copies
}


@pytest.mark.parametrize("module", SETS, ids=lambda module: module.LANGUAGE)
def test_held_out_copies_and_near_misses(module: ModuleType) -> None:
    precision, recall, right, wrong, copies = measure(module)
    print(
        f"{module.LANGUAGE}: precision {precision:.2f} recall {recall:.2f} ({right} right, "
        f"{wrong} wrong, {copies} copies)"
    )
    floor = MEASURED[module.LANGUAGE]
    assert precision >= floor[0] and recall >= floor[1]


@pytest.mark.xfail(
    strict=True,
    reason="measured far below the issue's targets (precision 0.95, recall 0.80): see MEASURED",
)
@pytest.mark.parametrize("module", SETS, ids=lambda module: module.LANGUAGE)
def test_held_out_sets_reach_the_issues_targets(module: ModuleType) -> None:
    precision, recall, *_ = measure(module)
    assert precision >= TARGET[0] and recall >= TARGET[1]
