"""`sidekit nudge`: queue a message for a session, exactly as `gt nudge --mode queue` would."""

from __future__ import annotations

import argparse
import sys
from datetime import timedelta

from sidekit_hooks.cli.commands._shared import add_project, project_of, session_of
from sidekit_hooks.core import hooklog, workspace
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.nudges import queue


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("message", nargs="+", help="the text the agent will see")
    parser.add_argument("--session", help="Claude session_id or Gas Town session name")
    parser.add_argument(
        "--sender", default="sidekit", help="who is speaking (shown as [from SENDER])"
    )
    parser.add_argument("--priority", choices=("normal", "urgent"), default="normal")
    parser.add_argument("--ttl", help="time to live, e.g. 30m, 2h (default 30m; urgent 2h)")
    parser.add_argument("--after", help="deliver no earlier than this from now, e.g. 90s")
    add_project(parser)


def run(args: argparse.Namespace) -> int:
    session = session_of(args)
    text = " ".join(args.message).strip()
    if not text:
        raise SidekitError(
            "the message is empty", 'sidekit nudge --session S "what the agent should know"'
        )
    nudge = queue.Nudge(text, sender=args.sender, priority=args.priority)
    if args.ttl:
        nudge.expires_at = nudge.timestamp + _duration("--ttl", args.ttl)
    if args.after:
        nudge.deliver_after = nudge.timestamp + _duration("--after", args.after)
    project = project_of(args)
    root = workspace.queue_root(project)
    dropped: list[str] = []

    def on_drop(name: str, old: queue.Nudge) -> None:
        dropped.append(name)
        hooklog.error(
            project,
            "nudge",
            "queue-cap",
            f"dropped {name} from {old.sender}: queue over {queue.MAX_DEPTH}",
        )
        print(
            f"sidekit nudge: the queue holds at most {queue.MAX_DEPTH}; dropped the oldest "
            f"({name} from {old.sender})",
            file=sys.stderr,
        )

    try:
        path = queue.enqueue(root, session, nudge, on_drop=on_drop)
    except OSError as exc:
        raise SidekitError(
            f"cannot queue the nudge: {exc}", f"sidekit doctor --project {project}"
        ) from None
    print(path)
    return 0


def _duration(flag: str, text: str) -> timedelta:
    try:
        return timedelta(seconds=queue.parse_ttl(text))
    except (ValueError, OverflowError):
        raise SidekitError(
            f"cannot read the duration {flag} {text!r} (at most {queue.MAX_TTL // 86400} days)",
            f"write e.g. {flag} 30m, 2h or 1d",
        ) from None
