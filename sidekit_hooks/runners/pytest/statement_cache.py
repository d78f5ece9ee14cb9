"""Where a failing statement starts and ends, found once per source and line in a compacted run.

pytest's long traceback style asks, for every frame of every failure, which lines the failing statement
spans (`_pytest._code.source.getstatementrange_ast`): it parses the whole file and tokenizes the block
again each time, because its parse cache lives only as long as one failure's report. With many
failures in one big test file that is most of the run's CPU (more-itertools' 6,000-line test_more.py:
0.3 s a frame). The answer is a pure function of the source's lines, the line and `assertion`, so it
is kept for the run: the same bytes come out, once.

What is kept of a file is not its parse tree but a flat stand-in: one `pass` per line where pytest's
walk of the tree finds a statement start (decorators, `else:` and `finally:` included), which gives
pytest's function the same line list. A whole tree kept to the end of the run is walked by every full
garbage collection after it (more-itertools: 0.09 s of CPU); the stand-in is a node per statement.
Where pytest can say which lines it finds (`_statement_linenos`, pytest 9), its own list is used.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

MAX_SOURCES = 64  # distinct files kept (their parse trees); beyond that the memo starts again
Range = tuple[ast.AST, int, int]


def install() -> bool:
    """Put the memo in front of pytest's function where pytest calls it; False for an unknown pytest."""
    try:
        from _pytest._code import code, source
    except ImportError:
        return False
    modules: tuple[Any, ...] = (source, code)  # Source.getstatementrange, TracebackEntry.getsource call it
    original = getattr(source, "getstatementrange_ast", None)
    if not callable(original) or original.__module__ == __name__:  # unknown pytest, or already installed
        return False
    if any(getattr(module, "getstatementrange_ast", None) is not original for module in modules):
        return False
    memo = memoized(original)
    for module in modules:
        module.getstatementrange_ast = memo
    return True


def memoized(original: Callable[..., Range]) -> Callable[..., Range]:
    ranges: dict[tuple[tuple[str, ...], int, bool], Range] = {}
    trees: dict[tuple[str, ...], ast.AST] = {}

    def getstatementrange_ast(
        lineno: int, source: Any, assertion: bool = False, astnode: ast.AST | None = None
    ) -> Range:
        lines = tuple(source.lines)
        key = (lines, lineno, assertion)
        found = ranges.get(key)
        if found is None:
            found = original(lineno, source, assertion, trees.get(lines, astnode))  # SyntaxError: not kept
            if len(trees) >= MAX_SOURCES and lines not in trees:
                ranges.clear()
                trees.clear()
            if lines not in trees:
                trees[lines] = stand_in(found[0])
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
                    found.append(block[0].lineno - 2)  # the `else:`/`finally:` line counts as a statement
    return sorted(found)


def stand_in(tree: ast.AST) -> ast.AST:
    """A module of one `pass` per line pytest collects from `tree`: pytest finds the same lines in it."""
    try:
        from _pytest._code.source import _statement_linenos  # pytest 9: its own list, kept on the tree
    except ImportError:
        lines = statement_lines(tree)
    else:
        lines = list(_statement_linenos(tree))
    return ast.Module(body=[ast.Pass(lineno=line + 1, col_offset=0) for line in lines], type_ignores=[])
