"""`sidekit ingest PATH...`: feed the shared test cache from JUnit/xUnit XML reports.

For reports sidekit did not see written: a CI artifact, a runner with its own report folder, a
`cargo nextest` JUnit file, `dotnet test --logger junit`. A folder means the `*.xml` files in it.
The answer is `sidekit test`'s for that run (counts, root-cause clusters), with `runner` "junit";
the exit code is 1 when the reports hold a failing test, else 0.

Reports are read as the JUnit feed reads them: regular files inside the project, never through a link,
never blocking, whole (up to `--max-bytes`). One that cannot be read is an error of the run, in the cache
and the answer, named on stderr with the command that fixes it, and the exit code is 1: a report skipped
in silence would leave the run green.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.runners import answer as runner_answer
from sidekit_hooks.runners import junit, store
from sidekit_hooks.status import cache


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a JUnit XML report, or a folder of them")
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=junit.MAX_REPORT_BYTES,
        metavar="N",
        help=f"read reports of up to N bytes (default {junit.MAX_REPORT_BYTES}); a larger one is an error of the run",
    )
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    found, code, unreadable = ingest(project_of(args), list(args.paths), args.max_bytes)
    render.emit(found, args.format)
    for problem in unreadable:
        print(f"sidekit: {problem}", file=sys.stderr)
    return code


def ingest(project: str, paths: list[str], limit: int) -> tuple[dict[str, Any], int, list[str]]:
    """The reports into the cache: (the answer, the exit code, one line with its fix per report that
    could not be read)."""
    reports = reports_in([os.path.join(project, p) for p in paths])
    if not reports:
        raise SidekitError(f"no XML report at {', '.join(paths)}", "pass a JUnit XML file or a folder holding some")
    root = cache.workspace_root(project)
    started = min(_written(p) for p in reports)
    result = junit.from_reports(reports, root, started, 0, limit)
    failing = any(e.get("o") in ("failed", "error") for e in result.tests.values()) or bool(result.errors)
    result.exit = 1 if failing else 0
    result.args = [os.path.relpath(p, root) for p in reports][:20]
    summary, table = store.save(root, result)
    found = runner_answer.run_answer(dict(summary), dict(table), result, extra={"reports": len(reports)})
    unreadable = [
        f"{rel}: {error['type']}, {error['message'].replace('; fix: ', chr(10) + '  fix: ')}"
        for rel, error in result.errors.items()
    ]
    return found, result.exit, unreadable


def _written(path: str) -> float:
    """When a report was written (its own time, never a link's target's), and never later than now."""
    try:
        return min(os.lstat(path).st_mtime, time.time())
    except OSError:
        return time.time()


def reports_in(paths: list[str]) -> list[str]:
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found += sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".xml"))
        elif os.path.lexists(path):  # a link, a FIFO: from_reports refuses it aloud, never in silence
            found.append(path)
    return found
