"""`sidekit demo`: a scripted agent session through the real hooks, in a throw-away repo.

Each step prints the tool call, what the agent would have been told, by which sidecar and rule, and
what the policy held back (and why). Steps whose sidecar is not in this build say so instead.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from importlib import resources
from typing import Any

from sidekit_hooks import detectors
from sidekit_hooks.cli.commands._narrate import Summary, step_lines
from sidekit_hooks.cli.commands._shared import ScratchProject
from sidekit_hooks.cli.playback.steps import Player, write_files

SESSION = "sidekit-demo"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keep", action="store_true", help="keep the throw-away repo (its path is printed)"
    )


def load_script() -> list[dict[str, Any]]:
    text = (
        resources.files("sidekit_hooks.cli.demo")
        .joinpath("session.jsonl")
        .read_text(encoding="utf-8")
    )
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def run(args: argparse.Namespace) -> int:
    with ScratchProject("sidekit-demo-", args.keep) as project:
        play(project, load_script(), print)
        if args.keep:
            print(
                f"\nThe repo is kept at {project}; `sidekit report --project {project}` sums up "
                "the decisions."
            )
    return 0


def play(project: str, script: list[dict[str, Any]], say: Any) -> Summary:
    """Run the script in `project`, printing through `say`; return the summary."""
    # The scripted calls return a few lines each: the demo shows what the sidecars say and the
    # policy decides, without the budget a real session's output pays for (docs/policy.md; `sidekit
    # replay` keeps it).
    player = Player(project, SESSION, budget=False)
    summary = Summary()
    say(f"sidekit demo: a scripted agent session in a throw-away repo ({project})")
    say("Every tool call goes through the real hook entry points, as Claude Code would run them.\n")
    number = 0
    for step in script:
        if "files" in step:
            write_files(project, step["files"])
            subprocess.run(["git", "init", "-q", project], capture_output=True, check=False)
        if "sidekit" in step:
            say(f"  $ sidekit {shlex.join(step['sidekit'])}")
            argv = [
                sys.executable,
                "-P",
                "-m",
                "sidekit_hooks.cli",
                *step["sidekit"],
                "--project",
                project,
            ]
            done = subprocess.run(argv, capture_output=True, text=True, check=False)
            say(f"    {(done.stdout or done.stderr).strip()}")
        if "tool" not in step and "prompt" not in step:
            if step.get("say") and "files" in step:
                say(f"  {step['say']}")
            continue
        number += 1
        result = player.play(step)
        summary.add(result)
        lines = step_lines(number, result, str(step.get("say", "")))
        needs = step.get("needs")
        if needs and needs not in detectors.REGISTRY:
            lines.append(
                f"     (this step needs the `{needs}` sidecar, which is not in this build yet)"
            )
        say("\n".join(lines))
    say("\n" + "\n".join(summary.lines()))
    return summary
