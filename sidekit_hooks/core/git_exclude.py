"""Where a project's untracked ignore rules go: the `info/exclude` of the git folder its work tree
uses.

The plugin's automatic setup must never change a file the project tracks (a `.gitignore` edit shows
up in `git status`, in the scope sidecar, in the next commit). Git reads `info/exclude` from the
repository's common folder, which nothing tracks. Found without running git (the setup runs a
repository's nothing), each file read bounded, no link followed:

- `.git` a folder: that folder;
- `.git` a file (a linked work tree, `git worktree add`): `gitdir: <path>` names the work tree's own
  git folder, whose `gitdir` file must point back at this `.git` (else it is not this work tree's: a
  copied or planted file), and whose `commondir` names the repository's folder (relative to it);
- no `.git` in the project: the nearest one above it (a project inside a repository), MAX_UP folders
  up.

Anything else (a link, a submodule's `.git` file, a loop, an unreadable file): no place ('').

`exclude_new_folder` is the hooks' side (issue #35): `safepath.makedirs`, the one way sidekit makes
a folder, calls it when it creates `.sidekit/` or `.runtime/` itself, so whatever writes first (a
hook, `sidekit scope set`, a test run's recorder) leaves them out of `git status` in either form,
before the plugin's first-session setup runs. Its cost falls on that creation only: afterwards the
folder exists and `makedirs` returns after its stat. Standard library only, and no other sidekit
module: safepath calls it.
"""

from __future__ import annotations

import os
import stat

MAX_UP = 32  # folders looked at above the project for its repository
MAX_POINTER = 4096  # bytes read of a `.git`, `gitdir` or `commondir` file
MAX_EXCLUDE = (
    1 << 20
)  # bytes of an `info/exclude` read; a bigger one is the user's own, left as it is
IGNORE_COMMENT = (
    "# sidekit-hooks: caches, logs, the nudge queue, settings backups"  # begins sidekit's block
)
STATE_FOLDERS = (
    ".sidekit",
    ".runtime",
)  # what sidekit writes in a project; git should not list them


def ignore_key(line: str) -> str:
    """`.sidekit`, `/.sidekit/` and `.sidekit/*` all ignore the same folder."""
    key = line.strip()
    for tail in ("/**", "/*"):
        key = key.removesuffix(tail)
    return key.strip("/")


def exclude_new_folder(folder: str) -> bool:
    """`folder` (a `.sidekit` or `.runtime` sidekit just created) goes into the `info/exclude` of
    the work tree holding it, inside sidekit's block (so `sidekit uninstall` takes it back); never
    into a file the project tracks, and nothing outside a repository. True when a line was added."""
    name = os.path.basename(folder)
    exclude = exclude_file(os.path.dirname(folder)) if name in STATE_FOLDERS else ""
    if not exclude:
        return False
    try:
        raw = _read(exclude, MAX_EXCLUDE + 1)
    except FileNotFoundError:
        raw = b""
    if len(raw) > MAX_EXCLUDE:
        return False
    text = raw.decode("utf-8", "replace")
    lines = text.splitlines()
    if any(ignore_key(line) == name for line in lines):
        return False
    os.makedirs(
        os.path.dirname(exclude), exist_ok=True
    )  # `info` (checked: not a link) may be missing
    _replace(exclude, with_line(text, f"{name}/"))
    return True


def _read(path: str, limit: int) -> bytes:
    """At most `limit` bytes of a regular file, never through a link, never blocking (as
    safepath.read_bytes, which imports this module)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        chunks, left = [], limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _replace(path: str, text: str) -> None:
    """Write through a temporary file beside it, then rename: git never reads half a file, and a
    link at `path` is replaced, never written through."""
    tmp = os.path.join(os.path.dirname(path), f".tmp-sidekit-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        with open(tmp, "x", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def with_line(text: str, line: str) -> str:
    """`text` with `line` at the end of sidekit's block (the block begun when there is none)."""
    lines = text.splitlines()
    if IGNORE_COMMENT not in lines:
        prefix = "" if not text or text.endswith("\n") else "\n"
        return f"{text}{prefix}{IGNORE_COMMENT}\n{line}\n"
    end = lines.index(IGNORE_COMMENT) + 1
    while end < len(lines) and (
        ignore_key(lines[end]) in STATE_FOLDERS or lines[end].startswith(".claude/")
    ):
        end += 1
    return "\n".join([*lines[:end], line, *lines[end:]]) + "\n"


def exclude_file(project: str) -> str:
    """The `info/exclude` the project's work tree uses (it may not exist yet), or '' for none."""
    folder = os.path.realpath(project)
    for _ in range(MAX_UP):
        dot_git = os.path.join(folder, ".git")
        try:
            mode = os.lstat(dot_git).st_mode
        except OSError:
            mode = 0
        if mode:
            common = _common_dir(dot_git, mode)
            return _exclude_in(common) if common else ""
        parent = os.path.dirname(folder)
        if parent == folder:
            return ""
        folder = parent
    return ""


def in_repository(project: str) -> bool:
    """A `.git` (of any kind) in the project or above it: then a `.gitignore` there may be
    tracked."""
    folder = os.path.realpath(project)
    for _ in range(MAX_UP):
        if os.path.lexists(os.path.join(folder, ".git")):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent
    return True  # too deep to tell: take it as tracked


def _common_dir(dot_git: str, mode: int) -> str:
    if stat.S_ISDIR(mode):
        return dot_git
    if not stat.S_ISREG(mode):
        return ""  # a link: someone else's repository
    gitdir = _pointer(dot_git, "gitdir:", os.path.dirname(dot_git))
    if not gitdir or not os.path.isdir(gitdir):
        return ""
    back = _pointer(os.path.join(gitdir, "gitdir"), "", gitdir)
    if not back or os.path.realpath(back) != os.path.realpath(dot_git):
        return ""  # not a linked work tree of this folder (a submodule, a copy, a planted file)
    common = _pointer(os.path.join(gitdir, "commondir"), "", gitdir)
    return common if common and os.path.isdir(common) else ""


def _pointer(path: str, prefix: str, base: str) -> str:
    """The path a git pointer file holds (`prefix` then the path, relative to `base`), or ''."""
    try:
        text = _read(path, MAX_POINTER).decode("utf-8")
    except (OSError, ValueError):
        return ""
    line = text.splitlines()[0] if text.strip() else ""
    if not line.startswith(prefix):
        return ""
    target = line[len(prefix) :].strip()
    return os.path.normpath(os.path.join(base, target)) if target else ""


def _exclude_in(common: str) -> str:
    """`<common>/info/exclude`, unless `info` or `exclude` is a link or not what it should be."""
    info = os.path.join(common, "info")
    exclude = os.path.join(info, "exclude")
    for path, kind in ((common, stat.S_ISDIR), (info, stat.S_ISDIR), (exclude, stat.S_ISREG)):
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            if path == common:
                return ""
            continue  # created when the lines are added
        except OSError:
            return ""
        if not kind(mode):
            return ""
    return exclude
