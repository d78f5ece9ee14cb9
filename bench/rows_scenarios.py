"""Scenario corpus scores (#4, #13): measured precision and recall per sidecar, known misses
counted.

Every case counts, the known misses (`xfail`) included; a sidecar that said nothing shows `n/a`, not
1.00. The held-out tools cases (`tests/scenarios/tools-heldout.jsonl`, never used to tune) are their
own row. Targets are verdicts here, not tests: precision >= 0.90 and recall >= 0.80 per sidecar, no
nudge on a clean session, no known miss that passes without its mark removed.
"""

from __future__ import annotations

import os
import sys

from run import REPO, BenchContext, Row

sys.path.insert(0, os.path.join(REPO, "tests"))

# seconds under --quick: every case is played (a subset would change the scores), ~250 events
QUICK_BUDGET = 8


def rows(ctx: BenchContext) -> list[Row]:
    from testing.scenarios import figure, load_groups, ratio, score

    groups = load_groups()
    scores = score(groups)
    known = sum(1 for g in groups for c in g.cases if c.xfail)
    out = [
        Row(
            "scenarios",
            f"labelled events (tests/scenarios/*.jsonl; {known} known misses, marked xfail)",
            str(scores.events),
            ">= 60",
            "ok" if scores.events >= 60 else "MISS",
        )
    ]
    for name in scores.sidecars():
        counts = f"tp {scores.tp[name]}, fp {scores.fp[name]}, fn {scores.fn[name]}; {scores.known[name]} xfail"
        value = f"{figure(scores.precision(name))} / {figure(scores.recall(name))}"
        out.append(
            Row(
                "scenarios",
                f"{name}: precision / recall ({counts})",
                value,
                ">= 0.90 / >= 0.80",
                "ok" if scores.meets(name) else "MISS",
            )
        )
    tp, fp, fn = scores.pooled()
    out.append(
        Row(
            "scenarios",
            f"all sidecars pooled, held out included (tp {tp}, fp {fp}, fn {fn}; {known} xfail)",
            f"{figure(ratio(tp, tp + fp))} / {figure(ratio(tp, tp + fn))}",
        )
    )
    clean = sum(scores.clean_nudges.values())
    by = ", ".join(f"{name} {count}" for name, count in sorted(scores.clean_nudges.items()))
    marked = f", {scores.clean_known} in known misses" if scores.clean_known else ""
    out.append(
        Row(
            "scenarios",
            f"nudges on clean sessions ({scores.clean_events} events, every sidecar armed"
            f"{'; ' + by + marked if by else ''})",
            str(clean),
            "0",
            "ok" if clean == 0 else "MISS",
        )
    )
    out.append(
        Row(
            "scenarios",
            "known misses that pass now (remove their xfail)",
            str(len(scores.xpassed)),
            "0",
            "ok" if not scores.xpassed else "MISS",
        )
    )
    return out
