"""Real Claude Code (#7): what the hooks cost a session in wall time, and what a nudge costs the
model in bytes.

Drives the pinned CLI (tests/e2e) against the scripted model: the same two-tool session with and
without the hooks (settings form, empty queue), and one session with a queued nudge to weigh what
reached the model. Not measured, with a row saying why, when the CLI is not installed.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from run import REPO, BenchContext, Row

sys.path.insert(0, os.path.join(REPO, "tests"))

from testing.claude import (  # noqa: E402 - tests/ is on the path only now
    CACHED_CLI,
    CLI_ENV,
    FINAL_TEXT,
    Run,
    Step,
    ToolCall,
    prompt_reminders,
    run_claude,
    write_settings,
)

QUICK_BUDGET = 4  # seconds: four `claude -p` sessions of about one second each
NUDGE = "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400 (docs/api-spec.md#validation-errors)."


def cli() -> Path | None:
    path = Path(os.environ.get(CLI_ENV) or CACHED_CLI)
    return path if path.is_file() and os.access(path, os.X_OK) else None


def noop_hooks(project: Path) -> None:
    """The same three hook events, each running `true`: Claude Code's own cost of calling a hook."""
    group = {"hooks": [{"type": "command", "command": "true", "timeout": 5}]}
    settings = {
        "hooks": {
            "PostToolUse": [{"matcher": "*", **group}],
            "PostToolUseFailure": [{"matcher": "*", **group}],
            "UserPromptSubmit": [group],
        }
    }
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings))


def session(claude: Path, hooks: str, nudge: str = "") -> tuple[float, Run]:
    """One `claude -p` run (Write, then Bash, then done) in a fresh project and HOME; (seconds,
    run).

    `hooks`: "sidekit" (the settings form), "noop" (`true` for each event) or "none".
    """
    scratch = Path(tempfile.mkdtemp(prefix="sidekit-bench-e2e-"))
    try:
        project = scratch / "proj"
        project.mkdir()
        session_id = str(uuid.uuid4())
        if hooks == "sidekit":
            write_settings(project, sys.executable)
        elif hooks == "noop":
            noop_hooks(project)
        if nudge:
            from sidekit_hooks.core import workspace
            from sidekit_hooks.nudges import queue

            queue.enqueue(workspace.queue_root(str(project)), session_id, queue.Nudge(nudge))
        steps: list[Step] = [
            ToolCall("Write", {"file_path": str(project / "a.py"), "content": "x = 1\n"}),
            ToolCall("Bash", {"command": "ls", "description": "list"}),
            FINAL_TEXT,
        ]
        started = time.perf_counter()
        done = run_claude(
            claude, project, "go", steps, session_id=session_id, home=scratch / "home", timeout=60
        )
        elapsed = time.perf_counter() - started
        if done.returncode != 0 or done.result != FINAL_TEXT:
            raise RuntimeError(f"claude -p exited {done.returncode}: {done.stderr.strip()[-120:]}")
        return elapsed, done
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def rows(ctx: BenchContext) -> list[Row]:
    claude = cli()
    if claude is None:
        return [
            Row(
                "e2e",
                "real Claude Code session",
                "not measured: CLI not installed (bash tests/e2e/install_claude.sh)",
            )
        ]
    out: list[Row] = []
    # Bytes first: the figure that matters most, and one run buys it.
    seconds, done = session(claude, hooks="sidekit", nudge=NUDGE)
    said = prompt_reminders(done.prompt_blocks())
    received = sum(len(text.encode()) for text in said)
    out.append(
        Row(
            "e2e",
            f"a {len(NUDGE.encode())}-byte nudge, as the model received it with the prompt",
            f"{received} bytes (+{received - len(NUDGE.encode())} of Claude Code's wrapper)",
        )
    )
    # Interleaved, so load on the machine falls on all three alike.
    times: dict[str, list[float]] = {"none": [], "noop": [], "sidekit": []}
    rounds = 1 if ctx.quick else 5
    while len(times["sidekit"]) < rounds and (
        not times["sidekit"] or ctx.time_left() > 3.5 * seconds
    ):
        for kind in times:
            elapsed, _ = session(claude, hooks=kind)
            times[kind].append(elapsed)
            seconds = max(seconds, elapsed)
    p50 = {kind: statistics.median(samples) * 1000 for kind, samples in times.items()}
    count = f"{len(times['sidekit'])} run{'s' if len(times['sidekit']) > 1 else ''} each"
    out.append(
        Row(
            "e2e",
            f"session with sidekit's hooks vs no-op hooks (3 hook calls; {count})",
            f"p50 {p50['sidekit'] / p50['noop']:.2f}x ({p50['sidekit']:.0f} vs {p50['noop']:.0f} "
            "ms, "
            f"{p50['sidekit'] - p50['noop']:+.0f} ms)",
        )
    )
    out.append(
        Row(
            "e2e",
            f"session with no-op hooks vs none (Claude Code's own hook cost; {count})",
            f"p50 {p50['noop'] / p50['none']:.2f}x ({p50['noop']:.0f} vs {p50['none']:.0f} ms, "
            f"{p50['noop'] - p50['none']:+.0f} ms)",
        )
    )
    return out
