"""`dotnet test` on VSTest: the adapter the registry names `vstest` (see adapter.py).

`runners.for_words` reaches `mtp` first for every `dotnet test`, whose rewrite serves both
platforms; this module's `matches` and `compact_words` are the same functions, for a registry that
names it alone.
"""

from __future__ import annotations

from sidekit_hooks.runners.dotnet.command import compact_words, matches

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.runners import Result

NAME = "vstest"
FEED = "reports"  # its TRX reports and its console, read once `dotnet test` has ended
__all__ = [
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


def command(project: str, args: list[str]) -> list[str]:
    from sidekit_hooks.runners.dotnet import adapter

    return adapter.command(project, args)


def before_run(project: str) -> Any:
    from sidekit_hooks.runners.dotnet import adapter

    return adapter.before_run(project)


def collect(
    project: str, started: float, exit_code: int, raw_output_path: str, before: Any = None
) -> Result:
    from sidekit_hooks.runners.dotnet import adapter

    return adapter.collect(project, started, exit_code, raw_output_path, NAME, before)


def filter_words(args: list[str]) -> list[str]:
    from sidekit_hooks.runners.dotnet import adapter

    return adapter.filter_words(args)


def feed_after(job: dict[str, Any]) -> Result:
    """An agent's compacted `dotnet test`, always fed after it ended (adapter.feed_after)."""
    from sidekit_hooks.runners.dotnet import adapter

    return adapter.feed_after(job)
