"""What a compacted raw test run saved: its raw output's size against the compact answer the model
got.

Every runner's compact answer opens with one head line per answer (runners/compact.py,
pytest/compact.py, js/compact.py, cargo/cargo_answer.awk), e.g.
  sidekit: pytest's output (45,922 B) compacted; exit code 1; all of it: .sidekit/... (prefix ...)
  sidekit: go test output of ./invoice (1,875 B) compacted; exit code 1; ...
The Bash call's PostToolUse (or PostToolUseFailure, for a red run) reads those heads from what the
model received, so the record is of what really reached it: a `compacted` decision in the decisions
log with the raw bytes (the sum of the heads), the bytes the model got for the call (`answer`), and
the runs. `sidekit report` sets these against the bytes the nudges added. Standard library only (a
hook).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event

HEAD = "sidekit: "
MARK = " B) compacted; exit code "


def heads(output: str) -> list[tuple[str, int]]:
    """(runner, raw bytes) for each compact answer's head line in `output`, in order."""
    if MARK not in output:
        return []
    found: list[tuple[str, int]] = []
    for line in output.splitlines():
        if not line.startswith(HEAD) or MARK not in line:
            continue
        described, _, size = line[len(HEAD) :].partition(MARK)[0].rpartition(" (")
        digits = size.replace(",", "")
        if not (described and digits.isdigit()):
            continue
        runner = described.split(" output", 1)[0]
        found.append((runner[:-2] if runner.endswith("'s") else runner, int(digits)))
    return found


def record(event: Event) -> dict[str, Any] | None:
    """The `compacted` decision for a Bash call whose output holds compact answers, else None."""
    said = (
        event.output or event.error
    )  # a red run ends PostToolUseFailure: "Exit code 1\n<the answer>"
    if event.tool != "Bash" or MARK not in said:
        return None
    found = heads(said)
    if not found:
        return None
    return {
        "session": event.session_id,
        "hook": event.event_name,
        "sidecar": "tests",
        "decision": "compacted",
        "runner": found[0][0],
        "runs": len(found),
        "raw": sum(size for _, size in found),
        "answer": len(said.encode("utf-8", "replace")),
    }
