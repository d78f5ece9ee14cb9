"""The warm check of the code index: is what the last full refresh saw still on disk?

A full refresh (index.Index.refresh) lists files through git, watches folder mtimes and compares
every file's stat with its row. Once it has run, what it saw is kept as one record in the index's
`meta` table, and the next query only re-stats it, reading one row and building nothing:

- every indexed file (mtime, size): an edit in place (an editor, `>>`, the Edit tool) shows only
  here;
- every folder that holds an indexed file, and their parents (a file created, removed or renamed
  there moves the folder's mtime), the `.gitignore` files and git's index (a checkout, an add, a
  pull);
- the folders that hold no Python yet (most of Django's) only when the write stamp moved
  (code/written.py: every tool call that may write touches it): a `.py` file can appear there only
  through a write, and a write outside the agent that git has not seen is the one it can miss until
  the agent's next writing tool call.

Anything that moved, or a record that does not read back, means the full refresh, which records
anew. The record is only kept where git lists the files: without git every query walks the tree.
"""

from __future__ import annotations

import os
import sys
from collections import namedtuple

from sidekit_hooks.code import files, written

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from typing import NamedTuple

RECORD_KEY = "fresh"  # meta: the record (bytes)
# meta: "<record serial> <stamp mtime>" once the folders without Python were checked
STAMP_KEY = "fresh.stamp"
FORMAT = 1  # the record's first number; a record of another format is not read
# numbers before the mtimes: format, serial, the four counts below, the paths' length in bytes
HEAD = 7

if TYPE_CHECKING:

    class Record(NamedTuple):
        serial: int
        files: int  # Python files indexed (the coverage a query reports)
        unparsable: int
        watched: list[
            bytes
        ]  # folders with Python in them, their parents, ignore files, git's index
        watched_mtimes: list[int]
        others: list[bytes]  # folders without Python: checked when the write stamp moved
        other_mtimes: list[int]
        paths: list[
            bytes
        ]  # the indexed files (as bytes: stat takes them so, and they need no decoding)
        mtimes: list[int]
        sizes: list[int]
        not_indexed: str = ""  # languages whose grammar is missing (index.NOT_INDEXED_KEY)
else:
    Record = namedtuple(
        "Record",
        "serial files unparsable watched watched_mtimes others other_mtimes paths mtimes sizes "
        "not_indexed",
        defaults=("",),
    )
NOT_INDEXED_KEY = "notIndexed"  # meta, written by the full refresh (index.Index._refresh_changed)


def still_fresh(db: sqlite3.Connection, project: str) -> Record | None:
    """The record when nothing it saw has moved (the index needs no refresh); None otherwise."""
    kept = dict(
        db.execute(
            "SELECT key, value FROM meta WHERE key IN (?, ?, ?)",
            (RECORD_KEY, STAMP_KEY, NOT_INDEXED_KEY),
        )
    )
    record = parse(kept.get(RECORD_KEY))
    if record is None:
        return None
    if kept.get(NOT_INDEXED_KEY):
        record = record._replace(not_indexed=str(kept[NOT_INDEXED_KEY]))
    if not files.still_as_recorded(
        project, record.watched, record.watched_mtimes, record.paths, record.mtimes, record.sizes
    ):
        return None
    stamp = written.mtime(project)  # (read before the folders it vouches for)
    if kept.get(STAMP_KEY) == f"{record.serial} {stamp}" and -2 not in record.other_mtimes:
        # (-2: a folder that moved as it was listed, which the full refresh must list again)
        return record
    if not files.still_as_recorded(project, record.others, record.other_mtimes, [], [], []):
        return None
    if (
        files.settled((stamp, 0))[0] == stamp
    ):  # (a stamp moved in this mtime tick may move again unseen)
        _checked_at(db, f"{record.serial} {stamp}")
    return record


def _checked_at(db: sqlite3.Connection, value: str) -> None:
    """Note that the folders without Python were checked at this stamp, unless another process is
    writing right now: a warm query never waits for a writer (the next query notes it)."""
    waits = db.execute("PRAGMA busy_timeout").fetchone()[0]
    db.execute("PRAGMA busy_timeout = 0")
    try:
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (STAMP_KEY, value))
    except db.OperationalError:  # locked
        pass
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(waits)}")


def record(db: sqlite3.Connection, project: str, stamp: int) -> None:
    """Keep what the refresh that just ran saw (its tables, read under a write lock so they cannot
    move). `stamp`: the write stamp's mtime read before that refresh listed anything (-1 for
    none)."""
    written.ensure(project)
    db.execute("BEGIN IMMEDIATE")
    try:
        watched = [(str(p), int(m)) for p, m in db.execute("SELECT path, mtime FROM watched")]
        db.execute("DELETE FROM meta WHERE key IN (?, ?)", (RECORD_KEY, STAMP_KEY))
        if watched:
            indexed = [
                (str(p), int(m), int(s))
                for p, m, s in db.execute("SELECT path, mtime, size FROM files")
            ]
            unparsable = int(
                db.execute("SELECT count(*) FROM files WHERE parsed = 0").fetchone()[0]
            )
            serial = int.from_bytes(os.urandom(6), "big")
            db.execute(
                "INSERT INTO meta VALUES (?, ?)",
                (RECORD_KEY, pack(serial, watched, indexed, unparsable)),
            )
            stamp = files.settled((stamp, 0))[0]
            if stamp != -2:
                db.execute("INSERT INTO meta VALUES (?, ?)", (STAMP_KEY, f"{serial} {stamp}"))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def forget(db: sqlite3.Connection) -> None:
    """In a transaction that changes the tables: the record no longer says what they hold."""
    db.execute("DELETE FROM meta WHERE key IN (?, ?)", (RECORD_KEY, STAMP_KEY))


def holds_python(indexed: list[tuple[str, int, int]]) -> set[str]:
    """Every folder holding an indexed file, and its parents ('' is the project folder)."""
    folders: set[str] = set()
    for path, _, _ in indexed:
        folder = path.rpartition("/")[0]
        while folder not in folders:
            folders.add(folder)
            if not folder:
                break
            folder = folder.rpartition("/")[0]
    return folders


def is_folder(path: str) -> bool:
    """A watched folder of the listing, not an ignore file or git's own (those are hidden or
    absolute)."""
    return not os.path.isabs(path) and not any(part.startswith(".") for part in path.split("/"))


def pack(
    serial: int,
    watched: list[tuple[str, int]],
    indexed: list[tuple[str, int, int]],
    unparsable: int,
) -> bytes:
    """The numbers as native 64-bit integers (length first), then the paths NUL-separated (the one
    character no path holds): read back with `memoryview.cast` and one `split`, nothing imported or
    decoded."""
    python = holds_python(indexed)
    kept = [(p, m) for p, m in watched if p in python or not is_folder(p)]
    others = [(p, m) for p, m in watched if p not in python and is_folder(p)]
    paths = "\0".join([p for p, _ in kept] + [p for p, _ in others] + [p for p, _, _ in indexed])
    text = paths.encode("utf-8", "surrogateescape")
    numbers = [FORMAT, serial, len(kept), len(others), len(indexed), unparsable, len(text)]
    numbers += [m for _, m in kept] + [m for _, m in others]
    numbers += [m for _, m, _ in indexed] + [s for _, _, s in indexed]
    packed = b"".join(number.to_bytes(8, sys.byteorder, signed=True) for number in numbers)
    return len(packed).to_bytes(8, sys.byteorder) + packed + text


def parse(data: object) -> Record | None:
    """The record `pack` made; None for anything that does not add up (the full refresh then
    runs)."""
    if not isinstance(data, bytes):
        return None
    try:
        view = memoryview(data)
        size = int.from_bytes(view[:8], sys.byteorder)
        numbers = view[8 : 8 + size].cast("q").tolist()
        form, serial, watched, others, indexed, unparsable, length = numbers[:HEAD]
        raw = bytes(view[8 + size :])
    except (TypeError, ValueError):
        return None
    count = watched + others + indexed
    paths = raw.split(b"\0") if count else []
    if (
        form != FORMAT
        or len(raw) != length
        or len(paths) != count
        or len(numbers) != HEAD + count + indexed
    ):
        return None
    at = [HEAD, HEAD + watched, HEAD + watched + others, HEAD + count, HEAD + count + indexed]
    return Record(
        serial,
        indexed,
        unparsable,
        paths[:watched],
        numbers[at[0] : at[1]],
        paths[watched : watched + others],
        numbers[at[1] : at[2]],
        paths[watched + others :],
        numbers[at[2] : at[3]],
        numbers[at[3] : at[4]],
    )
