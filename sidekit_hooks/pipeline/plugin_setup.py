"""Plugin parity: what `sidekit install` does to a project, done for a plugin user at the first
session.

The settings form's `sidekit install` git-ignores `.sidekit/` and `.runtime/` and makes a plain
pytest in the project's own environments record (`runners/pytest/environments.py`). A plugin user
never runs it, so the first SessionStart of the plugin in a project starts this worker, detached
(`python -S -m sidekit_hooks.pipeline.plugin_setup PROJECT PLUGIN_ROOT`). It:

- adds the ignore lines to the repository's `info/exclude` (a git work tree, a linked one too:
  nothing the project tracks changes, and the scope sidecar sees no edit; core/git_exclude.py), to
  `.gitignore` only outside any repository, as install does; never through a link;
- wires only environments that lie inside the project (its `.venv`, `venv`), never one reached by a
  link out of it;
- records that it ran in `.sidekit/plugin-setup.json` (so later sessions skip it: one read) and
  leaves one line in `.sidekit/plugin-setup.say`, which the next hook claims by rename and shows the
  user once (systemMessage: the model never sees it); `core/pluginform.py` is what the
  hook reads.

Idempotent, and one at a time per project (a lock): concurrent first hooks set up once.
"""

from __future__ import annotations

import os
import sys

from sidekit_hooks.core import (
    background,
    fastjson,
    gitignore,
    hooklog,
    pluginform,
    safepath,
    workspace,
)

MAX_EXCLUDE = (
    1 << 20
)  # bytes of an `info/exclude` read; a bigger one is cut at that (it is the user's own)


SETUP_MODULE = "sidekit_hooks.pipeline.plugin_setup"  # this module, run as the detached worker


def start_setup(project: str, root: str) -> bool:
    """Start the setup worker unless it runs already; True when started."""
    if not background.lock_is_stale(
        os.path.join(workspace.state_dir(project), pluginform.LOCK_FILE)
    ):
        return False
    background.spawn_module(SETUP_MODULE, [project, root])
    return True


def ignore_lines(project: str) -> tuple[str, list[str]]:
    """(where the ignore lines went, relative to the project when inside it; the lines added), or
    ("", []).

    Never a file the project tracks: inside a git work tree (a linked one too) the lines go to the
    repository's `info/exclude` (core/git_exclude.py), or nowhere when that cannot be placed; a
    `.gitignore` only where there is no repository at all."""
    from sidekit_hooks.core import git_exclude

    exclude = git_exclude.exclude_file(project)
    if exclude:
        # no settings backups here
        lines = [line for line in gitignore.IGNORED if not line.startswith(".claude")]
        added = _add_lines(exclude, lines)
        # The hooks may have put them there already, as they made the folders (core/git_exclude.py):
        # the user hears what the exclude file now holds of them either way.
        return _shown(project, exclude), [
            line for line in lines if line in added or _holds(exclude, line)
        ]
    if git_exclude.in_repository(project):
        # a repository whose exclude file we cannot place: nothing rather than a tracked file
        return "", []
    if os.path.islink(os.path.join(project, ".gitignore")):
        return "", []  # a shared or generated file elsewhere: not ours to change
    return ".gitignore", gitignore.ensure_gitignore(project)


def _shown(project: str, path: str) -> str:
    relative = os.path.relpath(path, os.path.realpath(project))
    return path if relative.startswith("..") else relative


def _holds(path: str, line: str) -> bool:
    from sidekit_hooks.core import git_exclude

    try:
        text = _read_exclude(path)
    except OSError:
        return False
    return text is not None and any(
        git_exclude.ignore_key(held) == git_exclude.ignore_key(line) for held in text.splitlines()
    )


def _add_lines(path: str, lines: list[str]) -> list[str]:

    try:
        found = _read_exclude(path)
    except FileNotFoundError:
        found = ""
    if found is None:
        return []  # too big to rewrite whole: left as it is
    text = found
    present = {gitignore.ignore_key(line) for line in text.splitlines()}
    missing = [line for line in lines if gitignore.ignore_key(line) not in present]
    if missing:
        from sidekit_hooks.core import git_exclude

        for line in (
            missing
        ):  # into the block the hooks may have begun (one block: uninstall cuts it whole)
            text = git_exclude.with_line(text, line)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        workspace.atomic_write(path, text)
    return missing


def _read_exclude(path: str) -> str | None:
    """The exclude file's text; None when it is over MAX_EXCLUDE (never cut short and written
    back)."""
    raw = safepath.read_bytes(path, MAX_EXCLUDE + 1)
    return None if len(raw) > MAX_EXCLUDE else raw.decode("utf-8", "replace")


def wire_recorders(project: str) -> list[str]:
    """Make pytest record in the project's own environments (inside it, links resolved); install's
    lines."""
    from sidekit_hooks.runners.pytest import environments

    inside = environments.inside_targets(
        project
    )  # the environment and the folder written to, resolved
    return environments.wire(project, inside) if inside else []


def set_up(project: str, plugin_root: str) -> str:
    """Do the setup (idempotent); the line to tell the user, or "" when there was nothing to do."""
    where, added = ignore_lines(project)
    wired = [line for line in wire_recorders(project) if "now records" in line]
    record = {"version": pluginform.VERSION, "root": plugin_root}
    workspace.atomic_write(pluginform.done_path(project), fastjson.dumps(record) + "\n")
    parts = []
    if added:
        parts.append(f"git now ignores {' and '.join(added)} ({where})")
    if wired:
        parts.append("; ".join(line.split(" (", 1)[0] for line in wired))
    if not parts:
        return ""
    return (
        "sidekit (plugin) set up this project once, as `sidekit install` would: "
        + "; ".join(parts)
        + "."
    )


def undo(project: str) -> list[str]:
    """Take back what the setup did to the project (for `sidekit uninstall`); a line per change."""
    done = pluginform.done_path(project)
    if not os.path.isfile(done):
        return []
    from sidekit_hooks.core import git_exclude

    said = []
    exclude = git_exclude.exclude_file(project)
    text = _read_exclude(exclude) if exclude and os.path.isfile(exclude) else None
    if text is not None:
        cut = gitignore.cut_ignore_block(text)
        if cut is not None:
            workspace.atomic_write(exclude, cut[1])
            said.append(f"{_shown(project, exclude)}: removed {' '.join(cut[0])}")
    os.unlink(done)
    said.append(
        "the plugin's setup record is gone (the plugin sets the project up again at its next "
        "session)"
    )
    return said


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        return 2
    project, plugin_root = os.path.abspath(argv[0]), argv[1]
    lock = os.path.join(workspace.state_dir(project), pluginform.LOCK_FILE)
    try:
        if not background.take_lock(lock):
            return 0
    except OSError as exc:
        hooklog.error(project, "background", "plugin-setup", exc)
        return 0
    try:
        if pluginform.setup_needed(project, plugin_root):
            line = set_up(project, plugin_root)
            if line:
                workspace.atomic_write(
                    os.path.join(workspace.state_dir(project), pluginform.SAY_FILE), line
                )
    # a background worker logs and exits; nobody waits for it
    except Exception as exc:  # noqa: BLE001
        hooklog.error(project, "background", "plugin-setup", exc)
    finally:
        background.release_lock(lock)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
