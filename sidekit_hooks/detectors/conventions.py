"""The conventions sidecar's one check that a regex cannot make: type hints on a multi-line `def`.

The learned conventions are ordinary rules in `sidecar_rules/conventions.toml` (`sidekit conventions
learn`), matched by the rule engine. Their type-hints regex reads a one-line signature only; a
signature spread over several lines (as formatters write long ones) is checked here, with the C
parser, against the same learned rule: its message, its paths and excludes, its `enabled` flag.
Standard library only; on most events this costs a substring test.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import safepath

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Finding

RULE_ID = "conventions.type-hints"
PACKS = (os.path.join(".sidekit", "rules", "conventions.toml"), os.path.join("sidecar_rules", "conventions.toml"))


class ConventionsSidecar:
    name = "conventions"
    hooks = frozenset({"PostToolUse"})

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if event.kind != "write" or not event.path.endswith(".py") or "def " not in event.added:
            return []
        signatures = multiline_public_signatures(event.added)
        if not signatures:
            return []
        rule = learned_rule(ctx.project, RULE_ID)
        if rule is None or rule.get("enabled") is False or not applies(rule.get("when", {}), event):
            return []
        for name, source in signatures:
            if not annotated(source):
                from sidekit_hooks.nudges.findings import Finding

                from sidekit_hooks.nudges.recheck import before_state

                return [Finding("conventions", f"{rule['message']} (`{name}` in {event.path})",
                                key=f"rule:{RULE_ID}:{event.path}:{name}", rule_id=RULE_ID, path=event.path,
                                severity=str(rule.get("severity", "medium")), subject=name,
                                recheck={"kind": "hints", "path": event.path, "symbol": name,
                                         "before": before_state(event)})]
        return []


CONVENTIONS = ConventionsSidecar()


def multiline_public_signatures(text: str) -> list[tuple[str, str]]:
    """(name, signature source) of each public `def` whose signature spans several lines. No `re`."""
    lines = text.splitlines()
    found: list[tuple[str, str]] = []
    for start, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith(("def ", "async def ")) or stripped.endswith(":"):
            continue
        name = stripped.split("def ", 1)[1].split("(", 1)[0].strip()
        if not name or name.startswith("_"):
            continue
        depth = 0
        for end in range(start, min(len(lines), start + 40)):
            code = lines[end].split("#", 1)[0]
            depth += code.count("(") + code.count("[") + code.count("{")
            depth -= code.count(")") + code.count("]") + code.count("}")
            if depth <= 0 and code.rstrip().endswith(":"):
                if end > start:
                    found.append((name, "\n".join(part.strip() for part in lines[start : end + 1])))
                break
    return found


def annotated(signature: str) -> bool:
    """Every parameter but self/cls annotated, and a return annotation. Unparseable counts as fine."""
    import _ast

    try:
        tree = compile(signature + "\n    pass\n", "<sidekit>", "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError):
        return True
    node = tree.body[0] if isinstance(tree, _ast.Module) and tree.body else None
    if not isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef)):
        return True
    params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    return node.returns is not None and all(a.annotation is not None for a in params if a.arg not in ("self", "cls"))


def learned_rule(project: str, rule_id: str) -> dict[str, Any] | None:
    """The rule from the local pack, else the project's committed one (rare path: tomllib loads here)."""
    import tomllib

    for relative in PACKS:
        data = safepath.read_project_file(project, relative, 4 << 20)
        try:
            pack = tomllib.loads(data.decode("utf-8")) if data is not None else {}
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        for rule in pack.get("rules", []):
            if isinstance(rule, dict) and rule.get("id") == rule_id and isinstance(rule.get("message"), str):
                return rule
    return None


def applies(when: dict[str, Any], event: Event) -> bool:
    """The rule's own `tools`, `paths` and `exclude` conditions."""
    from sidekit_hooks.core.globs import matches_any

    tools, paths, exclude = when.get("tools"), when.get("paths"), when.get("exclude")
    if isinstance(tools, list) and event.tool not in tools:
        return False
    if isinstance(paths, list) and not matches_any(paths, event.path):
        return False
    return not (isinstance(exclude, list) and matches_any(exclude, event.path))
