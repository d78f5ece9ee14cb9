"""Raw pytest through Bash: `sidekit test` answers in one compact line."""

from __future__ import annotations

from sidekit_hooks.detectors.tools.common import MAX_SHOWN, QUIET_OUTPUT, RANK, SIDECAR
from sidekit_hooks.nudges.findings import HABIT, Finding

PYTEST_INFO_FLAGS = frozenset(
    {"--version", "-V", "--help", "-h", "--co", "--collect-only", "--fixtures", "--markers"}
)
RED_WORDS = (" failed", " error", "Error")


def costly_run(output: str) -> bool:
    """A raw pytest run worth the "prefer `sidekit test`" hint: its output is long, and red (a piped
    run exits 0 whatever pytest said, so the colour is read from the summary at the end)."""
    if len(output) < QUIET_OUTPUT and len(output.encode("utf-8", "replace")) < QUIET_OUTPUT:
        return False
    tail = output[-400:]
    return any(word in tail for word in RED_WORDS)


def pytest_finding(words: list[str]) -> Finding | None:
    from sidekit_hooks import runners

    args = runners.plugin_run_args(words)
    if args is None:
        return None
    if any(arg in PYTEST_INFO_FLAGS for arg in args):
        return None
    paths = [
        a for a in args if not a.startswith("-") and (a.endswith(".py") or "/" in a or "::" in a)
    ][:2]
    target = (
        " ".join(["sidekit test", *paths])
        if paths and len(" ".join(paths)) <= MAX_SHOWN
        else "sidekit test"
    )
    return Finding(
        SIDECAR,
        f"`{target}` runs pytest and answers in one compact line; `sidekit failures` has the "
        "details.",
        key="tools:pytest",
        rule_id="tools.raw-pytest",
        kind=HABIT,
        rank=RANK,
    )
