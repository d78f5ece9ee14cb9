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

from sidekit_hooks.runners.js import adapter as js_adapter
from sidekit_hooks.runners.js import command as js_command

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
    found = js_command.rewritable(words, NAME, project, LEAVE_ALONE)
    if found is None:
        return None
    how, _ = found
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


# collect, the feed after a run whose reporter never loaded, and the import graph's selection
# (js/adapter.py)
_SHARED = js_adapter.Shared(NAME)
collect = _SHARED.collect
needs_feed = _SHARED.needs_feed
feed_after = _SHARED.feed_after
tests_for = _SHARED.tests_for
graph_selection = _SHARED.graph_selection
