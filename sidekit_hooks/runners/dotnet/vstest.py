"""`dotnet test` on VSTest: the adapter the registry names `vstest` (see adapter.py).

`runners.for_words` reaches `mtp` first for every `dotnet test`, whose rewrite serves both
platforms; this module's `matches` and `compact_words` are the same functions, for a registry that
names it alone.
"""

from __future__ import annotations

# The platform-neutral half is mtp's own (the same functions, not copies): only the name differs.
from sidekit_hooks.runners.dotnet.mtp import (
    FEED,
    before_run,
    command,
    compact_words,
    feed_after,
    filter_words,
    matches,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.runners import Result

NAME = "vstest"
__all__ = [
    "FEED",
    "NAME",
    "before_run",
    "collect",
    "command",
    "compact_words",
    "detect",
    "feed_after",
    "filter_words",
    "matches",
]


def detect(project: str) -> bool:
    from sidekit_hooks.runners.dotnet import adapter

    return adapter.detect(project, NAME)


def collect(
    project: str, started: float, exit_code: int, raw_output_path: str, before: Any = None
) -> Result:
    from sidekit_hooks.runners.dotnet import adapter

    return adapter.collect(project, started, exit_code, raw_output_path, NAME, before)
