"""core/git_exclude.py: the info/exclude a work tree uses, found without running git, and the hooks
adding `.sidekit/` and `.runtime/` to it the first time they make those folders (issue #35, item
4)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sidekit_hooks.core import git_exclude, safepath
from testing.hooks import run_sidekit


def linked_worktree(tmp_path: Path) -> tuple[Path, Path]:
    """(work tree, common git folder), laid out as `git worktree add` lays them out."""
    common = tmp_path / "main" / ".git"
    own = common / "worktrees" / "tree"
    own.mkdir(parents=True)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / ".git").write_text(f"gitdir: {own}\n")
    (own / "gitdir").write_text(f"{tree / '.git'}\n")
    (own / "commondir").write_text("../..\n")
    return tree, common


def test_a_plain_checkout_uses_its_own_git_folder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    assert git_exclude.exclude_file(str(tmp_path)) == str(tmp_path / ".git" / "info" / "exclude")
    assert git_exclude.exclude_file(str(tmp_path / "sub")) == str(
        tmp_path / ".git" / "info" / "exclude"
    )


def test_a_linked_worktree_uses_the_common_folder(tmp_path: Path) -> None:
    tree, common = linked_worktree(tmp_path)
    assert git_exclude.exclude_file(str(tree)) == str(common / "info" / "exclude")


def test_a_git_file_without_the_back_pointer_is_not_followed(tmp_path: Path) -> None:
    tree, common = linked_worktree(tmp_path)
    (common / "worktrees" / "tree" / "gitdir").write_text("/somewhere/else/.git\n")
    assert git_exclude.exclude_file(str(tree)) == ""
    assert git_exclude.in_repository(str(tree))


def test_links_are_never_followed(tmp_path: Path) -> None:
    tree, common = linked_worktree(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (common / "info").symlink_to(elsewhere)
    assert git_exclude.exclude_file(str(tree)) == ""
    linked = tmp_path / "linked"
    linked.mkdir()
    os.symlink(common, linked / ".git")
    assert git_exclude.exclude_file(str(linked)) == ""


def test_no_repository_at_all(tmp_path: Path) -> None:
    assert git_exclude.exclude_file(str(tmp_path)) == ""
    assert not git_exclude.in_repository(str(tmp_path))


BLOCK = "# sidekit-hooks: caches, logs, the nudge queue, settings backups\n"


def git_repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def status(project: Path) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=project,
        capture_output=True,
        text=True,
    ).stdout


def test_the_first_write_of_sidekit_excludes_its_folder_in_the_settings_form(
    tmp_path: Path,
) -> None:
    """Issue #35: `sidekit scope set` made `.sidekit/` before the plugin's setup excluded it, and
    the model saw `?? .sidekit/` in Claude Code's git-status snapshot."""
    project = git_repo(tmp_path / "proj")
    (project / "app.py").write_text("x = 1\n")
    done = run_sidekit("scope", "set", "--allow", "app.py", "--project", str(project), cwd=project)
    assert done.returncode == 0, done.stderr
    assert (project / ".git" / "info" / "exclude").read_text().endswith(f"{BLOCK}.sidekit/\n")
    assert status(project) == "?? app.py\n"
    assert not (project / ".gitignore").exists()  # nothing the project tracks (or could) changed


def test_the_queue_folder_joins_the_same_block_and_uninstall_takes_both_back(
    tmp_path: Path,
) -> None:
    project = git_repo(tmp_path / "proj")
    safepath.makedirs(str(project / ".sidekit" / "log"))
    safepath.makedirs(str(project / ".runtime" / "nudge_queue" / "sess-1"))
    exclude = project / ".git" / "info" / "exclude"
    assert exclude.read_text().endswith(f"{BLOCK}.sidekit/\n.runtime/\n")
    assert status(project) == ""
    from sidekit_hooks.core import gitignore

    assert gitignore.cut_ignore_block(exclude.read_text()) is not None
    assert gitignore.cut_ignore_block(exclude.read_text())[0] == [".sidekit/", ".runtime/"]  # type: ignore[index]


def test_a_linked_work_tree_excludes_in_the_common_folder(tmp_path: Path) -> None:
    tree, common = linked_worktree(tmp_path)
    (common / "info").mkdir()
    (common / "info" / "exclude").write_text("*.log")  # the user's own, without a final newline
    safepath.makedirs(str(tree / ".sidekit" / "state"))
    assert (common / "info" / "exclude").read_text() == f"*.log\n{BLOCK}.sidekit/\n"


def test_outside_a_repository_nothing_is_written(tmp_path: Path) -> None:
    safepath.makedirs(str(tmp_path / ".sidekit" / "log"))
    assert sorted(path.name for path in tmp_path.iterdir()) == [".sidekit"]


def test_an_existing_folder_costs_a_stat_and_no_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = git_repo(tmp_path / "proj")
    (project / ".sidekit").mkdir()  # made before (an older sidekit, the user): not ours to add now
    reads: list[str] = []

    def read(path: str, *_: object) -> bytes:
        reads.append(path)
        return b""

    monkeypatch.setattr(git_exclude, "_read", read)
    safepath.makedirs(str(project / ".sidekit" / "log"))
    safepath.makedirs(str(project / ".sidekit" / "log"))
    assert reads == []
    assert not (project / ".git" / "info" / "exclude").read_text().count(".sidekit/")


def test_a_line_already_there_is_not_added_twice(tmp_path: Path) -> None:
    project = git_repo(tmp_path / "proj")
    (project / ".git" / "info" / "exclude").write_text("/.sidekit\n")
    safepath.makedirs(str(project / ".sidekit"))
    assert (project / ".git" / "info" / "exclude").read_text() == "/.sidekit\n"


def test_the_old_place_still_answers(tmp_path: Path) -> None:
    from sidekit_hooks.cli.wiring import git_exclude as moved

    (tmp_path / ".git").mkdir()
    assert moved.exclude_file(str(tmp_path)) == str(tmp_path / ".git" / "info" / "exclude")
