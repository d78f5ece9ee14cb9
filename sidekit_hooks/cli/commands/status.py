"""`sidekit status [--since N]`: the test status from the shared cache, in a few hundred bytes.

`--since N` with the generation of your last answer prints `{"generation":N,"unchanged":true}` when
nothing changed: same cache generation and no source edited since that run.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from sidekit_hooks import runners
from sidekit_hooks.answers import render, shape
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.runners import pending
from sidekit_hooks.status import cache


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--since",
        type=int,
        metavar="N",
        help="generation of your last answer: unchanged -> 40 bytes",
    )
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    render.emit(answer(project_of(args), args.since), args.format)
    return 0


def answer(project: str, since: int | None = None) -> dict[str, Any]:
    """The answer `sidekit status` prints and the MCP `status` tool returns."""
    root = cache.workspace_root(project)
    pending.wait(
        root
    )  # a go or cargo run that has just ended: its writer first (runners/pending.py)
    loaded = cache.read(cache.summary_path(root))
    summary = loaded.data
    stale = None
    if summary:
        stale = cache.changed_sources(root, float((summary.get("run") or {}).get("started", 0)))
    fresh = stale is not None and stale[1] == 0 and stale[2]
    if since is not None and summary and since == summary.get("generation") and fresh:
        return shape.unchanged(since)
    if not summary:
        runner = runners.detect(project)
        adapter = runners.load(runner)
        if adapter is None or not getattr(adapter, "installed", lambda: True)():
            return {"runner": runners.NONE}  # nothing to run the tests with: that, and nothing else
    found = shape.status(summary, stale, time.time())
    if not summary:
        found["runner"] = runner
        if loaded.note:
            found["note"] = loaded.note
    return found
