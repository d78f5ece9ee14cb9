"""`sidekit queue`: what is pending for a session, oldest first."""

from __future__ import annotations

import argparse

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of, session_of
from sidekit_hooks.core import workspace
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.nudges import delivery, queue

SHOWN = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--session", help="Claude session_id or Gas Town session name")
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    session = session_of(args)
    root = workspace.queue_root(project_of(args))
    try:
        items = queue.pending(root, session)
    except OSError as exc:  # a queue folder linked out of the project, say
        raise SidekitError(f"cannot read the queue: {exc}", "sidekit doctor") from None
    shown = [
        {
            "name": name,
            "priority": nudge.priority if nudge.urgent else None,
            "text": delivery.line_for(nudge),
        }
        for name, nudge in items[:SHOWN]
    ]
    answer = {
        "session": session,
        "pending": len(items),
        "nudges": shown,
        "remainder": len(items) - len(shown),
        "quarantined": len(queue.quarantined(root, session)) or None,
    }  # bad files moved aside, with a reason
    render.emit(answer, args.format)
    return 0
