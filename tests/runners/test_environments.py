"""The recorder's wiring of a project's own environments (runners/pytest/environments.py): what the
plugin form wires by itself, and a wiring that runs twice at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sidekit_hooks.core import safepath
from sidekit_hooks.runners.pytest import environments
from testing.runs import fake_venv


def test_a_link_made_meanwhile_by_another_wiring_is_replaced_not_an_error(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plugin's setup worker and a PreToolUse hook may wire at once: the other one's link
    appears between the check and the link made here."""
    link = Path(environments.shim_dir(str(project))) / "sidekit_hooks"
    real_symlink = os.symlink

    def other_wiring_first(source: str, target: str) -> None:
        if not os.path.lexists(link):
            real_symlink(environments.PACKAGE_DIR, link)
        real_symlink(source, target)

    monkeypatch.setattr(os, "symlink", other_wiring_first)
    environments.write_shim(str(project))
    assert os.readlink(link) == environments.PACKAGE_DIR
    assert sorted(os.listdir(link.parent)) == [
        "sidekit_hooks",
        environments.DIST_INFO,
        environments.SHIM_MODULE + ".py",
    ]


def test_a_link_to_elsewhere_is_replaced(project: Path) -> None:
    link = Path(environments.shim_dir(str(project))) / "sidekit_hooks"
    link.parent.mkdir(parents=True)
    link.symlink_to(project / "moved-away")
    environments.write_shim(str(project))
    assert os.readlink(link) == environments.PACKAGE_DIR


def test_the_plugin_wires_the_unrecorded_environments_inside_the_project_and_the_runs_own(
    project: Path,
) -> None:
    fake_venv(project / ".venv")
    fake_venv(
        project / "envs" / "py311"
    )  # no name discovery knows: wired when a run names its interpreter
    outside = project.parent / "elsewhere"
    fake_venv(outside / "venv")
    (project / "venv").symlink_to(outside / "venv")  # a link out of the project: never wired
    lines = environments.wire_unrecorded(
        str(project), str(project / "envs" / "py311" / "bin" / "python")
    )
    site = "lib/python3.11/site-packages/" + environments.pth_name(str(project))
    assert lines == [
        f"pytest in .venv: now records (.venv/{site})",
        f"pytest in envs/py311: now records (envs/py311/{site})",
    ]
    assert os.listdir(outside / "venv" / "lib" / "python3.11" / "site-packages") == []
    assert (
        environments.wire_unrecorded(str(project)) == []
    )  # every one records already: nothing written


def test_a_shim_folder_that_leads_out_of_the_project_is_refused_before_anything_is_made(
    project: Path,
) -> None:
    outside = project.parent / "elsewhere"
    outside.mkdir()
    (project / ".sidekit").mkdir()
    (project / ".sidekit" / environments.SHIM_FOLDER).symlink_to(
        outside
    )  # committed by a hostile repository
    with pytest.raises(safepath.UnsafePath):
        environments.write_shim(str(project))
    assert os.listdir(outside) == []
