"""`sidekit failures [--stacks] [TEST_ID...]`: details of failing tests, on demand.

Without ids: each root-cause cluster with its tests and message variants. With ids (node ids, file
paths, `file::Class` prefixes or cluster ids): each test's failure, the assertion's compared values,
the chained cause; `--stacks` adds the trimmed in-project frames.
"""

from __future__ import annotations

import argparse
from typing import Any

from sidekit_hooks.answers import render, shape
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.runners import pending
from sidekit_hooks.status import cache, clusters

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

MAX_CLUSTERS = 10
MAX_TESTS = 10  # per cluster in the overview
MAX_DETAILS = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "test_ids", nargs="*", metavar="TEST_ID", help="node ids, file paths or cluster ids"
    )
    parser.add_argument(
        "--stacks", action="store_true", help="add the in-project frames of each failure"
    )
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.test_ids, args.stacks), args.format)
    return 0


def answer(project: str, test_ids: list[str], stacks: bool = False) -> dict[str, Any]:
    """The answer `sidekit failures` prints and the MCP `failures` tool returns."""
    root = cache.workspace_root(project)
    pending.wait(
        root
    )  # a go or cargo run that has just ended: its writer first (runners/pending.py)
    summary = cache.read(cache.summary_path(root)).data
    table = cache.read(cache.table_path(root)).data
    tests: dict[str, dict[str, Any]] = table.get("tests") or {}
    errors: dict[str, dict[str, Any]] = table.get("collect") or {}
    head = {"generation": summary.get("generation", 0), **shape.capability(summary)}
    if not summary:
        from sidekit_hooks import runners

        head["runner"] = runners.detect(project)
        if head["runner"] == runners.NONE:
            return {"runner": runners.NONE}
        head["state"] = "noRuns"  # nothing recorded yet: `sidekit test` makes the first record
    if test_ids:
        return shape.drop_zeros(details(head, test_ids, tests, errors, stacks))
    return shape.drop_zeros(overview(head, tests, errors, stacks))


# (tests listed per cluster, characters of each message variant), richest first: the overview takes
# the first step at which its first few clusters fit, so a cluster's tests are cut before a cluster
# is
LADDER = ((MAX_TESTS, 160), (3, 80), (1, 60))
HINT = "sidekit failures ID... (a cluster id or test id) for all of a cluster's tests, messages, --stacks"


def overview(
    head: dict[str, Any],
    tests: dict[str, dict[str, Any]],
    errors: dict[str, dict[str, Any]],
    stacks: bool,
) -> dict[str, Any]:
    """Each cluster with its tests and message variants, within `shape.FAILURES_BUDGET` bytes: the
    tests and variants of each are cut before a cluster is, what is cut is counted, and `hint` says
    how to see it."""
    found = clusters.of_table(tests, errors)
    failing = sum(e.get("o") in clusters.FAILING for e in tests.values()) + len(errors)
    sizes = [int(c["affected"]) for c in found]
    want = {**head, "failing": failing}
    budget = shape.FAILURES_BUDGET - len(HINT) - 10
    fitted: dict[str, Any] = want
    for max_tests, variant_chars in LADDER:
        listed = [
            entry(c, tests, stacks and max_tests == MAX_TESTS, max_tests, variant_chars)
            for c in found[:MAX_CLUSTERS]
        ]
        fitted = render.fit(want, "clusters", listed, budget, remainder(sizes, len(listed)))
        if len(fitted["clusters"]) >= min(len(listed), shape.FEW):
            break
    if fitted.get("moreClusters") or any(
        c.get("moreTests") or c.get("moreVariants") for c in fitted["clusters"]
    ):
        fitted["hint"] = HINT
    return fitted


def remainder(sizes: list[int], listed: int) -> Callable[[list[Any]], dict[str, Any]]:
    """The count of the clusters and failures a cut overview leaves out (of all `sizes`, `listed`
    built)."""

    def left_out(left: list[Any]) -> dict[str, Any]:
        shown = listed - len(left)
        return {"moreClusters": len(sizes) - shown, "moreFailures": sum(sizes[shown:])}

    return left_out


def entry(
    cluster: dict[str, Any],
    tests: dict[str, dict[str, Any]],
    stacks: bool,
    max_tests: int,
    variant_chars: int,
) -> dict[str, Any]:
    """One cluster of the overview: its brief, its first `max_tests` tests, its message variants."""
    listed = shape.brief(cluster, 200 if max_tests == MAX_TESTS else variant_chars)
    listed.pop("first", None)
    listed["tests"] = cluster["tests"][:max_tests]
    listed["moreTests"] = max(0, len(cluster["tests"]) - max_tests)
    variants = list(cluster.get("variants", ()))
    keep = variants if max_tests == MAX_TESTS else variants[:1]
    listed["variants"] = [
        {"message": render.clip(text, variant_chars), "count": count} for text, count in keep
    ]
    listed["moreVariants"] = len(variants) - len(keep)
    if stacks:
        first = tests.get(cluster["tests"][0]) or {}
        listed["frames"] = (first.get("f") or {}).get("frames", [])
    return shape.drop_zeros(listed)


def details(
    head: dict[str, Any],
    wanted: list[str],
    tests: dict[str, dict[str, Any]],
    errors: dict[str, dict[str, Any]],
    stacks: bool,
) -> dict[str, Any]:
    chosen: list[str] = []
    unknown: list[str] = []
    everything = list(tests) + [p for p in errors if p not in tests]
    for want in wanted:
        want = want.replace("\\", "/").rstrip("/")
        hits = [t for t in everything if _matches(t, want, tests.get(t) or errors.get(t) or {})]
        if not hits:
            unknown.append(want)
        chosen.extend(t for t in sorted(hits) if t not in chosen)
    failing_first = sorted(
        chosen, key=lambda t: (tests.get(t, {}).get("o") not in clusters.FAILING, t)
    )
    shown = [describe(t, tests.get(t), errors.get(t), stacks) for t in failing_first[:MAX_DETAILS]]
    return {
        **head,
        "failures": shown,
        "moreFailures": max(0, len(chosen) - MAX_DETAILS),
        "unknown": unknown,
    }


def _matches(test: str, want: str, entry: dict[str, Any]) -> bool:
    if test == want or entry.get("c") == want:
        return True
    return (
        test.startswith(want + "::") or test.startswith(want + "/") or test.startswith(want + "[")
    )


def describe(
    test: str, entry: dict[str, Any] | None, error: dict[str, Any] | None, stacks: bool
) -> dict[str, Any]:
    failure = (entry or {}).get("f") or error or {}
    outcome = (entry or {}).get("o", "error" if error else "")
    out: dict[str, Any] = {
        "test": test,
        "outcome": outcome,
        "phase": (entry or {}).get("p", "collect" if error else ""),
    }
    if outcome in clusters.FAILING:
        out.update(
            {
                "type": failure.get("type", ""),
                "message": render.clip(str(failure.get("message", "")), 300),
                "at": failure.get("at", ""),
                "cause": failure.get("cause", ""),
                "compare": failure.get("compare", {}),
                "cluster": (entry or error or {}).get("c", ""),
                "new": bool((entry or error or {}).get("new")),
            }
        )
        if failure.get("frame") != failure.get("at"):
            out["frame"] = failure.get("frame", "")
        if failure.get("checks"):
            out["checks"] = failure["checks"]
        if stacks:
            out["frames"] = failure.get("frames", [])
    if out["phase"] == "call":
        out.pop("phase")
    return out
