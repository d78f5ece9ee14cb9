"""What an export costs a hook (#31 Deliver 8): each of the seven events with the user's endpoint
(collector up) and with a repository's untrusted endpoint, as a ratio of the same hook with no
export, timed in turn (none, user's, repository's; again and again) so the shared machine's load
falls on all three alike.

The export is the detached worker's business: a configured hook only logs its timing (and Stop
starts the worker). A ratio above the target means a hook waits on the export; the tests
(tests/telemetry) check that no hook touches the network, these rows that none is slowed.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from rows_fleets import Collector
from run import REPO, BenchContext, Row, time_command

from sidekit_hooks.pipeline.hook_events import EVENTS
from testing.hooks import bash, edited, payload, pre_bash
from testing.listener import wait_for_workers

QUICK_BUDGET = 15
# configured / none, paired p50: a hook that waited on a collector would be many times slower
TARGET = 1.5
APP = "def total(xs):\n    return sum(xs)\n"


def bodies(project: Path) -> dict[str, bytes]:
    """One payload per event, as in tests/telemetry: each event's sidecars have something to look
    at."""
    (project / "src").mkdir(exist_ok=True)
    found = {
        "SessionStart": payload("SessionStart", project, source="startup"),
        "UserPromptSubmit": payload("UserPromptSubmit", project, prompt="fix the failing test"),
        "PreToolUse": pre_bash(project, "python -m pytest -q tests"),
        "PostToolUse": edited(project, "src/app.py", "sum(xs)", "sum(xs) + 0", APP),
        "PostToolUseFailure": bash(
            project, "python -m pytest -q", error="Exit code 1\nE   assert 1 == 2"
        ),
        "SubagentStop": payload(
            "SubagentStop", project, agent_id="agent-1", stop_hook_active=False
        ),
        "Stop": payload("Stop", project, stop_hook_active=False),
    }
    return {event: json.dumps(body).encode() for event, body in found.items()}


def event_rows(ctx: BenchContext, collector: Collector) -> list[Row]:
    home = tempfile.mkdtemp(prefix="sidekit-bench-export-")
    project = Path(home) / "proj"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        f'[tool.sidekit]\notel-endpoint = "{collector.endpoint}"\n'
    )
    subprocess.run(["git", "init", "-q", str(project)], check=False)
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SIDEKIT_OTEL", "CLAUDE_PLUGIN_OPTION"))
    }
    base.update(CLAUDE_PROJECT_DIR=str(project), XDG_CONFIG_HOME=os.path.join(home, "xdg"))
    arms = {
        "none": dict(base, CLAUDE_PROJECT_DIR=os.path.join(home, "plain")),
        "user": dict(base, SIDEKIT_OTEL_ENDPOINT=collector.endpoint),
        "repository": base,  # the same project, its committed endpoint untrusted
    }
    os.makedirs(arms["none"]["CLAUDE_PROJECT_DIR"])
    # a worker a Stop started ends before the next sample
    settle = lambda: wait_for_workers(home, 30)  # noqa: E731
    out: list[Row] = []
    try:
        for event, body in bodies(project).items():
            if ctx.time_left() < 3:
                out.append(Row("export", f"{event}: stopped (section budget)", "not measured"))
                continue
            argv = [ctx.python, "-S", os.path.join(REPO, "hooks", f"{EVENTS[event].script}.py")]
            samples: dict[str, list[float]] = {arm: [] for arm in arms}
            for _ in range(ctx.repeats):
                for arm, env in arms.items():
                    cwd = env["CLAUDE_PROJECT_DIR"]
                    samples[arm] += time_command(
                        argv, 1, body.replace(str(project).encode(), cwd.encode()), env, cwd, settle
                    )
            plain = statistics.median(samples["none"])
            user, repo = (statistics.median(samples[arm]) / plain for arm in ("user", "repository"))
            out.append(
                Row(
                    "export",
                    f"{event}: user's endpoint / none; repository's endpoint (untrusted) / none "
                    "(paired p50)",
                    f"{user:.2f}x; {repo:.2f}x ({plain * 1000:.1f} ms)",
                    f"<= {TARGET}x",
                    "ok" if max(user, repo) <= TARGET else "MISS",
                )
            )
    finally:
        settle()
        shutil.rmtree(home, ignore_errors=True)
    return out


def rows(ctx: BenchContext) -> list[Row]:
    collector = Collector()
    try:
        return event_rows(ctx, collector)
    finally:
        collector.close()
