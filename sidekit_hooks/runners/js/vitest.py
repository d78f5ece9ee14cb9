"""vitest: detection, the command forms that run it, the options that make a raw run compact, and records.

The rewrite appends `--reporter=default --reporter=<sidekit's reporter> --reporter=json
--outputFile.json=<.sidekit/vitest/report-*.json>`: the default console output still happens (held back
into `.sidekit/vitest/raw-*.txt` by sidekit's reporter, which prints the compact answer at exit), and the
JSON report feeds the shared cache. Naming the reporters replaces the configured ones, including the
`agent` reporter vitest 4.1 picks by itself under Claude Code. A command that names its own reporter or
output file, watches, or asks for help is left alone. A plain `vitest` (no `run`) runs once off a
terminal; `--run` is appended so it cannot start watching.
"""

from __future__ import annotations

import os

from sidekit_hooks.runners.js import command as js_command

TYPE_CHECKING = False  # `typing` costs the hot path (matches, compact_words) milliseconds
if TYPE_CHECKING:
    from typing import Any

NAME = "vitest"
FEED = "reporter"  # sidekit's reporter, added to the run, feeds the cache when it loads
REPORTER = "vitest-reporter.mjs"
RUN_SUBCOMMANDS = frozenset({"run", "related"})
OTHER_SUBCOMMANDS = frozenset({"watch", "dev", "bench", "init", "list", "typecheck"})
LEAVE_ALONE = frozenset(
    {
        "--reporter",
        "--outputFile",
        "--watch",
        "-w",
        "--ui",
        "--help",
        "-h",
        "--version",
        "-v",
        "--inspect",
        "--inspect-brk",
        "--standalone",
        "--merge-reports",
        "--",
        "--open",
        "--api",
        "--clearCache",
    }
)
CONFIGS = ("vitest.config.", "vitest.workspace.", "vitest.projects.")


def detect(project: str) -> bool:
    return js_command.detected(project, NAME, CONFIGS)


def _subcommand(args: list[str]) -> str:
    return args[0] if args and args[0] in RUN_SUBCOMMANDS | OTHER_SUBCOMMANDS else ""


def matches(words: list[str], cwd: str = "") -> bool:
    found = js_command.runner_args(words, NAME, cwd or os.getcwd())
    return found is not None and _subcommand(found[1]) not in ("bench", "init", "list")


def compact_words(words: list[str], project: str) -> list[str] | None:
    found = js_command.runner_args(words, NAME, project)
    if found is None:
        return None
    how, args = found
    subcommand = _subcommand(args)
    if how in ("pnpm", "yarn", "bunx") or subcommand in OTHER_SUBCOMMANDS:
        return None
    if any(name in LEAVE_ALONE for name in js_command.options(args)) or "--" in args:
        return None
    if not js_command.report_folder_inside(project, NAME):
        return None
    extra = [] if subcommand or "--run" in args else ["--run"]
    extra += [
        "--reporter=default",
        f"--reporter={js_command.reporter_path(REPORTER)}",
        "--reporter=json",
        f"--outputFile.json={js_command.new_report_path(project, NAME)}",
    ]
    return js_command.append(words, how, extra)


def command(project: str) -> list[str]:
    """What `sidekit test` runs: the default console output plus a fresh JSON report for `collect`."""
    report = js_command.new_report_path(project, NAME)
    return ["npx", "vitest", "run", "--reporter=default", "--reporter=json", f"--outputFile.json={report}"]


def collect(project: str, started: float, exit_code: int, raw_output_path: str) -> Any:
    """This run's records: the runners layer's Result when it exists (else a status Capture, or None
    when the run left no report newer than its start)."""
    from sidekit_hooks.runners.js import compact as js_compact

    return js_compact.run_result(NAME, project, started, exit_code, raw_output_path)


def needs_feed(cwd: str, output: str, code: int, since_ns: int) -> bool:
    """A red run whose reporter never loaded is fed after it ended (js/feed.py)."""
    from sidekit_hooks.runners.js import feed

    return feed.needs_feed(NAME, cwd, output, code, since_ns)


def feed_after(job: dict[str, Any]) -> Any:
    from sidekit_hooks.runners.js import feed

    return feed.stopped_early(job)


GRAPH_SUFFIXES = (
    ".ts",
    ".tsx",
    ".mts",
    ".cts",
    ".js",
    ".jsx",
    ".mjs",
    ".cjs",
)  # the source files its graph answers for


def tests_for(project: str, path: str) -> dict[str, Any]:
    """The test files a change to `path` can affect: the import graph (impact/scripts.py)."""
    from sidekit_hooks.impact import by_graph, scripts

    return by_graph.tests_for(project, path, scripts, GRAPH_SUFFIXES, NAME)


def graph_selection(project: str, base: str | None) -> dict[str, Any]:
    """`sidekit select`'s answer head from the same graph (`sidekit test --select` still runs every test)."""
    from sidekit_hooks.impact import by_graph, scripts

    return by_graph.selection(project, base, scripts, NAME)
