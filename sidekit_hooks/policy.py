"""Which findings become nudges. Over-injection is worse than under-injection.

This floor holds the rules every delivery obeys (one line, at most MAX_NUDGE characters, each finding
once per event). Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.detectors import Context, Finding
    from sidekit_hooks.events import Event

MAX_NUDGE = 300


def admit(findings: list[Finding], event: Event, ctx: Context) -> list[tuple[str, Finding]]:
    """The findings worth saying now, each with its final one-line text."""
    seen: set[str] = set()
    out: list[tuple[str, Finding]] = []
    for finding in sorted(findings, key=lambda f: f.priority != "urgent"):
        if finding.key in seen:
            continue
        seen.add(finding.key)
        out.append((clip(finding.text()), finding))
    return out


def lines(findings: list[Finding], event: Event, ctx: Context) -> list[str]:
    return [line for line, _ in admit(findings, event, ctx)]


def clip(text: str, limit: int = MAX_NUDGE) -> str:
    """One line, under `limit` characters; a cut is marked with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) < limit else text[: limit - 2].rstrip() + " …"
