"""The block sidekit adds to a project's `.gitignore` (the settings form's install, and the plugin's
setup outside any repository), and taking it back out as it was: one block, whoever wrote its lines.

Kept apart from the settings wiring because the plugin's setup worker (pipeline/plugin_setup.py)
writes it too. Standard library only.
"""

from __future__ import annotations

import json
import os
from typing import Any

from sidekit_hooks.core import git_exclude, safepath, workspace

BACKUP_SUFFIX = ".sidekit-backup"  # the settings file install kept, next to it
MAX_FILE_BYTES = 16 << 20  # a .gitignore larger than this is not read
IGNORED = (".sidekit/", ".runtime/", ".claude/*" + BACKUP_SUFFIX)
IGNORE_COMMENT = git_exclude.IGNORE_COMMENT  # one block, whoever wrote its lines
ignore_key = git_exclude.ignore_key  # `.sidekit`, `/.sidekit/` and `.sidekit/*`: one folder

# under .sidekit/: how .gitignore was before install added its block
GITIGNORE_STATE = "gitignore-before.json"


def ensure_gitignore(project: str) -> list[str]:
    """Add the ignore lines the project lacks (once), in the file's own line endings; return what
    was added.

    What uninstall needs to give the file back as it was (did it exist, did it end in a newline) is
    kept in `.sidekit/gitignore-before.json`.
    """
    path = os.path.join(project, ".gitignore")
    existed = os.path.lexists(path)
    text = _read_raw(path)
    present = {ignore_key(line) for line in text.splitlines()}
    missing = [line for line in IGNORED if ignore_key(line) not in present]
    if not missing:
        return []
    eol = _eol(text)
    final_newline = not text or text.endswith(("\n", "\r"))
    prefix = "" if not text else (eol if final_newline else eol + eol)
    workspace.atomic_write(
        os.path.join(workspace.state_dir(project), GITIGNORE_STATE),
        json.dumps({"existed": existed, "finalNewline": final_newline}),
    )
    workspace.atomic_write(path, text + prefix + eol.join([IGNORE_COMMENT, *missing]) + eol)
    return missing


def cut_ignore_block(text: str) -> tuple[list[str], str, bool] | None:
    """The ignore block sidekit wrote (its comment and the lines right after it that are ours) cut
    out of `text`: (the lines removed, what remains, whether the block ended the file); None when it
    has none."""
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip("\r\n") == IGNORE_COMMENT)
    except StopIteration:
        return None
    end = start + 1
    while end < len(lines) and lines[end].rstrip("\r\n") in IGNORED:
        end += 1
    removed = [line.rstrip("\r\n") for line in lines[start + 1 : end]]
    head = lines[:start]
    if head and not end < len(lines) and head[-1].strip() == "":
        head = head[:-1]  # the blank line put before the block
    return removed, "".join(head + lines[end:]), not end < len(lines)


def remove_gitignore(project: str) -> list[str]:
    """Take out the block `ensure_gitignore` wrote (its comment and the lines right after it that
    are ours); delete the file when nothing else is left in it. Returns the lines removed."""
    path = os.path.join(project, ".gitignore")
    cut = cut_ignore_block(_read_raw(path))
    if cut is None:
        return []
    removed, remaining, at_end = cut
    before = _gitignore_before(project)
    if before.get("finalNewline") is False and at_end:
        remaining = (
            remaining.removesuffix(_eol(remaining))
            if remaining.endswith(("\n", "\r"))
            else remaining
        )
    if (
        remaining.strip()
        or before.get("existed") is True
        or (not before and _tracked(project, ".gitignore"))
    ):
        workspace.atomic_write(path, remaining)  # a tracked (even empty) .gitignore stays
    else:
        os.unlink(path)
    try:
        os.unlink(os.path.join(workspace.state_dir(project), GITIGNORE_STATE))
    except OSError:
        pass
    return removed


def _eol(text: str) -> str:
    """The line ending a text uses (its first one; "\n" for a text without any)."""
    at = text.find("\n")
    return "\r\n" if at > 0 and text[at - 1] == "\r" else "\n"


def _gitignore_before(project: str) -> dict[str, Any]:
    try:
        path = safepath.check(os.path.join(workspace.state_dir(project), GITIGNORE_STATE))
        data = json.loads(safepath.read_bytes(path, MAX_FILE_BYTES))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _tracked(project: str, name: str) -> bool:
    import subprocess

    try:
        done = subprocess.run(
            ["git", "ls-files", "--error-unmatch", "--", name],
            cwd=project,
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _read_raw(path: str) -> str:
    """The text as it is on disk (CRLF stays CRLF), a regular file only, at most MAX_FILE_BYTES;
    '' when there is none."""
    try:
        return safepath.read_regular(path, MAX_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        return ""
