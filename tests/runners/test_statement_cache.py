"""The run-long memo of pytest's statement extents: the same answers as pytest's own function, each
found once."""

from __future__ import annotations

import ast
import os
import time
from typing import Any

from _pytest._code import code, source
from _pytest._code.source import Source

from sidekit_hooks.runners.pytest import statement_cache

TEXT = "def f(x):\n    y = (x +\n         1)\n    return y\n\n\ndef g():\n    assert f(\n        1) == 3\n"


def counting() -> tuple[list[tuple[int, bool, bool]], Any]:
    calls: list[tuple[int, bool, bool]] = []
    original = source.getstatementrange_ast

    def spy(
        lineno: int, src: Source, assertion: bool = False, astnode: ast.AST | None = None
    ) -> Any:
        calls.append((lineno, assertion, astnode is not None))
        return original(lineno, src, assertion, astnode)

    return calls, spy


def test_it_answers_as_pytest_does_and_once_per_source_and_line() -> None:
    calls, spy = counting()
    memo = statement_cache.memoized(spy)
    for lineno in (1, 2, 7, 1, 2, 7):
        fresh = source.getstatementrange_ast(lineno, Source(TEXT))
        kept = memo(lineno, Source(TEXT))  # a new Source each time, as pytest makes them
        assert kept[1:] == fresh[1:]
        assert (
            statement_cache.statement_lines(kept[0])
            == statement_cache.statement_lines(fresh[0])
            == [0, 1, 3, 6, 7]
        )
    assert calls == [
        (1, False, False),
        (2, False, True),
        (7, False, True),
    ]  # one parse, then its tree is reused
    assert (
        memo(1, Source(TEXT + "# changed\n"))[1:] == (1, 3) and len(calls) == 4
    )  # other lines: found again


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


BRANCHES = """import os


@decorator
def f(x):
    try:
        y = 1
    except ValueError:
        y = 2
    else:
        y = 3
    finally:
        pass
    for item in x:
        pass
    else:
        return y


class C:
    @property
    def p(self):
        if self:
            return 1
        else:
            return 2
"""


def test_the_stand_in_gives_pytest_the_lines_of_the_tree_and_the_same_extents() -> None:
    tree = ast.parse(BRANCHES)
    kept = statement_cache.stand_in(tree)
    assert isinstance(kept, ast.Module) and all(isinstance(node, ast.Pass) for node in kept.body)
    assert statement_cache.statement_lines(kept) == statement_cache.statement_lines(tree)
    assert statement_cache.statement_lines(tree)[:6] == [
        0,
        3,
        4,
        5,
        6,
        7,
    ]  # the decorator, def, try, ...
    src = Source(BRANCHES)
    for lineno in range(len(src.lines)):
        with_tree = source.getstatementrange_ast(lineno, src, astnode=ast.parse(BRANCHES))[1:]
        assert (
            source.getstatementrange_ast(lineno, src, astnode=statement_cache.stand_in(tree))[1:]
            == with_tree
        )


def test_statement_lines_outlive_the_run_keyed_by_the_text(tmp_path: Any) -> None:
    store = str(tmp_path / "statements.json")
    calls, spy = counting()
    learned: dict[str, list[int]] = {}
    first = statement_cache.memoized(spy, {}, learned)
    assert first(7, Source(TEXT))[1:] == (7, 9) and calls == [(7, False, False)]  # parsed
    statement_cache.STORE.update(path=store, known={}, learned=learned)
    try:
        statement_cache.save()
    finally:
        statement_cache.STORE.clear()
    known = statement_cache.load(store)
    assert list(known.values()) == [[0, 1, 3, 6, 7]]
    calls.clear()
    second = statement_cache.memoized(spy, known, {})
    assert second(7, Source(TEXT))[1:] == (7, 9) and second(1, Source(TEXT))[1:] == (1, 3)
    assert calls == [(7, False, True), (1, False, True)]  # never parsed: the stored lines stand in
    calls.clear()
    third = statement_cache.memoized(
        spy, {key: [0, 99] for key in known}, {}
    )  # does not fit its file: unused
    assert third(7, Source(TEXT))[1:] == (7, 9) and calls == [(7, False, False)]


def test_a_broken_store_is_no_store(tmp_path: Any) -> None:
    (tmp_path / "statements.json").write_text("[1, 2")
    assert statement_cache.load(str(tmp_path / "statements.json")) == {}
    assert statement_cache.load(str(tmp_path / "missing.json")) == {}


def test_a_planted_fifo_or_link_is_neither_read_nor_written_through(tmp_path: Any) -> None:
    state = tmp_path / "project" / ".sidekit" / "pytest"
    state.mkdir(parents=True)
    os.mkfifo(state / "statements.json")  # opened for reading, it would block the run forever
    started = time.monotonic()
    assert statement_cache.load(str(state / "statements.json")) == {}
    assert time.monotonic() - started < 1.0
    (state / "statements.json").unlink()
    outside = tmp_path / "outside.json"
    outside.write_text("{}")
    (state / "statements.json").symlink_to(outside)
    assert statement_cache.load(str(state / "statements.json")) == {}
    statement_cache.STORE.update(
        path=str(state / "statements.json"), known={}, learned={"k": [0, 1]}
    )
    try:
        statement_cache.save()
    finally:
        statement_cache.STORE.clear()
    assert outside.read_text() == "{}"  # the link was replaced, never written through
    assert not (state / "statements.json").is_symlink()
    assert statement_cache.load(str(state / "statements.json")) == {"k": [0, 1]}
