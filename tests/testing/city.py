"""A Gas City around a hook: the environment gc gives the agents it starts."""

from __future__ import annotations

from pathlib import Path


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
