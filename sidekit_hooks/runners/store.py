"""One runner's run into the shared cache (status.record's merge), and the compact answer for it."""

from __future__ import annotations

import os
import time

from sidekit_hooks.runners import Result
from sidekit_hooks.status import cache, record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.status.vocabulary import Summary, Table

KEEP_RAW = 10  # raw output files kept per runner under .sidekit/<runner>/


def save(root: str, result: Result, compact: bool = False) -> tuple[Summary, Table]:
    """Merge `result` into the cache under its lock; returns (summary, table) as written.

    `compact`: the model was shown the compact answer of this run (the tests sidecar then stays
    quiet)."""
    failing = [t for t, e in result.tests.items() if e.get("o") in ("failed", "error")]
    run: dict[str, Any] = {
        "id": os.environ.get("SIDEKIT_RUN_ID", ""),
        "started": round(result.started, 3),
        "finished": cache.now(),
        "exit": result.exit,
        "args": result.args,
        "selected": len(result.tests),
        "ran": len(result.tests),
        "interrupted": result.interrupted,
    }
    run["complete"] = not result.interrupted and not result.errors
    if compact:
        run["compact"] = True
    with cache.locked(root):
        summary, table = record.merge(
            root, run, dict(result.tests), dict(result.errors), None, result.covered
        )
        summary["runner"] = result.runner
        summary["plugins"] = []
        if (
            result.exit and not failing and not result.errors
        ):  # red with nothing to show: keep its words
            summary["run"]["state"] = "error"
        cache.write(cache.table_path(root), table)
        cache.write(cache.summary_path(root), summary)
    return summary, table


def run_view(root: str, result: Result) -> tuple[dict[str, Any], dict[str, Any]]:
    """(summary, table) of `result` alone, as `answer.run_answer` reads them after `save`: the run's
    counts, its failures marked new against the cache as it is, no generation. For a wrapper that
    answers first and leaves the merge and the writes to a detached child (runners/go/goexec.py)."""
    finished = cache.now()
    old = cache.read(cache.table_path(root))
    before = record.failing_before(old.data) if not old.note else set()
    tests, errors = record.marked_new(dict(result.tests), dict(result.errors), before, finished)
    counts = record.outcome_counts(tests.values())
    run = {
        "started": round(result.started, 3),
        "finished": finished,
        "ran": len(tests),
        "counts": counts,
    }
    return {"run": run}, {"tests": tests, "collect": errors}


def save_raw(root: str, runner: str, text: str, label: str = "") -> str:
    """Keep a run's raw output under `.sidekit/<runner>/` (the newest KEEP_RAW stay); its path."""
    path = raw_path(root, runner, label)
    write_raw(path, text)
    return path


def raw_path(root: str, runner: str, label: str = "") -> str:
    """Where save_raw keeps a run's raw output: named before it is written, so an answer can say
    it."""
    from sidekit_hooks.core import workspace

    folder = os.path.join(workspace.state_dir(root), runner)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in label)[-40:]
    name = (
        time.strftime("raw-%Y%m%d-%H%M%S", time.localtime())
        + f"-{os.getpid()}{'-' + safe if safe else ''}.txt"
    )
    return os.path.join(folder, name)


def write_raw(path: str, text: str) -> None:
    """The raw output at `path` (raw_path's), the folder's older ones beyond KEEP_RAW removed."""
    from sidekit_hooks.core import workspace

    workspace.atomic_write(path, text)
    folder = os.path.dirname(path)
    kept = sorted(
        entry for entry in os.listdir(folder) if entry.startswith("raw-") and entry.endswith(".txt")
    )
    for old in kept[:-KEEP_RAW]:
        try:
            os.unlink(os.path.join(folder, old))
        except OSError:
            pass
