"""`sidekit install`: wire the hooks into Claude Code settings, keeping everything else as it was."""

from __future__ import annotations

import argparse
import os

from sidekit_hooks.cli import settings, wiring
from sidekit_hooks.cli.commands._wiring_args import add_scope, target
from sidekit_hooks.core.errors import SidekitError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scope(parser)


def run(args: argparse.Namespace) -> int:
    where = target(args)
    wanted = settings.wanted_handlers(wiring.interpreter(), wiring.hooks_dir())
    before = wiring.read_settings(where.settings, f"sidekit install {where.flags}")
    record = wiring.load_record(where)
    try:
        after, record, changes = settings.install(before.data, wanted, record)
    except settings.SettingsShapeError as exc:
        raise SidekitError(f"{where.settings}: {exc}; nothing was changed",
                           f"repair that part of the file, then: sidekit install {where.flags}") from None
    print(f"sidekit install: {where.settings}")
    for change in changes:
        print(f"  {change.describe()}")
    if after != before.data or not before.existed:
        record["createdFile"] = bool(record.get("createdFile")) or not before.existed
        record.setdefault("originalText", before.text)  # lets uninstall give back the very bytes
        os.makedirs(os.path.dirname(where.settings), exist_ok=True)
        backup = wiring.write_settings(where.settings, after, before)
        if backup:
            print(f"  backup of the previous file: {backup}")
    wiring.save_record(where, record)
    if where.project:
        added = wiring.ensure_gitignore(where.project)
        if added:
            print(f"  .gitignore: added {' '.join(added)}")
    if args.claude_md:
        _claude_md(where)
    return 0


def _claude_md(where: wiring.Target) -> None:
    if not wiring.add_claude_md(where.claude_md):
        print(f"  {where.claude_md}: the sidekit block is already there")
        return
    # No PATH advice: the SessionStart hook puts `sidekit` on the agent's PATH (core/agentpath.py).
    print(f"  {where.claude_md}: added the sidekit block")
