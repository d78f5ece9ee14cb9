"""`sidekit replay TRANSCRIPT.jsonl`: a real Claude Code session through the real hooks, after the
fact.

The session runs in a throw-away copy of the project's sidekit configuration (rule packs, scope), so
replaying never writes into the real project. Files the session wrote or read are recreated from the
transcript as each step comes, so detectors see the disk as the agent left it.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
from typing import Any

from sidekit_hooks.cli.commands._narrate import Summary, step_lines
from sidekit_hooks.cli.commands._shared import ScratchProject
from sidekit_hooks.cli.playback import transcript
from sidekit_hooks.cli.playback.steps import Player, apply_effect
from sidekit_hooks.core.errors import SidekitError

CONFIG = (
    "sidecar_rules",
    os.path.join(".sidekit", "rules"),
    os.path.join(".sidekit", "scope.toml"),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "transcript",
        metavar="TRANSCRIPT.jsonl",
        help="e.g. ~/.claude/projects/<project>/<session>.jsonl",
    )
    parser.add_argument(
        "--project",
        metavar="DIR",
        help="take rule packs and scope from DIR (default: the transcript's cwd)",
    )
    parser.add_argument(
        "--all", action="store_true", help="print every step, not only those where a sidecar spoke"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the throw-away project (its path is printed)"
    )


def run(args: argparse.Namespace) -> int:
    path = os.path.expanduser(args.transcript)
    session = transcript.Transcript()
    events = transcript.stream(
        path, session
    )  # one line at a time: a long session never sits in memory
    try:
        first = next(events, None)
    except OSError as exc:
        raise SidekitError(
            f"cannot read {args.transcript} ({exc.strerror})",
            "pass a transcript file, e.g. ~/.claude/projects/<project>/<session>.jsonl",
        ) from None
    if first is None:
        raise SidekitError(
            f"{args.transcript} holds no prompts or tool calls sidekit can replay",
            "pass a Claude Code session transcript (.jsonl), not a settings or log file",
        )
    with ScratchProject("sidekit-replay-", args.keep) as project:
        source = args.project or session.cwd
        copied = copy_config(source, project) if source and os.path.isdir(source) else []
        print(f"sidekit replay: {args.transcript}")
        print(
            f"throw-away project {project}; configuration from {source or 'nowhere'}: "
            f"{', '.join(copied) or 'none found'}\n"
        )
        summary = Summary()
        # In this process: a subprocess per step made a long session (thousands of calls) take
        # minutes.
        player = Player(project, session.session or "replay", in_process=True)
        for number, event in enumerate(itertools.chain([first], events), 1):
            payload = materialize(rebase(event.payload, session.cwd, project), project)
            result = player.send(event.event_name, payload)
            summary.add(result)
            if args.all or result.nudges or result.suppressed() or result.notices:
                print("\n".join(step_lines(number, result)))
        print("\n" + "\n".join(summary.lines()))
        if session.unanswered or session.skipped:
            print(
                f"(not replayed: {session.unanswered} tool calls without a result, "
                f"{session.skipped} unreadable lines)"
            )
        if args.keep:
            print(f"kept: {project} (`sidekit report --project {project}`)")
    return 0


def copy_config(source: str, project: str) -> list[str]:
    copied = []
    for rel in CONFIG:
        origin = os.path.join(source, rel)
        target = os.path.join(project, rel)
        if os.path.isdir(origin):
            shutil.copytree(origin, target, dirs_exist_ok=True)
        elif os.path.isfile(origin):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(origin, target)
        else:
            continue
        copied.append(rel)
    return copied


def rebase(value: Any, old_root: str, new_root: str) -> Any:
    """Paths under the session's project -> the same paths under the throw-away project."""
    if not old_root:
        return value
    if isinstance(value, str):
        return value.replace(old_root.rstrip("/"), new_root) if old_root in value else value
    if isinstance(value, dict):
        return {key: rebase(item, old_root, new_root) for key, item in value.items()}
    if isinstance(value, list):
        return [rebase(item, old_root, new_root) for item in value]
    return value


def materialize(payload: dict[str, Any], project: str) -> dict[str, Any]:
    """Recreate on disk what the call saw and left: the file before an edit, after it, or as
    read."""
    if payload.get("hook_event_name") != "PostToolUse":
        return payload
    tool = str(payload.get("tool_name", ""))
    tool_input = _dict(payload.get("tool_input"))
    response = _dict(payload.get("tool_response"))
    path = str(tool_input.get("file_path") or "")
    if not path or not _inside(path, project):
        return payload
    if tool in ("Edit", "Write"):
        original = response.get("originalFile")
        if isinstance(original, str):
            _write(path, original)
        apply_effect(project, tool, tool_input)
    elif tool == "Read" and not os.path.exists(path):
        file = _dict(response.get("file"))
        if isinstance(file.get("content"), str) and file.get("numLines") == file.get("totalLines"):
            _write(path, file["content"])
    return payload


def _inside(path: str, project: str) -> bool:
    return os.path.normpath(path).startswith(os.path.normpath(project) + os.sep)


def _write(path: str, content: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(content)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
