"""vitest: detection, the command forms that run it, the options that make a raw run compact, and
records.

The rewrite appends `--reporter=<console> --reporter=<sidekit's reporter> --reporter=json
--outputFile.json=<.sidekit/vitest/report-*.json>`: the console output still happens (held back into
`.sidekit/vitest/raw-*.txt` by sidekit's reporter, which prints the compact answer at exit, or the
output as it was when short), and the JSON report feeds the shared cache. The console reporter is
the one vitest picks by itself under Claude Code (`agent` for 4.1+, `minimal` for 5.x), else
`default`; naming the reporters replaces the configured ones. A command that names its own reporter
or output file, watches, or asks for help is left alone. A plain `vitest` (no `run`) runs once off a
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
        f"--reporter={console_reporter(project)}",
        f"--reporter={js_command.reporter_path(REPORTER)}",
        "--reporter=json",
        f"--outputFile.json={js_command.new_report_path(project, NAME)}",
    ]
    return js_command.append(words, how, extra)


AGENT_ENV = (
    "CLAUDECODE",
    "CLAUDE_CODE",
)  # what vitest (std-env) reads to tell it runs under Claude Code
MAX_MANIFEST = 1 << 16


def console_reporter(project: str) -> str:
    """The console reporter the raw run would have used (issue #33: naming `default` under Claude
    Code made a short run bigger than raw, 873 B -> 911 B, as the `agent` reporter hides passing
    tests): with no reporter named and an agent detected, vitest 4.1+ picks `agent` and 5.x
    `minimal`; else `default`. The version is the project's own `node_modules/vitest` (a link out of
    the project is not read)."""
    if not any(os.environ.get(name) for name in AGENT_ENV):
        return "default"
    version = installed_version(project)
    if version >= (5, 0):
        return "minimal"
    return "agent" if version >= (4, 1) else "default"


def installed_version(project: str) -> tuple[int, int]:
    """(major, minor) of the project's vitest, (0, 0) when it cannot be read."""
    import json

    from sidekit_hooks.core import safepath

    try:
        manifest = json.loads(
            safepath.read_inside(project, "node_modules/vitest/package.json", MAX_MANIFEST)
        )
        major, minor = str(manifest["version"]).split(".")[:2]
        return int(major), int(minor)
    except (OSError, ValueError, KeyError, TypeError):
        return (0, 0)


def command(project: str) -> list[str]:
    """What `sidekit test` runs: the default console output plus a fresh JSON report for
    `collect`."""
    report = js_command.new_report_path(project, NAME)
    return [
        "npx",
        "vitest",
        "run",
        "--reporter=default",
        "--reporter=json",
        f"--outputFile.json={report}",
    ]


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
