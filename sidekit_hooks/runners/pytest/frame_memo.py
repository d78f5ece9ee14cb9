"""What pytest asks of every traceback frame again and again, kept for a compacted run (#23).

A failure's report walks its traceback several times: pytest's traceback filter, the long report and
sidekit's recorder each ask every frame for its file (`Code.path`: `os.path.abspath`, a new pathlib
object and a stat, each time); the long report then asks for that path relative to the working
directory (`_makepath`), for the failing expression's columns (`get_python_framesummary`, a
`traceback.extract_tb` that reads the source line: three times a frame) and for the whole file's
source (`Code.fullsource`: `inspect.findsource`, then every line stripped). Tests that fail the same
way share their frames, so most of this is the same work over again.

Each answer is a pure function of things cheap to look at, so it is kept, keyed by all of them, and
the bytes pytest prints are the same:

- a frame's path: the code's file name and the working directory; whether the file exists is asked
  again for each report and each collection (`forget_files`, called by the compact plugin), so a
  file gone while a test ran is named as pytest names it;
- the relative path: the path, the working directory and the formatter's `abspath`;
- the columns: the code object and the frame's last instruction (what Python derives them from);
- the source: the code object, the working directory and the file's size, mtime and inode (the same
  test `linecache` makes before it re-reads a file, so an edit during the run is seen as pytest sees
  it).

Installed by the compact plugin only: pytest's own functions are wrapped, never rewritten, and any
answer that cannot be keyed (no such file, no working directory) is pytest's own, asked afresh.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

MAX_ENTRIES = 4096  # answers kept per kind; beyond that the memo starts again


def install() -> bool:
    """Wrap pytest's per-frame functions with their memos; False for an unknown pytest (left
    alone)."""
    try:
        from _pytest._code import code
    except ImportError:
        return False
    formatter = getattr(code, "ExceptionInfoFormatter", None) or getattr(
        code, "FormattedExcinfo", None
    )
    places: list[tuple[Any, str, Callable[[Any], Any]]] = [
        (code.Code, "path", code_path),
        (code.Code, "fullsource", full_source),
        (formatter, "_makepath", relative_path),
        (code.TracebackEntry, "get_python_framesummary", frame_summary),
        (formatter, "_getentrysource", statement_source),
        (formatter, "get_source", marked_source),
    ]
    found = [vars(owner).get(name) if owner is not None else None for owner, name, _ in places]
    originals = [getattr(item, "fget", item) for item in found]
    if not all(callable(original) for original in originals):
        return False
    if getattr(originals[0], "memo_of", None) is not None:  # already installed
        return False
    for (owner, name, memo), item, original in zip(places, found, originals, strict=True):
        wrapped = memo(original)
        setattr(owner, name, property(wrapped) if isinstance(item, property) else wrapped)
    return True


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # the working directory is gone: pytest's own answer, whatever it is
        return None


def _keep(memo: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(memo) >= MAX_ENTRIES:
        memo.clear()
    memo[key] = value
    return value


SEEN: set[tuple[str, str]] = set()  # (file name, cwd) found to exist since the last `forget_files`


def forget_files() -> None:
    """Stat files again from now on: called before each report and collection (where a test's code
    ran)."""
    SEEN.clear()


def code_path(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`Code.path`: the absolute path of a file that exists, else the code's own file name."""
    from pathlib import Path

    paths: dict[tuple[str, str], Any] = {}

    def path(self: Any) -> Any:
        filename = getattr(self.raw, "co_filename", None)
        here = _cwd()
        if not isinstance(filename, str) or here is None:
            return original(self)
        key = (filename, here)
        found = paths.get(key)
        if found is None:
            found = original(self)
            if not isinstance(found, Path):  # not a file (e.g. "<string>"): never kept
                return found
            _keep(paths, key, found)
            SEEN.add(key)
            return found
        if key in SEEN:  # it existed when this report (or collection) began to ask
            return found
        if not os.path.exists(found):
            return original(self)
        SEEN.add(key)
        return found

    path.memo_of = original  # type: ignore[attr-defined]
    return path


def relative_path(original: Callable[[Any, Any], str]) -> Callable[[Any, Any], str]:
    """`_makepath`: how the long report names a frame's file (relative when shorter, unless --tb
    abspath)."""
    from pathlib import Path

    names: dict[tuple[bool, str, str], str] = {}

    def _makepath(self: Any, path: Any) -> str:
        here = _cwd()
        if not isinstance(path, Path) or here is None:
            return original(self, path)
        key = (bool(self.abspath), str(path), here)
        found = names.get(key)
        return found if found is not None else _keep(names, key, original(self, path))

    return _makepath


def frame_summary(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`get_python_framesummary`: the frame's line and columns, found once per code and instruction.

    A fresh summary for each traceback entry (its source line read lazily, as `traceback` does for
    one made without it); the three column properties pytest reads of one entry share it.
    """
    from traceback import FrameSummary

    fields: dict[tuple[int, int, int], tuple[Any, tuple[Any, ...]]] = {}
    last: list[Any] = [None, None]  # the traceback object last asked about, and its summary

    def get_python_framesummary(self: Any) -> Any:
        raw = self._rawentry
        if last[0] is raw:
            return last[1]
        code = raw.tb_frame.f_code
        key = (id(code), raw.tb_lasti, raw.tb_lineno)
        kept = fields.get(key)
        if kept is None or kept[0] is not code:  # held here, so an id names one code object
            found = original(self)
            values = (
                found.filename,
                found.lineno,
                found.name,
                found.end_lineno,
                found.colno,
                found.end_colno,
            )
            _keep(fields, key, (code, values))
        else:
            filename, lineno, name, end_lineno, colno, end_colno = kept[1]
            found = FrameSummary(
                filename,
                lineno,
                name,
                lookup_line=False,
                end_lineno=end_lineno,
                colno=colno,
                end_colno=end_colno,
            )
        last[:] = [raw, found]
        return found

    return get_python_framesummary


def full_source(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`Code.fullsource`: the code's whole file, read once while the file stays the same."""
    sources: dict[tuple[int, str, int, int, int], tuple[Any, Any]] = {}

    def fullsource(self: Any) -> Any:
        raw = self.raw
        here = _cwd()
        try:
            stat = os.stat(raw.co_filename)
        except (OSError, ValueError, TypeError, AttributeError):
            return original(self)
        if here is None:
            return original(self)
        key = (id(raw), here, stat.st_size, stat.st_mtime_ns, stat.st_ino)
        kept = sources.get(key)
        if kept is not None and kept[0] is raw:  # held here, so an id names one code object
            return kept[1]
        found = original(self)
        if found is not None:
            _keep(sources, key, (raw, found))
        return found

    return fullsource


def statement_source(original: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """`_getentrysource`: the failing statement's lines, deindented: a pure function of the file's
    source (the object `fullsource` keeps while the file stays the same), the code's first line and
    the frame's line."""
    statements: dict[tuple[int, int, int], tuple[Any, Any]] = {}

    def _getentrysource(self: Any, entry: Any) -> Any:
        code = entry.frame.code
        whole = code.fullsource
        if whole is None:
            return original(self, entry)
        key = (id(whole), code.firstlineno, entry.lineno)
        kept = statements.get(key)
        if (
            kept is not None and kept[0] is whole
        ):  # the same source object (held here, so its id is its own)
            return kept[1]
        found = original(self, entry)
        _keep(statements, key, (whole, found))
        return found

    return _getentrysource


def marked_source(original: Callable[..., list[str]]) -> Callable[..., list[str]]:
    """`get_source`: a statement's lines with the failing line marked (and its columns underlined),
    kept per statement; the exception's own lines (`excinfo`) are added afresh each time."""
    marked: dict[tuple[Any, ...], tuple[Any, list[str]]] = {}

    def get_source(
        self: Any, source: Any, line_index: int = -1, excinfo: Any = None, *args: Any, **kwargs: Any
    ) -> list[str]:
        if excinfo is not None or source is None:
            return original(self, source, line_index, excinfo, *args, **kwargs)
        key = (id(source), line_index, args, tuple(sorted(kwargs.items())))
        kept = marked.get(key)
        if kept is not None and kept[0] is source:
            return list(kept[1])
        found = original(self, source, line_index, excinfo, *args, **kwargs)
        _keep(marked, key, (source, list(found)))
        return found

    return get_source
