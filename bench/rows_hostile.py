"""Hostile input at full scale (#15): 20,000 fuzzed hook payloads; 16 writers, 8 drainers, 10,000
messages.

Every count but runs, sent and delivered must be 0. `--quick` runs a smaller scale (1,000 payloads,
2,000 messages).
"""

from __future__ import annotations

import tempfile

import hostile_load
from run import BenchContext, Row

QUICK_BUDGET = 5


def rows(ctx: BenchContext) -> list[Row]:
    payloads, (writers, drainers, messages) = (
        (1_000, (8, 4, 2_000)) if ctx.quick else (20_000, (16, 8, 10_000))
    )
    out = []
    with tempfile.TemporaryDirectory(prefix="sidekit-fuzz-") as workdir:
        fuzzed = hostile_load.fuzz(
            payloads, workdir, seed=15, subprocess_samples=20 if ctx.quick else 100
        )
    bad = {k: v for k, v in fuzzed.items() if k != "runs"}
    out.append(
        Row(
            "hostile",
            f"fuzzed hook payloads ({fuzzed['runs']:,} runs)",
            ", ".join(f"{k} {v}" for k, v in bad.items()),
            "all 0",
            "ok" if not any(bad.values()) else "MISS",
        )
    )
    with tempfile.TemporaryDirectory(prefix="sidekit-stress-") as workdir:
        stressed = hostile_load.stress(writers, drainers, messages, workdir)
    bad = {k: stressed[k] for k in ("lost", "duplicated", "malformedDelivered", "writerFailures")}
    out.append(
        Row(
            "hostile",
            f"queue stress ({writers} writers, {drainers} drainers, {stressed['sent']:,} messages)",
            f"delivered {stressed['delivered']:,}, "
            + ", ".join(f"{k} {v}" for k, v in bad.items()),
            "all 0",
            "ok" if not any(bad.values()) else "MISS",
        )
    )
    return out
