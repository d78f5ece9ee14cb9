"""`sidekit uninstall`: take out exactly the hook entries `sidekit install` wrote."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from sidekit_hooks.cli.commands._shared import recorder_envs
from sidekit_hooks.cli.commands._wiring_args import add_scope, target
from sidekit_hooks.cli.mcpserver import config
from sidekit_hooks.cli.wiring import files, settings_merge
from sidekit_hooks.core import gitignore
from sidekit_hooks.core.errors import SidekitError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scope(parser)
    parser.add_argument(
        "--recorder-only",
        action="store_true",
        help="only take the pytest recorder out of the project's environments",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help=f"remove every handler marked '{settings_merge.MARKER}', whoever wrote it",
    )


def run(args: argparse.Namespace) -> int:
    where = target(args)
    if getattr(args, "recorder_only", False) and where.project:
        print(f"sidekit uninstall: the test environments of {where.project}")
        recorder_envs(where.project, remove=True)
        return 0
    before = files.read_settings(where.settings, f"sidekit uninstall {where.flags}")
    record = files.load_record(where)
    files.check_writable(where.settings, where.project, f"sidekit uninstall {where.flags}")
    # the warm server's handlers first: they share a group with our command handlers
    data, _record, tools = settings_merge.set_warm_tools(before.data, record or {}, False)
    try:
        after, changes = settings_merge.uninstall(data, record, everything=args.all)
        changes = tools + changes
    except settings_merge.SettingsShapeError as exc:
        raise SidekitError(
            f"{where.settings}: {exc}; nothing was changed",
            f"repair that part of the file, then: sidekit uninstall {where.flags}",
        ) from None
    mcp = (record or {}).get("mcp")
    if isinstance(mcp, dict):
        after = config.unapprove(after, mcp)
    print(f"sidekit uninstall: {where.settings}")
    for change in changes:
        print(f"  {change.describe()}")
    if isinstance(mcp, dict) and where.project:
        print(f"  {config.uninstall(where.project, mcp)}")
    if after != before.data:
        if record and record.get("createdFile") and not after:
            files.remove_settings_file(where.settings)
            print("  removed the file (sidekit install had created it)")
        else:
            files.write_settings(
                where.settings, after, before, _original(record, after), backup=False
            )
    if record is not None and files.remove_backup(where.settings):
        print(f"  removed the backup install kept: {where.settings}{files.BACKUP_SUFFIX}")
    elif not changes and settings_merge.marked_handlers(before.data):
        print(
            "  nothing to remove: the entries marked 'sidekit-hooks' there were not written by "
            "`sidekit install`"
            f"\n  to remove them anyway: sidekit uninstall {where.flags} --all"
        )
    elif not changes:
        print("  nothing to remove")
    files.save_record(where, None)
    if where.project and record is not None and not files.has_records(where):
        removed = gitignore.remove_gitignore(
            where.project
        )  # the last install here is gone: its ignore lines go too
        if removed:
            print(f"  .gitignore: removed {' '.join(removed)}")
    if where.project:
        recorder_envs(where.project, remove=True)
        _plugin_setup(where.project)
    _created_folders(where, record)
    _claude_md(where, args.claude_md)  # last: it may end with advice
    return 0


def _created_folders(where: files.Target, record: dict[str, Any] | None) -> None:
    removed = files.remove_created_folders(where, (record or {}).get("createdFolders"))
    if removed:
        shown = [
            os.path.relpath(folder, where.project) + "/" if where.project else folder
            for folder in removed
        ]
        print(f"  removed the empty folders sidekit install had created: {' '.join(shown)}")


def _plugin_setup(project: str) -> None:
    from sidekit_hooks.pipeline import plugin_setup

    for line in plugin_setup.undo(project):
        print(f"  {line}")


def _original(record: dict[str, Any] | None, after: dict[str, Any]) -> str | None:
    """The file's text from before install, when the settings are back to exactly what it said
    (an empty file stays empty); None when the settings must be written out."""
    text = record.get("originalText") if record else None
    if not isinstance(text, str) or record is None:
        return None
    if not text.strip():
        return text if after == {} and not record.get("createdFile") else None
    try:
        return text if json.loads(text) == after else None
    except ValueError:
        return None


def _claude_md(where: files.Target, asked: bool) -> None:
    if asked:
        removed = files.remove_claude_md(where.claude_md)
        print(
            f"  {where.claude_md}: "
            f"{'removed the sidekit block' if removed else 'no sidekit block to remove'}"
        )
    elif files.has_claude_md_block(where.claude_md) and os.path.exists(where.claude_md):
        print(
            f"  {where.claude_md} still has the sidekit block; remove it: sidekit uninstall "
            f"{where.flags} --claude-md"
        )
