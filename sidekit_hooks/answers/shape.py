"""The compact answers of `sidekit status`, `sidekit test` and `sidekit failures`, within budget.

Budgets are bytes of the printed JSON (docs/usage.md, "What an answer looks like"). Lists are cut to
fit and the cut is counted (`moreClusters`, `moreFailures`); long messages and paths are clipped,
never the counts.
"""

from __future__ import annotations

from sidekit_hooks.answers import render
from sidekit_hooks.status.vocabulary import UNNAMED_RUNNER as UNNAMED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

UNCHANGED_BUDGET = 40
STATUS_BUDGET = 400
TEST_BUDGET = 800
FAILURES_BUDGET = 4000
COUNT_NAMES = (
    ("passed", "passed"),
    ("failed", "failed"),
    ("error", "errors"),
    ("skipped", "skipped"),
    ("xfailed", "xfailed"),
    ("xpassed", "xpassed"),
)
MAX_PLUGINS = 4


def capability(summary: dict[str, Any], runner: str = UNNAMED) -> dict[str, Any]:
    plugins = [str(p) for p in summary.get("plugins", ())]
    if len(plugins) > MAX_PLUGINS:
        plugins = plugins[:MAX_PLUGINS] + [f"+{len(plugins) - MAX_PLUGINS}"]
    return {"runner": summary.get("runner", runner), "plugins": plugins}


def counts(raw: dict[str, int]) -> dict[str, int]:
    return {name: int(raw[key]) for key, name in COUNT_NAMES if raw.get(key)}


FEW = 3  # a run with at most this many clusters names each, its parts trimmed to fit
LEANEST = 3  # the detail level that keeps only the handle, the place, the type and the count
PLACE_CHARS = 40  # characters of the place at the leanest level


def brief(cluster: dict[str, Any], message_chars: int, level: int = 0) -> dict[str, Any]:
    """One cluster in a few dozen bytes: where, what, how many; the id is the handle for details.

    `level` trims its parts, never its place: 0 is everything; 1 drops the example test, the frame
    and the cause, and halves the `checks` text and the message; 2 drops `checks` and keeps a short
    message; 3 keeps the id, the type, the place and the count.
    """
    tests = cluster.get("tests") or []
    variants = len(cluster.get("variants") or ()) + int(cluster.get("moreVariants", 0))
    first = str(tests[0]) if tests else ""
    checks_chars = (90, 48, 0, 0)[level]
    message_chars = (message_chars, max(24, message_chars // 2), 24, 0)[level]
    place_chars = 60 if level < LEANEST else PLACE_CHARS
    return drop_zeros(
        {
            "id": cluster["id"],
            "type": render.clip(str(cluster.get("type", "")), 40 if level < 2 else 24),
            "phase": "" if cluster.get("phase") == "call" else cluster.get("phase", ""),
            "at": render.short_path(str(cluster.get("at", "")), place_chars),
            "frame": render.short_path(str(cluster.get("frame", "")), 60) if level == 0 else "",
            "checks": render.clip(str(cluster.get("checks", "")), checks_chars)
            if checks_chars
            else "",
            "message": render.clip(str(cluster.get("message", "")), message_chars)
            if message_chars
            else "",
            "cause": render.clip(str(cluster.get("cause", "")), 48) if level == 0 else "",
            "variants": variants if variants > 1 and level < 2 else 0,
            "affected": cluster["affected"] if cluster.get("affected", 1) > 1 else 0,
            "reported": cluster.get("reported", 0),
            "new": cluster.get("new", 0),
            "first": first if len(first) <= 90 and level == 0 else "",
        }
    )


# (the top cluster's level, the others' level), richest first: the others are trimmed before the top
# one
LADDER = ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3), (3, 3))


def with_clusters(
    answer: dict[str, Any],
    found: list[dict[str, Any]],
    hidden: int,
    failing: int,
    budget: int,
    message_chars: int,
) -> dict[str, Any]:
    """`answer` plus the biggest clusters that fit in `budget` bytes, the rest counted.

    A cluster's parts (its example test, `checks`, its message) are trimmed before a cluster is
    dropped: the first step of `LADDER` at which the first `FEW` clusters (all of them when there
    are fewer) fit is taken, with as many more as fit at it. The top cluster's place is always
    named: when not even its leanest form fits, it is shown anyway (an answer a few bytes over beats
    one that names no cause). `hidden` clusters (and their share of the `failing` tests) exist
    beyond `found`.
    """
    sizes = [int(c.get("affected", 1)) for c in found]

    def remainder(left: list[Any]) -> dict[str, Any]:
        shown = len(found) - len(left)
        more = len(left) + hidden
        return (
            {"moreClusters": more, "moreFailures": max(0, failing - sum(sizes[:shown]))}
            if more
            else {}
        )

    def at_step(top: int, rest: int) -> dict[str, Any]:
        briefs = [brief(c, message_chars, top if i == 0 else rest) for i, c in enumerate(found)]
        return drop_zeros(render.fit(answer, "clusters", briefs, budget, remainder))

    if not found:
        return drop_zeros(render.fit(answer, "clusters", [], budget, remainder))
    must = min(len(found), FEW)
    fitted: dict[str, Any] = {}
    for wanted in range(must, 0, -1):
        for top, rest in LADDER:
            fitted = at_step(top, rest)
            if len(fitted.get("clusters") or ()) >= wanted:
                return fitted
    return drop_zeros(
        dict(answer, clusters=[brief(found[0], message_chars, LEANEST)], **remainder(found[1:]))
    )


KEEP_ZERO = frozenset({"generation", "exit"})


def drop_zeros(answer: dict[str, Any]) -> dict[str, Any]:
    """Zero counts say nothing: absent means none (docs/usage.md: no default fields)."""
    return {
        k: v for k, v in answer.items() if not (type(v) is int and v == 0 and k not in KEEP_ZERO)
    }


def unchanged(generation: int) -> dict[str, Any]:
    return {"generation": generation, "unchanged": True}


def status(
    summary: dict[str, Any], stale: tuple[list[str], int, bool] | None, now: float
) -> dict[str, Any]:
    """The full status answer (<= STATUS_BUDGET bytes) from the cache summary."""
    if not summary:
        return drop_zeros({"generation": 0, **capability({}), "state": "noRuns"})
    run = summary.get("run") or {}
    table_counts = summary.get("counts") or {}
    failing = int(summary.get("failing", 0))
    total = sum(table_counts.values())
    state = "failed" if failing else ("passed" if total else "noTests")
    answer: dict[str, Any] = {
        "generation": summary["generation"],
        **capability(summary),
        "state": state,
        **counts(table_counts),
        "collectErrors": summary.get("collectErrors", 0),
    }
    if run.get("ran", total) < total:
        answer["lastRan"] = run.get("ran", 0)
    answer["interrupted"] = bool(run.get("interrupted"))
    answer["age"] = max(0, int(now - float(run.get("finished", now))))
    if stale is not None:
        changed, count, complete = stale
        answer["stale"] = bool(count) or not complete
        answer["changed"] = [render.short_path(p, 60) for p in changed[:1]]
        answer["moreChanged"] = max(0, count - 1)
    answer["newFailures"] = summary.get("newFailures", 0)
    answer["note"] = render.clip(str(summary.get("note", "")), 80)
    return with_clusters(
        answer,
        list(summary.get("clusters") or ()),
        int(summary.get("moreClusters", 0)),
        failing,
        STATUS_BUDGET,
        56,
    )


def test_run(
    summary: dict[str, Any], found: list[dict[str, Any]], extra: dict[str, Any]
) -> dict[str, Any]:
    """The `sidekit test` answer: this run's counts and clusters (<= TEST_BUDGET bytes)."""
    run = summary.get("run") or {}
    answer: dict[str, Any] = {
        "generation": summary["generation"],
        **capability(summary),
        **extra,
        "exit": run.get("exit", 0),
        **counts(run.get("counts") or {}),
    }
    answer["secs"] = round(float(run.get("finished", 0)) - float(run.get("started", 0)), 2)
    answer["interrupted"] = bool(run.get("interrupted"))
    answer["newFailures"] = sum(int(c.get("new", 0)) for c in found)
    failing = sum(int(c.get("affected", 1)) for c in found)
    return with_clusters(answer, found, 0, failing, TEST_BUDGET, 80)
