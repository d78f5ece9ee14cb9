"""`sidekit`: a lazy table of commands. Only the chosen command's module is imported.

Each command module under `sidekit_hooks/cli/commands/` defines `add_arguments(parser)` and
`run(args) -> int`.
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from types import ModuleType
    from typing import NoReturn

from sidekit_hooks import __version__

# name -> (module, one-line summary). Keep in the order `sidekit --help` should list them.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "run a bundled agent session through the real hooks and show every nudge"),
    "replay": ("replay", "the same for a real Claude Code transcript (.jsonl)"),
    "install": ("install", "wire the hooks into a project's (or your) Claude Code settings"),
    "uninstall": ("uninstall", "remove exactly the hook entries `install` wrote"),
    "doctor": (
        "doctor",
        "check wiring, packs, caches and logs; print the command that mends each problem",
    ),
    "report": ("report", "per rule and sidecar: fired, delivered, suppressed (and by what)"),
    "otel": ("otel", "the OpenTelemetry export in force; trust (or revoke) a project's endpoint"),
    "nudge": ("nudge", "queue a nudge for a session (Gas Town format)"),
    "queue": ("queue_cmd", "list the nudges pending for a session"),
    "rules": ("rules", "list, lint, test or scaffold rule packs"),
    "scope": ("scope", "set, show or clear the current task's file scope"),
    "conventions": (
        "conventions_learn",
        "learn the repo's conventions into sidecar_rules/conventions.toml",
    ),
    "status": ("status", "test status from the shared cache, in a few hundred bytes"),
    "test": ("test", "run the project's tests (pytest, go, cargo, Maven...) and answer compactly"),
    "failures": ("failures", "details of failing tests on demand"),
    "ingest": ("ingest", "feed the test cache from JUnit/xUnit XML reports"),
    "select": ("select", "the tests a change needs, and why"),
    "tests-for": ("tests_for", "tests that exercise a file"),
    "blast-radius": ("blast_radius", "callers, importers and tests of a file or symbol"),
    "symbol": ("symbol", "where a symbol is defined"),
    "usages": ("usages", "where a name is used (AST references, not text)"),
    "map": ("map", "record which tests execute which code (test-impact map)"),
    "mcp": ("mcp", "serve these answers as MCP tools over stdio (for .mcp.json)"),
}


def _available() -> dict[str, tuple[str, str]]:
    """Commands whose module exists in this build (a command lands with its issue)."""
    from importlib.util import find_spec

    return {
        name: entry
        for name, entry in COMMANDS.items()
        if find_spec(f"sidekit_hooks.cli.commands.{entry[0]}") is not None
    }


def _usage() -> str:
    commands = _available()
    width = max(len(name) for name in commands) if commands else 0
    rows = "\n".join(f"  {name.ljust(width)}  {summary}" for name, (_, summary) in commands.items())
    return f"usage: sidekit COMMAND [options]\n\ncommands:\n{rows}\n\nsidekit COMMAND --help for a command's options"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    if args[0] in ("-V", "--version"):
        print(f"sidekit {__version__}")
        return 0
    from sidekit_hooks.core import fastjson

    # Arguments reach Python with undecodable bytes as lone surrogates (surrogateescape).
    bad = next((arg for arg in args if not fastjson.encodable(arg)), None)
    if bad is not None:
        shown = bad.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        print(
            f"sidekit: the argument {shown!r} is not valid UTF-8\n  fix: pass the text in UTF-8",
            file=sys.stderr,
        )
        return 2
    name = args[0]
    module = _command(name)
    if module is None:
        print(f"sidekit: unknown command {name!r}\n  fix: sidekit --help", file=sys.stderr)
        return 2
    fast = getattr(
        module, "fast_arguments", None
    )  # a warm query's few arguments, read without argparse
    parsed = fast(args[1:]) if fast is not None else None
    if parsed is None:
        parser = _parser_class()(prog=f"sidekit {name}", description=COMMANDS[name][1])
        module.add_arguments(parser)
        parsed = parser.parse_args(args[1:])
    return run_command(module, parsed)


def _parser_class() -> type[argparse.ArgumentParser]:
    """argparse's parser, whose error (and every subcommand's: they take the parent's class) ends
    with the command that shows what is accepted, as every other CLI error ends with its fix."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            self.print_usage(sys.stderr)
            self.exit(2, f"{self.prog}: error: {message}\n  fix: {self.prog} --help\n")

    return Parser


def _command(name: str) -> ModuleType | None:
    """The command's module; None when there is no such command in this build (a command lands with
    its issue). Imported directly: asking `find_spec` of every command first cost a warm query ~2
    ms."""
    if name not in COMMANDS:
        return None
    module = f"sidekit_hooks.cli.commands.{COMMANDS[name][0]}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise


UNEXPECTED = 3  # exit code of a bug in sidekit itself (1: a SidekitError, 2: bad arguments)


def run_command(module: object, parsed: argparse.Namespace) -> int:
    """The error funnel: a SidekitError prints its message and fix; anything else is a bug, whose
    traceback goes to a log file that the one-line message names (never to the terminal)."""
    from sidekit_hooks.core.errors import SidekitError

    try:
        return int(module.run(parsed))  # type: ignore[attr-defined]
    except SidekitError as exc:
        print(f"sidekit: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("sidekit: interrupted (^C)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the funnel's last resort
        where = log_unexpected(parsed, exc)
        print(
            f"sidekit: unexpected error: {type(exc).__name__}: {str(exc)[:200]}\n"
            f"  details: {where}\n  fix: sidekit doctor, then report the details file",
            file=sys.stderr,
        )
        return UNEXPECTED


def log_unexpected(parsed: argparse.Namespace, exc: BaseException) -> str:
    """Append the traceback to the project's `.sidekit/log/cli-errors.log` (or the user's state
    folder when the project folder does not exist: the CLI never creates it); the path written, or
    why not."""
    import datetime
    import os
    import traceback

    project = os.path.abspath(getattr(parsed, "project", None) or os.getcwd())
    if os.path.isdir(project) and not os.path.islink(os.path.join(project, ".sidekit")):
        folder = os.path.join(project, ".sidekit", "log")
    else:
        folder = os.path.join(
            os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state"), "sidekit"
        )
    path = os.path.join(folder, "cli-errors.log")
    from sidekit_hooks.core import safepath

    try:
        anchor = project if folder.startswith(project + os.sep) else ""
        safepath.makedirs(folder, anchor)  # never through a link out of the project
        fd = safepath.open_append(path, anchor)
        try:
            os.write(
                fd,
                (
                    f"--- {datetime.datetime.now().isoformat(timespec='seconds')} sidekit "
                    f"{' '.join(sys.argv[1:])[:500]!r}\n{''.join(traceback.format_exception(exc))}"
                ).encode("utf-8", "replace"),
            )
        finally:
            os.close(fd)
    except OSError as error:
        return f"(not written: {error})"
    return path
