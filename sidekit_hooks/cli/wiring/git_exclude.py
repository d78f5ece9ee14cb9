"""Where a project's untracked ignore rules go: the `info/exclude` of the git folder its work tree uses.

The plugin's automatic setup must never change a file the project tracks (a `.gitignore` edit shows up in
`git status`, in the scope sidecar, in the next commit). Git reads `info/exclude` from the repository's
common folder, which nothing tracks. Found without running git (the setup runs a repository's nothing),
each file read bounded, no link followed:

- `.git` a folder: that folder;
- `.git` a file (a linked work tree, `git worktree add`): `gitdir: <path>` names the work tree's own git
  folder, whose `gitdir` file must point back at this `.git` (else it is not this work tree's: a copied or
  planted file), and whose `commondir` names the repository's folder (relative to it);
- no `.git` in the project: the nearest one above it (a project inside a repository), MAX_UP folders up.

Anything else (a link, a submodule's `.git` file, a loop, an unreadable file): no place ('').
"""

from __future__ import annotations

import os
import stat

from sidekit_hooks.core import safepath

MAX_UP = 32  # folders looked at above the project for its repository
MAX_POINTER = 4096  # bytes read of a `.git`, `gitdir` or `commondir` file


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
    """A `.git` (of any kind) in the project or above it: then a `.gitignore` there may be tracked."""
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
        text = safepath.read_bytes(path, MAX_POINTER).decode("utf-8")
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
