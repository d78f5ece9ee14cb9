"""Rule packs written as TOML text, the way a team writes them by hand: one `[[rules]]` table and
its `[rules.when]` per rule. Standard library only: testing.acme builds its rule with it, and the
scenario build scripts import that."""

from __future__ import annotations

import json
from collections.abc import Sequence


def basic(value: object) -> str:
    """A TOML basic string or array of them (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def literal(regex: str) -> str:
    """A regex as a TOML literal string: no escapes to double; three quotes when it holds a
    quote."""
    return f"'''{regex}'''" if "'" in regex else f"'{regex}'"


def rule(
    rule_id: str,
    message: str,
    *,
    severity: str = "",
    see: str = "",
    sidecar: str = "specs",
    tools: Sequence[str] = ("Edit", "Write"),
    paths: Sequence[str] = (),
    exclude: Sequence[str] = (),
    added: str = "",
    absent: str = "",
    command: str = "",
    output: str = "",
) -> str:
    """One rule's tables, keys in the order the docs show them; empty ones are left out."""
    head = {"id": rule_id, "sidecar": sidecar, "message": message, "see": see, "severity": severity}
    lists = {"tools": list(tools), "paths": list(paths), "exclude": list(exclude)}
    patterns = {"added": added, "absent": absent, "command": command, "output": output}
    return (
        "[[rules]]\n"
        + "".join(f"{key} = {basic(value)}\n" for key, value in head.items() if value)
        + "\n[rules.when]\n"
        + "".join(f"{key} = {basic(value)}\n" for key, value in lists.items() if value)
        + "".join(f"{key} = {literal(value)}\n" for key, value in patterns.items() if value)
    )
