"""`sidekit install`: wire the hooks into Claude Code settings, keeping everything else as it
was."""

from __future__ import annotations

import argparse
import os
from typing import Any

from sidekit_hooks.cli.commands._shared import recorder_envs
from sidekit_hooks.cli.commands._wiring_args import add_scope, target
from sidekit_hooks.cli.wiring import files, settings_merge
from sidekit_hooks.core import gitignore
from sidekit_hooks.core.errors import SidekitError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scope(parser)
    parser.add_argument(
        "--recorder-only",
        action="store_true",
        help="only make a plain pytest in the project's environments record (the plugin form "
        "wires the hooks)",
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="with --mcp: the events the warm path answers go to the server's hook tool, the "
        "command hook running in the background as its fallback (docs/warm-path.md); an install "
        "without it goes back to the command hooks",
    )


def run(args: argparse.Namespace) -> int:
    where = target(args)
    if getattr(args, "recorder_only", False):
        return _recorder_only(where)
    warm = bool(getattr(args, "warm", False))
    if warm and not args.mcp:
        raise SidekitError(
            "--warm answers hook events through the project's MCP server; it needs --mcp",
            f"sidekit install {where.flags} --mcp --warm".replace("  ", " "),
        )
    scripts = files.hook_scripts()
    wanted = settings_merge.wanted_handlers(
        files.interpreter(), scripts.folder, scripts.flags, warm
    )
    before = files.read_settings(where.settings, f"sidekit install {where.flags}")
    files.check_writable(where.settings, where.project, f"sidekit install {where.flags}")
    created = files.missing_folders(
        where
    )  # before anything is written: uninstall removes them again
    record = files.load_record(where)
    try:
        after, record, changes = settings_merge.install(before.data, wanted, record)
    except settings_merge.SettingsShapeError as exc:
        raise SidekitError(
            f"{where.settings}: {exc}; nothing was changed",
            f"repair that part of the file, then: sidekit install {where.flags}",
        ) from None
    mcp_line = ""
    if args.mcp:
        after, record, mcp_line = _wire_mcp(where, after, record, warm)
    after, record, tools = settings_merge.set_warm_tools(after, record, warm)
    changes += tools
    print(f"sidekit install: {where.settings}")
    for change in changes:
        print(f"  {change.describe()}")
    if mcp_line:
        print(f"  {mcp_line}")
    if after != before.data or not before.existed:
        record["createdFile"] = bool(record.get("createdFile")) or not before.existed
        record.setdefault("originalText", before.text)  # lets uninstall give back the very bytes
        os.makedirs(os.path.dirname(os.path.realpath(where.settings)), exist_ok=True)
        backup = files.write_settings(where.settings, after, before)
        if backup:
            print(f"  backup of the previous file: {backup}")
    if created:
        earlier = record.get("createdFolders")
        record["createdFolders"] = [*(earlier if isinstance(earlier, list) else []), *created]
    files.save_record(where, record)
    if where.project:
        added = gitignore.ensure_gitignore(where.project)
        if added:
            print(f"  .gitignore: added {' '.join(added)}")
        recorder_envs(where.project)
    if args.claude_md:
        _claude_md(where)
    return 0


def _recorder_only(where: files.Target) -> int:
    if not where.project:
        raise SidekitError(
            "--recorder-only works on a project's environments, not --user",
            "sidekit install --project DIR --recorder-only",
        )
    print(f"sidekit install: the test environments of {where.project}")
    recorder_envs(where.project)
    return 0


def _wire_mcp(
    where: files.Target, after: dict[str, Any], record: dict[str, Any], warm: bool = False
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The server in the project's .mcp.json (`warm`: with `--hooks`), and its approval in the
    settings being written."""
    from sidekit_hooks.cli.mcpserver import config

    if not where.project:
        raise SidekitError(
            "--mcp wires a project's .mcp.json; it does not combine with --user",
            "sidekit install --project DIR --mcp",
        )
    from importlib.util import find_spec

    entry, line = config.install(where.project, files.interpreter(), record.get("mcp"), warm)
    after = config.approve(after, entry)
    if (
        find_spec("mcp") is None
    ):  # the server would not start: say so now, not in the agent's session
        line += f"\n  note: the MCP SDK is missing here; add it: {files.interpreter()} -m pip install mcp"
    return after, dict(record, mcp=entry), line


def _claude_md(where: files.Target) -> None:
    from sidekit_hooks.cli.mcpserver import config

    mcp = bool(where.project) and config.wired(where.project) is not None
    if not files.add_claude_md(where.claude_md, mcp):
        names_tools = files.CLAUDE_MD_MCP in files._read_text(where.claude_md)  # the block is there
        if mcp and not names_tools:
            # Wired for MCP after the block was written: the block now names the tools too.
            files.remove_claude_md(where.claude_md)
            files.add_claude_md(where.claude_md, mcp)
            print(f"  {where.claude_md}: the sidekit block now names the MCP tools")
            return
        print(f"  {where.claude_md}: the sidekit block is already there")
        return
    # No PATH advice: the SessionStart hook puts `sidekit` on the agent's PATH (core/agentpath.py).
    print(f"  {where.claude_md}: added the sidekit block")
