"""The tools sidecar's shell checks run against `testing.shell_catalog`'s project, where the Glob
tool has answered in session `s1`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sidekit_hooks.detectors.tools import find_name
from testing.shell_catalog import catalog_project, found_in


@pytest.fixture
def catalog(project: Path) -> Callable[[str], list[str]]:
    """command -> the lines the shell checks find in it."""
    catalog_project(project)
    find_name.remember_glob(str(project), "s1")  # the Glob tool answered earlier in this session
    return lambda command: found_in(command, project)
