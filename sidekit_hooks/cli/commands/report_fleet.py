"""`sidekit report --fleet DIR...`: the decision logs of several projects or machines, merged.

For teams without a collector: copy (or mount) each machine's `.sidekit/log/` somewhere and point
the report at the copies. Each DIR may be a project (`DIR/.sidekit/log/`), a `.sidekit` folder, a
log folder itself, or a folder holding any of these a few levels down (links are not followed).
Every record keeps where it came from (`source`), so the same session id on two machines stays two
sessions.
"""

from __future__ import annotations

import os
from typing import Any

from sidekit_hooks.core import hooklog, safepath

MAX_DEPTH = 4  # folders below a DIR searched for logs
MAX_LOG = 4 * hooklog.MAX_BYTES  # bytes read of one generation (hooklog rolls over well before)


def find_logs(dirs: list[str]) -> list[str]:
    """The log folders (holding decisions.jsonl or its .1) under `dirs`, in order, each once."""
    found: list[str] = []
    for given in dirs:
        root = os.path.abspath(given)
        for candidate in (os.path.join(root, ".sidekit", "log"), os.path.join(root, "log"), root):
            if _has_log(candidate):
                found.append(candidate)
                break
        else:
            found += _walk(root, 0)
    return list(dict.fromkeys(found))


def _has_log(folder: str) -> bool:
    return any(
        os.path.isfile(path) for path in _generations(os.path.join(folder, hooklog.DECISIONS))
    )


def _generations(base: str) -> list[str]:
    """Oldest first: `<base>.N` ... `<base>.1`, then the live file (hooklog rolls the log over)."""
    return [
        f"{base}.{number}" for number in range(hooklog.generations(hooklog.DECISIONS), 0, -1)
    ] + [base]


def _walk(folder: str, depth: int) -> list[str]:
    if depth > MAX_DEPTH:
        return []
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return []
    out = []
    for entry in entries:
        if not entry.is_dir(follow_symlinks=False):
            continue
        if _has_log(entry.path):
            out.append(entry.path)
        else:
            out += _walk(entry.path, depth + 1)
    return out


def read_all(logs: list[str]) -> list[dict[str, Any]]:
    """Every record of every log, tagged with its `source`; sessions made unique per source."""
    records: list[dict[str, Any]] = []
    names = labels(logs)
    for folder in logs:
        for record in read_folder(folder):
            record["source"] = names[folder]
            if record.get("session"):
                record["session"] = f"{names[folder]}:{record['session']}"
            records.append(record)
    records.sort(
        key=lambda record: (
            float(record["ts"]) if isinstance(record.get("ts"), (int, float)) else 0.0
        )
    )
    return records


def read_folder(folder: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in _generations(os.path.join(folder, hooklog.DECISIONS)):
        try:
            text = safepath.read_bytes(path, MAX_LOG).decode("utf-8", "replace")
        except OSError:
            continue
        out += hooklog.records_in(text)
    return out


def labels(logs: list[str]) -> dict[str, str]:
    """A short, distinct name per log folder: the project folder's name (its path when names
    clash)."""

    def project_of(folder: str) -> str:
        parts = folder.rstrip(os.sep).split(os.sep)
        for tail in (
            "log",
            ".sidekit",
        ):  # `proj/.sidekit/log`, a copied `box-3/log`: named by the folder above
            if len(parts) > 1 and parts[-1] == tail:
                parts = parts[:-1]
        return os.sep.join(parts) or os.sep

    projects = {folder: project_of(folder) for folder in logs}
    short = {folder: os.path.basename(path) or path for folder, path in projects.items()}
    clashes = {name for name in short.values() if list(short.values()).count(name) > 1}
    return {
        folder: projects[folder] if short[folder] in clashes else short[folder] for folder in logs
    }


def per_source(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    counts: dict[str, list[Any]] = {}
    for record in records:
        row = counts.setdefault(str(record.get("source") or "?"), [0, set()])
        row[0] += 1
        if record.get("session"):
            row[1].add(record["session"])
    return [
        {"source": source, "decisions": n, "sessions": len(sessions)}
        for source, (n, sessions) in counts.items()
    ]
