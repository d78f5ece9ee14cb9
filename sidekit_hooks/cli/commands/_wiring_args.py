"""The scope flags `sidekit install` and `sidekit uninstall` share."""

from __future__ import annotations

import argparse

from sidekit_hooks.cli.wiring import files


def add_scope(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--project",
        metavar="DIR",
        default=None,
        help="the project whose .claude/settings.json to edit (default: $CLAUDE_PROJECT_DIR or "
        "the cwd)",
    )
    where.add_argument(
        "--user", action="store_true", help="edit ~/.claude/settings.json (every project)"
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="edit .claude/settings.local.json (yours only, not committed) instead",
    )
    parser.add_argument(
        "--claude-md",
        action="store_true",
        help="also the block in CLAUDE.md telling the agent when to use sidekit answers",
    )
    parser.add_argument(
        "--mcp",
        action="store_true",
        help="also the `sidekit mcp` server in the project's .mcp.json, approved in the settings "
        "(uninstall takes it out whenever install put it in)",
    )


def target(args: argparse.Namespace) -> files.Target:
    return files.target_of(args.project, args.user, args.local)
