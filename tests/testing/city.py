"""A Gas City around a hook: the environment gc gives the agents it starts, and its queue's state
file as gc writes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sidekit_hooks.nudges import city


def city_env(
    env: dict[str, str], project: Path, root: Path, home: Path, session_id: str
) -> dict[str, str]:
    """`env` with the project and the city at `root`, as agent `mayor` of session `session_id`,
    `HOME` at `home`."""
    return dict(
        env,
        CLAUDE_PROJECT_DIR=str(project),
        GC_CITY=str(root),
        GC_AGENT="mayor",
        GC_SESSION_ID=session_id,
        HOME=str(home),
    )


def gc_item(ident: str, message: str, agent: str = "mayor", **fields: Any) -> dict[str, Any]:
    """An item as gc writes it (Go's zero times included)."""
    item: dict[str, Any] = {
        "id": ident,
        "agent": agent,
        "source": "mail",
        "message": message,
        "created_at": "2026-12-02T03:59:00.123456789Z",
        "deliver_after": "2026-12-02T03:59:00Z",
        # never by the wall clock: tests that claim "now" keep it due
        "expires_at": "2099-12-31T00:00:00Z",
        "last_attempt_at": city.ZERO_TIME,
        "claimed_at": city.ZERO_TIME,
        "lease_until": city.ZERO_TIME,
        "dead_at": city.ZERO_TIME,
    }
    item.update(fields)
    return item


def make_city(root: Path, state: dict[str, Any] | None = None) -> Path:
    folder = root / ".gc" / "runtime" / "nudges"
    folder.mkdir(parents=True)
    if state is not None:
        (folder / "state.json").write_text(json.dumps(state, indent=2) + "\n")
    return root


def read_state(root: Path) -> dict[str, Any]:
    return dict(json.loads((root / ".gc" / "runtime" / "nudges" / "state.json").read_text()))
