"""The code index's warm check (sidekit_hooks/code/fresh.py): what the last full refresh saw,
re-stat'ed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sidekit_hooks.code import files, fresh, written
from sidekit_hooks.code.index import Index
from testing.code import git, recorded_calls, settle, write


def repository(project: Path) -> None:
    write(
        project,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "def alpha():\n    return 1\n",
            "docs/guide/notes.md": "x\n",
        },
    )
    git(project, "init", "-q")
    git(project, "add", "-A")
    settle(project)


def warm(project: Path) -> None:
    """Two queries, the tree dated back in between (the first one's .sidekit/ moved the project
    folder): the index and its record are settled, as after any first query once a few seconds have
    passed."""
    definitions(project, "alpha")
    settle(project)
    definitions(project, "alpha")


def definitions(project: Path, name: str) -> list[str]:
    with Index.open(str(project)) as index:
        return [f"{s.path}:{s.line}" for s in index.definitions(name)]


def test_a_record_reads_back_and_a_foreign_one_means_a_full_refresh() -> None:
    watched = [("", 1), ("pkg", 2), ("docs", 3), (".gitignore", 4), (".git/index", 5)]
    indexed = [("pkg/a.py", 10, 20), ("pkg/é.py", 11, 21)]
    record = fresh.parse(fresh.pack(7, watched, indexed, 1))
    assert record == fresh.Record(
        serial=7,
        files=2,
        unparsable=1,
        watched=[b"", b"pkg", b".gitignore", b".git/index"],
        watched_mtimes=[1, 2, 4, 5],
        others=[b"docs"],
        other_mtimes=[3],
        paths=[b"pkg/a.py", "pkg/é.py".encode()],
        mtimes=[10, 11],
        sizes=[20, 21],
    )
    packed = fresh.pack(7, watched, indexed, 1)
    assert fresh.parse(packed[:-3]) is None  # cut short
    assert fresh.parse(packed[:20]) is None
    assert fresh.parse(b"") is None
    assert fresh.parse("not bytes") is None
    assert fresh.parse(None) is None


def test_a_warm_query_stats_and_lists_nothing_new_yet_sees_an_edit_in_place(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repository(project)
    warm(project)
    full = recorded_calls(monkeypatch, Index, "_refresh_changed")  # the full refreshes from now on
    listed = recorded_calls(monkeypatch, files, "git_listing")  # git asked for the file list
    assert definitions(project, "alpha") == ["pkg/a.py:1"]
    assert (full, listed) == ([], [])  # the warm check held: no refresh, no git

    target = project / "pkg" / "a.py"
    with open(
        target, "r+", encoding="utf-8"
    ) as handle:  # in place: the folder's mtime does not move
        handle.write("def gamma():\n    return 2\n")
    assert definitions(project, "gamma") == ["pkg/a.py:1"]
    assert (len(full), listed) == (
        1,
        [],
    )  # the file's stat moved: a refresh, still without a listing


def test_a_rewrite_in_the_same_mtime_tick_with_the_same_size_is_still_seen(project: Path) -> None:
    repository(project)
    target = project / "pkg" / "a.py"
    target.write_text("def alpha():\n    return 1\n")
    stamp = target.stat().st_mtime_ns  # now: within the racy window of the read that follows
    assert definitions(project, "alpha") == ["pkg/a.py:1"]
    target.write_text("def omega():\n    return 1\n")  # same size ...
    os.utime(target, ns=(stamp, stamp))  # ... and the same mtime, as a write in the same tick has
    assert definitions(project, "omega") == ["pkg/a.py:1"]
    assert definitions(project, "alpha") == []


def test_a_new_file_where_no_python_was_is_seen_once_a_writing_tool_moved_the_stamp(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repository(project)
    warm(project)
    full = recorded_calls(monkeypatch, Index, "_refresh_changed")
    (project / "docs" / "guide" / "conf.py").write_text("def delta():\n    pass\n")
    before = written.mtime(str(project))
    written.note(str(project), "Read")  # a tool that cannot write leaves it
    assert written.mtime(str(project)) == before
    assert (
        definitions(project, "delta") == []
    )  # (the one gap: a write no hook saw, where no Python was)
    written.note(str(project), "Bash")  # e.g. `cp template.py docs/guide/conf.py`
    assert written.mtime(str(project)) > before
    assert definitions(project, "delta") == ["docs/guide/conf.py:1"]
    assert len(full) == 1


def test_a_new_file_or_folder_next_to_python_code_needs_no_stamp(project: Path) -> None:
    repository(project)
    warm(project)
    (project / "pkg" / "b.py").write_text("def beta():\n    pass\n")
    (project / "newpkg").mkdir()
    (project / "newpkg" / "c.py").write_text("def gamma():\n    pass\n")
    assert definitions(project, "beta") == ["pkg/b.py:1"]
    assert definitions(project, "gamma") == ["newpkg/c.py:1"]
    (project / "pkg" / "b.py").unlink()
    assert definitions(project, "beta") == []


def test_without_git_there_is_no_record_and_every_query_walks(project: Path) -> None:
    write(project, {"a.py": "def alpha():\n    pass\n"})
    settle(project)
    assert definitions(project, "alpha") == ["a.py:1"]
    with Index.open(str(project)) as index:
        assert index.db.execute("SELECT count(*) FROM meta WHERE key LIKE 'fresh%'").fetchone() == (
            0,
        )
    (project / "docs").mkdir()
    (project / "docs" / "b.py").write_text("def beta():\n    pass\n")
    assert definitions(project, "beta") == ["docs/b.py:1"]


def test_the_stamp_is_never_followed_out_of_the_project(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "code").mkdir()
    (outside / "code" / "written").write_text("")
    settle(outside)
    before = (outside / "code" / "written").stat().st_mtime_ns
    (project / ".sidekit").symlink_to(outside)
    written.note(str(project), "Bash")
    assert (outside / "code" / "written").stat().st_mtime_ns == before


def test_a_warm_query_never_waits_for_a_writer_to_note_the_stamp(project: Path) -> None:
    import sqlite3

    repository(project)
    warm(project)
    written.note(
        str(project), "Edit"
    )  # the next query checks the folders without Python, then notes the stamp
    settle(
        project / ".sidekit" / "code", seconds=5
    )  # (moved 5 s ago: past its racy window, so it can be noted)
    path = project / ".sidekit" / "code" / "index.sqlite"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process in the middle of a refresh
    try:
        noted = writer.execute(
            "SELECT value FROM meta WHERE key = ?", (fresh.STAMP_KEY,)
        ).fetchone()
        assert definitions(project, "alpha") == ["pkg/a.py:1"]
        assert (
            writer.execute("SELECT value FROM meta WHERE key = ?", (fresh.STAMP_KEY,)).fetchone()
            == noted
        )
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert definitions(project, "alpha") == ["pkg/a.py:1"]
    with Index.open(str(project), refresh=False) as index:
        serial = fresh.parse(
            index.db.execute("SELECT value FROM meta WHERE key = 'fresh'").fetchone()[0]
        )
        assert serial is not None
        assert index.db.execute(
            "SELECT value FROM meta WHERE key = ?", (fresh.STAMP_KEY,)
        ).fetchone() == (f"{serial.serial} {written.mtime(str(project))}",)


def test_a_hook_moves_the_stamp_after_a_tool_that_may_write_even_a_failed_one(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sidekit_hooks.pipeline import runtime
    from testing.hooks import bash, tool_call

    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    repository(project)
    warm(project)
    before = written.mtime(str(project))
    read = tool_call(
        "PostToolUse", project, "sess-1", "Read", {"file_path": str(project / "pkg" / "a.py")}
    )
    runtime.run("PostToolUse", json.dumps(read))
    assert written.mtime(str(project)) == before
    runtime.run(
        "PostToolUseFailure",
        json.dumps(bash(project, "sed -i s/1/2/ pkg/a.py && false", error="exit 1")),
    )
    assert written.mtime(str(project)) > before


def test_a_folder_without_python_that_moved_as_it_was_listed_is_looked_at_again(
    project: Path,
) -> None:
    repository(project)
    warm(project)
    stamp = written.mtime(str(project))
    with Index.open(str(project), refresh=False) as index:
        kept = fresh.parse(
            index.db.execute(
                "SELECT value FROM meta WHERE key = ?", (fresh.RECORD_KEY,)
            ).fetchone()[0]
        )
        assert kept is not None and kept.others == [b"docs", b"docs/guide"]
        assert fresh.still_fresh(index.db, str(project)) == kept
        kept_watched = zip(map(bytes.decode, kept.watched), kept.watched_mtimes, strict=True)
        watched = [*kept_watched, ("docs", -2), ("docs/guide", 1)]
        files_ = list(zip(map(bytes.decode, kept.paths), kept.mtimes, kept.sizes, strict=True))
        racy = fresh.pack(
            kept.serial, watched, files_, kept.unparsable
        )  # docs/ moved while it was listed
        index.db.execute("UPDATE meta SET value = ? WHERE key = ?", (racy, fresh.RECORD_KEY))
        assert index.db.execute(
            "SELECT value FROM meta WHERE key = ?", (fresh.STAMP_KEY,)
        ).fetchone() == (f"{kept.serial} {stamp}",)
        assert fresh.still_fresh(index.db, str(project)) is None
