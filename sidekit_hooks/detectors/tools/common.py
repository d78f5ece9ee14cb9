"""What every check of the tools sidecar shares: its name and how a nudge quotes the call."""

from __future__ import annotations

from sidekit_hooks.detectors import rank_of

SIDECAR = "tools"
RANK = rank_of(SIDECAR)  # its findings' place among sidecars (detectors.RANKS)
# characters of any name, path or pattern quoted from the call (a nudge stays one short line)
MAX_SHOWN = 80
QUIET_OUTPUT = 2048  # bytes: raw pytest output under this is left alone by the rewrite too (SHORT)


def short(text: str) -> str:
    """A quoted path or pattern on one line (a quoted newline would break the nudge's one line), cut
    to MAX_SHOWN characters (from the left: the file name matters)."""
    if "\n" in text or "\r" in text:
        text = " ".join(text.split())
    return text if len(text) <= MAX_SHOWN else "…" + text[-(MAX_SHOWN - 1) :]


def long_output(output: str) -> bool:
    return len(output) >= QUIET_OUTPUT or len(output.encode("utf-8", "replace")) >= QUIET_OUTPUT
