"""The AST index of the workspace's Python files, kept in `.sidekit/code/index.sqlite`.

Every query first refreshes the index incrementally: a file is re-read only when its size or mtime
moved, and re-parsed only when its content hash changed. Files that do not parse are counted and
skipped. SQLite does the locking, so concurrent commands never see half an update; a corrupt index
is thrown away and rebuilt (it is a cache: nothing is lost).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from sidekit_hooks.core import safepath, workspace

SCHEMA_VERSION = 1
from sidekit_hooks.code import INDEX_FILE as INDEX_FILE  # re-exported: its home is the package

# (NamedTuples, not dataclasses: `dataclasses` imports `inspect`, tens of ms on a warm query.)
# Folders that are never the workspace's own code.
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "build", "dist", "venv", "env"})

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, mtime INTEGER, size INTEGER, hash TEXT,
                                 module TEXT, parsed INTEGER);
CREATE TABLE IF NOT EXISTS defs(path TEXT, qualname TEXT, name TEXT, kind TEXT, line INTEGER, sig TEXT);
CREATE TABLE IF NOT EXISTS refs(path TEXT, name TEXT, line INTEGER);
CREATE TABLE IF NOT EXISTS imports(path TEXT, module TEXT, name TEXT, alias TEXT, line INTEGER);
CREATE INDEX IF NOT EXISTS defs_name ON defs(name);
CREATE INDEX IF NOT EXISTS refs_name ON refs(name);
CREATE INDEX IF NOT EXISTS refs_path ON refs(path);
CREATE INDEX IF NOT EXISTS defs_path ON defs(path);
CREATE INDEX IF NOT EXISTS imports_path ON imports(path);
CREATE INDEX IF NOT EXISTS imports_module ON imports(module);
"""


class Coverage(NamedTuple):
    """How much of the workspace an answer searched."""

    files: int  # Python files found
    unparsable: int  # of those, files that did not parse (skipped)


class Symbol(NamedTuple):
    path: str
    qualname: str
    kind: str
    line: int
    signature: str
    module: str


def python_files(project: str) -> dict[str, tuple[int, int]]:
    """Project-relative `.py` paths -> (mtime_ns, size), skipping hidden folders, venvs and build output."""
    found: dict[str, tuple[int, int]] = {}
    for folder, dirs, files in os.walk(project):
        dirs[:] = sorted(
            d for d in dirs
            if not d.startswith(".") and d not in SKIPPED_DIRS and not d.endswith(".egg-info")
            and not os.path.exists(os.path.join(folder, d, "pyvenv.cfg"))
        )
        relative = os.path.relpath(folder, project).replace(os.sep, "/")
        prefix = "" if relative == "." else relative + "/"
        for name in files:
            if name.endswith(".py"):
                stat = safepath.project_file(project, prefix + name)  # no FIFO, device, or link out
                if stat is None:
                    continue
                found[prefix + name] = (stat.st_mtime_ns, stat.st_size)
    return found


def content_hash(data: bytes) -> str:
    import hashlib  # only when a file changed: keeps the warm path light

    return hashlib.blake2b(data, digest_size=10).hexdigest()


def packages_of(paths: Iterable[str]) -> frozenset[str]:
    """Folders (project-relative) that hold an `__init__.py`."""
    return frozenset(p[: -len("/__init__.py")] for p in paths if p.endswith("/__init__.py"))


class Index:
    """An open, refreshed index. Use `Index.open(project)`; close with `close()` or a `with` block."""

    def __init__(self, project: str, db: sqlite3.Connection, coverage: Coverage) -> None:
        self.project = project
        self.db = db
        self.coverage = coverage

    # lifecycle
    @classmethod
    def open(cls, project: str, refresh: bool = True) -> Index:
        path = os.path.join(workspace.state_dir(project), INDEX_FILE)
        safepath.makedirs(os.path.dirname(path), project)  # the index database never lives outside the project
        try:
            db = _connect(path)
        except sqlite3.DatabaseError:
            _discard(path)
            db = _connect(path)
        index = cls(project, db, Coverage(0, 0))
        if refresh:
            try:
                index.coverage = index.refresh()
            except sqlite3.DatabaseError:  # corrupt after all: rebuild once from scratch
                db.close()
                _discard(path)
                index.db = _connect(path)
                index.coverage = index.refresh()
        return index

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # incremental update
    def refresh(self) -> Coverage:
        on_disk = python_files(self.project)
        known = {row[0]: (row[1], row[2]) for row in self.db.execute("SELECT path, mtime, size FROM files")}
        # Module names and relative imports depend on where the packages are: re-read all when that moves.
        layout = content_hash("\n".join(sorted(packages_of(on_disk))).encode())
        relayout = self._meta("layout") != layout
        stale = [p for p, stat in on_disk.items() if relayout or known.get(p) != stat]
        gone = [p for p in known if p not in on_disk]
        if stale or gone:
            self._apply(on_disk, stale, gone, layout if relayout else "")
        unparsable = self.db.execute("SELECT count(*) FROM files WHERE parsed = 0").fetchone()[0]
        return Coverage(len(on_disk), int(unparsable))

    def _meta(self, key: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else ""

    def _apply(self, on_disk: dict[str, tuple[int, int]], stale: list[str], gone: list[str], layout: str) -> None:
        packages = packages_of(on_disk)
        self.db.execute("BEGIN IMMEDIATE")  # one writer at a time; readers keep their snapshot
        try:
            hashes = {} if layout else dict(self.db.execute("SELECT path, hash FROM files").fetchall())
            if layout:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('layout', ?)", (layout,))
            for path in gone:
                self._forget(path)
            for path in stale:
                self._update(path, on_disk[path], hashes.get(path), packages)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _update(self, path: str, stat: tuple[int, int], old_hash: str | None, packages: frozenset[str]) -> None:
        from sidekit_hooks.code.parse import facts_of, module_name

        data = safepath.read_project_file(self.project, path)
        if data is None:
            self._forget(path)
            return
        digest = content_hash(data)
        if digest == old_hash:  # touched, not changed
            self.db.execute("UPDATE files SET mtime = ?, size = ? WHERE path = ?", (*stat, path))
            return
        self._forget(path)
        module = module_name(path, packages)
        try:
            facts = facts_of(data, module, path.endswith("__init__.py"))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self.db.execute("INSERT INTO files VALUES (?, ?, ?, ?, ?, 0)", (path, *stat, digest, module))
            return
        self.db.execute("INSERT INTO files VALUES (?, ?, ?, ?, ?, 1)", (path, *stat, digest, module))
        self.db.executemany(
            "INSERT INTO defs VALUES (?, ?, ?, ?, ?, ?)",
            [(path, d.qualname, d.name, d.kind, d.line, d.signature) for d in facts.definitions],
        )
        self.db.executemany("INSERT INTO refs VALUES (?, ?, ?)", [(path, n, line) for n, line in facts.references])
        self.db.executemany(
            "INSERT INTO imports VALUES (?, ?, ?, ?, ?)",
            [(path, i.module, i.name, i.alias, i.line) for i in facts.imports],
        )

    def _forget(self, path: str) -> None:
        for table in ("files", "defs", "refs", "imports"):
            self.db.execute(f"DELETE FROM {table} WHERE path = ?", (path,))

    # queries
    def definitions(self, name: str) -> list[Symbol]:
        """Definitions whose bare name is the last part of `name` (ranking is the caller's)."""
        bare = name.replace(":", ".").rsplit(".", 1)[-1]
        rows = self.db.execute(
            "SELECT d.path, d.qualname, d.kind, d.line, d.sig, f.module FROM defs d JOIN files f USING (path)"
            " WHERE d.name = ?",
            (bare,),
        )
        return [Symbol(*row) for row in rows]

    def definitions_in(self, path: str) -> list[Symbol]:
        rows = self.db.execute(
            "SELECT d.path, d.qualname, d.kind, d.line, d.sig, f.module FROM defs d JOIN files f USING (path)"
            " WHERE d.path = ?",
            (path,),
        )
        return [Symbol(*row) for row in rows]

    def defined_names(self, qualified: bool) -> list[str]:
        """Every distinct defined name (bare, or qualified within its module), for near-miss suggestions."""
        column = "qualname" if qualified else "name"
        return [str(row[0]) for row in self.db.execute(f"SELECT DISTINCT {column} FROM defs")]

    def references(self, name: str) -> list[tuple[str, int]]:
        """(path, line) of every AST reference to the bare name, one per line, sorted."""
        rows = self.db.execute("SELECT DISTINCT path, line FROM refs WHERE name = ? ORDER BY path, line", (name,))
        return [(str(path), int(line)) for path, line in rows]

    def modules(self) -> dict[str, str]:
        """Project-relative path -> module name, for every indexed file."""
        return {str(p): str(m) for p, m in self.db.execute("SELECT path, module FROM files")}

    def hashes(self) -> dict[str, str]:
        return {str(p): str(h) for p, h in self.db.execute("SELECT path, hash FROM files")}

    def imports(self) -> list[tuple[str, str, str]]:
        """(importing path, module, imported name) for every import statement."""
        return [(str(p), str(m), str(n)) for p, m, n in self.db.execute("SELECT path, module, name FROM imports")]


def _connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=30, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
        db.execute("BEGIN IMMEDIATE")  # re-checked under the lock: two first runs build it once
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                for table in ("meta", "files", "defs", "refs", "imports"):
                    db.execute(f"DROP TABLE IF EXISTS {table}")
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return db


def _discard(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(path + suffix)
        except OSError:
            pass
