"""`find DIR -name PATTERN` with nothing else to do: the Glob tool (once it has answered in the
session)."""

from __future__ import annotations

import os

from sidekit_hooks.detectors.tools.common import RANK, SIDECAR, short
from sidekit_hooks.nudges.findings import HABIT, Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.core.shell import Segment

FIND_PLAIN = frozenset({"-name", "-iname", "-type", "-maxdepth", "-mindepth", "-print"})
GLOB_SEEN = "glob-seen"  # in the session's state folder: the Glob tool answered in this session


def remember_glob(project: str, session: str) -> None:
    """The Glob tool exists here. Claude Code can run without it ("Glob is not available in this
    session — find files with `find` via the Bash tool"), so the find hint waits for this
    evidence."""
    from sidekit_hooks.core import workspace
    from sidekit_hooks.nudges.policy import state_folder

    try:
        folder = state_folder(project, session)
        if not os.path.exists(os.path.join(folder, GLOB_SEEN)):
            workspace.atomic_write(os.path.join(folder, GLOB_SEEN), "")
    except (OSError, workspace.UnsafeSessionName):
        pass


def glob_seen(project: str, session: str) -> bool:
    from sidekit_hooks.core import workspace
    from sidekit_hooks.nudges.policy import state_folder

    try:
        return bool(session) and os.path.exists(
            os.path.join(state_folder(project, session), GLOB_SEEN)
        )
    except workspace.UnsafeSessionName:
        return False


def find_finding(words: list[str], segment: Segment) -> Finding | None:
    """`find DIR -name PATTERN` with nothing else to do -> the Glob tool."""
    if words[0] != "find" or segment.piped_out or segment.redirected:
        return None
    names: list[str] = []
    args = words[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("-"):
            if arg not in FIND_PLAIN:
                return None  # -exec, -delete, -mtime, -size...: more than a file-name search
            value = args[i + 1] if i + 1 < len(args) else ""
            if arg in ("-name", "-iname"):
                names.append(value)
            elif arg == "-type" and value != "f":
                return None
            i += 1 if arg == "-print" else 2
            continue
        i += 1
    if len(names) != 1:
        return None
    return Finding(
        SIDECAR,
        f"`find -name {short(names[0])}`: the Glob tool does this (pattern "
        f"`**/{short(names[0])}`) and lists matches "
        "newest first, without the shell.",
        key="tools:glob",
        rule_id="tools.find-name",
        kind=HABIT,
        rank=RANK,
    )
