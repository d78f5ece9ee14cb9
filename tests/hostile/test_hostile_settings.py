"""Settings and files as the user left them (#15, deliver 4)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from testing.hostile import cli


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


def settings_file(project: Path, text: str | None = None) -> Path:
    path = project / ".claude" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    if text is not None:
        path.write_bytes(text.encode())
    return path


def install(project: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return cli(
        "install",
        "--project",
        str(project),
        *extra,
        project=project,
        HOME=str(project.parent / "home"),
    )


def uninstall(project: Path) -> subprocess.CompletedProcess[str]:
    return cli(
        "uninstall", "--project", str(project), project=project, HOME=str(project.parent / "home")
    )


def test_a_dangling_settings_symlink_is_refused_not_replaced(project: Path, tmp_path: Path) -> None:
    path = settings_file(project)
    path.symlink_to(tmp_path / "dotfiles" / "settings.json")
    done = install(project)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (
        "is a symlink to" in done.stderr
        and "which does not exist; nothing was changed" in done.stderr
    )
    assert path.is_symlink() and not (tmp_path / "dotfiles").exists()


def test_crlf_line_endings_are_kept(project: Path) -> None:
    path = settings_file(project, '{\r\n  "model": "opus"\r\n}\r\n')
    install(project)
    text = path.read_bytes().decode()
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")
    assert "hooks" in json.loads(text)
    uninstall(project)
    assert path.read_bytes() == b'{\r\n  "model": "opus"\r\n}\r\n'


def test_an_empty_settings_file_stays_empty(project: Path) -> None:
    path = settings_file(project, "")
    install(project)
    assert "hooks" in json.loads(path.read_text())
    uninstall(project)
    assert path.read_bytes() == b""


def test_a_read_only_settings_file_is_refused_with_a_fix(project: Path) -> None:
    path = settings_file(project, '{"model": "opus"}\n')
    path.chmod(0o444)
    done = install(project)
    assert done.returncode == 1
    assert (
        f"{path} is read-only; nothing was changed\n  fix: chmod u+w {path}, then: sidekit install"
        in done.stderr
    )
    assert path.read_text() == '{"model": "opus"}\n' and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_uninstall_takes_away_its_gitignore_lines_and_backups(project: Path) -> None:
    (project / ".gitignore").write_text("node_modules/\n")
    settings_file(project, '{"model": "opus"}\n')
    install(project)
    assert ".runtime/" in (project / ".gitignore").read_text()
    uninstall(project)
    assert (project / ".gitignore").read_text() == "node_modules/\n"
    assert sorted(p.name for p in (project / ".claude").iterdir()) == ["settings.json"]


def test_a_sidekit_file_is_a_clear_error_before_anything_is_written(project: Path) -> None:
    (project / ".sidekit").write_text("not a folder")
    done = install(project)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{project / '.sidekit'} exists but is not a folder; nothing was changed" in done.stderr
    assert not (project / ".claude").exists() and not (project / ".gitignore").exists()
    assert os.listdir(project) == [".sidekit"]
