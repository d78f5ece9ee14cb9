"""cli/wiring/git_exclude.py: the info/exclude a work tree uses, found without running git."""

from __future__ import annotations

import os
from pathlib import Path

from sidekit_hooks.cli.wiring import git_exclude


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
    assert git_exclude.exclude_file(str(tmp_path / "sub")) == str(tmp_path / ".git" / "info" / "exclude")


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
