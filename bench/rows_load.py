"""`sidekit demo` on a loaded machine (#18): every nudge delivered in every run, with 4 busy
processes on the machine's cores. A detector cut off by its budget hands its event to a background
worker (sidekit_hooks/pipeline/finish.py), whose findings come at the next boundary instead of being
dropped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter

from run import REPO, BenchContext, Row

QUICK_BUDGET = 4  # seconds: an unloaded demo, then two under load (about 1.5 s each)
BUSY = 4  # processes spinning on the CPU meanwhile (the "4 busy processes on 2 cores")
RUNS, QUICK_RUNS = 20, 2
HEADLINE = "slugify(value) already does this"  # the demo's headline finding (tools.helper-exists)
SPIN = "while True:\n    pass\n"


def delivered(project: str) -> list[str]:
    """The texts the demo's hooks delivered (decisions log), project paths taken out."""
    path = os.path.join(project, ".sidekit", "log", "decisions.jsonl")
    texts = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record.get("decision") == "delivered":
                texts.append(str(record.get("text", "")).replace(project, "<project>"))
    return sorted(texts)


def finished_later(project: str) -> int:
    path = os.path.join(project, ".sidekit", "log", "decisions.jsonl")
    with open(path, encoding="utf-8") as handle:
        return sum('"finished-later"' in line for line in handle)


def play_demo(python: str) -> tuple[list[str], int]:
    """One `sidekit demo` through the real hook processes; (what it delivered, detectors finished
    later)."""
    project = tempfile.mkdtemp(prefix="sidekit-bench-load-")
    try:
        script = (
            f"import sys; sys.path.insert(0, {REPO!r})\n"
            "from sidekit_hooks.cli.commands import demo\n"
            f"demo.play({project!r}, demo.load_script(), lambda *a: None)\n"
        )
        subprocess.run(
            [python, "-c", script], cwd=REPO, check=True, capture_output=True, timeout=300
        )
        return delivered(project), finished_later(project)
    finally:
        shutil.rmtree(project, ignore_errors=True)


def rows(ctx: BenchContext) -> list[Row]:
    began = time.monotonic()
    reference, _ = play_demo(ctx.python)  # an unloaded run says what "every nudge" is
    one_run = time.monotonic() - began
    runs = QUICK_RUNS if ctx.quick else RUNS
    spinners = [
        subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True) for _ in range(BUSY)
    ]
    complete = headline = later = done = 0
    missed: Counter[str] = Counter()
    try:
        for _ in range(runs):
            if (
                done and ctx.time_left() < 3 * one_run + 1
            ):  # (loaded runs take longer; the first always runs)
                break
            got, finished = play_demo(ctx.python)
            done += 1
            complete += got == reference
            headline += any(HEADLINE in text for text in got)
            later += finished
            missed.update(text[:60] for text in reference if text not in got)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    cores = os.cpu_count() or 0
    value = (
        f"{complete}/{done} runs delivered all {len(reference)} nudges; the headline "
        f"'{HEADLINE}' {headline}/{done}; {later} detector runs finished in the background"
    )
    if missed:
        text, count = missed.most_common(1)[0]
        value += f"; missed most: {text!r}... ({count}x)"
    if done < runs:
        value += f" (stopped after {done} of {runs} runs: time budget)"
    return [
        Row(
            "load",
            f"sidekit demo, {BUSY} busy processes on {cores} cores",
            value,
            f"{runs}/{runs}",
            "ok" if complete == done == runs else "MISS",
        )
    ]
