"""The per-frame memos of a compacted run: pytest's own answers, each found once while what it
depends on holds."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from _pytest._code import code

from sidekit_hooks.runners.pytest import frame_memo


class FakeCode:
    def __init__(self, filename: str) -> None:
        self.raw = type("Raw", (), {"co_filename": filename})()


def counted(answer: Any) -> tuple[list[Any], Any]:
    calls: list[Any] = []

    def original(*args: Any) -> Any:
        calls.append(args[1:])
        return answer(*args)

    return calls, original


def test_a_path_is_kept_per_file_and_cwd_and_stat_once_per_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "mod.py"
    source.write_text("x = 1\n")
    calls, original = counted(
        lambda self: (
            Path(os.path.abspath(self.raw.co_filename))
            if os.path.exists(self.raw.co_filename)
            else self.raw.co_filename
        )
    )
    path = frame_memo.code_path(original)
    monkeypatch.chdir(tmp_path)
    assert (
        path(FakeCode("mod.py")) == source
        and path(FakeCode("mod.py")) == source
        and len(calls) == 1
    )
    assert (
        path(FakeCode("<string>")) == "<string>"
        and path(FakeCode("<string>")) == "<string>"
        and len(calls) == 3
    )
    monkeypatch.chdir(tmp_path.parent)  # another cwd: asked again (here: no such file)
    assert path(FakeCode("mod.py")) == "mod.py" and len(calls) == 4
    monkeypatch.chdir(tmp_path)
    frame_memo.forget_files()
    assert path(FakeCode("mod.py")) == source and len(calls) == 4  # stat'ed: still there
    # gone while a test ran: the next report asks again and gets pytest's own answer
    source.unlink()
    assert path(FakeCode("mod.py")) == source and len(calls) == 4
    frame_memo.forget_files()
    assert path(FakeCode("mod.py")) == "mod.py" and len(calls) == 5


def test_a_frame_summary_is_kept_per_code_and_instruction() -> None:
    def failing(n: int) -> int:
        return int("x" * n)

    entries = []
    for n in (1, 2, 1):
        try:
            failing(n)
        except ValueError as error:
            assert error.__traceback__ is not None and error.__traceback__.tb_next is not None
            entries.append(code.TracebackEntry(error.__traceback__.tb_next))
    original = code.TracebackEntry.get_python_framesummary
    calls, spy = counted(lambda self: original(self))
    summary = frame_memo.frame_summary(spy)
    found = [summary(entry) for entry in entries]
    fresh = [original(entry) for entry in entries]
    fields = ("filename", "lineno", "name", "end_lineno", "colno", "end_colno", "line")
    assert [[getattr(f, name) for name in fields] for f in found] == [
        [getattr(f, name) for name in fields] for f in fresh
    ]
    assert len(calls) == 1 and found[0].line == 'return int("x" * n)'


def test_a_source_is_read_again_when_its_file_changes(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text("def f():\n    return 1\n")
    compiled = compile(source.read_text(), str(source), "exec")
    function_code = next(const for const in compiled.co_consts if hasattr(const, "co_code"))
    calls, original = counted(lambda self: source.read_text())
    fullsource = frame_memo.full_source(original)
    holder = type("Code", (), {"raw": function_code})()
    assert (
        fullsource(holder) == fullsource(holder) == "def f():\n    return 1\n" and len(calls) == 1
    )
    source.write_text("# a longer file now\ndef f():\n    return 1\n")
    assert fullsource(holder).startswith("# a longer") and len(calls) == 2


def test_install_wraps_pytest_once() -> None:
    formatter = code.ExceptionInfoFormatter
    saved = {
        (owner, name): vars(owner)[name]
        for owner, name in (
            (code.Code, "path"),
            (code.Code, "fullsource"),
            (formatter, "_makepath"),
            (code.TracebackEntry, "get_python_framesummary"),
            (formatter, "_getentrysource"),
            (formatter, "get_source"),
        )
    }
    try:
        assert frame_memo.install() is True
        assert all(vars(owner)[name] is not kept for (owner, name), kept in saved.items())
        assert frame_memo.install() is False  # already there
    finally:
        for (owner, name), kept in saved.items():
            setattr(owner, name, kept)
