from __future__ import annotations

import os
from pathlib import Path

import pytest

from sidekit_hooks.code import files
from sidekit_hooks.code.parse import facts_of
from testing.code import git, recorded_calls, write

TREE = {
    "pkg/__init__.py": "",
    "pkg/a.py": "A = 1\n",
    "notes.txt": "not python\n",
    ".hidden/x.py": "X = 1\n",
    "node_modules/y.py": "Y = 1\n",
    "env2/pyvenv.cfg": "home = /usr\n",
    "env2/lib/z.py": "Z = 1\n",
    "ignored/w.py": "W = 1\n",
    ".gitignore": "ignored/\n",
}


def test_git_lists_tracked_and_untracked_files_not_ignored_ones(project: Path) -> None:
    write(project, TREE)
    git(project, "init", "-q")
    git(project, "add", "pkg")
    write(project, {"pkg/new.py": "N = 1\n"})  # untracked, not ignored: the agent's fresh file
    assert sorted(files.git_python_files(str(project)) or []) == [
        "pkg/__init__.py",
        "pkg/a.py",
        "pkg/new.py",
    ]
    (project / "pkg" / "a.py").unlink()  # tracked, deleted in the working tree
    assert sorted(files.python_files(str(project))) == ["pkg/__init__.py", "pkg/new.py"]


def test_without_git_a_walk_finds_the_same_files_and_stops_at_its_bound(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(project, {k: v for k, v in TREE.items() if k != ".gitignore"})
    assert files.git_python_files(str(project)) is None
    found = files.python_files(str(project))
    assert sorted(found) == ["ignored/w.py", "pkg/__init__.py", "pkg/a.py"]
    stat = os.stat(project / "pkg" / "a.py")
    assert found["pkg/a.py"] == (stat.st_mtime_ns, stat.st_size)
    monkeypatch.setattr(files, "WALK_MAX_FILES", 2)
    assert len(files.python_files(str(project))) == 2


def test_a_repository_config_cannot_make_the_listing_run_a_program(
    project: Path, tmp_path: Path
) -> None:
    write(project, {"a.py": "A = 1\n"})
    git(project, "init", "-q")
    git(project, "add", "a.py")  # (git asks the monitor only once it has an index)
    marker = tmp_path / "ran"
    git(project, "config", "core.fsmonitor", f"touch {marker}; false")
    assert files.git_python_files(str(project)) == ["a.py"]
    assert not marker.exists()


def test_a_name_imported_twice_under_one_alias_means_the_later_import() -> None:
    source = (
        b"try:\n    from a import x as y\nexcept ImportError:\n    from b import z as y\n\ny()\n"
    )
    assert ("z", 6) in facts_of(source).references
    assert ("x", 6) not in facts_of(source).references


def test_a_warm_query_lists_again_only_when_a_listed_folder_moved(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sidekit_hooks.code.index import Index

    write(
        project,
        {"pkg/__init__.py": "", "pkg/a.py": "def alpha():\n    return 1\n", "docs/notes.md": "x\n"},
    )
    git(project, "init", "-q")
    git(project, "add", "-A")
    monkeypatch.setattr(files, "RACY_SECONDS", 0.0)
    Index.open(str(project)).close()
    listings = recorded_calls(monkeypatch, files, "git_listing")

    (project / "pkg" / "a.py").write_text(
        "def alpha():\n    return 2\n\n\ndef beta():\n    pass\n"
    )  # in place
    with Index.open(str(project)) as index:
        assert [s.qualname for s in index.definitions("beta")] == ["beta"]
    assert listings == []  # the folder did not move: the indexed list, stat'ed, was enough

    (project / "docs" / "conf.py").write_text(
        "def gamma():\n    pass\n"
    )  # a folder holding no .py yet
    (project / "newpkg").mkdir()
    (project / "newpkg" / "b.py").write_text("def delta():\n    pass\n")
    with Index.open(str(project)) as index:
        assert [s.path for s in index.definitions("gamma")] == ["docs/conf.py"]
        assert [s.path for s in index.definitions("delta")] == ["newpkg/b.py"]
    assert len(listings) == 1

    (project / "newpkg" / "b.py").unlink()
    with Index.open(str(project)) as index:
        assert index.definitions("delta") == []
    assert len(listings) == 2
