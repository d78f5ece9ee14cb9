"""The registry's words that the hook path reads before any adapter (the PreToolUse handlers'
conditions, the hook's substring filter), kept apart from the adapters' module names so that reading
them imports nothing.
"""

from __future__ import annotations

# name -> the words a Bash command says when it may run this runner: a cheap substring filter (on
# the raw payload) that spares every other call an adapter import. Each runner's `matches` then
# decides.
TRIGGERS: dict[str, tuple[str, ...]] = {
    "go": ("test",),
    "cargo": ("test",),
    "junit": ("test",),  # mvn test, gradle test
    "mtp": ("test",),
    "vstest": ("test",),
    "vitest": ("test",),
    "jest": ("jest",),  # `npx jest` does not say "test"
    "node": ("--test",),
    "pytest": ("pytest", "py.test"),
}


def trigger_words() -> tuple[str, ...]:
    """The fewest words that cover every runner's triggers (a word that holds another is covered by
    it), in registry order: one client `if` condition each, and the hot path's substring filter."""
    words = dict.fromkeys(word for triggers in TRIGGERS.values() for word in triggers)
    return tuple(
        word for word in words if not any(other != word and other in word for other in words)
    )


def triggered(text: str) -> bool:
    """Whether `text` (a raw payload, a command) says a word that may start a test runner."""
    return any(word in text for word in trigger_words())
