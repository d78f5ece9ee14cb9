"""#34 "Helper copies per language": precision / recall of the tools sidecar's reuse nudge on each
per-language held-out set (tests/code/nearcopy_heldout_<language>.py, never tuned on), measured
through the real hook entry points on fresh clones of the sets' projects
(tests/code/nearcopy_hooks.py; the projects fetched with each ecosystem's client and cached in
tests/code/.cache). The floors are in tests/code/test_near_copies_languages.py; the issue's targets
are on each row.
"""

from __future__ import annotations

import importlib
import os
import sys

from run import REPO, BenchContext, Row

sys.path.insert(0, os.path.join(REPO, "tests", "code"))
import nearcopy_hooks  # noqa: E402  (tests/code: the same harness the floors are measured with)

LANGUAGES = ("ts", "js", "go", "rust", "java")
QUICK = ("go",)  # --quick: one set (its two projects are small)
# seconds under --quick (bench/run.py), the set's projects cached after their first fetch
QUICK_BUDGET = 8
# seconds one set may need on a busy machine; a set that would overrun is not started
PER_SET = 60.0
TARGETS = (0.95, 0.8)


def set_row(language: str) -> Row:
    module = importlib.import_module(f"nearcopy_heldout_{language}")
    try:
        found = nearcopy_hooks.measure(module)
    except (RuntimeError, OSError) as exc:  # no registry or client to fetch the set's projects
        return Row(
            "nearcopies",
            f"{language}: helper copies through the hooks",
            f"not measured: {str(exc)[:60]}",
        )
    what = (
        f"{language}: helper copies through the hooks ({found.positives} copies, "
        f"{found.negatives} near misses; "
        f"{found.true_positive} named right, {found.false_positive} wrong): precision / recall"
    )
    verdict = "ok" if found.precision >= TARGETS[0] and found.recall >= TARGETS[1] else "MISS"
    value = f"{found.precision:.2f} / {found.recall:.2f}"
    return Row("nearcopies", what, value, f">= {TARGETS[0]:.2f} / >= {TARGETS[1]:.2f}", verdict)


def rows(ctx: BenchContext) -> list[Row]:
    out: list[Row] = []
    for language in QUICK if ctx.quick else LANGUAGES:
        if out and ctx.time_left() < PER_SET:
            out.append(
                Row(
                    "nearcopies",
                    f"{language}: helper copies through the hooks",
                    "not measured: no time left",
                )
            )
            continue
        out.append(set_row(language))
    return out
