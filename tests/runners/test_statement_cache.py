"""The run-long memo of pytest's statement extents: the same answers as pytest's own function, each found once."""

from __future__ import annotations

import ast
from typing import Any

from _pytest._code import code, source
from _pytest._code.source import Source

from sidekit_hooks.runners.pytest import statement_cache

TEXT = "def f(x):\n    y = (x +\n         1)\n    return y\n\n\ndef g():\n    assert f(\n        1) == 3\n"


def counting() -> tuple[list[tuple[int, bool, bool]], Any]:
    calls: list[tuple[int, bool, bool]] = []
    original = source.getstatementrange_ast

    def spy(lineno: int, src: Source, assertion: bool = False, astnode: ast.AST | None = None) -> Any:
        calls.append((lineno, assertion, astnode is not None))
        return original(lineno, src, assertion, astnode)

    return calls, spy


def test_it_answers_as_pytest_does_and_once_per_source_and_line() -> None:
    calls, spy = counting()
    memo = statement_cache.memoized(spy)
    for lineno in (1, 2, 7, 1, 2, 7):
        fresh = source.getstatementrange_ast(lineno, Source(TEXT))
        kept = memo(lineno, Source(TEXT))  # a new Source each time, as pytest makes them
        assert kept[1:] == fresh[1:] and ast.dump(kept[0]) == ast.dump(fresh[0])
    assert calls == [(1, False, False), (2, False, True), (7, False, True)]  # one parse, then its tree is reused
    assert memo(1, Source(TEXT + "# changed\n"))[1:] == (1, 3) and len(calls) == 4  # other lines: found again


def test_install_puts_it_where_pytest_calls_it_once() -> None:
    original = source.getstatementrange_ast
    try:
        assert statement_cache.install() is True
        patched: Any = code
        assert patched.getstatementrange_ast is source.getstatementrange_ast is not original
        assert statement_cache.install() is False  # already there
    finally:
        for module in (source, code):
            module.getstatementrange_ast = original  # type: ignore[attr-defined]
