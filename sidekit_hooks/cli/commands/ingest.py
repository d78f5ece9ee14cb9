"""`sidekit ingest PATH...`: feed the shared test cache from JUnit/xUnit XML and TRX reports.

For reports sidekit did not see written: a CI artifact, a runner with its own report folder, a
`cargo nextest` JUnit file, `dotnet test --logger junit`, a TRX file (`dotnet test --logger trx`,
`--report-trx`). A folder means the `*.xml` and `*.trx` files in it. The answer is `sidekit test`'s for
that run (counts, root-cause clusters), with `runner` "junit" for JUnit XML; for TRX reports (all of
them TRX), the platform the project's files name (`mtp`), else `vstest`. The exit code is 1 when the
reports hold a failing test, else 0.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.runners import Result, junit, store
from sidekit_hooks.runners import answer as runner_answer
from sidekit_hooks.status import cache


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a JUnit XML report, or a folder of them")
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    found, code = answer(project_of(args), list(args.paths))
    render.emit(found, args.format)
    return code


def answer(project: str, paths: list[str]) -> tuple[dict[str, Any], int]:
    reports = reports_in([os.path.join(project, p) for p in paths])
    if not reports:
        raise SidekitError(
            f"no XML or TRX report at {', '.join(paths)}", "pass a JUnit XML or TRX file, or a folder holding some"
        )
    root = cache.workspace_root(project)
    started = min(os.path.getmtime(p) for p in reports)
    result = from_reports(reports, root, started)
    failing = any(e.get("o") in ("failed", "error") for e in result.tests.values()) or bool(result.errors)
    result.exit = 1 if failing else 0
    result.args = [os.path.relpath(p, root) for p in reports][:20]
    summary, table = store.save(root, result)
    return runner_answer.run_answer(dict(summary), dict(table), result, extra={"reports": len(reports)}), result.exit


def from_reports(reports: list[str], root: str, started: float) -> Result:
    """JUnit XML through the junit reader; TRX through the .NET one (all TRX: named by the project's platform)."""
    from sidekit_hooks.runners.dotnet import project as dotnet_project
    from sidekit_hooks.runners.dotnet import trx

    trx_reports = [path for path in reports if trx.is_trx(path)]
    if not trx_reports:
        return junit.from_reports(reports, root, started, 0)
    name = "mtp" if dotnet_project.platform(dotnet_project.read(root)) == "mtp" else "vstest"
    result = trx.from_reports(trx_reports, root, started, 0, name)
    others = [path for path in reports if path not in trx_reports]
    if others:
        from_junit = junit.from_reports(others, root, started, 0)
        result.tests.update(from_junit.tests)
        result.errors.update(from_junit.errors)
        result.runner = junit.NAME  # a mix: the JUnit side names it, as before
    return result


def reports_in(paths: list[str]) -> list[str]:
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found += sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith((".xml", ".trx")))
        elif os.path.isfile(path):
            found.append(path)
    return found
