"""The conventions sidecar's one check that a regex cannot make: type hints on a multi-line `def`.

The learned conventions are ordinary rules in `sidecar_rules/conventions.toml` (`sidekit conventions
learn`), matched by the rule engine. Their type-hints regex reads a one-line signature only; a
signature spread over several lines (as formatters write long ones) is checked here, with the C
parser, against the same learned rule, as the compiled packs hold it (the snapshot the specs sidecar
reads too, so a disabled or overridden rule is honoured), and with the rule engine's own `when`
matching. Standard library only; on most events this costs a substring test.
"""

from __future__ import annotations

from sidekit_hooks.core.hook_table import judged_by
from sidekit_hooks.detectors import rank_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Finding

RULE_ID = "conventions.type-hints"


class ConventionsDetector:
    name = "conventions"
    hooks = judged_by("conventions")

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if event.kind != "write" or not event.path.endswith(".py") or "def " not in event.added:
            return []
        signatures = multiline_public_signatures(event.added)
        if not signatures:
            return []
        from sidekit_hooks.rules.match import applies

        rule = learned_rule(ctx, RULE_ID)
        if rule is None or not applies(rule, event):
            return []
        for name, source in signatures:
            if not annotated(source):
                from sidekit_hooks.nudges.findings import Finding
                from sidekit_hooks.nudges.recheck import before_state

                return [
                    Finding(
                        "conventions",
                        f"{rule['message']} (`{name}` in {event.path})",
                        key=f"rule:{RULE_ID}:{event.path}:{name}",
                        rule_id=RULE_ID,
                        path=event.path,
                        severity=str(rule.get("severity", "medium")),
                        subject=name,
                        recheck={
                            "kind": "hints",
                            "path": event.path,
                            "symbol": name,
                            "before": before_state(event),
                        },
                        rank=rank_of("conventions"),
                    )
                ]
        return []


CONVENTIONS = ConventionsDetector()


def multiline_public_signatures(text: str) -> list[tuple[str, str]]:
    """(name, signature source) of each public `def` whose signature spans several lines. No
    `re`."""
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
    """Every parameter but self/cls annotated, and a return annotation. Unparseable counts as
    fine."""
    import _ast

    try:
        tree = compile(
            signature + "\n    pass\n", "<sidekit>", "exec", _ast.PyCF_ONLY_AST, dont_inherit=True
        )
    except (SyntaxError, ValueError):
        return True
    node = tree.body[0] if isinstance(tree, _ast.Module) and tree.body else None
    if not isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef)):
        return True
    params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    return node.returns is not None and all(
        a.annotation is not None for a in params if a.arg not in ("self", "cls")
    )


def learned_rule(ctx: Context, rule_id: str) -> dict[str, Any] | None:
    """The learned rule as the compiled packs hold it (enabled rules only, the last layer
    winning)."""
    rules = (
        ctx.packs() if ctx.read_snapshot is not None or ctx.snapshot is not None else _packs(ctx)
    ).get("rules")
    for rule in rules if isinstance(rules, list) else ():
        if (
            isinstance(rule, dict)
            and rule.get("id") == rule_id
            and isinstance(rule.get("message"), str)
        ):
            return rule
    return None


def _packs(ctx: Context) -> dict[str, Any]:
    from sidekit_hooks.detectors.specs import packs_of

    return packs_of(ctx, "PostToolUse")
