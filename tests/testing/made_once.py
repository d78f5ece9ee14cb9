"""Projects made once per module (a real pytest run, `sidekit map`) and copied for each test: the
child processes that make them cost more than the checks that read them. The template is never
handed to a test; each test gets its own copy (`copy_into`), so no test sees another's changes."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sidekit_hooks.core import hook_table

# What conftest's `clean_env` takes out of a test's environment (Gas Town, Gas City, Claude Code,
# sidekit's own switches), here by prefix: a template is made before any test's fixtures run.
AGENT_PREFIXES = ("GT_", "GC_", "CLAUDE_", "TMUX_", "SIDEKIT_")


@contextmanager
def as_a_test_sees_it(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """`os.environ` as a test sees it (conftest's `clean_env` and `sidekit_cache`) while a template
    is made: no agent's variables, the session's cache folder (not ~/.cache), the longest hook
    deadline."""
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.startswith(AGENT_PREFIXES):
                patch.delenv(name)
        patch.setenv("SIDEKIT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "sidekit-cache"))
        patch.setenv("SIDEKIT_NUDGE_BUDGET", "off")
        patch.setenv(hook_table.DEADLINE_ENV, str(hook_table.MAX_DEADLINE))
        yield dict(os.environ)


def new_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """An empty `proj` folder for a template, under the session's temporary folder."""
    root = tmp_path_factory.mktemp(name) / "proj"
    root.mkdir()
    return root


def copy_into(template: Path, project: Path) -> Path:
    """`template`'s files (with their times: the map's digest compares them) into `project`."""
    shutil.copytree(template, project, symlinks=True, dirs_exist_ok=True)
    return project
