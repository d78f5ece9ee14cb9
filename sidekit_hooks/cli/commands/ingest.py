"""`sidekit ingest PATH...`: feed the shared test cache from JUnit/xUnit XML and TRX reports.

For reports sidekit did not see written: a CI artifact, a runner with its own report folder, a
`cargo nextest` JUnit file, `dotnet test --logger junit`, a TRX file (`dotnet test --logger trx`,
`--report-trx`). A folder means the `*.xml` and `*.trx` files in it. The answer is `sidekit test`'s
for that run (counts, root-cause clusters), with `runner` "junit" for JUnit XML; for TRX reports
(all of them TRX), the platform the project's files name (`mtp`), else `vstest`. The exit code is 1
when the reports hold a failing test, else 0.

Reports are read as the JUnit feed reads them: regular files inside the project, never through a
link, never blocking, whole (up to `--max-bytes`). One that cannot be read is an error of the run,
in the cache and the answer, named on stderr with the command that fixes it, and the exit code is 1:
a report skipped in silence would leave the run green.
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
from sidekit_hooks.runners import Result, store
from sidekit_hooks.runners import compact as runner_compact
from sidekit_hooks.runners.junit import adapter as junit
from sidekit_hooks.status import cache


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="a JUnit XML report, or a folder of them"
    )
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=junit.MAX_REPORT_BYTES,
        metavar="N",
        help=f"read reports of up to N bytes (default {junit.MAX_REPORT_BYTES}); a larger one is "
        "an error of the run",
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
        raise SidekitError(
            f"no XML or TRX report at {', '.join(paths)}",
            "pass a JUnit XML or TRX file, or a folder holding some",
        )
    root = cache.workspace_root(project)
    started = min(_written(p) for p in reports)
    result = from_reports(reports, root, started, limit)
    failing = any(e.get("o") in ("failed", "error") for e in result.tests.values()) or bool(
        result.errors
    )
    result.exit = 1 if failing else 0
    result.args = [os.path.relpath(p, root) for p in reports][:20]
    summary, table = store.save(root, result)
    found = runner_compact.run_answer(
        dict(summary), dict(table), result, extra={"reports": len(reports)}
    )
    unreadable = [
        f"{rel}: {error['type']}, {error['message'].replace('; fix: ', chr(10) + '  fix: ')}"
        for rel, error in result.errors.items()
    ]
    return found, result.exit, unreadable


def _written(path: str) -> float:
    """When a report was written (its own time, never a link's target's), and never later than
    now."""
    try:
        return min(os.lstat(path).st_mtime, time.time())
    except OSError:
        return time.time()


def from_reports(reports: list[str], root: str, started: float, limit: int) -> Result:
    """JUnit XML through the junit reader; TRX through the .NET one (all TRX: named by the project's
    platform)."""
    from sidekit_hooks.runners.dotnet import project as dotnet_project
    from sidekit_hooks.runners.dotnet import trx

    trx_reports = [path for path in reports if trx.is_trx(path)]
    if not trx_reports:
        return junit.from_reports(reports, root, started, 0, limit)
    name = dotnet_project.runner(root)
    result = trx.from_reports(trx_reports, root, started, 0, name)
    others = [path for path in reports if path not in trx_reports]
    if others:
        from_junit = junit.from_reports(others, root, started, 0, limit)
        result.tests.update(from_junit.tests)
        result.errors.update(from_junit.errors)
        result.runner = junit.NAME  # a mix: the JUnit side names it, as before
    return result


def reports_in(paths: list[str]) -> list[str]:
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found += sorted(
                os.path.join(path, n) for n in os.listdir(path) if n.endswith((".xml", ".trx"))
            )
        elif os.path.lexists(
            path
        ):  # a link, a FIFO: from_reports refuses it aloud, never in silence
            found.append(path)
    return found
