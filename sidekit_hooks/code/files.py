"""The workspace's own source files (Python, and the other languages the index reads: `suffixes`),
with their stat data: from git's file list where there is one.

`git ls-files` reads the list git already keeps (tracked files from its index, untracked ones that
are not ignored), so a query neither walks the tree nor descends into ignored virtualenvs, build
output or data folders. Without git (or when git fails) a walk stands in, bounded in files and
folders so a huge or hostile tree cannot hold a command. Either way the same folders are left out.
"""

from __future__ import annotations

import os

# Folders that are never the workspace's own code.
SKIPPED_DIRS = frozenset(
    {"__pycache__", "node_modules", "site-packages", "build", "dist", "venv", "env"}
)
WALK_MAX_FILES = 50_000  # .py files; more than any real workspace holds
WALK_MAX_DIRS = 20_000
GIT_TIMEOUT = 20  # seconds
LINK_MODES = (b"120000", b"160000")  # symlinks and submodules: not this workspace's own files
# A repository's config must not make a file listing run anything (fsmonitor hooks) or page.
GIT_SAFE = ("--no-pager", "-c", "core.fsmonitor=false")


def skipped_dir(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_DIRS or name.endswith(".egg-info")


def python_files(project: str) -> dict[str, tuple[int, int]]:
    """Project-relative `.py` paths -> (mtime_ns, size), skipping hidden folders, venvs and build
    output."""
    listed = git_python_files(project)
    if listed is None:
        return walked_python_files(project)
    return stat_all(project, listed)


def git_python_files(project: str) -> list[str] | None:
    """The `.py` files git knows of here (tracked, or untracked and not ignored); None outside
    git."""
    listing = git_listing(project)
    return None if listing is None else listing[0]


def git_listing(
    project: str, suffixes: tuple[str, ...] = (".py",)
) -> tuple[list[str], dict[str, int]] | None:
    """(the files with these suffixes git knows of here, what to watch to know the list is still
    current); None outside git. Watched (path -> mtime_ns): every folder holding a listed file, and
    its parents (a file created or removed there changes the folder's mtime), the `.gitignore`
    files, and git's own index and excludes (a checkout, an add, a new ignore rule)."""
    listing = run_git(
        project, ["ls-files", "-z", "--stage", "--cached", "--others", "--exclude-standard"]
    )
    git_paths = run_git(project, ["rev-parse", "--git-path", "index", "--git-path", "info/exclude"])
    if listing is None or git_paths is None:
        return None
    paths: list[str] = []
    seen: set[str] = set()
    folders: set[str] = {""}
    ignores: list[str] = [
        line.decode("utf-8", "surrogateescape") for line in git_paths.splitlines() if line
    ]
    venv_checked: dict[str, bool] = {}
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, tab, raw = record.partition(b"\t")
        if not tab:  # an untracked file: the bare path
            raw, meta = record, b""
        path = raw.decode("utf-8", "surrogateescape")
        folder = path.rpartition("/")[0]
        if folder not in folders and not any(
            skipped_dir(name) for name in folder.split("/") if name
        ):
            while (
                folder not in folders
            ):  # (not sidekit's own .sidekit/, whose index changes with every query)
                folders.add(folder)
                folder = folder.rpartition("/")[0]
        if path.endswith(".gitignore"):
            ignores.append(path)
        if meta[:6] in LINK_MODES or path in seen or not path.endswith(suffixes):
            continue  # (a file in conflict is listed once per stage)
        if _wanted(project, path, venv_checked):
            seen.add(path)
            paths.append(path)
    return paths, watch(project, [*folders, *ignores])


RACY_SECONDS = 2.0  # a folder changed this recently may change again within its mtime's resolution


def watch(project: str, paths: list[str]) -> dict[str, int]:
    """path -> mtime_ns now (-1: missing); a recent mtime is stored as -2, which never matches, so
    the next query lists again (a file added in the same instant as the listing is not missed)."""
    import time

    recent = time.time_ns() - int(RACY_SECONDS * 1e9)
    watched: dict[str, int] = {}
    for path in paths:
        mtime = mtime_of(os.path.join(project, path))
        watched[path] = -2 if mtime > recent else mtime
    return watched


def settled(stat: tuple[int, int]) -> tuple[int, int]:
    """A file's (mtime_ns, size) as the index keeps it: a recent mtime becomes -2, which never
    matches, so a write in the same mtime tick as the index's read (same size too) is read at the
    next query."""
    import time

    mtime, size = stat
    return (-2, size) if mtime > time.time_ns() - int(RACY_SECONDS * 1e9) else stat


def unchanged(project: str, watched: dict[str, int]) -> bool:
    """Nothing watched moved: the file list git gave last time still holds (no git, no walk)."""
    with _Folder(project) as folder:
        for path, mtime in watched.items():
            try:
                now = os.stat(path or ".", dir_fd=folder.fd).st_mtime_ns
            except OSError:
                now = -1
            if now != mtime:
                return False
    return True


def still_as_recorded(
    project: str,
    watched: list[bytes],
    mtimes: list[int],
    paths: list[bytes],
    file_mtimes: list[int],
    sizes: list[int],
) -> bool:
    """Every watched path still has its mtime (-1: still missing) and every file its mtime and size:
    the one loop of stats a warm query makes, with nothing built on the way (see
    index.Index.refresh)."""
    stat = os.stat
    with _Folder(project) as folder:
        fd = folder.fd
        for path, mtime in zip(watched, mtimes, strict=True):
            try:
                now = stat(path or b".", dir_fd=fd).st_mtime_ns
            except OSError:
                now = -1
            if now != mtime:
                return False
        try:
            for path, mtime, size in zip(paths, file_mtimes, sizes, strict=True):
                result = stat(path, dir_fd=fd)
                if result.st_mtime_ns != mtime or result.st_size != size:
                    return False
        except OSError:  # a file is gone
            return False
    return True


class _Folder:
    """The project folder, open: thousands of stats relative to it skip joining and resolving its
    path."""

    def __init__(self, project: str) -> None:
        self.fd = os.open(project, os.O_RDONLY | os.O_DIRECTORY)

    def __enter__(self) -> _Folder:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


def mtime_of(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def run_git(project: str, args: list[str], timeout: float = GIT_TIMEOUT) -> bytes | None:
    """git's stdout, or None when it fails or overruns. Spawned by hand: `subprocess` costs a warm
    query more to import (threading, signal, selectors) than git itself takes to list a big tree."""
    import select

    argv = ["git", "-C", project, *GIT_SAFE, *args]
    read_end, write_end = os.pipe()
    try:
        pid = os.posix_spawnp(
            "git",
            argv,
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, write_end, 1),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_CLOSE, read_end),
            ],
        )
    except OSError:
        os.close(read_end)
        return None
    finally:
        os.close(write_end)
    chunks: list[bytes] = []
    deadline = _now() + timeout
    try:
        while True:
            left = deadline - _now()
            if left <= 0 or not select.select([read_end], [], [], left)[0]:
                os.kill(pid, 9)  # overran: a hostile or broken repository must not hold the query
                os.waitpid(pid, 0)
                return None
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
    _, status = os.waitpid(pid, 0)
    return b"".join(chunks) if os.waitstatus_to_exitcode(status) == 0 else None


def _now() -> float:
    import time

    return time.monotonic()


def _wanted(project: str, path: str, venv_checked: dict[str, bool]) -> bool:
    folders = path.split("/")[:-1]
    for depth, name in enumerate(folders):
        if skipped_dir(name):
            return False
        prefix = "/".join(folders[: depth + 1])
        if prefix not in venv_checked:  # an unignored virtualenv under another name
            venv_checked[prefix] = os.path.exists(os.path.join(project, prefix, "pyvenv.cfg"))
        if venv_checked[prefix]:
            return False
    return True


def stat_all(project: str, paths: list[str]) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    stat = os.stat
    with _Folder(project) as folder:
        fd = folder.fd
        for path in paths:
            try:
                result = stat(path, dir_fd=fd)
            except OSError:  # listed by git, deleted in the working tree
                continue
            found[path] = (result.st_mtime_ns, result.st_size)
    return found


def walked_python_files(
    project: str, suffixes: tuple[str, ...] = (".py",)
) -> dict[str, tuple[int, int]]:
    """The same list without git: a walk, bounded in files and folders."""
    found: dict[str, tuple[int, int]] = {}
    folders = 0
    for folder, dirs, files in os.walk(project):
        folders += 1
        dirs[:] = sorted(
            d
            for d in dirs
            if not skipped_dir(d) and not os.path.exists(os.path.join(folder, d, "pyvenv.cfg"))
        )
        relative = os.path.relpath(folder, project).replace(os.sep, "/")
        prefix = "" if relative == "." else relative + "/"
        for name in files:
            if name.endswith(suffixes):
                try:
                    stat = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                found[prefix + name] = (stat.st_mtime_ns, stat.st_size)
                if len(found) >= WALK_MAX_FILES:
                    return found
        if folders >= WALK_MAX_DIRS:
            break
    return found
