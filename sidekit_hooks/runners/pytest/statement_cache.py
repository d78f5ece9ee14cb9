"""Where a failing statement starts and ends, found once per source and line in a compacted run.

pytest's long traceback style asks, for every frame of every failure, which lines the failing
statement spans (`_pytest._code.source.getstatementrange_ast`): it parses the whole file and
tokenizes the block again each time, because its parse cache lives only as long as one failure's
report. With many failures in one big test file that is most of the run's CPU (more-itertools'
6,000-line test_more.py: 0.3 s a frame). The answer is a pure function of the source's lines, the
line and `assertion`, so it is kept for the run: the same bytes come out, once.

What is kept of a file is not its parse tree but a flat stand-in: one `pass` per line where pytest's
walk of the tree finds a statement start (decorators, `else:` and `finally:` included), which gives
pytest's function the same line list. A whole tree kept to the end of the run is walked by every
full garbage collection after it (more-itertools: 0.09 s of CPU); the stand-in is a node per
statement. Where pytest can say which lines it finds (`_statement_linenos`, pytest 9), its own list
is used.

Those line lists outlive the run in `.sidekit/pytest/statements.json`, keyed by a digest of the
file's text, Python's and pytest's versions: a file unchanged since an earlier compacted run (the
test file while its module is being fixed) is not parsed again. A list that does not fit its file is
ignored.
"""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from collections.abc import Callable
from typing import Any

MAX_SOURCES = 64  # distinct files kept (their parse trees); beyond that the memo starts again
MAX_STORED = 64  # files whose statement lines are kept between runs (the most recently used)
STORE: dict[
    str, Any
] = {}  # the installed memo's store: {"path": ..., "known": ..., "learned": ...}
Range = tuple[ast.AST, int, int]


def install(store: str = "") -> bool:
    """Put the memo in front of pytest's function where pytest calls it; False for an unknown
    pytest.

    With `store`, the statement lines of files parsed in earlier runs are read from it (`save`
    writes)."""
    try:
        from _pytest._code import code, source
    except ImportError:
        return False
    modules: tuple[Any, ...] = (
        source,
        code,
    )  # Source.getstatementrange, TracebackEntry.getsource call it
    original = getattr(source, "getstatementrange_ast", None)
    if (
        not callable(original) or original.__module__ == __name__
    ):  # unknown pytest, or already installed
        return False
    if any(getattr(module, "getstatementrange_ast", None) is not original for module in modules):
        return False
    known = load(store) if store else {}
    learned: dict[str, list[int]] = {}
    STORE.update(path=store, known=known, learned=learned)
    memo = memoized(original, known, learned)
    for module in modules:
        module.getstatementrange_ast = memo
    return True


def memoized(
    original: Callable[..., Range],
    known: dict[str, list[int]] | None = None,
    learned: dict[str, list[int]] | None = None,
) -> Callable[..., Range]:
    ranges: dict[tuple[tuple[str, ...], int, bool], Range] = {}
    trees: dict[tuple[str, ...], ast.AST] = {}
    remember = learned is not None  # with a store: each new file's digest, to look up and to write
    known = {} if known is None else known
    learned = {} if learned is None else learned

    def getstatementrange_ast(
        lineno: int, source: Any, assertion: bool = False, astnode: ast.AST | None = None
    ) -> Range:
        lines = tuple(source.lines)
        key = (lines, lineno, assertion)
        found = ranges.get(key)
        if found is None:
            digest = ""
            if lines not in trees and remember:
                digest = text_digest(lines)
                stored = known.get(digest)
                if stored is not None and fits(stored, len(lines)):
                    trees[lines] = flat(stored)
                    learned[digest] = stored  # used again: kept when the store is written
            found = original(
                lineno, source, assertion, trees.get(lines, astnode)
            )  # SyntaxError: not kept
            if len(trees) >= MAX_SOURCES and lines not in trees:
                ranges.clear()
                trees.clear()
            if lines not in trees:
                statements = line_list(found[0])
                trees[lines] = flat(statements)
                if digest:
                    learned[digest] = statements
            found = (trees[lines], found[1], found[2])
            ranges[key] = found
        return found

    return getstatementrange_ast


def statement_lines(tree: ast.AST) -> list[int]:
    """The 0-based lines pytest's `get_statement_startend2` collects from a tree, sorted."""
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt | ast.ExceptHandler):
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                found.extend(decorator.lineno - 1 for decorator in node.decorator_list)
            found.append(node.lineno - 1)
            for name in ("finalbody", "orelse"):
                block = getattr(node, name, None)
                if block:
                    found.append(
                        block[0].lineno - 2
                    )  # the `else:`/`finally:` line counts as a statement
    return sorted(found)


def line_list(tree: ast.AST) -> list[int]:
    """The lines pytest collects from `tree`: its own list where it has one (pytest 9), else
    `statement_lines`."""
    try:
        from _pytest._code.source import (
            _statement_linenos,
        )  # pytest 9: its own list, kept on the tree
    except ImportError:
        return statement_lines(tree)
    return list(_statement_linenos(tree))


def flat(lines: list[int]) -> ast.AST:
    """A module of one `pass` per line: pytest collects exactly `lines` from it."""
    return ast.Module(
        body=[ast.Pass(lineno=line + 1, col_offset=0) for line in lines], type_ignores=[]
    )


def stand_in(tree: ast.AST) -> ast.AST:
    """A flat module in which pytest finds the same statement lines as in `tree`."""
    return flat(line_list(tree))


def text_digest(lines: tuple[str, ...]) -> str:
    """What a stored line list is keyed by: the text, and the Python and pytest that parse and walk
    it."""
    import pytest

    head = f"{sys.version_info[0]}.{sys.version_info[1]} {pytest.__version__}\n"
    return hashlib.sha1((head + "\n".join(lines)).encode("utf-8", "surrogatepass")).hexdigest()


def fits(stored: Any, count: int) -> bool:
    """A stored list that can belong to a file of `count` lines: sorted ints within it."""
    return (
        isinstance(stored, list)
        and all(type(line) is int and -1 <= line <= count for line in stored)
        and stored == sorted(stored)
    )


MAX_STORE_BYTES = 8 << 20


def load(path: str) -> dict[str, list[int]]:
    """The stored lists; {} for a missing or broken store, and for anything but a regular file (a
    FIFO or a link a repository plants there is never opened through: it could block or lead
    outside)."""
    from sidekit_hooks.core import safepath

    try:
        found = json.loads(safepath.read_bytes(path, MAX_STORE_BYTES))
    except (OSError, ValueError):
        return {}
    return (
        {key: value for key, value in found.items() if isinstance(value, list)}
        if isinstance(found, dict)
        else {}
    )


def save() -> None:
    """Write the installed memo's store: the lists used or found in this run first, then the older
    ones."""
    path, known, learned = STORE.get("path"), STORE.get("known") or {}, STORE.get("learned") or {}
    if not path or not learned or all(known.get(key) == value for key, value in learned.items()):
        return
    older = [(key, value) for key, value in known.items() if key not in learned]
    room = max(0, MAX_STORED - len(learned))
    merged = dict(older[len(older) - room :] if room else [])
    merged.update(list(learned.items())[-MAX_STORED:])
    from sidekit_hooks.core import workspace

    try:  # a new temp file, then a rename: never written through a link; readers see old or new
        workspace.atomic_write(path, json.dumps(merged, separators=(",", ":")))
    except OSError:
        pass
