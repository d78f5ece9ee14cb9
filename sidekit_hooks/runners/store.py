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

    `compact`: the model was shown the compact answer of this run (the tests sidecar then stays quiet)."""
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
        summary, table = record.merge(root, run, dict(result.tests), dict(result.errors), None)
        summary["runner"] = result.runner
        summary["plugins"] = []
        if result.exit and not failing and not result.errors:  # red with nothing to show: keep its words
            summary["run"]["state"] = "error"
        cache.write(cache.table_path(root), table)
        cache.write(cache.summary_path(root), summary)
    return summary, table


def save_raw(root: str, runner: str, text: str, label: str = "") -> str:
    """Keep a run's raw output under `.sidekit/<runner>/` (the newest KEEP_RAW stay); its path."""
    from sidekit_hooks.core import workspace

    folder = os.path.join(workspace.state_dir(root), runner)
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in label)[-40:]
    name = time.strftime("raw-%Y%m%d-%H%M%S", time.localtime()) + f"-{os.getpid()}{'-' + safe if safe else ''}.txt"
    path = os.path.join(folder, name)
    workspace.atomic_write(path, text)
    kept = sorted(entry for entry in os.listdir(folder) if entry.startswith("raw-") and entry.endswith(".txt"))
    for old in kept[:-KEEP_RAW]:
        try:
            os.unlink(os.path.join(folder, old))
        except OSError:
            pass
    return path
