"""The tools sidecar (#4): hook latency on an Edit that adds a 6-line function with the function
index present, how long the index takes to build for this repository, and (#18) near-copy
precision/recall on real packages' helpers: two held-out sets (tests/code/nearcopy_heldout.py,
written before the rules; nearcopy_heldout2.py, written blind after them), the blind set of
functions under the 5-line floor (nearcopy_short.py) and the tuning set (nearcopy_tuning.py); for
#35, the restructured set (nearcopy_restructured.py, held out for #35's first pass, tuned on in its
second) and the rewrites' tuning sets (nearcopy_rewrites_tuning.py, nearcopy_mytuning.py). Before
#18's rules: held-out precision 0.68 (13/19), recall 0.38 (13/34); the blind set 0/0, recall
0/17."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from run import REPO, BenchContext, Row, ratio_row, time_command

from testing.hooks import as_stdin, edit

QUICK_BUDGET = 3  # seconds under --quick (bench/run.py)

SESSION = "bench-tools"
NEW_FUNCTION = """def order_total(items, prices):
    total = 0
    for sku, count in items.items():
        total += prices[sku] * count
    log.debug("total %s", total)
    return total
"""
DUPLICATE = """def batch_items(seq, n):
    result = []
    for i in range(0, len(seq), n):
        result.append(seq[i:i + n])
    out = result
    return out
"""
HELPERS = """def chunked(items, size):
    out = []
    for start in range(0, len(items), size):
        out.append(items[start:start + size])
    return out
"""


def edit_payload(project: str, added: str) -> bytes:
    """An Edit of pkg/mod.py that adds `added` (a function) after its imports."""
    original = "import logging\n\nlog = logging.getLogger(__name__)\n"
    lines = [" import logging", " ", " log = logging.getLogger(__name__)", "+", "+"] + [
        f"+{line}" for line in added.splitlines()
    ]
    patch = [{"oldStart": 1, "oldLines": 3, "newStart": 1, "newLines": 11, "lines": lines}]
    return as_stdin(
        edit(
            Path(project),
            "pkg/mod.py",
            original.strip(),
            original.strip() + "\n\n\n" + added,
            original,
            SESSION,
            patch=patch,
            tool_use_id="toolu_bench",
        )
    )


def make_project(ctx: BenchContext) -> str:
    """A copy of this repo's package (a realistic index: a few hundred functions) plus two small
    files."""
    project = tempfile.mkdtemp(prefix="sidekit-bench-tools-")
    shutil.copytree(
        os.path.join(REPO, "sidekit_hooks"),
        os.path.join(project, "sidekit_hooks"),
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    os.makedirs(os.path.join(project, "pkg"))
    with open(os.path.join(project, "pkg", "mod.py"), "w") as handle:
        handle.write("import logging\n\nlog = logging.getLogger(__name__)\n")
    with open(os.path.join(project, "pkg", "helpers.py"), "w") as handle:
        handle.write(HELPERS)
    subprocess.run(
        [ctx.python, "-m", "sidekit_hooks.code.functions", "build", project],
        cwd=REPO,
        capture_output=True,
        check=True,
    )
    return project


def index_build_rows(ctx: BenchContext) -> list[Row]:
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[1]); from sidekit_hooks.code import "
        "function_index, functions;"
        "t = time.perf_counter(); index = function_index.build(sys.argv[1]); cold = "
        "time.perf_counter() - t;"
        "t = time.perf_counter(); function_index.build(sys.argv[1], index); warm = "
        "time.perf_counter() - t;"
        "print(cold, warm, sum(len(f['f']) for f in index['files'].values()), len(index['files']))"
    )
    samples = []
    for _ in range(3 if ctx.quick else 5):
        done = subprocess.run(
            [ctx.python, "-c", code, REPO], capture_output=True, text=True, check=True
        )
        samples.append([float(x) for x in done.stdout.split()])
    cold = statistics.median(s[0] for s in samples) * 1000
    warm = statistics.median(s[1] for s in samples) * 1000
    functions, files = int(samples[0][2]), int(samples[0][3])
    return [
        Row(
            "tools",
            f"function index: full build of this repo ({functions} functions, {files} files)",
            f"{cold:.0f} ms",
        ),
        Row("tools", "function index: refresh with nothing changed", f"{warm:.1f} ms"),
    ]


def near_copy_rows() -> list[Row]:
    """Precision/recall of helper-copy detection on real helpers (packages downloaded once,
    cached)."""
    import sys

    sys.path.insert(0, os.path.join(REPO, "tests", "code"))
    import nearcopies
    from nearcopy_heldout import HELDOUT
    from nearcopy_heldout2 import HELDOUT2
    from nearcopy_heldout3 import COPIES as HELDOUT3_COPIES
    from nearcopy_heldout3 import NEAR_MISSES as HELDOUT3_NEAR_MISSES
    from nearcopy_mytuning import MYTUNING
    from nearcopy_restructured import RESTRUCTURED
    from nearcopy_rewrites_tuning import REWRITES_TUNING
    from nearcopy_short import SHORT
    from nearcopy_tuning import TUNING

    out = []
    sets = (
        ("third held-out (#35)", HELDOUT3_COPIES + HELDOUT3_NEAR_MISSES, (0.95, 0.8)),
        ("restructured (#35, tuned on in its second pass)", RESTRUCTURED, None),
        ("held-out", HELDOUT, (0.95, 0.8)),
        ("blind held-out", HELDOUT2, (0.95, 0.8)),
        ("blind short-function", SHORT, None),
        ("tuning", TUNING, None),
        ("#35 rewrites tuning", REWRITES_TUNING, None),
        ("#35 hand-written tuning", MYTUNING, None),
    )
    for label, cases, target in sets:
        try:
            found = nearcopies.score(cases)
        except RuntimeError as exc:  # no package index reachable
            out.append(Row("tools", f"near copies, {label} set", f"not measured: {str(exc)[:60]}"))
            continue
        what = (
            f"near copies, {label} set ({found.positives} rewritten copies, {found.negatives} "
            "near misses; "
            f"{found.true_positive} named right, {found.false_positive} wrong): precision / recall"
        )
        value = f"{found.precision:.2f} / {found.recall:.2f}"
        if target is None:
            out.append(Row("tools", what, value))
        else:
            verdict = "ok" if found.precision >= target[0] and found.recall >= target[1] else "MISS"
            out.append(
                Row("tools", what, value, f">= {target[0]:.2f} / >= {target[1]:.2f}", verdict)
            )
    return out


def rows(ctx: BenchContext) -> list[Row]:
    project = make_project(ctx)
    env = dict(os.environ, CLAUDE_PROJECT_DIR=project, CLAUDE_PLUGIN_ROOT=REPO)
    post = ["sh", "-c", f'"{os.path.join(REPO, "hooks")}/run" post_tool_use']
    index = os.path.join(project, ".sidekit", "index", "functions.json")

    def keep_index_fresh() -> None:
        now = time.time()
        os.utime(index, (now, now))  # so the hook never starts a background refresh mid-measurement

    out: list[Row] = []
    try:
        samples = time_command(
            post, ctx.repeats, edit_payload(project, NEW_FUNCTION), env, project, keep_index_fresh
        )
        out += ratio_row(
            "tools",
            "PostToolUse, Edit adds a 6-line function, index present (no match)",
            samples,
            ctx,
            2.5,
        )
        samples = time_command(
            post, ctx.repeats, edit_payload(project, DUPLICATE), env, project, keep_index_fresh
        )
        out += ratio_row(
            "tools",
            "PostToolUse, Edit adds a 6-line duplicate (rapidfuzz loads, helper named)",
            samples,
            ctx,
            None,
        )
        out += index_build_rows(ctx)
        out += near_copy_rows()
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return out
