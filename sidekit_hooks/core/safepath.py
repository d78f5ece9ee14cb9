"""Never outside: every path sidekit reads, writes, renames or deletes stays inside its own folder.

A repository can commit anything under `.sidekit/`, `.runtime/` or `.claude/`, including symlinks
that lead out of it. Every writer, reader and deleter of sidekit's own files goes through this
module:

- `check(path, anchor)` resolves the path and refuses (`UnsafePath`, an `OSError`, so the callers'
  fail-open handlers already catch it) when it resolves outside `anchor` (by default the folder that
  holds the path's `.sidekit`/`.runtime`/`.claude` component);
- `read_bytes` / `open_append` open with `O_NOFOLLOW | O_NONBLOCK` and accept regular files only, so a
  symlinked file, a FIFO or a device is refused without blocking;
- `read_inside` is the one way to read a file the repository holds (package.json, pyproject.toml,
  go.mod, a JUnit report, a source file): inside the project through every component, not a link (or
  only a link that stays inside, when asked), a regular file, opened without blocking, at most
  `limit` bytes (`TooLarge` past it, never a silent cut); `read_project_file` is its quiet form
  (None);
- `escapes(project)` lists the links that lead out, for `sidekit doctor`.

Standard library only (hook hot path).
"""

from __future__ import annotations

import os
import stat

STATE_FOLDERS = (".sidekit", ".runtime", ".claude")
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
MAX_STATE = (
    64 << 20
)  # bytes of one of sidekit's own state files (a cache, an index, a map) read at most
MAX_OUTPUT = 256 << 20  # bytes of a run's saved output read at most (its end: `read_tail`)
_REPORTED: set[str] = set()  # paths already logged by this process ("logged once")


class UnsafePath(OSError):
    """A path that resolves outside the folder it belongs to, or is not a regular file. `reason` is
    one of OUTSIDE, LINK, NOT_REGULAR, TOO_LARGE when `read_inside` raised it (the caller's words
    and fix)."""

    reason = ""


OUTSIDE, LINK, NOT_REGULAR, TOO_LARGE = "outside", "link", "not regular", "too large"


def refused(path: str, reason: str, words: str) -> UnsafePath:
    """An UnsafePath about `path` that carries its `reason`."""
    error = UnsafePath(f"{printable(path)} {words}; refused")
    error.reason = reason
    return error


class TooLarge(UnsafePath):
    """A repository file larger than its reader's limit (read whole or not at all, never cut
    short)."""

    reason = TOO_LARGE

    def __init__(self, message: str, size: int, limit: int) -> None:
        super().__init__(message)
        self.size = size
        self.limit = limit


def anchor_of(path: str) -> str:
    """The folder holding the path's first `.sidekit`/`.runtime`/`.claude` component ('' for
    none)."""
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
        raise UnsafePath(
            f"{printable(path)} leads outside {printable(anchor)} (to {printable(target)}); refused"
        )
    return path


def makedirs(path: str, anchor: str = "") -> str:
    """`os.makedirs(path, exist_ok=True)` after checking that it (and so what it creates) stays
    inside."""
    check(path, anchor)
    if os.path.isdir(path):  # nothing to create: the check holds for it
        return path
    new = _new_state_folder(path)
    os.makedirs(path, exist_ok=True)
    check(path, anchor)  # a link swapped in meanwhile is caught here
    if (
        new
    ):  # sidekit's own `.sidekit`/`.runtime`, made just now: out of `git status` from the start
        try:
            from sidekit_hooks.core import git_exclude

            git_exclude.exclude_new_folder(new)
        except (OSError, ValueError):
            pass  # an unwritable exclude file costs a listed folder, never the write that made it
    return path


def _new_state_folder(path: str) -> str:
    """The `.sidekit` or `.runtime` folder in `path` that does not exist yet ('' for none): one
    stat."""
    parts = os.path.abspath(path).split(os.sep)
    for index, part in enumerate(parts):
        if part in (".sidekit", ".runtime"):
            folder = os.sep.join(parts[: index + 1])
            return "" if os.path.lexists(folder) else folder
    return ""


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
    """The stat of a project file worth reading: a regular file whose real path is inside the
    project.

    A FIFO named `x.py` would block its reader forever, a device never ends, and a link may lead out
    of the project (the code index must not read `/etc` or another checkout through one): all are
    None.
    """
    path = os.path.join(project, relative)
    try:
        found = os.lstat(path)
        if not inside(path, project):  # the file, or a folder on its way, is a link that leads out
            return None
        if stat.S_ISLNK(found.st_mode):
            found = os.stat(path)
    except (OSError, ValueError):
        return None
    return found if stat.S_ISREG(found.st_mode) else None


def read_inside(project: str, path: str, limit: int, follow_inside: bool = False) -> bytes:
    """The whole of a file the repository holds, read the one safe way.

    `path` (relative to `project`, or absolute) must stay inside the project through every folder on
    its way; the file itself must not be a link (with `follow_inside`, a link whose target is inside
    the project is followed: a monorepo's shared package.json), must be a regular file (a FIFO or a
    device is refused without blocking: O_NONBLOCK) and must hold at most `limit` bytes: `TooLarge`
    past it (a 55 MB report is never read as its first 50 MB, nor skipped in silence). Raises
    UnsafePath, TooLarge, or the OSError of the open (FileNotFoundError, PermissionError).
    """
    full = os.path.abspath(os.path.join(project, path))
    base = os.path.realpath(project)
    folder = os.path.realpath(os.path.dirname(full))
    target = os.path.join(folder, os.path.basename(full))
    if not _under(target, base):
        raise refused(path, OUTSIDE, f"lies outside the project (in {printable(folder)})")
    if follow_inside and os.path.islink(target):
        target = os.path.realpath(target)
        if not _under(target, base):
            raise refused(path, OUTSIDE, "is a link that leads outside the project")
    try:
        fd = os.open(target, os.O_RDONLY | NOFOLLOW | NONBLOCK)
    except OSError as exc:
        if os.path.islink(target):
            raise refused(path, LINK, "is a symlink") from exc
        raise
    return _whole(fd, path, limit)


def read_tail(path: str, limit: int) -> bytes:
    """The last `limit` bytes of a regular file that is not a link (a run's saved output, whose end
    says how it ended), opened without blocking. Raises UnsafePath or the open's OSError."""
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK)
    except OSError as exc:
        if os.path.islink(path):
            raise refused(path, LINK, "is a symlink") from exc
        raise
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise refused(path, NOT_REGULAR, "is not a regular file")
        os.lseek(fd, max(0, found.st_size - limit), os.SEEK_SET)
        return _read_fd(fd, limit, 1 << 20)
    finally:
        os.close(fd)


def read_regular(path: str, limit: int) -> bytes:
    """A file that is not the repository's alone (the user's settings, often a link into their
    dotfiles; a file the client names): links followed, but a regular file only, opened without
    blocking, at most `limit` bytes (TooLarge past it). Raises UnsafePath, TooLarge or the open's
    OSError."""
    return _whole(os.open(path, os.O_RDONLY | NONBLOCK), path, limit)


def _whole(fd: int, path: str, limit: int) -> bytes:
    """All of an open regular file of at most `limit` bytes (UnsafePath, TooLarge otherwise); closes
    `fd`."""
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise refused(path, NOT_REGULAR, "is not a regular file")
        if found.st_size > limit:
            raise TooLarge(
                f"{printable(path)} holds {found.st_size} bytes, over the {limit} read",
                found.st_size,
                limit,
            )
        data = _read_fd(fd, limit + 1, 1 << 20)
        if len(data) > limit:  # grown since the fstat
            raise TooLarge(f"{printable(path)} holds over {limit} bytes", len(data), limit)
        return data
    finally:
        os.close(fd)


def read_project_file(project: str, relative: str, limit: int = 64 << 20) -> bytes | None:
    """`read_inside` (links inside the project followed), None for whatever it refuses or cannot
    open."""
    try:
        return read_inside(project, relative, limit, follow_inside=True)
    except (OSError, ValueError):
        return None


def read_project_text(project: str, relative: str, limit: int) -> str | None:
    """`read_project_file` decoded as UTF-8 (undecodable bytes replaced); None when it is None."""
    data = read_project_file(project, relative, limit)
    return None if data is None else data.decode("utf-8", "replace")


def _under(path: str, base: str) -> bool:
    """Whether the (already resolved) `path` is `base` or lies under it."""
    return path == base or path.startswith(base.rstrip(os.sep) + os.sep)


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
    """True the first time this process reports `path` (so a refusal is logged once, not per
    call)."""
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
    """sidekit's own link out (`install`'s recorder shim, `sidekit test`'s path shim): at its place,
    and to a sidekit_hooks package. A pytest in another environment loads sidekit's plugin through
    it."""
    if os.path.relpath(path, project) not in OWN_LINKS:
        return False
    target = os.path.realpath(path)
    return os.path.basename(target) == "sidekit_hooks" and os.path.isfile(
        os.path.join(target, "core", "safepath.py")
    )


def escapes(project: str) -> list[str]:
    """Every symlink among sidekit's own folders and files that leads out of the project (for
    doctor), bar sidekit's own links to its package (`is_own_link`)."""
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

    for folder in (
        ".sidekit",
        ".runtime",
    ):  # a `.claude/settings.json` linked to dotfiles is the user's choice
        visit(os.path.join(project, folder), 0)
    return found
