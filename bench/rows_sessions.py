"""The session corpus (#14): whole scripted sessions on real projects in the real Claude Code CLI.

Runs tests/sessions (about five minutes: eight projects from the package registry, each in its own
.venv, about 30 paced calls each) and reports per session what the model received: useful delivered /
useful available, wrong nudges, noise per 100 tool calls, nudge bytes against tool-result bytes.
Skipped with --quick (it cannot fit the quick budget), and, with a row saying why, without the CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from run import REPO, BenchContext, Row

sys.path.insert(0, os.path.join(REPO, "tests"))

QUICK_BUDGET = 1  # seconds: the quick table only says the corpus was not run


def rows(ctx: BenchContext) -> list[Row]:
    from testing.claude import find_cli

    if ctx.quick:
        return [Row("sessions", "session corpus (tests/sessions)", "not run with --quick (about 5 minutes)")]
    cli, reason = find_cli()
    if cli is None:
        return [Row("sessions", "session corpus (tests/sessions)", f"not run: {reason}")]
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "sessions.json")
        done = subprocess.run(
            [ctx.python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--full", "tests/sessions"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=max(ctx.time_left(), 60),
            env=dict(os.environ, SIDEKIT_SESSIONS_REPORT=report),
        )
        if not os.path.exists(report):
            last = (done.stdout.strip().splitlines() or ["no output"])[-1]
            return [Row("sessions", "session corpus (tests/sessions)", f"did not run: {last}", "runs", "MISS")]
        with open(report, encoding="utf-8") as handle:
            sessions = json.load(handle)
    out = []
    for item in sessions:
        name = item["session"]
        share = Row(
            "sessions",
            f"{name}: nudge bytes / tool-result bytes ({item['delivered']} nudges delivered)",
            f"{100 * item['byteShare']:.1f}%",
            "< 5%",
            "ok" if item["byteShare"] < 0.05 else "MISS",
        )
        if item.get("pending"):  # measured, not yet judged: no labels file from a reviewer
            out += [
                Row(
                    "sessions",
                    f"{name}: useful delivered / available ({item['calls']} calls)",
                    "pending review",
                    ">= 90%",
                    "MISS",
                ),
                share,
            ]
            continue
        useful = f"{item['usefulDelivered']} / {item['usefulAvailable']}"
        out += [
            Row(
                "sessions",
                f"{name}: useful delivered / available ({item['calls']} calls, {item['misses']} known misses)",
                useful,
                ">= 90%",
                "ok" if item["usefulDelivered"] >= 0.9 * item["usefulAvailable"] else "MISS",
            ),
            Row("sessions", f"{name}: wrong nudges", str(item["wrong"]), "0", "ok" if item["wrong"] == 0 else "MISS"),
            Row(
                "sessions",
                f"{name}: noise per 100 tool calls",
                f"{item['noisePer100']:.1f}",
                "<= 2",
                "ok" if item["noisePer100"] <= 2 else "MISS",
            ),
            share,
        ]
    return out
