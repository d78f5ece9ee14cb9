"""Rule packs: layered TOML files compiled into a snapshot the hook reads with `fastjson` alone.

Floors: `globs`, `match`, `compile`, `locate`, `snapshot` and `detector` are standard library only
(the hook imports them); `schema`, `lint`, `examples` and `docs` may use pydantic and tomli-w
(CLI and tests only).
"""

from __future__ import annotations

# Packs are read in this order; a later layer overrides an earlier one rule by rule (by `id`).
LAYERS = ("builtin", "user", "project", "local")

# A pack from a cloned repository is semi-trusted: these caps keep a hostile or careless one cheap.
MAX_PACK_BYTES = 256 * 1024
MAX_RULES = 200  # per pack
MAX_PATTERN = 2_000  # characters in one regex or glob
MAX_NUDGE = 300  # characters: `[sidecar:<name>] <message> (see <see>)` stays under this (the contract's limit)
MAX_SCAN = 100_000  # characters of one text (added, command, output) a rule's regex looks at
MATCH_BUDGET = 0.05  # seconds one regex may run on one event before it is abandoned

SEVERITIES = ("low", "medium", "high")
