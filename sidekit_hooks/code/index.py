"""The AST index of the workspace's Python files, kept in `.sidekit/code/index.sqlite`.

Every query first refreshes the index incrementally: the file list comes from git (`code.files`:
tracked and untracked-but-not-ignored files, no walk of the tree), a file is re-read only when its
size or mtime moved (or moved within a racy second of its last read), and re-parsed only when its
content hash changed. Files that do not parse are counted and skipped. A warm query does less: it
re-stats what the last refresh recorded (`code.fresh`) and refreshes only when something moved.
SQLite does the locking, so concurrent commands never see half an update; a corrupt index is thrown
away and rebuilt (it is a cache: nothing is lost).

Size: a file's references are one row per (name, file) with its line numbers packed in one text
field, and every table points at the file by its integer id; one row per reference and the path
repeated in every row made Django's index 4.5x its source.
"""

from __future__ import annotations

import os
from collections import namedtuple
from collections.abc import Iterable

from sidekit_hooks.code import INDEX_FILE as INDEX_FILE  # re-exported: its home is the package
from sidekit_hooks.code import files, fresh, languages, written
from sidekit_hooks.code.files import (
    python_files as python_files,
)  # re-exported: callers import it here
from sidekit_hooks.code.fresh import NOT_INDEXED_KEY
from sidekit_hooks.code.languages import INDEXED
from sidekit_hooks.core import safepath, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from typing import NamedTuple

    from sidekit_hooks.code.parse import FileFacts
# the C module itself: `sqlite3` adds only adapters, and imports datetime (a warm query's ~2 ms)
else:
    try:
        import _sqlite3 as sqlite3
    except ImportError:  # pragma: no cover - an interpreter built without it has no sqlite3 either
        import sqlite3

# 3: every language (files.lang, parsed = 2 for "grammar missing", funcs); the extractors' version
# is part of it, so an upgrade that reads code differently rebuilds the index instead of mixing the
# two.
SCHEMA_VERSION = 3 * 1000 + languages.VERSION
# a bigger non-Python file is a bundle or generated: counted unparsable
MAX_SOURCE_BYTES = 1_000_000

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, mtime INTEGER, size INTEGER,
                                 hash TEXT, module TEXT, parsed INTEGER, lang TEXT);
CREATE TABLE IF NOT EXISTS defs(file INTEGER, qualname TEXT, name TEXT, kind TEXT, line INTEGER, sig TEXT);
CREATE TABLE IF NOT EXISTS refs(name TEXT, file INTEGER, lines TEXT, PRIMARY KEY (name, file)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS imports(file INTEGER, module TEXT, name TEXT, alias TEXT, line INTEGER);
CREATE TABLE IF NOT EXISTS watched(path TEXT PRIMARY KEY, mtime INTEGER) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS funcs(file INTEGER, qualname TEXT, line INTEGER, end INTEGER, sig TEXT, body BLOB);
CREATE INDEX IF NOT EXISTS defs_name ON defs(name);
CREATE INDEX IF NOT EXISTS defs_file ON defs(file);
CREATE INDEX IF NOT EXISTS refs_file ON refs(file);
CREATE INDEX IF NOT EXISTS imports_file ON imports(file);
CREATE INDEX IF NOT EXISTS funcs_file ON funcs(file);
"""
TABLES = ("meta", "files", "defs", "refs", "imports", "watched", "funcs")
FACT_TABLES = ("defs", "refs", "imports", "funcs")  # rows of one file, forgotten with it


# (Named tuples, not dataclasses or typing.NamedTuple: `dataclasses` imports `inspect` and `typing`
# costs a few ms, on a query whose whole budget is three bare interpreters.)
if TYPE_CHECKING:

    class Coverage(NamedTuple):
        """How much of the workspace an answer searched."""

        files: int  # source files found (every language the index reads)
        unparsable: int  # of those, files that did not parse (skipped)
        not_indexed: str = ""  # space-separated ids of the languages whose grammar is missing

    class Symbol(NamedTuple):
        path: str
        qualname: str
        kind: str
        line: int
        signature: str
        module: str
else:
    Coverage = namedtuple("Coverage", "files unparsable not_indexed", defaults=("",))
    Symbol = namedtuple("Symbol", "path qualname kind line signature module")


def content_hash(data: bytes) -> str:
    import hashlib  # only when a file changed: keeps the warm path light

    return hashlib.blake2b(data, digest_size=10).hexdigest()


def layout_key(packages: frozenset[str]) -> str:
    """A short key of where the packages are (not `content_hash`: hashlib is ~10 ms to import)."""
    import zlib

    text = "\n".join(sorted(packages)).encode()
    return f"{len(packages)}:{zlib.crc32(text):08x}:{zlib.adler32(text):08x}"


def packages_of(paths: Iterable[str]) -> frozenset[str]:
    """Folders (project-relative) that hold an `__init__.py`."""
    return frozenset(p[: -len("/__init__.py")] for p in paths if p.endswith("/__init__.py"))


def packed_lines(lines: Iterable[int]) -> str:
    return " ".join(map(str, sorted(set(lines))))


class Index:
    """An open, refreshed index. Use `Index.open(project)`; close with `close()` or a `with`
    block."""

    def __init__(self, project: str, db: sqlite3.Connection, coverage: Coverage) -> None:
        self.project = project
        self.db = db
        self.coverage = coverage

    # lifecycle
    @classmethod
    def open(cls, project: str, refresh: bool = True) -> Index:
        path = os.path.join(workspace.state_dir(project), INDEX_FILE)
        safepath.makedirs(
            os.path.dirname(path), project
        )  # the index database never lives outside the project
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
        kept = fresh.still_fresh(self.db, self.project)
        if kept is not None and not (kept.not_indexed and _grammar_came(kept.not_indexed)):
            return Coverage(
                kept.files, kept.unparsable, kept.not_indexed
            )  # the warm path: nothing built
        stamp = written.mtime(
            self.project
        )  # (before the listing: a write after it moves the stamp again)
        coverage = self._refresh_changed()
        fresh.record(self.db, self.project, stamp)
        return coverage

    def _refresh_changed(self) -> Coverage:
        known: dict[str, tuple[int, int]] = {}
        waiting: dict[str, str] = {}  # path -> language, for files whose grammar was missing
        for path, mtime, size, parsed, lang in self.db.execute(
            "SELECT path, mtime, size, parsed, lang FROM files"
        ):
            known[path] = (mtime, size)
            if parsed == 2:
                waiting[path] = lang
        on_disk, relisted = self.files_on_disk(list(known))
        layout, relayout = "", False
        if (
            relisted
        ):  # (the packages can move only when files come or go, which a new listing shows)
            # Module names and relative imports depend on where the packages are: re-read all when
            # that moves.
            layout = layout_key(packages_of(on_disk))
            relayout = self._meta("layout") != layout
        retry = _grammar_now_here(waiting)
        stale = [p for p, stat in on_disk.items() if relayout or known.get(p) != stat or p in retry]
        gone = [p for p in known if p not in on_disk]
        if stale or gone:
            self._apply(on_disk, stale, gone, layout if relayout else "", retry)
        unparsable = self.db.execute("SELECT count(*) FROM files WHERE parsed = 0").fetchone()[0]
        missing = " ".join(
            sorted(
                str(row[0])
                for row in self.db.execute("SELECT DISTINCT lang FROM files WHERE parsed = 2")
            )
        )
        if missing != self._meta(NOT_INDEXED_KEY):
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (NOT_INDEXED_KEY, missing))
        return Coverage(len(on_disk), int(unparsable), missing)

    def files_on_disk(self, indexed: list[str]) -> tuple[dict[str, tuple[int, int]], bool]:
        """(the workspace's `.py` files and their stat data, whether they were listed afresh). While
        no folder git listed has moved, the list is the indexed one and only those files are
        stat'ed: no git, no walk."""
        watched = {
            str(path): int(mtime)
            for path, mtime in self.db.execute("SELECT path, mtime FROM watched")
        }
        if watched and files.unchanged(self.project, watched):
            return files.stat_all(self.project, indexed), False
        listing = files.git_listing(self.project, INDEXED)
        if listing or watched:  # (outside git: nothing to write on every query)
            self._watch(listing[1] if listing else {})
        if listing is None:
            return files.walked_python_files(self.project, INDEXED), True
        return files.stat_all(self.project, listing[0]), True

    def _watch(self, watched: dict[str, int]) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            fresh.forget(self.db)  # (recorded again after the refresh)
            self.db.execute("DELETE FROM watched")
            self.db.executemany("INSERT INTO watched VALUES (?, ?)", list(watched.items()))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _meta(self, key: str) -> str:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else ""

    def _apply(
        self,
        on_disk: dict[str, tuple[int, int]],
        stale: list[str],
        gone: list[str],
        layout: str,
        retry: set[str],
    ) -> None:
        packages = packages_of(on_disk)
        self.db.execute("BEGIN IMMEDIATE")  # one writer at a time; readers keep their snapshot
        try:
            known = {
                str(p): (int(i), str(h))
                for i, p, h in self.db.execute("SELECT id, path, hash FROM files")
            }
            fresh.forget(self.db)  # (recorded again after the refresh)
            if layout:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('layout', ?)", (layout,))
            for path in gone:
                self._forget(known[path][0])
            for path in stale:
                file_id, old_hash = known.get(path, (None, None))
                unchanged_hash = None if layout or path in retry else old_hash
                self._update(path, on_disk[path], file_id, unchanged_hash, packages)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _update(
        self,
        path: str,
        stat: tuple[int, int],
        file_id: int | None,
        old_hash: str | None,
        packages: frozenset[str],
    ) -> None:
        language = languages.language_of(path)
        if language != languages.PYTHON:
            self._update_other(path, language, stat, file_id, old_hash)
            return
        from sidekit_hooks.code.parse import facts_of, module_name

        data = safepath.read_project_file(
            self.project, path
        )  # no FIFO, device, or link out of the project
        stat = files.settled(stat)  # (a write in the same mtime tick as this read must still show)
        if data is None:
            if file_id is not None:
                self._forget(file_id)
            return
        digest = content_hash(data)
        if digest == old_hash:  # touched, not changed
            self.db.execute("UPDATE files SET mtime = ?, size = ? WHERE id = ?", (*stat, file_id))
            return
        if file_id is not None:
            self._forget(file_id)
        module = module_name(path, packages)
        try:
            facts = facts_of(data, module, path.endswith("__init__.py"))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            self.db.execute(
                "INSERT INTO files VALUES (NULL, ?, ?, ?, ?, ?, 0, ?)",
                (path, *stat, digest, module, "py"),
            )
            return
        self._insert(path, stat, digest, module, languages.PYTHON, facts)

    def _update_other(
        self,
        path: str,
        language: str,
        stat: tuple[int, int],
        file_id: int | None,
        old_hash: str | None,
    ) -> None:
        """A file of a tree-sitter language (`code.languages`): parsed when its grammar is here,
        else kept as `parsed = 2` (not indexed) and named in every answer's `notIndexed`."""
        from sidekit_hooks.code.languages import build

        data = safepath.read_project_file(self.project, path, MAX_SOURCE_BYTES + 1)
        stat = files.settled(stat)
        if data is None:
            if file_id is not None:
                self._forget(file_id)
            return
        digest = content_hash(data)
        if digest == old_hash:
            self.db.execute("UPDATE files SET mtime = ?, size = ? WHERE id = ?", (*stat, file_id))
            return
        if file_id is not None:
            self._forget(file_id)
        module = languages.module_name(path)
        row = "INSERT INTO files VALUES (NULL, ?, ?, ?, ?, ?, ?, ?)"
        if len(data) > MAX_SOURCE_BYTES:
            self.db.execute(row, (path, *stat, digest, module, 0, language))
            return
        try:
            facts = build.facts_of(language, path, data)
        except build.GrammarMissing:
            self.db.execute(row, (path, *stat, digest, module, 2, language))
            return
        except (ValueError, RecursionError, MemoryError):
            self.db.execute(row, (path, *stat, digest, module, 0, language))
            return
        self._insert(path, stat, digest, module, language, facts)

    def _insert(
        self,
        path: str,
        stat: tuple[int, int],
        digest: str,
        module: str,
        language: str,
        facts: FileFacts,
    ) -> None:
        cursor = self.db.execute(
            "INSERT INTO files VALUES (NULL, ?, ?, ?, ?, ?, 1, ?)",
            (path, *stat, digest, module, language),
        )
        new_id = cursor.lastrowid
        self.db.executemany(
            "INSERT INTO defs VALUES (?, ?, ?, ?, ?, ?)",
            [(new_id, d.qualname, d.name, d.kind, d.line, d.signature) for d in facts.definitions],
        )
        by_name: dict[str, list[int]] = {}
        for name, line in facts.references:
            by_name.setdefault(name, []).append(line)
        self.db.executemany(
            "INSERT INTO refs VALUES (?, ?, ?)",
            [(name, new_id, packed_lines(lines)) for name, lines in by_name.items()],
        )
        self.db.executemany(
            "INSERT INTO imports VALUES (?, ?, ?, ?, ?)",
            [(new_id, i.module, i.name, i.alias, i.line) for i in facts.imports],
        )
        if facts.functions:
            import zlib  # (bodies are text as long as the code: compressed, the index stays small)

            self.db.executemany(
                "INSERT INTO funcs VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        new_id,
                        f.qualname,
                        f.line,
                        f.end,
                        f.signature,
                        zlib.compress(f"{f.tokens}\n{f.outside}".encode()),
                    )
                    for f in facts.functions
                ],
            )

    def _forget(self, file_id: int) -> None:
        self.db.execute("DELETE FROM files WHERE id = ?", (file_id,))
        for table in FACT_TABLES:
            self.db.execute(f"DELETE FROM {table} WHERE file = ?", (file_id,))

    # queries
    def definitions(self, name: str) -> list[Symbol]:
        """Definitions whose bare name is the last part of `name` (ranking is the caller's)."""
        bare = name.replace(":", ".").rsplit(".", 1)[-1]
        rows = self.db.execute(
            "SELECT f.path, d.qualname, d.kind, d.line, d.sig, f.module FROM defs d JOIN files f "
            "ON f.id = d.file"
            " WHERE d.name = ?",
            (bare,),
        )
        return [Symbol(*row) for row in rows]

    def definitions_in(self, path: str) -> list[Symbol]:
        rows = self.db.execute(
            "SELECT f.path, d.qualname, d.kind, d.line, d.sig, f.module FROM defs d JOIN files f "
            "ON f.id = d.file"
            " WHERE f.path = ?",
            (path,),
        )
        return [Symbol(*row) for row in rows]

    def defined_names(self, qualified: bool) -> list[str]:
        """Every distinct defined name (bare, or qualified within its module), for near-miss
        suggestions."""
        column = "qualname" if qualified else "name"
        return [str(row[0]) for row in self.db.execute(f"SELECT DISTINCT {column} FROM defs")]

    def references(self, name: str) -> list[tuple[str, int]]:
        """(path, line) of every AST reference to the bare name, one per line, sorted."""
        rows = self.db.execute(
            "SELECT f.path, r.lines FROM refs r JOIN files f ON f.id = r.file WHERE r.name = ?",
            (name,),
        )
        return sorted((str(path), int(line)) for path, lines in rows for line in str(lines).split())

    def modules(self, language: str = languages.PYTHON) -> dict[str, str]:
        """Project-relative path -> module name, for every indexed file of the language."""
        return {
            str(p): str(m)
            for p, m in self.db.execute(
                "SELECT path, module FROM files WHERE lang = ?", (language,)
            )
        }

    def hashes(self) -> dict[str, str]:
        return {str(p): str(h) for p, h in self.db.execute("SELECT path, hash FROM files")}

    def imports(self, language: str = languages.PYTHON) -> list[tuple[str, str, str]]:
        """(importing path, module, imported name) for every import statement of the language's
        files (a TypeScript import names a path, a Go one a package: each language's graph reads its
        own)."""
        rows = self.db.execute(
            "SELECT f.path, i.module, i.name FROM imports i JOIN files f ON f.id = i.file WHERE "
            "f.lang = ?",
            (language,),
        )
        return [(str(p), str(m), str(n)) for p, m, n in rows]

    def functions(self, path: str) -> list[tuple[str, int, int, str, str, str]]:
        """(qualname, line, end, signature, normalised tokens, outside names) of a non-Python file's
        functions."""
        import zlib

        rows = self.db.execute(
            "SELECT d.qualname, d.line, d.end, d.sig, d.body FROM funcs d JOIN files f ON f.id = "
            "d.file WHERE f.path = ?",
            (path,),
        )
        found = []
        for qualname, line, end, sig, body in rows:
            tokens, _, outside = zlib.decompress(body).decode().partition("\n")
            found.append((str(qualname), int(line), int(end), str(sig), tokens, outside))
        return found

    def language_of(self, path: str) -> str:
        row = self.db.execute("SELECT lang FROM files WHERE path = ?", (path,)).fetchone()
        return str(row[0]) if row else languages.language_of(path)


def _grammar_came(not_indexed: str) -> bool:
    """A grammar that was missing is installed now (found without loading it: the warm path's
    check)."""
    import importlib.util

    from sidekit_hooks.code.languages import GRAMMAR_MODULES

    try:
        if importlib.util.find_spec("tree_sitter") is None:
            return False
        return any(importlib.util.find_spec(GRAMMAR_MODULES[lang]) for lang in not_indexed.split())
    except (ImportError, ValueError, KeyError):
        return False


def _grammar_now_here(waiting: dict[str, str]) -> set[str]:
    """Of the files whose grammar was missing, those whose grammar loads now (to be parsed at
    last)."""
    if not waiting:
        return set()
    from sidekit_hooks.code.languages import build

    ready = {lang for lang in set(waiting.values()) if not build.available(lang)}
    return {path for path, lang in waiting.items() if lang in ready}


def _connect(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=30, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
        db.execute("BEGIN IMMEDIATE")  # re-checked under the lock: two first runs build it once
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                for table in TABLES:
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
