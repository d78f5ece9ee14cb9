"""The detector plug-in point. A detector ("sidecar") judges one Event and returns Findings.

Detectors are listed by import path and imported only when an event needs them, so a hook pays
only for the sidecars it runs. Standard library only at this level.
"""

from __future__ import annotations

import sys

from sidekit_hooks.core import hook_table
from sidekit_hooks.nudges.findings import UNRANKED
from sidekit_hooks.nudges.findings import Context as Context
from sidekit_hooks.nudges.findings import Finding as Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from sidekit_hooks.nudges.events import Event

    class Detector(Protocol):
        """What a sidecar implements. `hooks` names the events it wants to see."""

        name: str
        hooks: frozenset[str]

        def detect(self, event: Event, ctx: Context) -> list[Finding]: ...


# Where each sidecar's code is. Which events it judges, and in what order, is the table's
# (core/hook_table.py), so a hook imports just the sidecars its event needs (UserPromptSubmit:
# none).
PATHS = {
    "scope": "sidekit_hooks.detectors.scope:DETECTOR",
    # every rule pack's rules (specs and team sidecars)
    "specs": "sidekit_hooks.detectors.specs:DETECTOR",
    "tests": "sidekit_hooks.detectors.tests:DETECTOR",
    "tools": "sidekit_hooks.detectors.tools:TOOLS",
    # Multi-line signatures only; every other convention is a rule in
    # sidecar_rules/conventions.toml.
    "conventions": "sidekit_hooks.detectors.conventions:CONVENTIONS",
    "judge": "sidekit_hooks.detectors.judge:JUDGE",  # off unless SIDEKIT_JUDGE names a command
}
# Which sidecar is said first among findings equal in urgency, kind and severity (Finding.rank,
# lower first): the task's scope, the specs, the tests, the tools, the conventions, then the judge's
# opinion. Each detector ranks its findings with its own entry; a pack's rule speaks with the rank
# of the sidecar it names, and one named here by no one (a team pack's own) comes after all of them
# (UNRANKED).
RANKS = {"scope": 0, "specs": 1, "tests": 2, "tools": 3, "conventions": 4, "judge": 5}
# name -> ("module:OBJ", the hook events it judges), in the order they run; tests may register their
# own.
REGISTRY: dict[str, tuple[str, frozenset[str]]] = {
    name: (path, hook_table.judged_by(name)) for name, path in PATHS.items()
}
_loaded: dict[str, Detector] = {}


def register(name: str, target: str | Detector, hooks: frozenset[str] | None = None) -> None:
    """Add a detector by import path ("pkg.mod:OBJ", with the events it judges) or as an object."""
    if isinstance(target, str):
        REGISTRY[name] = (target, hooks if hooks is not None else hook_table.TOOL_EVENTS)
        _loaded.pop(name, None)
    else:
        REGISTRY[name] = (f"<object {name}>", target.hooks)
        _loaded[name] = target


def unregister(name: str) -> None:
    REGISTRY.pop(name, None)
    _loaded.pop(name, None)


def load(name: str) -> Detector:
    """Import a registered detector on first use."""
    if name not in _loaded:
        module_name, _, attribute = REGISTRY[name][0].partition(":")
        # __import__, not importlib.import_module: importing `importlib` (and `warnings`) costs a
        # hook more than the lookup saves
        __import__(module_name)
        _loaded[name] = getattr(sys.modules[module_name], attribute)
    return _loaded[name]


def rank_of(sidecar: str) -> int:
    """The rank a finding of this sidecar carries (RANKS; a sidecar not listed: after every listed
    one)."""
    return RANKS.get(sidecar, UNRANKED)


def names(event_name: str | None = None) -> list[str]:
    """Registered detectors, in order; with `hook`, only those that judge that event."""
    return [
        name for name, (_, hooks) in REGISTRY.items() if event_name is None or event_name in hooks
    ]
