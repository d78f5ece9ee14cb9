"""Scenario corpus scores (#4): precision and recall per sidecar, nudges on clean sessions."""

from __future__ import annotations

import os
import sys

from run import REPO, BenchContext, Row

sys.path.insert(0, os.path.join(REPO, "tests"))


def rows(ctx: BenchContext) -> list[Row]:
    from scenariolib import load_groups, score

    groups = load_groups()
    scores = score(groups)
    out = [Row("scenarios", "labelled events (tests/scenarios/*.jsonl)", str(scores.events), ">= 60",
               "ok" if scores.events >= 60 else "MISS")]
    for name in scores.sidecars():
        precision, recall = scores.precision(name), scores.recall(name)
        counts = f"tp {scores.tp[name]}, fp {scores.fp[name]}, fn {scores.fn[name]}"
        out.append(Row("scenarios", f"{name}: precision / recall ({counts})", f"{precision:.2f} / {recall:.2f}",
                       ">= 0.90 / >= 0.80", "ok" if precision >= 0.9 and recall >= 0.8 else "MISS"))
    out.append(Row("scenarios", f"nudges on clean sessions ({scores.clean_events} events)", str(scores.clean_nudges),
                   "0", "ok" if scores.clean_nudges == 0 else "MISS"))
    return out
