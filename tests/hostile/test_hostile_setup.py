"""The plugin form's first-session setup never edits a file the project tracks (#31, deliver 5).

The setup worker (`sidekit_hooks.pipeline.plugin_setup PROJECT PLUGIN_ROOT`) is run as the hook starts
it, from the checkout under test; git itself says what changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from testing.hostile import ROOT

SETUP = "import sys; sys.path.insert(0, sys.argv.pop(1)); from sidekit_hooks.pipeline import plugin_setup; sys.exit(plugin_setup.main(sys.argv[1:]))"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(folder: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    done = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**env, **GIT_ENV, "HOME": str(folder.parent)},
        check=True,
    )
    return done.stdout


def set_up(project: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIDEKIT_", "CLAUDE_"))}
    env["SIDEKIT_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, "-c", SETUP, str(ROOT), str(project), str(tmp_path / "plugin")],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(project),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    main = tmp_path / "main"
    main.mkdir()
    git(main, "init", "-q")
    (main / ".gitignore").write_text("build/\n")
    (main / "app.py").write_text("x = 1\n")
    git(main, "add", ".")
    git(main, "commit", "-qm", "init")
    return main


def test_control_in_a_plain_checkout_the_lines_go_to_git_info_exclude(
    repo: Path, tmp_path: Path
) -> None:
    set_up(repo, tmp_path)
    assert (repo / ".gitignore").read_text() == "build/\n"
    assert ".sidekit/" in (repo / ".git" / "info" / "exclude").read_text()
    assert git(repo, "status", "--porcelain") == ""


def test_in_a_linked_worktree_the_tracked_gitignore_is_left_alone(
    repo: Path, tmp_path: Path
) -> None:
    tree = tmp_path / "tree"
    git(repo, "worktree", "add", "-q", str(tree))
    assert (tree / ".git").is_file()
    set_up(tree, tmp_path)
    assert (tree / ".gitignore").read_text() == "build/\n"
    assert git(tree, "status", "--porcelain") == ""  # .sidekit/ ignored, nothing tracked changed
    assert ".sidekit/" in (repo / ".git" / "info" / "exclude").read_text()  # the common folder's


def test_a_project_inside_a_repository_leaves_its_tracked_gitignore_alone(
    repo: Path, tmp_path: Path
) -> None:
    sub = repo / "service"
    sub.mkdir()
    (sub / ".gitignore").write_text("*.log\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "service")
    set_up(sub, tmp_path)
    assert (sub / ".gitignore").read_text() == "*.log\n"
    assert git(repo, "status", "--porcelain") == ""


def test_a_git_file_that_points_elsewhere_is_not_followed(repo: Path, tmp_path: Path) -> None:
    project = tmp_path / "unpacked"
    project.mkdir()
    (project / ".gitignore").write_text("dist/\n")
    (project / ".git").write_text(
        f"gitdir: {repo / '.git'}\n"
    )  # not a work tree of that repository
    before = (
        (repo / ".git" / "info" / "exclude").read_bytes()
        if (repo / ".git" / "info" / "exclude").exists()
        else b""
    )
    set_up(project, tmp_path)
    after = (
        (repo / ".git" / "info" / "exclude").read_bytes()
        if (repo / ".git" / "info" / "exclude").exists()
        else b""
    )
    assert after == before
    assert (project / ".gitignore").read_text() == "dist/\n"
