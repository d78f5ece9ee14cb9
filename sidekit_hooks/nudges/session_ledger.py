"""One session's ledger: tool calls, findings admitted, delivered, re-checked and reminded.

`.sidekit/state/<session>/ledger.jsonl`, one short JSON line per fact, appended with O_APPEND (lines
under PIPE_BUF, so concurrent hooks never interleave them):
  {"call": PATH, "out"?: N}               a tool call ("" when it named no file); `out`: the bytes of its
                                          result the model read (nudges/spend.py)
  {"admit": KEY, "sidecar", "rule", "severity", "subject", "recheck", "text", "agent"?}
  {"deliver": KEY, "untrue"?: 1}          the nudge reached the model (after the calls before it);
                                          `untrue`: a tests finding already not so as it was said
  {"recheck": KEY, "outcome"}             Stop's verdict when it changed
  {"spent": N}                            bytes of text sidekit gave the model (a delivery, a reminder, the
                                          primer), the reminder around it included (nudges/spend.py)
  {"remind": KEY, "hash"?: H}             said again (at Stop or after a compaction); once, unless its file
                                          changed since (its content hash then, H)
  {"compact": 1, "floor"?: SEVERITY}      the conversation was compacted
Stop reads it back (`read`). Standard library only.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import fastjson, redact, safepath, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.findings import Finding

LEDGER = "ledger.jsonl"
MAX_LINE = 3800  # bytes; below PIPE_BUF so an O_APPEND write is one piece
MAX_READ = 8 * 1024 * 1024


def path_of(project: str, session: str) -> str:
    return os.path.join(
        workspace.state_dir(project), "state", workspace.safe_session_name(session), LEDGER
    )


def append(project: str, session: str, records: list[dict[str, Any]]) -> None:
    """Append facts; never raises (the ledger is for the report and Stop, never worth a broken
    hook)."""
    if not session or not records:
        return
    try:
        path = path_of(project, session)
        data = b"".join(_line(record) for record in records)
        try:
            fd = safepath.open_append(path)  # never through a link out of the project
        except FileNotFoundError:
            safepath.makedirs(os.path.dirname(path))
            fd = safepath.open_append(path)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
    except (OSError, ValueError, workspace.UnsafeSessionName):
        pass


KEEP = frozenset(
    {"pattern", "digest", "before"}
)  # a recheck's regex and fingerprints: no secret, and must match


def _line(record: dict[str, Any]) -> bytes:
    record = redact.redact_value(
        record, KEEP
    )  # paths, keys, subjects, recheck records: every field (#19)
    data = (fastjson.dumps(record) + "\n").encode("utf-8")
    if len(data) > MAX_LINE and "text" in record:
        data = (fastjson.dumps({**record, "text": str(record["text"])[:200]}) + "\n").encode(
            "utf-8"
        )
    return data


def admitted(finding: Finding, line: str, agent: str = "") -> dict[str, Any]:
    record: dict[str, Any] = {
        "admit": finding.key[:500],
        "sidecar": finding.sidecar,
        "rule": finding.rule_id,
        "severity": finding.severity,
        "path": finding.path,
        "text": redact.redact(line),
    }
    if finding.subject:
        record["subject"] = redact.redact(finding.subject[:200])
    if finding.recheck:
        record["recheck"] = finding.recheck
    if agent:
        record["agent"] = agent
    return record


class Ledger:
    """What a session's ledger says, folded: findings by key, and where each was delivered."""

    __slots__ = (
        "calls",
        "findings",
        "delivered",
        "outcomes",
        "reminded",
        "untrue",
        "result_bytes",
        "spent",
    )

    def __init__(self) -> None:
        self.calls: list[str] = []  # the path each tool call named, in order
        self.findings: dict[str, dict[str, Any]] = {}
        self.delivered: dict[str, int] = {}  # key -> number of tool calls before it was delivered
        self.outcomes: dict[str, str] = {}
        self.reminded: dict[
            str, str
        ] = {}  # key -> its file's content hash when it was last said again
        self.untrue: set[str] = set()  # findings already not so when they were delivered
        # what the session's tool calls returned to the model (nudges/spend.py)
        self.result_bytes = 0
        self.spent = 0  # what sidekit's texts cost the model, reminders around them included

    def fix_distance(self, key: str) -> int | None:
        """Tool calls from delivery to the last call that touched the finding's file (its fix), if
        any."""
        start = self.delivered.get(key)
        path = self.findings.get(key, {}).get("path")
        if start is None or not path:
            return None
        for index in range(len(self.calls) - 1, start - 1, -1):
            if self.calls[index] == path:
                return index + 1 - start
        return None


def read(project: str, session: str) -> Ledger:
    ledger = Ledger()
    try:
        path = path_of(project, session)
        safepath.check(os.path.dirname(path))
        data = safepath.read_bytes(path, MAX_READ)
    except (OSError, ValueError, workspace.UnsafeSessionName):
        return ledger
    for raw in data.decode("utf-8", "replace").splitlines():
        try:
            record = fastjson.loads(raw)
        except ValueError:
            continue
        if isinstance(record, dict):
            _fold(ledger, record)
    return ledger


def _fold(ledger: Ledger, record: dict[str, Any]) -> None:
    if "call" in record:
        ledger.calls.append(str(record["call"]))
        ledger.result_bytes += _count(record.get("out"))
    elif "spent" in record:
        ledger.spent += _count(record["spent"])
    elif "admit" in record:
        ledger.findings[str(record["admit"])] = record
    elif "deliver" in record:
        ledger.delivered.setdefault(str(record["deliver"]), len(ledger.calls))
        if record.get("untrue"):
            ledger.untrue.add(str(record["deliver"]))
    elif "recheck" in record:
        ledger.outcomes[str(record["recheck"])] = str(record.get("outcome", ""))
    elif "remind" in record:
        ledger.reminded[str(record["remind"])] = str(record.get("hash", ""))


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
