"""Never outside: every path sidekit reads, writes, renames or deletes stays inside its own folder.

A repository can commit anything under `.sidekit/`, `.runtime/` or `.claude/`, including symlinks that
lead out of it. Every writer, reader and deleter of sidekit's own files goes through this module:

- `check(path, anchor)` resolves the path and refuses (`UnsafePath`, an `OSError`, so the callers'
  fail-open handlers already catch it) when it resolves outside `anchor` (by default the folder that
  holds the path's `.sidekit`/`.runtime`/`.claude` component);
- `read_bytes` / `open_append` open with `O_NOFOLLOW | O_NONBLOCK` and accept regular files only, so a
  symlinked file, a FIFO or a device is refused without blocking;
- `escapes(project)` lists the links that lead out, for `sidekit doctor`.

Standard library only (hook hot path).
"""

from __future__ import annotations

import os
import stat

STATE_FOLDERS = (".sidekit", ".runtime", ".claude")
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_REPORTED: set[str] = set()  # paths already logged by this process ("logged once")


class UnsafePath(OSError):
    """A path that resolves outside the folder it belongs to, or is not a regular file."""


def anchor_of(path: str) -> str:
    """The folder holding the path's first `.sidekit`/`.runtime`/`.claude` component ('' for none)."""
    parts = os.path.abspath(path).split(os.sep)
    for index, part in enumerate(parts):
        if part in STATE_FOLDERS:
            return os.sep.join(parts[:index]) or os.sep
    return ""


def inside(path: str, anchor: str) -> bool:
    """Whether `path`, symlinks resolved, is `anchor` (resolved) or lies under it."""
    real = os.path.realpath(path)
    base = os.path.realpath(anchor)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def check(path: str, anchor: str = "") -> str:
    """`path`, or UnsafePath when it resolves outside `anchor` (default: `anchor_of(path)`)."""
    anchor = anchor or anchor_of(path)
    if anchor and not inside(path, anchor):
        target = os.path.realpath(path)
        raise UnsafePath(f"{printable(path)} leads outside {printable(anchor)} (to {printable(target)}); refused")
    return path


def makedirs(path: str, anchor: str = "") -> str:
    """`os.makedirs(path, exist_ok=True)` after checking that it (and so what it creates) stays inside."""
    check(path, anchor)
    if os.path.isdir(path):  # nothing to create: the check holds for it
        return path
    os.makedirs(path, exist_ok=True)
    return check(path, anchor)  # a link swapped in meanwhile is caught here


def read_bytes(path: str, limit: int = 1 << 20) -> bytes:
    """At most `limit` bytes of a regular file that is not a symlink (UnsafePath otherwise)."""
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK)
    except OSError as exc:
        if os.path.islink(path):
            raise UnsafePath(f"{printable(path)} is a symlink; refused") from exc
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafePath(f"{printable(path)} is not a regular file; refused")
        return _read_fd(fd, limit, 1 << 16)
    finally:
        os.close(fd)


def _read_fd(fd: int, limit: int, chunk_size: int) -> bytes:
    """At most `limit` bytes from an open file, read `chunk_size` at a time."""
    chunks = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, chunk_size))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def project_file(project: str, relative: str) -> os.stat_result | None:
    """The stat of a project file worth reading: a regular file whose real path is inside the project.

    A FIFO named `x.py` would block its reader forever, a device never ends, and a link may lead out of
    the project (the code index must not read `/etc` or another checkout through one): all are None.
    """
    path = os.path.join(project, relative)
    try:
        found = os.lstat(path)
        if stat.S_ISLNK(found.st_mode):
            if not inside(path, project):
                return None
            found = os.stat(path)
    except (OSError, ValueError):
        return None
    return found if stat.S_ISREG(found.st_mode) else None


def read_project_file(project: str, relative: str, limit: int = 64 << 20) -> bytes | None:
    """At most `limit` bytes of a project file `project_file` accepts (None otherwise, never blocking)."""
    path = os.path.join(project, relative)
    try:
        if os.path.islink(path) and not inside(path, project):
            return None
        fd = os.open(path, os.O_RDONLY | NONBLOCK)  # a FIFO swapped in after a check still cannot block
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        return _read_fd(fd, limit, 1 << 20)
    except OSError:
        return None
    finally:
        os.close(fd)


def open_append(path: str, anchor: str = "") -> int:
    """A file descriptor for appending to a regular file inside `anchor` (created when absent)."""
    check(os.path.dirname(path), anchor or anchor_of(path))
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | NOFOLLOW | NONBLOCK, 0o644)
    except OSError as exc:
        if os.path.islink(path):
            raise UnsafePath(f"{printable(path)} is a symlink; refused") from exc
        if os.path.exists(path) and not os.path.isfile(path):  # a FIFO without a reader: ENXIO
            raise UnsafePath(f"{printable(path)} is not a regular file; refused") from exc
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafePath(f"{printable(path)} is not a regular file; refused")
    return fd


def first_report(path: str) -> bool:
    """True the first time this process reports `path` (so a refusal is logged once, not per call)."""
    if path in _REPORTED:
        return False
    _REPORTED.add(path)
    return True


def printable(text: str) -> str:
    """A name as data: control characters, `$` and backquotes escaped, lone surrogates replaced."""
    out = []
    for char in text:
        code = ord(char)
        if code < 0x20 or 0x7F <= code < 0xA0 or char in "$`\\" or code in (0x2028, 0x2029):
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\ufffd")
        else:
            out.append(char)
    return "".join(out)


OWN_LINKS = (
    os.path.join(".sidekit", "pytest-env", "sidekit_hooks"),  # install's recorder shim
    os.path.join(".sidekit", "pyshim", "sidekit_hooks"),
)  # `sidekit test` in another environment


def is_own_link(path: str, project: str) -> bool:
    """sidekit's own link out (`install`'s recorder shim, `sidekit test`'s path shim): at its place, and
    to a sidekit_hooks package. A pytest in another environment loads sidekit's plugin through it."""
    if os.path.relpath(path, project) not in OWN_LINKS:
        return False
    target = os.path.realpath(path)
    return os.path.basename(target) == "sidekit_hooks" and os.path.isfile(os.path.join(target, "core", "safepath.py"))


def escapes(project: str) -> list[str]:
    """Every symlink among sidekit's own folders and files that leads out of the project (for doctor),
    bar sidekit's own links to its package (`is_own_link`)."""
    found: list[str] = []
    project = os.path.abspath(project)
    seen: set[str] = set()

    def visit(path: str, depth: int) -> None:
        if path in seen or depth > 3:
            return
        seen.add(path)
        if os.path.islink(path) and not inside(path, project) and not is_own_link(path, project):
            found.append(f"{os.path.relpath(path, project)} -> {os.path.realpath(path)}")
            return
        if depth < 3 and os.path.isdir(path) and not os.path.islink(path):
            try:
                names = sorted(os.listdir(path))[:500]
            except OSError:
                return
            for name in names:
                visit(os.path.join(path, name), depth + 1)

    for folder in (".sidekit", ".runtime"):  # a `.claude/settings.json` linked to dotfiles is the user's choice
        visit(os.path.join(project, folder), 0)
    return found
