"""core/safepath: links that lead out are refused; only regular files are read or appended to (#15)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sidekit_hooks.core import safepath


def test_anchor_is_the_folder_holding_the_state_folder(tmp_path: Path) -> None:
    assert safepath.anchor_of(str(tmp_path / "p" / ".sidekit" / "log" / "x.jsonl")) == str(tmp_path / "p")
    assert safepath.anchor_of(str(tmp_path / "p" / ".runtime" / "nudge_queue" / "s")) == str(tmp_path / "p")
    assert safepath.anchor_of(str(tmp_path / "p" / "src" / "a.py")) == ""


def test_a_link_out_is_refused_and_one_inside_is_fine(tmp_path: Path) -> None:
    project, outside = tmp_path / "p", tmp_path / "out"
    (project / "real").mkdir(parents=True)
    outside.mkdir()
    (project / ".sidekit").symlink_to(outside)
    with pytest.raises(safepath.UnsafePath, match="leads outside"):
        safepath.check(str(project / ".sidekit" / "log"))
    with pytest.raises(OSError):  # callers' `except OSError` handlers catch it
        safepath.makedirs(str(project / ".sidekit" / "log"), str(project))
    assert list(outside.iterdir()) == []
    (project / ".runtime").symlink_to(project / "real")
    assert safepath.check(str(project / ".runtime" / "q")) == str(project / ".runtime" / "q")


def test_reads_and_appends_refuse_links_and_fifos(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("outside")
    (tmp_path / ".sidekit").mkdir()
    link = tmp_path / ".sidekit" / "link.json"
    link.symlink_to(target)
    fifo = tmp_path / ".sidekit" / "fifo.json"
    os.mkfifo(fifo)
    for path in (link, fifo):
        with pytest.raises(safepath.UnsafePath):
            safepath.read_bytes(str(path))
        with pytest.raises(safepath.UnsafePath):
            safepath.open_append(str(path))
    assert target.read_text() == "outside"
    plain = tmp_path / ".sidekit" / "plain.json"
    plain.write_bytes(b"x" * 100)
    assert safepath.read_bytes(str(plain), limit=10) == b"x" * 10


def test_printable_names_are_data() -> None:
    assert (
        safepath.printable("$(touch${IFS}x).toml\x1b[31m`id`\udc80")
        == "\\x24(touch\\x24{IFS}x).toml\\x1b[31m\\x60id\\x60\ufffd"
    )


def test_escapes_lists_links_out_of_sidekit_and_runtime(tmp_path: Path) -> None:
    project, outside = tmp_path / "p", tmp_path / "out"
    (project / ".runtime" / "nudge_queue").mkdir(parents=True)
    outside.mkdir()
    (project / ".runtime" / "nudge_queue" / "s1").symlink_to(outside)
    (project / ".runtime" / "nudge_queue" / "s2").mkdir()
    assert safepath.escapes(str(project)) == [f".runtime/nudge_queue/s1 -> {outside}"]
