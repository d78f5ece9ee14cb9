"""The newest run's status in words, as the tests sidecar says it and delivery checks it again."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

COUNT_WORDS = (
    ("failed", "failed"),
    ("error", "errors"),
    ("passed", "passed"),
    ("skipped", "skipped"),
)


def status_line(summary: Mapping[str, Any]) -> str:
    """e.g. "6 failed, 3 errors, 1 passed; 5 root causes" for the last run (its own causes only: a
    cause every failure of which comes from an earlier run is not this run's)."""
    counts = (summary.get("run") or {}).get("counts") or {}
    parts = [f"{counts[key]} {word}" for key, word in COUNT_WORDS if counts.get(key)]
    if summary.get("collectErrors"):
        errors = int(summary["collectErrors"])
        parts.append(f"{errors} collection error{'s' if errors > 1 else ''}")
    causes = len(summary.get("clusters") or ()) + int(summary.get("moreClusters", 0))
    causes -= len((summary.get("stale") or {}).get("causes") or ())
    text = ", ".join(parts) or "no tests ran"
    if causes:
        text += f"; {causes} root cause{'s' if causes > 1 else ''}"
    return text


def stale_tests(summary: Mapping[str, Any]) -> set[str] | None:
    """The failing tests whose failure is from an earlier run than the summary's own (None: more of
    them than the summary lists)."""
    stale = summary.get("stale") or {}
    listed = {str(test) for test in stale.get("tests") or ()}
    return listed if int(stale.get("count", 0)) <= len(listed) else None
