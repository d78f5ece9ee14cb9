"""The floors of the house, lowest first: a module may import its own floor and the floors below.

Read by `tests/test_floors.py` (which builds the import graph from the AST) and drawn in
`docs/architecture.md`; nothing at run time imports it.
"""

from __future__ import annotations

FLOORS: tuple[tuple[str, ...], ...] = (
    # JSON, paths, logs, errors, globs, shell; the hook event table, which every floor reads
    ("sidekit_hooks", "sidekit_hooks.core"),
    # navigation, the test cache, nudges, compact answers
    ("sidekit_hooks.code", "sidekit_hooks.status", "sidekit_hooks.nudges", "sidekit_hooks.answers"),
    # test impact; the runners that feed the cache; the OpenTelemetry export (worker and CLI only)
    ("sidekit_hooks.impact", "sidekit_hooks.runners", "sidekit_hooks.telemetry"),
    ("sidekit_hooks.rules",),  # rule packs on the hot path
    (
        "sidekit_hooks.detectors",
        "sidekit_hooks.rules.authoring",
    ),  # the sidecars; pack authoring (CLI)
    # one hook invocation (the entry, the runtime, lifecycle, the workers that finish what a hook
    # could not); the package's own hook entry scripts (an install with no checkout)
    ("sidekit_hooks.pipeline", "sidekit_hooks.entries"),
    ("sidekit_hooks.cli",),  # the `sidekit` command, answers, demo, replay, install, doctor
)


def floor_of(module: str) -> int:
    """The floor of a dotted module name: its longest declared prefix wins."""
    best, floor = -1, -1
    for level, rooms in enumerate(FLOORS):
        for room in rooms:
            if (module == room or module.startswith(room + ".")) and len(room) > best:
                best, floor = len(room), level
    return floor
