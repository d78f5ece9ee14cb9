"""Rule packs: layered TOML files compiled into a snapshot the hook reads with `fastjson` alone.

Floors: `globs`, `match`, `sre`, `compiler`, `locate`, `snapshot` and `detector` are standard
library only (the hook imports them; `compiler` and `locate` only when a pack changed); `schema`,
`lint` and `docs` use pydantic, `examples` turns a rule's examples into hook payloads (CLI and tests
only).
"""

from __future__ import annotations

# `[sidecar:<name>] <message> (see <see>)` stays under the nudge limit (docs/rule-packs.md, Limits).
from sidekit_hooks.nudges.delivery import MAX_NUDGE as MAX_NUDGE  # re-exported for the rule modules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Packs are read in this order; a later layer overrides an earlier one rule by rule (by `id`).
LAYERS = ("builtin", "user", "project", "local")

# A pack from a cloned repository is semi-trusted: these caps keep a hostile or careless one cheap.
MAX_PACK_BYTES = 256 * 1024
MAX_RULES = 200  # per pack
MAX_PATTERN = 2_000  # characters in one regex or glob
MAX_SCAN = 100_000  # characters of one text (added, command, output) a rule's regex looks at
MATCH_BUDGET = 0.05  # seconds one regex may run on one event before it is abandoned

SEVERITIES = ("low", "medium", "high")


def cited(rule: dict[str, Any]) -> str:
    """What a rule says when it fires: its message, citing `see` when it has one."""
    message = rule.get("message") or ""
    return f"{message} (see {rule['see']})" if rule.get("see") else message
