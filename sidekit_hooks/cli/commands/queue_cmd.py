"""`sidekit queue`: what is pending for a session, oldest first."""

from __future__ import annotations

import argparse

from sidekit_hooks.cli import answers
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of, session_of
from sidekit_hooks.core import workspace
from sidekit_hooks.nudges import delivery, queue

SHOWN = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--session", help="Claude session_id or Gas Town session name")
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    session = session_of(args)
    items = queue.pending(workspace.queue_root(project_of(args)), session)
    shown = [
        {"name": name, "priority": nudge.priority if nudge.urgent else None, "text": delivery.line_for(nudge)}
        for name, nudge in items[:SHOWN]
    ]
    answer = {"session": session, "pending": len(items), "nudges": shown, "remainder": len(items) - len(shown)}
    answers.emit(answer, args.format)
    return 0
