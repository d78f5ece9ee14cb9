"""The MCP tools of `sidekit mcp`: definitions, argument checks, and the answers (no MCP SDK here).

Every tool calls the same answer function as its CLI command, so a tool's text is exactly the line
the command prints (without its newline). The definitions are sent with every model request, so
they are kept small: all of them together stay under DEFINITIONS_BUDGET bytes as serialised in
`tools/list` (a test holds it). Each description says, in one sentence, when to reach for the tool
instead of a raw command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sidekit_hooks.core.errors import SidekitError

DEFINITIONS_BUDGET = 2500  # bytes: every tool's name, description and input schema, as tools/list sends them
SERVER_NAME = "sidekit"

# `check` also refuses empty strings (but an empty `issue`) and an empty `allow`, as the CLI's parser
# does; saying so in every schema would cost bytes on every request.
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


# name -> (description, input schema). Keep the order of the contract.
TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "status": (
        "Test status from the cache instead of a test run; since=last generation asks what changed.",
        _schema({"since": {"type": "integer"}}),
    ),
    "test": (
        "Run the tests (pytest, go, cargo, mvn) instead of a raw run, failures by cause; select=true: only what changed.",
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
        "Callers, importers and tests of path.py[:Symbol], before a change instead of grep.",
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
    return [{"name": name, "description": text, "inputSchema": schema} for name, (text, schema) in TOOLS.items()]


def check(name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """The arguments when they fit the tool's schema; else a SidekitError naming the key and the fix."""
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
    return given


def _problem(value: Any, rule: dict[str, Any]) -> str:
    kind = rule["type"]
    if kind == "string":
        if not isinstance(value, str):
            return f"must be a string, not {_json_type(value)}"
        return "must not be empty" if not value.strip() and rule is not ISSUE else ""
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return f"must be an integer, not {_json_type(value)}"
        return "must be >= 0" if value < 0 else ""
    if kind == "boolean":
        return "" if isinstance(value, bool) else f"must be true or false, not {_json_type(value)}"
    if not isinstance(value, list):  # array of strings
        return f"must be a list of strings, not {_json_type(value)}"
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
    for kind, name in ((bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string"),
                       (list, "a list"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _usage(schema: dict[str, Any]) -> str:
    required = set(schema.get("required", ()))
    examples = {"string": '"..."', "integer": "0", "boolean": "true", "array": '["..."]'}
    parts = [f'"{key}": {examples[rule["type"]]}' for key, rule in schema["properties"].items() if key in required]
    optional = [key for key in schema["properties"] if key not in required]
    return "{" + ", ".join(parts) + "}" + (f" (optional: {', '.join(optional)})" if optional else "")


def answer(name: str, arguments: dict[str, Any], project: str,
           run_test: Callable[..., tuple[dict[str, Any], int]] | None = None) -> str:
    """The tool's text: the line the CLI command prints for the same request (checked arguments)."""
    from sidekit_hooks.answers import render

    return render.dumps(_answer(name, arguments, project, run_test))


def _answer(name: str, args: dict[str, Any], project: str,
            run_test: Callable[..., tuple[dict[str, Any], int]] | None) -> dict[str, Any]:
    # Imports stay inside each branch: a tool loads only what its command needs (start-up, memory).
    if name == "status":
        from sidekit_hooks.cli.commands import status

        return status.answer(project, args.get("since"))
    if name == "test":
        from sidekit_hooks.cli.commands import test

        call = run_test or test.answer
        return call(project, list(args.get("args", [])), bool(args.get("select")), args.get("base"))[0]
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
    return scope.set_answer(project, list(args["allow"]), list(args.get("deny", [])), args.get("issue", ""))
