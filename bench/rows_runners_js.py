"""Raw vitest and jest runs through Bash (#20): what the model receives, and what compaction costs.

A real project per runner (tests/testing/js.py: semver's own source re-tested, its toolchain from
the npm registry, cached under /tmp), with a bug planted in `compare.js` that fails 30 of 50 tests:

- bytes the model receives for `npx vitest run` / `npx jest`, raw and rewritten (the answer plus the
  "Exit code N" line the client adds);
- wall and CPU time of the rewritten run against the raw one (interleaved rounds, best of each).

--quick: one round per runner. Full: five. Without node and npm the rows say so.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from run import REPO, BenchContext, Row

# seconds: two runners, a warm-up and one round of two runs each (the npm install is cached)
QUICK_BUDGET = 7
TARGET_WALL = 1.10
LIMIT = 800
WORDS = {"vitest": ["npx", "vitest", "run"], "jest": ["npx", "jest"]}


def rows(ctx: BenchContext) -> list[Row]:
    if not shutil.which("node") or not shutil.which("npm"):
        return [Row("runners_js", "vitest and jest", "skipped: node and npm are not installed")]
    sys.path.insert(0, os.path.join(REPO, "tests"))
    from testing import js

    out: list[Row] = []
    for runner in WORDS:
        if out and ctx.time_left() < 8:  # (the first runner always runs: the section's figure)
            out.append(Row("runners_js", runner, "skipped: out of time budget"))
            continue
        folder = tempfile.mkdtemp(prefix=f"sidekit-bench-{runner}-")
        try:
            out += runner_rows(
                ctx, runner, js.semver_project(Path(folder) / "proj", runner, planted=True), js
            )
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return out


def runner_rows(ctx: BenchContext, runner: str, project: Path, js: ModuleType) -> list[Row]:
    run = js.run
    raw_words = WORDS[runner]
    compact = js.compact_command(runner, raw_words, project)
    run(raw_words, project)  # warm-up: page cache, vite's transform cache
    rounds = 1 if ctx.quick else 5
    raw_runs, compact_runs = [], []
    for _ in range(rounds):
        raw_runs.append(run(raw_words, project))
        compact_runs.append(run(compact, project))
    raw, small = raw_runs[-1], compact_runs[-1]
    if {r.exit for r in raw_runs} != {r.exit for r in compact_runs}:
        kept = f"raw {raw.exit}, compacted {small.exit}"
        return [Row("runners_js", f"{runner}: exit code kept", kept, "equal", "MISS")]
    received = small.size + len(f"Exit code {small.exit}\n")
    sizes = Row(
        "runners_js",
        f"{runner} (semver, 30 of 50 failing): bytes for the model",
        f"{raw.size:,} B raw -> {received:,} B compacted ({raw.size / max(1, received):.1f}x "
        "less); "
        f"exit {small.exit} both",
        f"<= {LIMIT} B",
        "ok" if received <= LIMIT else "MISS",
    )
    wall = min(r.secs for r in compact_runs) / min(r.secs for r in raw_runs)
    cpu = min(r.cpu for r in compact_runs) / max(1e-6, min(r.cpu for r in raw_runs))
    timing = Row(
        "runners_js",
        f"{runner}: wall time, compacted vs raw (best of {rounds})",
        f"{wall:.2f}x ({min(r.secs for r in compact_runs):.2f} s vs "
        f"{min(r.secs for r in raw_runs):.2f} s); "
        f"CPU {cpu:.2f}x",
        f"<= {TARGET_WALL}x",
        "ok" if wall <= TARGET_WALL else "MISS",
    )
    return [sizes, timing]
