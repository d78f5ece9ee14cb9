"""Detectors that import themselves only for the events they handle.

The runtime imports a registered detector before it looks at its `hooks`, so every hook would pay for
every detector module, UserPromptSubmit included (where none of these run). A `Lazy` entry names the
hooks up front and imports the real detector on its first `detect`. Standard library only, tiny.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.detectors import Context, Detector, Finding
    from sidekit_hooks.events import Event

TOOL_EVENTS = frozenset({"PostToolUse", "PostToolUseFailure"})


class Lazy:
    """Stands in for the detector at `target` ("module:attribute") until an event it handles comes."""

    __slots__ = ("name", "hooks", "target", "_detector")

    def __init__(self, name: str, hooks: frozenset[str], target: str) -> None:
        self.name = name
        self.hooks = hooks
        self.target = target
        self._detector: Detector | None = None

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if self._detector is None:
            module, _, attribute = self.target.partition(":")
            self._detector = getattr(importlib.import_module(module), attribute)
        return self._detector.detect(event, ctx)


TOOLS = Lazy("tools", TOOL_EVENTS, "sidekit_hooks.detectors.tools:TOOLS")
CONVENTIONS = Lazy("conventions", frozenset({"PostToolUse"}), "sidekit_hooks.detectors.conventions:CONVENTIONS")
JUDGE = Lazy("judge", TOOL_EVENTS, "sidekit_hooks.detectors.judge:JUDGE")
