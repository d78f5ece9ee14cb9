"""core/safepath: links that lead out are refused; only regular files are read or appended to
(#15)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sidekit_hooks.core import safepath


def test_anchor_is_the_folder_holding_the_state_folder(tmp_path: Path) -> None:
    assert safepath.anchor_of(str(tmp_path / "p" / ".sidekit" / "log" / "x.jsonl")) == str(
        tmp_path / "p"
    )
    assert safepath.anchor_of(str(tmp_path / "p" / ".runtime" / "nudge_queue" / "s")) == str(
        tmp_path / "p"
    )
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


def test_read_inside_reads_a_regular_file_whole_and_nothing_else(tmp_path: Path) -> None:
    project, outside = tmp_path / "p", tmp_path / "out"
    (project / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.json").write_text("outside")
    (project / "sub" / "plain.json").write_bytes(b"x" * 100)
    (project / "sub" / "link-in.json").symlink_to(project / "sub" / "plain.json")
    (project / "sub" / "link-out.json").symlink_to(outside / "secret.json")
    (project / "linked-folder").symlink_to(outside)
    (project / "zero.json").symlink_to("/dev/zero")
    os.mkfifo(project / "fifo.json")
    assert safepath.read_inside(str(project), "sub/plain.json", 100) == b"x" * 100
    assert (
        safepath.read_inside(str(project), str(project / "sub" / "plain.json"), 100) == b"x" * 100
    )
    with pytest.raises(safepath.TooLarge) as large:
        safepath.read_inside(str(project), "sub/plain.json", 99)
    assert (large.value.size, large.value.limit, large.value.reason) == (
        100,
        99,
        safepath.TOO_LARGE,
    )
    cases = {
        # no link at all, unless asked to follow those that stay inside
        "sub/link-in.json": safepath.LINK,
        "sub/link-out.json": safepath.LINK,
        "linked-folder/secret.json": safepath.OUTSIDE,  # a folder on the way that leads out
        "zero.json": safepath.LINK,
        "fifo.json": safepath.NOT_REGULAR,  # refused at once: O_NONBLOCK, never a hang
        "../out/secret.json": safepath.OUTSIDE,
    }
    for rel, reason in cases.items():
        with pytest.raises(safepath.UnsafePath) as refused:
            safepath.read_inside(str(project), rel, 1000)
        assert refused.value.reason == reason, rel
    assert (
        safepath.read_inside(str(project), "sub/link-in.json", 100, follow_inside=True)
        == b"x" * 100
    )
    for rel in (
        "sub/link-out.json",
        "zero.json",
        "fifo.json",
        "linked-folder/secret.json",
        "missing.json",
    ):
        assert safepath.read_project_file(str(project), rel, 1000) is None, rel
    with pytest.raises(FileNotFoundError):
        safepath.read_inside(str(project), "missing.json", 10)


def test_read_regular_follows_links_to_regular_files_only(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("{}")
    (tmp_path / "dotfile-link.json").symlink_to(tmp_path / "settings.json")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.json")
    assert safepath.read_regular(str(tmp_path / "dotfile-link.json"), 2) == b"{}"
    for name in ("zero.json", "fifo.json"):
        with pytest.raises(safepath.UnsafePath):
            safepath.read_regular(str(tmp_path / name), 1 << 20)
    with pytest.raises(safepath.TooLarge):
        safepath.read_regular(str(tmp_path / "settings.json"), 1)


def test_read_tail_keeps_the_end_of_a_long_output(tmp_path: Path) -> None:
    (tmp_path / "raw.txt").write_bytes(b"head\n" + b"." * 1000 + b"\n2 failed")
    assert safepath.read_tail(str(tmp_path / "raw.txt"), 9) == b"\n2 failed"
    assert safepath.read_tail(str(tmp_path / "raw.txt"), 1 << 20).startswith(b"head\n")
    os.mkfifo(tmp_path / "fifo.txt")
    (tmp_path / "link.txt").symlink_to(tmp_path / "raw.txt")
    for name in ("fifo.txt", "link.txt"):
        with pytest.raises(safepath.UnsafePath):
            safepath.read_tail(str(tmp_path / name), 10)
