"""The write stamp: `.sidekit/code/written`, touched by PostToolUse after any tool that may write
files.

A warm code query stats every indexed file and every folder that holds one (an edit, a deletion or a
new file next to Python code shows there), but the folders that hold no Python yet (Django's 2,500
locale folders) only when this stamp moved since the index last looked: a `.py` file can appear
there only through a write, and the agent's writes (Edit, Write, Bash: `sed -i`, `mv`, a generator)
all pass PostToolUse; git's own index is watched on every query for a checkout or a pull.

Standard library only: the hook calls `note` on every tool call, one stat-sized syscall.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import safepath, workspace

# Tools that never write a file. Anything else (Bash, Edit, Write, NotebookEdit, an MCP tool) moves
# the stamp.
READ_ONLY_TOOLS = frozenset(
    {
        "Read",
        "Grep",
        "Glob",
        "LS",
        "NotebookRead",
        "WebFetch",
        "WebSearch",
        "TodoWrite",
        "BashOutput",
    }
)
STAMP_NAME = "written"
CREATED_NS = 1_000_000_000  # a new stamp's mtime (1970): no write has moved it yet


def stamp_path(project: str) -> str:
    return os.path.join(workspace.state_dir(project), "code", STAMP_NAME)


def note(project: str, tool: str) -> None:
    """After a tool call: move the stamp unless the tool cannot have written. No stamp (no index
    yet): nothing to do, the first query builds the index from scratch."""
    if tool in READ_ONLY_TOOLS:
        return
    try:
        os.utime(safepath.check(stamp_path(project)), follow_symlinks=False)
    except OSError:  # no index yet, or a .sidekit leading out of the project (refused)
        pass


def mtime(project: str) -> int:
    """The stamp's mtime_ns; -1 when it is missing."""
    try:
        return os.stat(stamp_path(project), follow_symlinks=False).st_mtime_ns
    except OSError:
        return -1


def ensure(project: str) -> None:
    """Create the stamp (empty) if missing, so the hooks have something to move (the index's folder
    exists). Dated long ago: only its moves mean anything, and a stamp made just now would be in its
    racy window."""
    path = stamp_path(project)
    try:
        fd = os.open(
            safepath.check(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL | safepath.NOFOLLOW, 0o644
        )
    except OSError:  # there already, or refused
        return
    try:
        os.utime(fd, ns=(CREATED_NS, CREATED_NS))
    finally:
        os.close(fd)
