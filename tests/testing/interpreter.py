"""The suite's interpreter, first on PATH for the programs the fast tests start, and kept from the
real Claude Code CLI's sessions.

Behind a version manager's shims (pyenv: about 30 bash processes, 60 ms of CPU per start) the suite
would spend a fifth of its CPU in the shim, measuring the machine instead of sidekit: the programs
the tests start that look for `python3` on PATH (the plugin's launcher before its environment is
ready, its bootstrap) find this suite's base interpreter first, through links in a temp folder.

A real CLI session must not see that folder: `claude plugin eval` runs its scaffolds and the
agent's Bash in a sandbox where /tmp is not the host's, so a venv a scaffold made through those links
has no interpreter inside the sandbox (`.venv/bin/python: No such file or directory`).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

FOLDER_PREFIX = "sidekit-tests-bin-"
FOLDERS: list[str] = []


def put_first_on_path() -> None:
    base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    folder = tempfile.mkdtemp(prefix=FOLDER_PREFIX)
    for name in ("python3", "python"):
        os.symlink(base, os.path.join(folder, name))
    os.environ["PATH"] = os.pathsep.join([folder, os.environ.get("PATH", "")])
    FOLDERS.append(folder)


def remove_folders() -> None:
    for folder in FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)
    FOLDERS.clear()


def users_path(path: str) -> str:
    """PATH as the user has it: without the suite's interpreter folder."""
    return os.pathsep.join(
        entry
        for entry in path.split(os.pathsep)
        if not os.path.basename(entry.rstrip(os.sep)).startswith(FOLDER_PREFIX)
    )
