"""Bounded logs under `.sidekit/log/`: hook failures for `sidekit doctor`, decisions for `sidekit report`.

Standard library only. A log never grows past MAX_BYTES: it rolls over to `<name>.1` once.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import fastjson
from sidekit_hooks.core.workspace import log_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

MAX_BYTES = 256 * 1024
ERRORS = "hooks.jsonl"
DECISIONS = "decisions.jsonl"


def append(project: str, name: str, record: Mapping[str, Any]) -> None:
    """Append one JSON line; never raises (a log must not break a hook)."""
    try:
        folder = log_dir(project)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name)
        try:
            if os.path.getsize(path) > MAX_BYTES:
                os.replace(path, path + ".1")
        except OSError:
            pass
        record = {"ts": round(time.time(), 3), **record}
        line = fastjson.dumps(record)
        # O_APPEND writes of one line are atomic enough for concurrent hooks on a local disk.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
        finally:
            os.close(fd)
    except Exception:  # noqa: BLE001 - logging is best effort by design
        pass


def error(project: str, hook: str, where: str, exc: BaseException | str) -> None:
    """Record why a hook (or one of its parts) failed open."""
    what = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    append(project, ERRORS, {"hook": hook, "where": where, "error": what[:2000]})


def read(project: str, name: str, limit: int = 1000) -> list[dict[str, Any]]:
    """The newest `limit` records of a log (both generations), oldest first."""
    records: list[dict[str, Any]] = []
    base = os.path.join(log_dir(project), name)
    for path in (base + ".1", base):
        try:
            with open(path, encoding="utf-8") as handle:
                for line in handle:
                    try:
                        item = fastjson.loads(line)
                    except ValueError:
                        continue
                    if isinstance(item, dict):
                        records.append(item)
        except OSError:
            continue
    return records[-limit:]
