"""Whether a scope the agent asks for (MCP `scope_set`) only narrows the one in force.

The agent may make its own fence tighter, never wider: a wider scope becomes a proposal the user
sees (`sidekit scope show`, `sidekit doctor`) and accepts with `sidekit scope set`. The test is
conservative: what cannot be shown to lie inside the current scope counts as widening.
"""

from __future__ import annotations

from sidekit_hooks.core import globs
from sidekit_hooks.detectors.scope.model import Scope

WILDCARDS = frozenset("*?[")


def widening(current: Scope | None, wanted: Scope) -> str:
    """Why `wanted` is wider than `current` ("" when every path it allows, `current` allows too)."""
    if current is None:
        return ""  # no scope: every file is in it, so any scope narrows it
    dropped = [glob for glob in current.deny if glob not in wanted.deny]
    if dropped:
        return f"it drops the deny glob {dropped[0]!r}"
    kept = [glob for glob in current.allow if glob.startswith("!") and glob not in wanted.allow]
    if kept:
        return f"it drops the exclusion {kept[0]!r}"
    if not current.allow:
        return ""  # the current scope only denies: with its denies kept, nothing is wider
    if not wanted.allow:
        return "it allows every file"
    for glob in wanted.allow:
        if not glob.startswith("!") and not _inside(glob, current.allow):
            return f"{glob!r} is not inside the current scope ({', '.join(current.allow[:3])})"
    return ""


def _inside(glob: str, allowed: list[str]) -> bool:
    if glob in allowed:
        return True
    parts = [part for part in glob.strip("/").split("/") if part]
    literal = []
    for part in parts:
        if WILDCARDS & set(part):
            break
        literal.append(part)
    if len(literal) == len(
        parts
    ):  # a plain path: inside when the current scope selects it (and all below)
        return globs.covering(allowed, "/".join(parts)) != "" or globs.matches_any(
            allowed, "/".join(parts)
        )
    return bool(literal) and globs.covering(allowed, "/".join(literal)) != ""
