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

from sidekit_hooks.runners.js import adapter as js_adapter
from sidekit_hooks.runners.js import command as js_command

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
    found = js_command.rewritable(words, NAME, project, LEAVE_ALONE)
    if found is None:
        return None
    how, args = found
    subcommand = _subcommand(args)
    if subcommand in OTHER_SUBCOMMANDS:
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


# collect, the feed after a run whose reporter never loaded, and the import graph's selection
# (js/adapter.py)
_SHARED = js_adapter.Shared(NAME)
collect = _SHARED.collect
needs_feed = _SHARED.needs_feed
feed_after = _SHARED.feed_after
tests_for = _SHARED.tests_for
graph_selection = _SHARED.graph_selection
