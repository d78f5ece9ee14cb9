"""Which Gas City this session is in, and which agent it is there: what gc puts in the environment
of every agent it starts. Read where the session's queue is chosen (session_queue.py), without the
state file's code (city.py) for a session outside any city. Standard library only (hook hot path).
"""

from __future__ import annotations

import os

# Where gc names the city in the environment of every agent it starts (GC_CITY; the others are set
# beside it by gc's commands). A folder the repository holds is never taken for a city: a committed
# `.gc/` would let a repository speak to the model in the queue's voice.
CITY_VARIABLES = ("GC_CITY", "GC_CITY_PATH", "GC_CITY_ROOT")


def find_city(project: str = "") -> str:
    """The city gc named in this session's environment (CITY_VARIABLES, the first one set, when it
    is a folder); ''. `project` is not looked at: whatever a repository commits (a `.gc/` folder, a
    state.json) never makes it a city."""
    for name in CITY_VARIABLES:
        named = os.environ.get(name, "")
        if named:
            return os.path.abspath(named) if os.path.isdir(named) else ""
    return ""


def epoch() -> str:
    """The session's continuation epoch (gc sets it; items fenced to another epoch are not ours)."""
    return os.environ.get("GC_CONTINUATION_EPOCH", "").strip()


def identity() -> tuple[str, list[str]]:
    """(this session's id, the agent names items may be addressed to), from Gas City's variables."""
    session = os.environ.get("GC_SESSION_ID", "")
    keys = [os.environ.get(name, "").strip() for name in ("GC_ALIAS", "GC_SESSION_ID", "GC_AGENT")]
    return session, [key for index, key in enumerate(keys) if key and key not in keys[:index]]
