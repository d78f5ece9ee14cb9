"""What the user accepted from a project: one user-level file, outside every repository
(docs/settings.md).

A project file may name something that sends data (today: the OpenTelemetry endpoint) only once the
user has accepted that exact value for that project, e.g. with `sidekit otel trust URL`. The record
is `$XDG_CONFIG_HOME/sidekit/trust.json` (else `~/.config/sidekit/trust.json`), keyed by the
project's real path and the exact value: a repository that changes the value needs trust again, and
the same repository cloned elsewhere is another project. It is written atomically (a temp file in
the same folder, then a rename) with mode 0600, and read bounded and without blocking.

Standard library only: a hook asks `values(kind, project)`, which costs one failed `open` when the
user never trusted anything.
"""

from __future__ import annotations

import os
import stat
import time

FILE = "trust.json"
MAX_BYTES = 256 * 1024  # far more than any user's list; a bigger file is not read at all
FORMAT = 1


def path() -> str:
    """The user's trust file (never inside a project: it is under the user's config folder)."""
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "sidekit", FILE)


def project_key(project: str) -> str:
    """The project as trust knows it: its real path (a link to it is the same project)."""
    return os.path.realpath(project)


def entries() -> list[dict[str, object]]:
    """Every accepted (kind, project, value), oldest first; [] when the file is absent or
    unreadable."""
    raw = _read(path())
    if not raw:
        return []
    from sidekit_hooks.core import fastjson

    try:
        data = fastjson.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return []
    listed = data.get("accepted") if isinstance(data, dict) else None
    if not isinstance(listed, list):
        return []
    return [
        item
        for item in listed
        if isinstance(item, dict)
        and all(isinstance(item.get(key), str) for key in ("kind", "project", "value"))
    ]


def values(kind: str, project: str) -> list[str]:
    """The values of `kind` the user accepted for `project` (usually none, after one failed
    open)."""
    found = entries()
    if not found:
        return []
    key = project_key(project)
    return [str(item["value"]) for item in found if item["kind"] == kind and item["project"] == key]


def accepted_at(kind: str, project: str, value: str) -> float | None:
    """When the user accepted exactly `value` for `project` (seconds since the epoch), or None."""
    key = project_key(project)
    for item in entries():
        if (item["kind"], item["project"], item["value"]) == (kind, key, value):
            at = item.get("at")
            return float(at) if isinstance(at, (int, float)) else 0.0
    return None


def grant(kind: str, project: str, value: str) -> None:
    """Accept `value` for `project`; any other value of that kind for the project is dropped."""
    key = project_key(project)
    kept = [item for item in entries() if not (item["kind"] == kind and item["project"] == key)]
    kept.append({"kind": kind, "project": key, "value": value, "at": round(time.time())})
    _save(kept)


def revoke(kind: str, project: str) -> list[str]:
    """Forget what was accepted of `kind` for `project`; the values dropped."""
    key = project_key(project)
    current = entries()
    dropped = [
        str(item["value"]) for item in current if item["kind"] == kind and item["project"] == key
    ]
    if dropped:
        _save([item for item in current if not (item["kind"] == kind and item["project"] == key)])
    return dropped


def _save(accepted: list[dict[str, object]]) -> None:
    """Temp file (0600) in the same folder, then rename: a reader sees the old list or the new
    one."""
    import json

    target = path()
    folder = os.path.dirname(target)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    tmp = os.path.join(folder, f".{FILE}.{os.getpid()}-{os.urandom(4).hex()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"format": FORMAT, "accepted": accepted}, handle, indent=1)
            handle.write("\n")
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _read(file: str) -> bytes:
    """At most MAX_BYTES of a regular file, opened without blocking (a FIFO is not waited on)."""
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return b""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return b""
        return os.read(fd, MAX_BYTES + 1)[:MAX_BYTES]
    except OSError:
        return b""
    finally:
        os.close(fd)
