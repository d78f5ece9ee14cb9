"""What changed, according to git: the working tree (tracked and untracked) against a revision."""

from __future__ import annotations

import subprocess


def _git(project: str, *args: str) -> subprocess.CompletedProcess[bytes] | None:
    try:
        return subprocess.run(["git", *args], cwd=project, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None


def is_repo(project: str) -> bool:
    done = _git(project, "rev-parse", "--is-inside-work-tree")
    return done is not None and done.returncode == 0 and done.stdout.strip() == b"true"


def has_revision(project: str, rev: str) -> bool:
    done = _git(project, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    return done is not None and done.returncode == 0


def _names(done: subprocess.CompletedProcess[bytes] | None) -> list[str]:
    if done is None or done.returncode != 0:
        return []
    return [name.decode("utf-8", "surrogateescape") for name in done.stdout.split(b"\0") if name]


# What sidekit and Claude Code themselves write into a project (install's settings and backups, the
# caches, logs and nudge queue, the MCP wiring): never a change to the code under test.
OWN_FOLDERS = (".sidekit/", ".runtime/", ".claude/")
OWN_FILES = frozenset({".mcp.json"})


def is_own(path: str) -> bool:
    return path.startswith(OWN_FOLDERS) or path in OWN_FILES


def changed_files(project: str, base: str) -> list[str]:
    """Project-relative paths that differ between `base` and the working tree, plus untracked files.

    With no commit yet, every file git would track counts as changed. Files sidekit writes
    (`is_own`) never count: `sidekit install` right before `sidekit select` must not make it select
    everything.
    """
    untracked = _names(_git(project, "ls-files", "-z", "--others", "--exclude-standard"))
    if not has_revision(project, base):
        return sorted(
            name
            for name in set(untracked) | set(_names(_git(project, "ls-files", "-z")))
            if not is_own(name)
        )
    # --no-renames: a moved module is its old path (importers break) and its new one
    tracked = _names(
        _git(project, "diff", "-z", "--name-only", "--no-renames", "--relative", base, "--")
    )
    return sorted(name for name in set(tracked) | set(untracked) if not is_own(name))


def content_at(project: str, rev: str, path: str) -> bytes | None:
    """The file as it was at `rev`, or None when it did not exist there."""
    done = _git(project, "show", f"{rev}:./{path}")
    return done.stdout if done is not None and done.returncode == 0 else None
