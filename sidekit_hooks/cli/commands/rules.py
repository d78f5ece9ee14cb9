"""`sidekit rules list|lint|test|new`: see, check, test and scaffold rule packs."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from sidekit_hooks import __version__
from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._shared import add_project, project_of
from sidekit_hooks.core.errors import SidekitError

NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list", help="every rule the hook applies, with its origin and overrides"
    )
    lint = actions.add_parser(
        "lint", help="check packs: every error names file, line, key and the fix"
    )
    test = actions.add_parser(
        "test", help="run every example of every pack through the hook's matcher"
    )
    new = actions.add_parser("new", help="scaffold a pack with one example rule")
    for sub in (lint, test):
        sub.add_argument(
            "paths", nargs="*", metavar="PATH", help="pack files or folders (default: every layer)"
        )
    new.add_argument("name", help="the pack's name, e.g. acme-api (the file becomes NAME.toml)")
    where = new.add_mutually_exclusive_group()
    where.add_argument(
        "--local", action="store_true", help="in .sidekit/rules/ (yours, not committed)"
    )
    where.add_argument(
        "--user", action="store_true", help="in ~/.config/sidekit/rules/ (every project of yours)"
    )
    for sub in (listing, lint, test, new):
        add_project(sub)
        if sub is not new:
            sub.add_argument(
                "--format",
                choices=("text", "json"),
                default="text",
                help="text for people, json for agents",
            )


def run(args: argparse.Namespace) -> int:
    project = project_of(args)
    if args.action == "list":
        return list_rules(project, args.format)
    if args.action == "lint":
        return lint_packs(args.paths, project, args.format)
    if args.action == "test":
        return test_packs(args.paths, project, args.format)
    return new_pack(args.name, project, local=args.local, user=args.user)


# --- list
# -------------------------------------------------------------------------------------------


def list_rules(project: str, fmt: str) -> int:
    from sidekit_hooks.rules import snapshot

    snap = snapshot.current(project)
    entries: dict[str, dict[str, Any]] = {}
    for pack in snap["packs"]:
        for rule in pack["rules"] if not pack["error"] else []:
            where = f"{pack['layer']} {pack['file']}"
            previous = entries.get(rule["id"])
            entry = {
                "id": rule["id"],
                "sidecar": rule["sidecar"],
                "severity": rule["severity"],
                "layer": pack["layer"],
                "file": pack["file"],
                "overrides": [],
                "disabledBy": "",
            }
            if previous is not None:
                entry["overrides"] = previous["overrides"] + [
                    f"{previous['layer']} {previous['file']}"
                ]
                if not rule["enabled"]:
                    entry = dict(previous, disabledBy=where)
            elif not rule["enabled"]:
                # turns off a rule no earlier layer has: say so, it is likely a typo
                entry["disabledBy"] = where
            entries[rule["id"]] = entry
    answer = {"rules": list(entries.values()), "broken": snap["broken"]}
    if fmt == "json":
        render.emit(answer)
        return 0
    width = max((len(e["id"]) for e in entries.values()), default=0)
    for entry in entries.values():
        state = "off" if entry["disabledBy"] else entry["severity"]
        note = f"  disabled by {entry['disabledBy']}" if entry["disabledBy"] else ""
        note += "".join(f"  overrides {where}" for where in entry["overrides"])
        print(
            f"{entry['id'].ljust(width)}  {entry['sidecar']:<12} {state:<6}  {entry['layer']:<7}  "
            f"{entry['file']}{note}"
        )
    for broken in snap["broken"]:
        print(f"broken (skipped): {broken['error'].splitlines()[0]}")
    if not entries and not snap["broken"]:
        print("no rules: sidekit rules new NAME scaffolds a pack")
    return 0


# --- lint
# -------------------------------------------------------------------------------------------


def lint_packs(paths: list[str], project: str, fmt: str) -> int:
    from sidekit_hooks.rules.authoring import lint

    found = lint.targets(paths, project)
    checked = [lint.check_file(path, project, layer) for layer, path in found]
    over = _total_size_problem(found)
    errors = sum(len(c.errors) for c in checked) + bool(over)
    warnings = sum(len(c.warnings) for c in checked)
    rules = sum(
        len(c.data.get("rules", []))
        for c in checked
        if c.data and isinstance(c.data.get("rules"), list)
    )
    if fmt == "json":
        render.emit(
            {
                "packs": len(checked),
                "rules": rules,
                "errors": errors,
                "warnings": warnings,
                "problems": [line for c in checked for line in c.rendered()]
                + ([over] if over else []),
            }
        )
        return 1 if errors else 0
    for line in (line for c in checked for line in c.rendered()):
        print(line, file=sys.stdout)
    if over:
        print(over)
    print(
        f"{_count(len(checked), 'pack')}, {_count(rules, 'rule')}: {_count(errors, 'error')}, "
        f"{_count(warnings, 'warning')}"
    )
    return 1 if errors else 0


def _total_size_problem(found: list[tuple[str, str]]) -> str:
    """The hook skips packs past the total size cap (user, project and local layers together): say
    so here."""
    from sidekit_hooks.rules import snapshot

    total = 0
    for layer, path in found:
        try:
            total += os.path.getsize(path) if layer != "builtin" else 0
        except OSError:
            continue
        if total > snapshot.MAX_TOTAL_BYTES:
            return (
                f"{path}: the packs together are over {snapshot.MAX_TOTAL_BYTES // 1024} KB; the "
                "hook skips this "
                "one and every later one\n  fix: trim the packs or remove one (sidekit rules list "
                "shows them)"
            )
    return ""


# --- test
# -------------------------------------------------------------------------------------------


def _worst_match_ms(rules: list[dict[str, Any]], data: dict[str, Any]) -> int:
    """The slowest of the pack's examples (and a 5-folder-deep Write), matched against every rule of
    the pack."""
    from sidekit_hooks.nudges.events import parse_event
    from sidekit_hooks.rules import match
    from sidekit_hooks.rules.authoring import examples

    samples = [
        examples.payload(ex) for raw in data.get("rules", []) for ex in raw.get("examples", [])
    ][:50]
    samples.append(
        {
            "hook_event_name": "PostToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": "a/b/c/d/e/x.py", "content": "x = 1\n" * 200},
        }
    )
    worst = 0.0
    for sample in samples:
        event = parse_event(
            sample.get("hook_event_name", "PostToolUse"), sample, examples.EXAMPLE_PROJECT
        )
        started = time.monotonic()
        try:
            match.match_rules(rules, event, time.monotonic() + 5)
        except match.RegexTimeout:
            pass
        worst = max(worst, time.monotonic() - started)
    return round(worst * 1000)


def _budget_failures(display: str, compile_ms: int, match_ms: int) -> list[str]:
    """A pack that cannot compile or match within what a hook may spend fails its test, with the
    fix."""
    from sidekit_hooks.pipeline import runtime
    from sidekit_hooks.rules import snapshot

    out = []
    if compile_ms > snapshot.COMPILE_BUDGET * 1000:
        out.append(
            f"{display}: compiling takes {compile_ms} ms, over the "
            f"{snapshot.COMPILE_BUDGET * 1000:.0f} ms a hook "
            "spends on it; split the pack or shorten its regexes"
        )
    if match_ms > runtime.DETECTOR_BUDGET * 1000 / 2:
        out.append(
            f"{display}: matching one event takes {match_ms} ms, over half the "
            f"{runtime.DETECTOR_BUDGET * 1000:.0f} ms "
            "every sidecar shares; narrow `paths`/`tools` or simplify its regexes"
        )
    return out


def test_packs(paths: list[str], project: str, fmt: str) -> int:
    from sidekit_hooks.rules import compiler, locate, match, snapshot
    from sidekit_hooks.rules.authoring import examples, lint

    results = []
    for layer, path in lint.targets(paths, project):
        checked = lint.check_file(path, project, layer)
        result: dict[str, Any] = {"pack": "", "file": checked.display, "examples": 0, "failed": []}
        results.append(result)
        if checked.errors or checked.data is None:
            result["broken"] = checked.rendered()[0] if checked.problems else "unreadable"
            continue
        data = checked.data
        result["pack"] = data["pack"]["name"]
        started = time.monotonic()
        compiled = compiler.compile_pack(data, {"file": checked.display, "layer": layer})["rules"]
        snapshot.precompile(compiled, {})
        result["compileMs"] = round((time.monotonic() - started) * 1000)
        result["matchMs"] = _worst_match_ms(compiled, data)
        result["failed"] += _budget_failures(
            checked.display, result["compileMs"], result["matchMs"]
        )
        lines = locate.lines_of(checked.text)
        for index, (raw, rule) in enumerate(zip(data.get("rules", []), compiled, strict=False)):
            for number, example in enumerate(raw.get("examples", [])):
                result["examples"] += 1
                try:
                    fired = examples.fires(rule, example)
                except match.RegexTimeout:
                    fired = None
                if fired is example["fires"]:
                    continue
                at = ("rules", index, "examples", number)
                said = (
                    "its regex timed out"
                    if fired is None
                    else "it did not"
                    if example["fires"]
                    else "it fired"
                )
                want = "to fire" if example["fires"] else "not to fire"
                result["failed"].append(
                    f"{checked.display}:{locate.line_of(lines, at)}: {compiler.dotted(at)} "
                    f"({rule['id']}): expected the rule {want}; {said}"
                )
    failed = sum(len(r["failed"]) + ("broken" in r) for r in results)
    if fmt == "json":
        render.emit({"packs": results, "failed": failed})
        return 1 if failed else 0
    for result in results:
        name = f"{result['pack']} ({result['file']})" if result["pack"] else result["file"]
        if "broken" in result:
            print(f"BROKEN {name}\n  {result['broken'].replace(chr(10), chr(10) + '  ')}")
            continue
        verdict = "FAIL" if result["failed"] else "ok"
        tail = f", {len(result['failed'])} failed" if result["failed"] else ""
        print(f"{verdict:<6} {name}: {_count(result['examples'], 'example')}{tail}")
        for line in result["failed"]:
            print(f"  {line}")
    total = sum(r["examples"] for r in results)
    print(
        f"{_count(len(results), 'pack')}, {_count(total, 'example')}: "
        f"{'all as expected' if not failed else f'{failed} failed'}"
    )
    return 1 if failed else 0


# --- new
# --------------------------------------------------------------------------------------------


def new_pack(name: str, project: str, *, local: bool = False, user: bool = False) -> int:
    import tomli_w

    from sidekit_hooks.rules import snapshot

    if not name or not set(name) <= NAME_CHARS or name[0] in "-_.":
        raise SidekitError(
            f"{name!r} cannot be a pack name (lowercase letters, digits, - _ . only)",
            "sidekit rules new my-pack",
        )
    folder = (
        snapshot.user_dir()
        if user
        else os.path.join(project, snapshot.LOCAL_DIR if local else snapshot.PACK_DIR)
    )
    path = os.path.join(folder, f"{name}.toml")
    display = snapshot.display_path(path, project)
    if os.path.exists(path):
        raise SidekitError(
            f"{display} already exists",
            f"edit it, or pick another name: sidekit rules new {name}-2",
        )
    header = (
        f"# Rule pack scaffolded by `sidekit rules new {name}`. Format: docs/rule-packs.md\n"
        f"# Check it with: sidekit rules test {display}\n\n"
    )
    os.makedirs(folder, exist_ok=True)
    with open(path, "x", encoding="utf-8") as handle:
        handle.write(header + tomli_w.dumps(scaffold(name)))
    print(f"created {display}")
    print(f"next: edit the example rule, then run: sidekit rules test {display}")
    return 0


def scaffold(name: str) -> dict[str, Any]:
    """A pack with one rule that works as written, and one example each way."""
    major, minor = __version__.split(".")[:2]
    return {
        "pack": {
            "name": name,
            "version": "0.1.0",
            "requires": f">={major}.{minor}",
            "description": "What the agent should know in this project",
        },
        "rules": [
            {
                "id": f"{name}.no-print",
                "sidecar": name,
                "message": "Library code logs through the project's logger, not print(); use log "
                "= logging.getLogger(__name__).",
                "severity": "low",
                "when": {
                    "tools": ["Edit", "Write"],
                    "paths": ["**/*.py"],
                    "exclude": ["tests/**", "scripts/**"],
                    "added": r"^\s*print\(",
                },
                "examples": [
                    {
                        "fires": True,
                        "tool": "Write",
                        "path": "app/service.py",
                        "content": "def run():\n    print('starting')\n",
                    },
                    {
                        "fires": False,
                        "tool": "Write",
                        "path": "tests/test_service.py",
                        "content": "print('debug')\n",
                    },
                ],
            }
        ],
    }


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
