"""`sidekit nudge`: queue a message for a session, exactly as `gt nudge --mode queue` would."""

from __future__ import annotations

import argparse
from datetime import timedelta

from sidekit_hooks.cli.commands._shared import add_project, project_of, session_of
from sidekit_hooks.core import workspace
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.nudges import queue


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("message", nargs="+", help="the text the agent will see")
    parser.add_argument("--session", help="Claude session_id or Gas Town session name")
    parser.add_argument("--sender", default="sidekit", help="who is speaking (shown as [from SENDER])")
    parser.add_argument("--priority", choices=("normal", "urgent"), default="normal")
    parser.add_argument("--ttl", help="time to live, e.g. 30m, 2h (default 30m; urgent 2h)")
    parser.add_argument("--after", help="deliver no earlier than this from now, e.g. 90s")
    add_project(parser)


def run(args: argparse.Namespace) -> int:
    session = session_of(args)
    text = " ".join(args.message).strip()
    if not text:
        raise SidekitError("the message is empty", 'sidekit nudge --session S "what the agent should know"')
    nudge = queue.Nudge(text, sender=args.sender, priority=args.priority)
    try:
        if args.ttl:
            nudge.expires_at = nudge.timestamp + timedelta(seconds=queue.parse_ttl(args.ttl))
        if args.after:
            nudge.deliver_after = nudge.timestamp + timedelta(seconds=queue.parse_ttl(args.after))
    except ValueError:
        raise SidekitError(f"cannot read the duration {args.ttl or args.after!r}", "use e.g. --ttl 30m") from None
    root = workspace.queue_root(project_of(args))
    path = queue.enqueue(root, session, nudge)
    print(path)
    return 0
