"""The shared test-status cache on disk: where it lives, how it is read and written.

Standard library only and no `json`/`re` at import: the tests sidecar reads the summary on the hook
hot path. A corrupt or foreign file is never a crash: readers get an empty cache and a note.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import fastjson, safepath, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

SUMMARY_FILE = "status.json"
TABLE_FILE = "status-tests.json"
LOCK_FILE = "status.lock"
FORMAT = 1

# Files whose change makes a test run out of date, and folders a source walk never enters.
# Other runners' sources too (runners/): an edit to a .go file makes a `go test` result out of date.
SOURCE_SUFFIXES = (".py", ".pyi", ".go", ".rs", ".java", ".kt")
SOURCE_NAMES = frozenset(
    {
        "pyproject.toml",
        "setup.cfg",
        "setup.py",
        "pytest.ini",
        "tox.ini",
        "conftest.py",
        "go.mod",
        "go.sum",
        "Cargo.toml",
        "Cargo.lock",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
    }
)
SKIP_DIRS = frozenset(
    {"__pycache__", "node_modules", "venv", "env", "build", "dist", "site-packages", "target"}
)
MAX_WALK = 20_000  # files; past this the staleness check says "unknown" rather than take seconds


def summary_path(root: str) -> str:
    return os.path.join(workspace.state_dir(root), SUMMARY_FILE)


def table_path(root: str) -> str:
    return os.path.join(workspace.state_dir(root), TABLE_FILE)


def workspace_root(start: str) -> str:
    """The folder whose `.sidekit/` holds the cache for `start` (a pytest rootdir or a cwd).

    `$CLAUDE_PROJECT_DIR` when `start` lies inside it; else the nearest folder upwards that already
    has `.sidekit/` or `.git`; else `start` itself.
    """
    start = os.path.abspath(start)
    project = os.environ.get("CLAUDE_PROJECT_DIR", "")
    if project:
        project = os.path.abspath(project)
        if start == project or start.startswith(project.rstrip(os.sep) + os.sep):
            return project
    folder = start
    while True:
        if os.path.isdir(os.path.join(folder, workspace.STATE_DIR)) or os.path.exists(
            os.path.join(folder, ".git")
        ):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return start
        folder = parent


class Loaded:
    """A cache file's content, or an empty one plus the reason it could not be used."""

    __slots__ = ("data", "note")

    def __init__(self, data: dict[str, Any], note: str = "") -> None:
        self.data = data
        self.note = note


def read(path: str) -> Loaded:
    """Read one cache file. Missing -> empty; unreadable, corrupt or another format -> empty +
    note."""
    try:
        # a cache linked out of the project, a FIFO, a device: refused, without blocking
        text = safepath.read_bytes(safepath.check(path), safepath.MAX_STATE).decode("utf-8")
    except FileNotFoundError:
        return Loaded({})
    except (OSError, UnicodeDecodeError) as exc:
        return Loaded(
            {},
            f"{os.path.basename(path)} unreadable ({type(exc).__name__}); the next pytest run "
            "rewrites it",
        )
    try:
        data = fastjson.loads(text)
    except ValueError:
        return Loaded({}, f"{os.path.basename(path)} is corrupt; the next pytest run rebuilds it")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return Loaded(
            {}, f"{os.path.basename(path)} has an unknown format; the next pytest run rebuilds it"
        )
    return Loaded(data)


def write(path: str, data: Mapping[str, Any]) -> None:
    """Atomic replace: a reader sees the old file or the new one, never half of either. Written by
    json's C encoder, without importing `json` (a compacted go or cargo run writes from a fresh
    Python)."""
    workspace.atomic_write(path, fastjson.dumps_as_json(dict(data, format=FORMAT)))


class _Lock:
    """An exclusive advisory lock on `.sidekit/status.lock` so concurrent runs merge, not
    overwrite."""

    def __init__(self, root: str) -> None:
        self.path = os.path.join(workspace.state_dir(root), LOCK_FILE)
        self.handle: Any = None

    def __enter__(self) -> _Lock:
        safepath.makedirs(os.path.dirname(self.path))
        self.handle = open(
            safepath.open_append(self.path), "a"
        )  # no planted link, no FIFO: refused
        try:
            import fcntl
        except (
            ImportError
        ):  # pragma: no cover - Windows: atomic replace still keeps each file whole
            return self
        fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()  # closing releases the lock


def locked(root: str) -> _Lock:
    return _Lock(root)


def changed_sources(root: str, since: float, limit: int = 3) -> tuple[list[str], int, bool]:
    """Source files modified after `since`: (first few, how many, whether the walk finished)."""
    found: list[str] = []
    count = 0
    walked = 0
    for path in _sources(root):
        walked += 1
        if walked > MAX_WALK:
            return found, count, False
        try:
            modified = os.stat(path).st_mtime
        except OSError:
            continue
        if modified > since:
            count += 1
            if len(found) < limit:
                found.append(os.path.relpath(path, root).replace(os.sep, "/"))
    return sorted(found), count, True


def _sources(root: str) -> Iterator[str]:
    for entry in workspace.walk(root, _descend):
        name = entry.name
        if (name.endswith(SOURCE_SUFFIXES) or name in SOURCE_NAMES) and not entry.is_dir(
            follow_symlinks=False
        ):
            yield entry.path


def _descend(name: str) -> bool:
    return not name.startswith(".") and name not in SKIP_DIRS and not name.endswith(".egg-info")


def now() -> float:
    return round(time.time(), 3)
