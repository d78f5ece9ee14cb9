"""The session corpus (#14): whole scripted sessions on real projects in the real Claude Code CLI.

Runs tests/sessions (about five minutes: eight projects from the package registry, each in its own
.venv, about 30 paced calls each) and reports per session what the model received: useful delivered
/ useful available, wrong nudges, noise per 100 tool calls, nudge bytes against tool-result bytes.
--quick plays one session's first calls, up to its copy case (a restructured copy of a project
helper), at 4x the pace and with no project .venv: what the model received there, judged by the
reviewer's labels. Without the CLI, a row says why nothing was played.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from run import REPO, BenchContext, Row

sys.path.insert(0, os.path.join(REPO, "tests"))

QUICK_BUDGET = 8  # seconds: one session's first ten calls in the real CLI, at 4x the corpus' pace
# its calls up to its copy case need no project .venv (the slow part to set up)
QUICK_SESSION = "cachetools"
# --quick plays at this multiple of the corpus' pace, the policy's cooldown scaled alike
QUICK_SPEEDUP = 4.0


def rows(ctx: BenchContext) -> list[Row]:
    from testing.claude import find_cli

    cli, reason = find_cli()
    if cli is None:
        return [Row("sessions", "session corpus (tests/sessions)", f"not run: {reason}")]
    if ctx.quick:
        return quick_rows(cli)
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "sessions.json")
        done = subprocess.run(
            [
                ctx.python,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--full",
                "tests/sessions",
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=max(ctx.time_left(), 60),
            env=dict(os.environ, SIDEKIT_SESSIONS_REPORT=report),
        )
        if not os.path.exists(report):
            last = (done.stdout.strip().splitlines() or ["no output"])[-1]
            return [
                Row(
                    "sessions",
                    "session corpus (tests/sessions)",
                    f"did not run: {last}",
                    "runs",
                    "MISS",
                )
            ]
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
            # the target is over the whole corpus (the row after the sessions), as the corpus test
            # has it
            Row(
                "sessions",
                f"{name}: useful delivered / available ({item['calls']} calls, {item['misses']} "
                "known misses)",
                useful,
            ),
            Row(
                "sessions",
                f"{name}: wrong nudges",
                str(item["wrong"]),
                "0",
                "ok" if item["wrong"] == 0 else "MISS",
            ),
            Row(
                "sessions",
                f"{name}: noise per 100 tool calls",
                f"{item['noisePer100']:.1f}",
                "<= 2",
                "ok" if item["noisePer100"] <= 2 else "MISS",
            ),
            share,
        ]
    judged = [item for item in sessions if not item.get("pending")]
    delivered = sum(item["usefulDelivered"] for item in judged)
    available = sum(item["usefulAvailable"] for item in judged)
    if judged:
        out.append(
            Row(
                "sessions",
                f"all {len(judged)} labelled sessions: useful delivered / available",
                f"{delivered} / {available} ({100 * delivered / max(available, 1):.1f}%)",
                ">= 90%",
                "ok" if delivered >= 0.9 * available else "MISS",
            )
        )
        out += expectation_rows(judged)
    return out


def expectation_rows(judged: list[dict[str, Any]]) -> list[Row]:
    """The same sessions against what the reviewer expected (useful labels and misses), first
    findings apart from reminders and primers, and how many labels are the product's own text (issue
    #35)."""

    def total(key: str) -> int:
        return sum(int(item.get(key, 0)) for item in judged)

    def share(done: int, of: int) -> str:
        return f"{done} / {of} ({100 * done / max(of, 1):.1f}%)"

    return [
        Row(
            "sessions",
            "useful delivered / the reviewer's expected findings (misses included)",
            share(total("expectedDelivered"), total("expected")),
        ),
        Row(
            "sessions",
            "first findings delivered / expected (reminders and primers apart)",
            share(total("firstDelivered"), total("firstExpected")),
        ),
        Row(
            "sessions",
            "nudges delivered: reminders, primers",
            f"{total('remindersDelivered')}, {total('primersDelivered')} of {total('delivered')}",
        ),
        Row(
            "sessions",
            "labels whose match is the product's own text this run",
            f"{total('labelsFromProduct')} of {total('labels')} ({total('misses')} misses: the "
            "reviewer's own)",
        ),
    ]


def quick_rows(cli: Path) -> list[Row]:
    """QUICK_SESSION's calls up to and including its copy case, played in the real CLI (faster:
    QUICK_SPEEDUP)."""
    from sessions import corpus
    from sessions.test_sessions import play

    full = corpus.load(QUICK_SESSION)
    calls = int(full.data["covers"]["copy"]) + 1
    data = {key: value for key, value in full.data.items() if key != "compact_after"}
    script = corpus.Script(full.name, dict(data, steps=full.steps[:calls]), full.review)
    with tempfile.TemporaryDirectory() as scratch:
        root = corpus.prepare(
            script, Path(scratch) / QUICK_SESSION, False, corpus.TIME_SCALE * QUICK_SPEEDUP
        )
        result = play(QUICK_SESSION, root, cli, Path(scratch), script, corpus.PACE / QUICK_SPEEDUP)
    useful, wrong = result.count("useful"), result.count("wrong")
    return [
        Row(
            "sessions",
            f"{QUICK_SESSION}: its first {calls} calls, through its copy case, at "
            f"{QUICK_SPEEDUP:.0f}x the pace "
            "(--quick): nudges the model received",
            f"{len(result.delivered)} ({useful} useful, {wrong} wrong by the reviewer's labels); "
            f"{result.nudge_bytes:,} nudge bytes = {100 * result.byte_share:.1f}% of tool-result "
            "bytes",
            "0 wrong",
            "ok" if wrong == 0 else "MISS",
        )
    ]
