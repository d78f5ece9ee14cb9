"""Wiring: the hook as `sidekit install` writes it into settings.json (sh -c, pinned interpreter,
marker comment) next to the plugin launcher, and what `sidekit doctor` costs (#2)."""

from __future__ import annotations

import os
import shutil
import statistics

from rows_hooks import edit_payload, make_project, prompt_payload
from run import REPO, BenchContext, Row, ratio_row, time_command

from sidekit_hooks.cli.wiring import settings_merge

QUICK_BUDGET = 3  # seconds under --quick (bench/run.py)


def rows(ctx: BenchContext) -> list[Row]:
    project = make_project()
    env = dict(os.environ, CLAUDE_PROJECT_DIR=project, CLAUDE_PLUGIN_ROOT=REPO)
    hooks = os.path.join(REPO, "hooks")
    post = settings_merge.command_for(ctx.python, os.path.join(hooks, "post_tool_use.py"))
    prompt = settings_merge.command_for(ctx.python, os.path.join(hooks, "user_prompt_submit.py"))
    out: list[Row] = []
    try:
        samples = time_command(["sh", "-c", post], ctx.repeats, edit_payload(project), env, project)
        out += ratio_row("wiring", "PostToolUse on an Edit (settings command)", samples, ctx, 2.5)
        samples = time_command(
            ["sh", "-c", prompt], ctx.repeats, prompt_payload(project), env, project
        )
        out += ratio_row(
            "wiring", "UserPromptSubmit, empty queue (settings command)", samples, ctx, 1.5
        )
        sidekit = [ctx.python, "-m", "sidekit_hooks.cli"]
        time_command([*sidekit, "install", "--project", project], 0, env=env, cwd=REPO)
        doctor = time_command(
            [*sidekit, "doctor", "--project", project], 1 if ctx.quick else 5, env=env, cwd=REPO
        )
        out.append(
            Row(
                "wiring",
                "sidekit doctor (3 live hook probes)",
                f"p50 {statistics.median(doctor) * 1000:.0f} ms",
            )
        )
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return out
