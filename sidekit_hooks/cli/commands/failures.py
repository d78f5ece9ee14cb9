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

MAX_CLUSTERS = 10
MAX_TESTS = 10  # per cluster in the overview
MAX_DETAILS = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("test_ids", nargs="*", metavar="TEST_ID", help="node ids, file paths or cluster ids")
    parser.add_argument("--stacks", action="store_true", help="add the in-project frames of each failure")
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.test_ids, args.stacks), args.format)
    return 0


def answer(project: str, test_ids: list[str], stacks: bool = False) -> dict[str, Any]:
    """The answer `sidekit failures` prints and the MCP `failures` tool returns."""
    root = cache.workspace_root(project)
    pending.wait(root)  # a go or cargo run that has just ended: its writer first (runners/pending.py)
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


def overview(
    head: dict[str, Any], tests: dict[str, dict[str, Any]], errors: dict[str, dict[str, Any]], stacks: bool
) -> dict[str, Any]:
    found = clusters.of_table(tests, errors)
    listed = []
    for cluster in found[:MAX_CLUSTERS]:
        entry = shape.brief(cluster, 200)
        entry.pop("first", None)
        entry["tests"] = cluster["tests"][:MAX_TESTS]
        entry["moreTests"] = max(0, len(cluster["tests"]) - MAX_TESTS)
        entry["variants"] = [
            {"message": render.clip(text, 160), "count": count} for text, count in cluster.get("variants", ())
        ]
        if stacks:
            first = tests.get(cluster["tests"][0]) or {}
            entry["frames"] = (first.get("f") or {}).get("frames", [])
        listed.append(shape.drop_zeros(entry))
    rest = found[MAX_CLUSTERS:]
    return {
        **head,
        "failing": sum(e.get("o") in clusters.FAILING for e in tests.values()) + len(errors),
        "clusters": listed,
        "moreClusters": len(rest),
        "moreFailures": sum(c["affected"] for c in rest),
    }


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
    failing_first = sorted(chosen, key=lambda t: (tests.get(t, {}).get("o") not in clusters.FAILING, t))
    shown = [describe(t, tests.get(t), errors.get(t), stacks) for t in failing_first[:MAX_DETAILS]]
    return {**head, "failures": shown, "moreFailures": max(0, len(chosen) - MAX_DETAILS), "unknown": unknown}


def _matches(test: str, want: str, entry: dict[str, Any]) -> bool:
    if test == want or entry.get("c") == want:
        return True
    return test.startswith(want + "::") or test.startswith(want + "/") or test.startswith(want + "[")


def describe(test: str, entry: dict[str, Any] | None, error: dict[str, Any] | None, stacks: bool) -> dict[str, Any]:
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
