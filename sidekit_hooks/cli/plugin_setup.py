"""Plugin parity: what `sidekit install` does to a project, done for a plugin user at the first session.

The settings form's `sidekit install` git-ignores `.sidekit/` and `.runtime/` and makes a plain pytest
in the project's own environments record (`runners/pytest/environments.py`). A plugin user never runs it, so
the first SessionStart of the plugin in a project starts this worker, detached
(`python -S -m sidekit_hooks.cli.plugin_setup PROJECT PLUGIN_ROOT`). It:

- adds the ignore lines to `.git/info/exclude` (a git work tree: nothing the project tracks changes,
  and the scope sidecar sees no edit), else to `.gitignore`, as install does; never through a link;
- wires only environments that lie inside the project (its `.venv`, `venv`), never one reached by a
  link out of it;
- records that it ran in `.sidekit/plugin-setup.json` (so later sessions skip it: one read) and leaves
  one line in `.sidekit/plugin-setup.say`, which the next hook claims by rename and shows the user once
  (systemMessage: the model never sees it); `core/pluginform.py` is the hook's side.

Idempotent, and one at a time per project (a lock): concurrent first hooks set up once.
"""

from __future__ import annotations

import os
import sys

from sidekit_hooks.core import background, fastjson, hooklog, pluginform, safepath, workspace


def ignore_lines(project: str) -> tuple[str, list[str]]:
    """(the file the ignore lines went to, relative to the project; the lines added), or ("", [])."""
    from sidekit_hooks.cli.wiring import files as wiring

    git = os.path.join(project, ".git")
    if os.path.isdir(git) and not os.path.islink(git):
        exclude = os.path.join(git, "info", "exclude")
        if os.path.islink(os.path.join(git, "info")) or os.path.islink(exclude):
            return "", []
        lines = [line for line in wiring.IGNORED if not line.startswith(".claude")]  # no settings backups here
        return ".git/info/exclude", _add_lines(exclude, lines)
    gitignore = os.path.join(project, ".gitignore")
    if os.path.islink(gitignore):
        return "", []  # a shared or generated file elsewhere: not ours to change
    return ".gitignore", wiring.ensure_gitignore(project)


def _add_lines(path: str, lines: list[str]) -> list[str]:
    from sidekit_hooks.cli.wiring import files as wiring

    text = wiring._read_text(path)  # a regular file, never blocking, bounded; "" when absent
    present = {wiring._ignore_key(line) for line in text.splitlines()}
    missing = [line for line in lines if wiring._ignore_key(line) not in present]
    if missing:
        prefix = "" if not text or text.endswith("\n") else "\n"
        os.makedirs(os.path.dirname(path), exist_ok=True)
        workspace.atomic_write(path, text + prefix + "\n".join([wiring.IGNORE_COMMENT, *missing]) + "\n")
    return missing


def wire_recorders(project: str) -> list[str]:
    """Make pytest record in the project's own environments (inside it, links resolved); install's lines."""
    from sidekit_hooks.runners.pytest import environments

    inside = environments.inside_targets(project)  # the environment and the folder written to, resolved
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
    return "sidekit (plugin) set up this project once, as `sidekit install` would: " + "; ".join(parts) + "."


def undo(project: str) -> list[str]:
    """Take back what the setup did to the project (for `sidekit uninstall`); a line per change."""
    done = pluginform.done_path(project)
    if not os.path.isfile(done):
        return []
    from sidekit_hooks.cli.wiring import files as wiring

    said = []
    git = os.path.join(project, ".git")
    exclude = os.path.join(git, "info", "exclude")
    if os.path.isdir(git) and not any(os.path.islink(p) for p in (git, os.path.dirname(exclude), exclude)):
        text = (safepath.read_project_file(project, ".git/info/exclude") or b"").decode("utf-8", "replace")
        cut = wiring.cut_ignore_block(text)
        if cut is not None:
            workspace.atomic_write(exclude, cut[1])
            said.append(f".git/info/exclude: removed {' '.join(cut[0])}")
    os.unlink(done)
    said.append("the plugin's setup record is gone (the plugin sets the project up again at its next session)")
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
                workspace.atomic_write(os.path.join(workspace.state_dir(project), pluginform.SAY_FILE), line)
    except Exception as exc:  # noqa: BLE001 - a background worker logs and exits; nobody waits for it
        hooklog.error(project, "background", "plugin-setup", exc)
    finally:
        background.release_lock(lock)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
