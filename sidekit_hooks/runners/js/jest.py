"""jest: detection, the command forms that run it, the options that make a raw run compact, and
records.

The rewrite appends `--reporters=<sidekit's reporter> --reporters=default --json
--outputFile=<.sidekit/jest/report-*.json>`: sidekit's reporter comes first so it holds back what
the default reporter prints (into `.sidekit/jest/raw-*.txt`) and prints the compact answer at exit;
the JSON report (`--json` with a file, since tests writing to stdout would corrupt it there) feeds
the shared cache. Naming reporters replaces configured ones (a jest-junit file is not written on a
rewritten run). A command that names its own reporters, JSON or output file, watches, lists or asks
for help is left alone.
"""

from __future__ import annotations

import os

from sidekit_hooks.runners.js import command as js_command

TYPE_CHECKING = False  # `typing` costs the hot path (matches, compact_words) milliseconds
if TYPE_CHECKING:
    from typing import Any

NAME = "jest"
FEED = "reporter"  # sidekit's reporter, added to the run, feeds the cache when it loads
REPORTER = "jest-reporter.cjs"
LEAVE_ALONE = frozenset(
    {
        "--reporters",
        "--json",
        "--outputFile",
        "--watch",
        "--watchAll",
        "--help",
        "-h",
        "--version",
        "-v",
        "--listTests",
        "--showConfig",
        "--init",
        "--clearCache",
        "--debug",
        "--",
    }
)
CONFIGS = ("jest.config.",)


def detect(project: str) -> bool:
    return js_command.detected(project, NAME, CONFIGS, package_key="jest")


def matches(words: list[str], cwd: str = "") -> bool:
    return js_command.runner_args(words, NAME, cwd or os.getcwd()) is not None


def compact_words(words: list[str], project: str) -> list[str] | None:
    found = js_command.runner_args(words, NAME, project)
    if found is None:
        return None
    how, args = found
    if how in ("pnpm", "yarn", "bunx") or "--" in args:
        return None
    if any(name in LEAVE_ALONE for name in js_command.options(args)):
        return None
    if not js_command.report_folder_inside(project, NAME):
        return None
    extra = [
        f"--reporters={js_command.reporter_path(REPORTER)}",
        "--reporters=default",
        "--json",
        f"--outputFile={js_command.new_report_path(project, NAME)}",
    ]
    return js_command.append(words, how, extra)


def command(project: str) -> list[str]:
    """What `sidekit test` runs: the default console output plus a fresh JSON report for `collect`
    (its folder made here: jest does not create it)."""
    from sidekit_hooks.core import safepath

    report = js_command.new_report_path(project, NAME)
    safepath.makedirs(os.path.dirname(report), project)
    return ["npx", "jest", "--json", f"--outputFile={report}"]


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
    """`sidekit select`'s answer head from the same graph (`sidekit test --select` still runs every
    test)."""
    from sidekit_hooks.impact import by_graph, scripts

    return by_graph.selection(project, base, scripts, NAME)
