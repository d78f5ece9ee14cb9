"""What is new in `.sidekit/log/` since the last export, and the cursor that says so.

The cursor (`.sidekit/otel-cursor.json`) holds, per log, the inode and byte offset of the last line
shipped. A log that rolled over (`<name>.1`, `.2`, ...: hooklog.generations) is read from the cursor
to the end of that file, then every newer file from its start. Only whole lines are taken, so a line
a hook is still writing waits for the next export. Standard library only.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from sidekit_hooks.core import hooklog, safepath, workspace

CURSOR = "otel-cursor.json"
LOGS = (hooklog.DECISIONS, hooklog.TIMINGS)
MAX_BATCH_BYTES = 4 * 1024 * 1024  # per log and export round; the rest goes in the next round

# decision (+ re-check outcome) -> sidekit.outcome
OUTCOMES = {
    "fired": "fired",
    "delivered": "delivered",
    "suppressed": "held_back",
    "reminded": "reminded",
}
RECHECKED = {"fixed": "fixed", "still": "ignored", "moot": "moot", "untrue": "untrue"}


class Batch:
    """New records of each log, and the cursor to save once they are shipped."""

    __slots__ = ("decisions", "timings", "cursor")

    def __init__(self) -> None:
        self.decisions: list[dict[str, Any]] = []
        self.timings: list[dict[str, Any]] = []
        self.cursor: dict[str, dict[str, int]] = {}

    def __len__(self) -> int:
        return len(self.decisions) + len(self.timings)


def cursor_path(project: str) -> str:
    return os.path.join(workspace.state_dir(project), CURSOR)


def load_cursor(project: str) -> dict[str, dict[str, int]]:
    try:
        data = json.loads(safepath.read_bytes(cursor_path(project), 64 * 1024))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        name: mark
        for name, mark in data.items()
        if isinstance(mark, dict)
        and isinstance(mark.get("ino"), int)
        and isinstance(mark.get("offset"), int)
    }


def save_cursor(project: str, cursor: dict[str, dict[str, int]]) -> None:
    safepath.makedirs(workspace.state_dir(project), project)
    workspace.atomic_write(cursor_path(project), json.dumps(cursor, sort_keys=True))


def pending(project: str, cursor: dict[str, dict[str, int]] | None = None) -> Batch:
    """The records written since `cursor` (default: the saved one), up to MAX_BATCH_BYTES per
    log."""
    cursor = load_cursor(project) if cursor is None else cursor
    batch = Batch()
    for name in LOGS:
        records, mark = read_since(
            os.path.join(workspace.log_dir(project), name),
            cursor.get(name),
            hooklog.generations(name),
        )
        if name == hooklog.DECISIONS:
            batch.decisions = records
        else:
            batch.timings = records
        if mark:
            batch.cursor[name] = mark
    return batch


def read_since(
    path: str, mark: dict[str, int] | None, kept: int = 1
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """(records after `mark`, the mark after them) across the log's generations (`<path>.kept` ...
    `.1`, then the live file): from the file the mark is in, at its offset, then every newer one
    whole. A mark whose file is gone (rolled past the last generation) means everything still there
    is new."""
    files = [f"{path}.{number}" for number in range(kept, 0, -1)] + [path]
    files = [name for name in files if _inode(name)] or [path]
    inodes = [_inode(name) for name in files]
    if mark and mark["ino"] in inodes:
        start = inodes.index(mark["ino"])
        parts = [(files[start], mark["offset"])] + [(name, 0) for name in files[start + 1 :]]
    else:
        parts = [(name, 0) for name in files]
    records: list[dict[str, Any]] = []
    new_mark = dict(mark) if mark else {}
    budget = MAX_BATCH_BYTES
    for part, offset in parts:
        ino = _inode(part)
        if not ino:
            continue
        got, used = _read_lines(part, offset, budget)
        records += got
        new_mark = {"ino": ino, "offset": offset + used}
        budget -= used
        if budget <= 0 or offset + used < _size(part):
            break  # the rest of this file (and what is newer) goes in the next round
    return records, new_mark


def _size(path: str) -> int:
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0


def _inode(path: str) -> int:
    try:
        return os.lstat(path).st_ino
    except OSError:
        return 0


def _read_lines(path: str, offset: int, budget: int) -> tuple[list[dict[str, Any]], int]:
    """Whole JSON lines from `offset`: (records, bytes consumed)."""
    try:
        fd = os.open(path, os.O_RDONLY | safepath.NOFOLLOW | safepath.NONBLOCK)
    except OSError:
        return [], 0
    try:
        if not stat.S_ISREG(
            os.fstat(fd).st_mode
        ):  # a FIFO or a device in the log's place: nothing to send
            return [], 0
        os.lseek(fd, offset, os.SEEK_SET)
        data = os.read(fd, budget)
    finally:
        os.close(fd)
    end = data.rfind(b"\n") + 1
    return hooklog.records_in(data[:end].decode("utf-8", "replace")), end


def outcome_of(record: dict[str, Any]) -> str:
    """sidekit.outcome of one decision: fired, delivered, held_back, fixed, ignored, moot,
    reminded."""
    decision = str(record.get("decision") or "")
    if decision == "rechecked":
        return RECHECKED.get(str(record.get("outcome") or ""), "rechecked")
    return OUTCOMES.get(decision, decision or "unknown")


def attributes(record: dict[str, Any]) -> dict[str, str]:
    """The OpenTelemetry attributes of a decision or timing record (only those it has)."""
    pairs = (
        ("session.id", "session"),
        ("prompt.id", "prompt"),
        ("tool_use_id", "tool_use_id"),
        ("sidekit.sidecar", "sidecar"),
        ("sidekit.rule_id", "rule"),
        ("sidekit.hook", "hook"),
        ("sidekit.held_by", "by"),
        ("sidekit.finding", "key"),
        ("gt.role", "gt_role"),
        ("gt.run_id", "gt_run_id"),
        ("gc.agent", "gc_agent"),
    )
    out = {
        name: str(record[field])
        for name, field in pairs
        if isinstance(record.get(field), str) and record[field]
    }
    if "decision" in record:
        out["sidekit.outcome"] = outcome_of(record)
    return out
