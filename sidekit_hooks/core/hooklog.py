"""Bounded logs under `.sidekit/log/`: hook failures for `sidekit doctor`, decisions for `sidekit
report`.

Standard library only. A log never grows past MAX_BYTES: it rolls over to `<name>.1`, `.1` to `.2`
and so on, keeping GENERATIONS older files (the decisions log keeps enough for `sidekit report` over
1,000 sessions; the error log keeps one).
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import fastjson, redact, safepath
from sidekit_hooks.core.workspace import log_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

MAX_BYTES = 256 * 1024
ERRORS = "hooks.jsonl"
DECISIONS = "decisions.jsonl"
TIMINGS = "timings.jsonl"  # one line per hook, only while an OpenTelemetry export is configured
# What the current hook knows about its place in the session (prompt id, tool use id, Gas Town/City
# identity): added to every decision it logs, so an export can tie a decision to Claude Code's
# events.
CONTEXT: dict[str, str] = {}
GENERATIONS = {DECISIONS: 24}  # rolled-over files kept besides the live one; any other log keeps 1


def generations(name: str) -> int:
    return GENERATIONS.get(name, 1)


def _roll(path: str, kept: int) -> None:
    """`<name>.{kept-1}` -> `.{kept}`, ..., the live file -> `.1` (renames links themselves, never
    targets)."""
    for number in range(kept - 1, 0, -1):
        try:
            os.replace(f"{path}.{number}", f"{path}.{number + 1}")
        except OSError:
            pass
    os.replace(path, path + ".1")


def append(project: str, name: str, record: Mapping[str, Any]) -> None:
    """Append one JSON line; never raises (a log must not break a hook)."""
    try:
        folder = log_dir(project)
        safepath.makedirs(
            folder, project
        )  # a `.sidekit` or `log` linked out of the project is refused
        path = os.path.join(folder, name)
        try:
            if os.lstat(path).st_size > MAX_BYTES:
                _roll(path, generations(name))
        except OSError:
            pass
        # Secrets never reach a log: every string, nested ones and keys too, passes the one
        # redaction pass.
        if name == DECISIONS and CONTEXT:
            record = {**{k: v for k, v in CONTEXT.items() if k not in record}, **record}
        record = {"ts": round(time.time(), 3), **redact.redact_value(dict(record))}
        line = as_data(fastjson.dumps(record))
        # O_APPEND writes of one line are atomic enough for concurrent hooks on a local disk.
        fd = safepath.open_append(path, project)  # O_NOFOLLOW: a committed symlink gets nothing
        try:
            os.write(fd, (line + "\n").encode("utf-8", "replace"))
        finally:
            os.close(fd)
    except Exception:  # noqa: BLE001 - logging is best effort by design
        pass


# JSON already escapes C0 controls; these are the characters a terminal or a shell could still act
# on when someone cats or pastes a log line. As \u escapes the line decodes to exactly the same
# data.
_AS_DATA = {ord(c): f"\\u{ord(c):04x}" for c in "$`\x7f\u2028\u2029"} | {
    c: f"\\u{c:04x}" for c in range(0x80, 0xA0)
}


def as_data(line: str) -> str:
    """A JSON line in which nothing a shell would expand (`$`, backquote) or a terminal obey is
    raw."""
    if line.isascii() and "$" not in line and "`" not in line and "\x7f" not in line:
        return line
    line = line.translate(_AS_DATA)
    return (
        line.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        if not fastjson.encodable(line)
        else line
    )


def error(project: str, event_name: str, where: str, exc: BaseException | str) -> None:
    """Record why a hook (or one of its parts) failed open."""
    what = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    append(project, ERRORS, {"hook": event_name, "where": where, "error": what[:2000]})


def read(project: str, name: str, limit: int = 1000) -> list[dict[str, Any]]:
    """The newest `limit` records of a log (every generation kept), oldest first."""
    records: list[dict[str, Any]] = []
    base = os.path.join(log_dir(project), name)
    for path in [f"{base}.{number}" for number in range(generations(name), 0, -1)] + [base]:
        try:
            text = safepath.read_bytes(safepath.check(path, project), 4 * MAX_BYTES).decode(
                "utf-8", "replace"
            )
        except OSError:
            continue
        records += records_in(text)
    return records[-limit:]


def records_in(text: str) -> list[dict[str, Any]]:
    """The JSON objects of a log's lines; a torn or foreign line is skipped."""
    found: list[dict[str, Any]] = []
    for line in text.splitlines():
        try:
            item = fastjson.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            found.append(item)
    return found
