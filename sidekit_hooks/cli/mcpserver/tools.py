"""The MCP tools of `sidekit mcp`: definitions, argument checks, and the answers (no MCP SDK here).

Every tool calls the same answer function as its CLI command, so a tool's text is exactly the line
the command prints (without its newline). The definitions are sent with every model request, so
they are kept small: all of them together stay under DEFINITIONS_BUDGET bytes as serialised in
`tools/list` (a test holds it). Each description says, in one sentence, when to reach for the tool
instead of a raw command.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

from sidekit_hooks.core import fastjson
from sidekit_hooks.core.errors import SidekitError

# bytes: every tool's name, description and input schema, as tools/list sends them
DEFINITIONS_BUDGET = 2500
SERVER_NAME = "sidekit"
# The model calls these without a prompt: every input is bounded (a 20,000-id `failures` is
# refused).
MAX_ITEMS = 200  # per list argument
MAX_CHARS = 4096  # per string
# wall clock of one call (the index, the cache); `test` runs pytest and gets longer
TOOL_SECONDS = 120
TEST_SECONDS = 1800

# `test` takes test selection only (#19): anything else could write or delete outside the project
# (--basetemp, --junitxml, -o cache_dir=..., -p plugin, -c other.ini, --rootdir).
SELECT_FLAGS = frozenset({"-x", "--exitfirst", "--lf", "--last-failed", "--ff", "--failed-first"})
SELECT_OPTIONS = {
    "-k": "expression",
    "-m": "expression",
    "--maxfail": "count",
    "-n": "workers",
    "--numprocesses": "workers",
}
TEST_FIX = (
    "give only test selection: node ids or paths inside the project, -k EXPR, -m EXPR, -x, --lf, "
    "--ff, "
    "--maxfail N, -n N; for anything else run `sidekit test -- ARGS` in the shell (the user "
    "approves it)"
)

# `check` also refuses empty strings (but an empty `issue`) and an empty `allow`, as the CLI's
# parser does; saying so in every schema would cost bytes on every request.
STR = {"type": "string"}
STRS = {"type": "array", "items": STR}
ISSUE = {"type": "string"}
ALLOW = {"type": "array", "items": STR}


def _schema(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    return schema


# name -> (description, input schema). Keep the order docs/usage.md lists them in.
TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "status": (
        "Test status from the cache instead of a test run; since=last generation asks what "
        "changed.",
        _schema({"since": {"type": "integer"}}),
    ),
    "test": (
        "Run the tests (pytest, go, cargo, mvn) instead of a raw run, failures by cause; "
        "select=true: only what changed.",
        _schema({"args": STRS, "select": {"type": "boolean"}, "base": STR}),
    ),
    "failures": (
        "Why tests fail (clusters, or named tests; stacks=true) instead of rerunning the tests.",
        _schema({"tests": STRS, "stacks": {"type": "boolean"}}),
    ),
    "select": (
        "Tests the current change needs, and why, instead of running the whole suite.",
        _schema({"base": STR}),
    ),
    "tests_for": (
        "Test files that exercise a source file, instead of grep.",
        _schema({"path": STR}, ("path",)),
    ),
    "blast_radius": (
        "Callers, importers, tests of a .py/.ts/.js/.go/.rs/.java file[:Symbol] instead of grep.",
        _schema({"target": STR}, ("target",)),
    ),
    "symbol": (
        "Where a name (f, Cls.meth, mod:Cls) is defined and its signature, instead of grep.",
        _schema({"name": STR}, ("name",)),
    ),
    "usages": (
        "Every use of a name (AST: no comments or strings) instead of grep -rn.",
        _schema({"name": STR}, ("name",)),
    ),
    "scope_show": (
        "The task's file scope, instead of reading .sidekit/scope.toml.",
        _schema({}),
    ),
    "scope_set": (
        "Set the task's file scope (allow/deny globs) instead of editing .sidekit/scope.toml.",
        _schema({"allow": ALLOW, "deny": STRS, "issue": ISSUE}, ("allow",)),
    ),
}


def definitions() -> list[dict[str, Any]]:
    """The tools as `tools/list` lists them (name, description, inputSchema)."""
    return [
        {"name": name, "description": text, "inputSchema": schema}
        for name, (text, schema) in TOOLS.items()
    ]


def hook_definition() -> dict[str, Any]:
    """The `hook` tool of `sidekit mcp --hooks`: Claude Code's `mcp_tool` hook handlers call it with
    the event (pipeline/warm.py); listed only with `--hooks`, so the model's tools stay as they
    are."""
    from sidekit_hooks.pipeline import warm

    return {
        "name": warm.TOOL,
        "description": "Answers a Claude Code hook event as sidekit's command hook does.",
        "inputSchema": _schema({name: STR for name in warm.FIELDS}),
    }


_HOOK_LOCK = threading.Lock()


def hook_outcome(arguments: Any, project: str) -> tuple[str, bool]:
    """(text, is_error) of one `hook` call: what the command hook would print, never an error (a
    failure gives the event back to the command hook, pipeline/claim.py). One event at a time: the
    runtime keeps per-call state in its modules, as in the one-event process it was made for."""
    from sidekit_hooks.pipeline import warm

    if not isinstance(arguments, dict):
        return "", False
    with _HOOK_LOCK:
        try:
            return warm.answer(arguments), False
        except Exception as exc:  # noqa: BLE001 - logged; the command hook answers
            from sidekit_hooks.core import hooklog

            hooklog.error(project, "hook", "warm", exc)
            return "", False


def check(name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """The arguments when they fit the tool's schema; else a SidekitError naming the key and the
    fix."""
    if name not in TOOLS:
        raise SidekitError(f"unknown tool {name!r}", f"use one of: {', '.join(TOOLS)}")
    schema = TOOLS[name][1]
    given = dict(arguments or {})
    properties: dict[str, dict[str, Any]] = schema["properties"]
    usage = f"call {name} with {_usage(schema)}"
    for key in given:
        if key not in properties:
            takes = ", ".join(properties) or "no arguments"
            raise SidekitError(f"{name}: unknown argument {key!r} ({name} takes {takes})", usage)
    for key in schema.get("required", ()):
        if key not in given:
            raise SidekitError(f"{name}: {key!r} is required", usage)
    for key, value in given.items():
        problem = _problem(value, properties[key])
        if problem:
            raise SidekitError(f"{name}: {key!r} {problem}", usage)
    if name == "select" or name == "test":
        base = given.get("base")
        if isinstance(base, str) and base.startswith("-"):
            raise SidekitError(
                f"{name}: 'base' must be a revision, not an option ({base[:40]!r})", usage
            )
    return given


def check_test_args(args: list[str], project: str) -> list[str]:
    """`args` when they only select tests inside `project`; else a SidekitError naming the fix."""
    root = os.path.realpath(project)
    at = 0
    while at < len(args):
        word = args[at]
        flag, joined, value = _split_option(word)
        if word in SELECT_FLAGS:
            pass
        elif flag in SELECT_OPTIONS:
            if not joined:
                at += 1
                if at == len(args):
                    raise SidekitError(f"test: {flag} needs a value", TEST_FIX)
                value = args[at]
            _check_value(flag, value)
        elif word.startswith(("-", "@")):
            raise SidekitError(
                f"test: {word[:60]!r} is not test selection; the MCP test tool refuses it", TEST_FIX
            )
        else:
            _check_inside(word, root)
        at += 1
    return args


def _split_option(word: str) -> tuple[str, bool, str]:
    """(`-k`, True, "expr") for `-kexpr` / `--maxfail=3`; (word, False, "") otherwise."""
    if word.startswith("--") and "=" in word:
        flag, _, value = word.partition("=")
        return flag, True, value
    if len(word) > 2 and word[:2] in ("-k", "-m", "-n") and not word.startswith("--"):
        return word[:2], True, word[2:].removeprefix("=")
    return word, False, ""


def _check_value(flag: str, value: str) -> None:
    kind = SELECT_OPTIONS[flag]
    if kind == "count" and not value.isdigit():
        raise SidekitError(f"test: {flag} takes a number, not {value[:40]!r}", TEST_FIX)
    if kind == "workers" and not (value.isdigit() or value in ("auto", "logical")):
        raise SidekitError(
            f"test: {flag} takes a number, auto or logical, not {value[:40]!r}", TEST_FIX
        )


def _check_inside(target: str, root: str) -> None:
    """A node id or path (`tests/test_a.py::test_x[param]`) must name something inside the
    project."""
    path = target.split("::", 1)[0]
    real = os.path.realpath(os.path.join(root, path))
    if real != root and not real.startswith(root + os.sep):
        raise SidekitError(f"test: {target[:80]!r} is outside the project", TEST_FIX)


def _problem(value: Any, rule: dict[str, Any]) -> str:
    kind = rule["type"]
    if kind == "string":
        if not isinstance(value, str):
            return f"must be a string, not {_json_type(value)}"
        if len(value) > MAX_CHARS:
            return f"is {len(value)} characters long; at most {MAX_CHARS}"
        if not fastjson.encodable(
            value
        ):  # a lone surrogate (`\ud800`) could not even be written back in an answer
            return "holds a lone surrogate (not text); send UTF-8 text"
        return "must not be empty" if not value.strip() and rule is not ISSUE else ""
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"must be an integer, not {_json_type(value)}"
        return "must be >= 0" if value < 0 else ""
    if kind == "boolean":
        return "" if isinstance(value, bool) else f"must be true or false, not {_json_type(value)}"
    if not isinstance(value, list):  # array of strings
        return f"must be a list of strings, not {_json_type(value)}"
    if len(value) > MAX_ITEMS:
        return f"has {len(value)} items; at most {MAX_ITEMS} per call"
    if not value and rule is ALLOW:
        return "needs at least one glob"
    for position, item in enumerate(value):
        problem = _problem(item, rule["items"])
        if problem:
            return f"item {position} {problem}"
    return ""


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    for kind, name in (
        (bool, "a boolean"),
        (int, "an integer"),
        (float, "a number"),
        (str, "a string"),
        (list, "a list"),
        (dict, "an object"),
    ):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _usage(schema: dict[str, Any]) -> str:
    required = set(schema.get("required", ()))
    examples = {"string": '"..."', "integer": "0", "boolean": "true", "array": '["..."]'}
    parts = [
        f'"{key}": {examples[rule["type"]]}'
        for key, rule in schema["properties"].items()
        if key in required
    ]
    optional = [key for key in schema["properties"] if key not in required]
    return (
        "{" + ", ".join(parts) + "}" + (f" (optional: {', '.join(optional)})" if optional else "")
    )


def outcome(
    name: str,
    arguments: Any,
    project: str,
    run_test: Callable[..., tuple[dict[str, Any], int]] | None = None,
) -> tuple[str, bool]:
    """(text, is_error) of one tool call, whoever serves it (the front or the SDK's server): the
    line the CLI prints, or the cause and the fix as a tool error (never a traceback: that is
    logged)."""
    try:
        return answer(name, check(name, arguments), project, run_test), False
    except SidekitError as exc:
        return f"sidekit: {exc}", True
    # a bug must reach the model as a tool error, not kill the server
    except Exception as exc:  # noqa: BLE001
        import argparse

        from sidekit_hooks.cli import log_unexpected

        where = log_unexpected(
            argparse.Namespace(project=project), exc
        )  # the traceback, as the CLI's
        return (
            f"sidekit: {name}: unexpected error: {type(exc).__name__}: {str(exc)[:200]}\n"
            f"  details: {where}\n  fix: sidekit doctor, then report the details file"
        ), True


def timed_out(name: str) -> str:
    """The tool error of a call stopped after its time (TOOL_SECONDS, TEST_SECONDS for `test`)."""
    return (
        f"sidekit: {name} did not answer within {seconds_for(name)} s; it was stopped\n"
        "  fix: narrow the request (fewer tests, a smaller name), or run it in the shell"
    )


def seconds_for(name: str) -> int:
    return TEST_SECONDS if name == "test" else TOOL_SECONDS


def answer(
    name: str,
    arguments: dict[str, Any],
    project: str,
    run_test: Callable[..., tuple[dict[str, Any], int]] | None = None,
) -> str:
    """The tool's text: the line the CLI command prints for the same request (checked arguments)."""
    from sidekit_hooks.answers import render

    return render.dumps(_answer(name, arguments, project, run_test))


def _answer(
    name: str,
    args: dict[str, Any],
    project: str,
    run_test: Callable[..., tuple[dict[str, Any], int]] | None,
) -> dict[str, Any]:
    # Imports stay inside each branch: a tool loads only what its command needs (start-up, memory).
    if name == "status":
        from sidekit_hooks.cli.commands import status

        return status.answer(project, args.get("since"))
    if name == "test":
        from sidekit_hooks.cli.commands import test

        call = run_test or test.answer
        selection = check_test_args(list(args.get("args", [])), project)
        return call(project, selection, bool(args.get("select")), args.get("base"))[0]
    if name == "failures":
        from sidekit_hooks.cli.commands import failures

        return failures.answer(project, list(args.get("tests", [])), bool(args.get("stacks")))
    if name == "select":
        from sidekit_hooks.cli.commands import select

        return select.answer(project, args.get("base"))
    if name == "tests_for":
        from sidekit_hooks.cli.commands import tests_for

        return tests_for.answer(project, args["path"])
    if name == "blast_radius":
        from sidekit_hooks.cli.commands import blast_radius

        return blast_radius.answer(project, args["target"])
    if name == "symbol":
        from sidekit_hooks.cli.commands import symbol

        return symbol.answer(project, args["name"])
    if name == "usages":
        from sidekit_hooks.cli.commands import usages

        return usages.answer(project, args["name"])
    from sidekit_hooks.cli.commands import scope

    if name == "scope_show":
        return scope.show_answer(project)
    return scope.agent_set_answer(
        project, list(args["allow"]), list(args.get("deny", [])), args.get("issue", "")
    )
