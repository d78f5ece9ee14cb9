"""The one error funnel: expected failures are `SidekitError`s whose message ends with the fix."""

from __future__ import annotations


class SidekitError(Exception):
    """An expected failure. `fix` is the command (or edit) that mends it."""

    def __init__(self, message: str, fix: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix

    def __str__(self) -> str:
        return f"{self.message}\n  fix: {self.fix}" if self.fix else self.message
