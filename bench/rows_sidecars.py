"""Hook latency with the scope sidecar and the policy at work (#4), against a bare interpreter."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rows_hooks import edit_payload
from run import REPO, BenchContext, Row, ratio_row, time_command, time_paired

from testing.hooks import as_stdin, bash

QUICK_BUDGET = 3  # seconds under --quick (bench/run.py)

SESSION = "bench-sidecars"


def make_project() -> str:
    project = tempfile.mkdtemp(prefix="sidekit-bench-sidecars-")
    for rel in ("api/handlers/user.py", "auth/middleware.py"):
        os.makedirs(os.path.dirname(os.path.join(project, rel)), exist_ok=True)
        with open(os.path.join(project, rel), "w") as handle:
            handle.write("def f():\n    return 2\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sidekit_hooks.cli",
            "scope",
            "set",
            "--issue",
            "gt-1",
            "--allow",
            "api/handlers/**",
            "tests/**",
            "--project",
            project,
        ],
        check=True,
        capture_output=True,
        cwd=REPO,
    )
    return project


def arm_every_sidecar(ctx: BenchContext, project: str) -> None:
    """A team pack (`sidekit rules new`), a red test cache, the function index and learned
    conventions, on top of the scope."""

    def write(rel: str, text: str) -> None:
        os.makedirs(os.path.dirname(os.path.join(project, rel)), exist_ok=True)
        with open(os.path.join(project, rel), "w") as handle:
            handle.write(text)

    write("api/__init__.py", "")
    for i in range(12):
        write(
            f"api/handlers/m{i}.py",
            f"import logging\n\n\ndef helper_{i}(value: int) -> int:\n    return value + {i}\n\n\n"
            f"class Thing{i}:\n    pass\n",
        )
        write(
            f"tests/test_m{i}.py",
            f"from api.handlers.m{i} import helper_{i}\n\n\ndef test_helper_{i}():\n"
            f"    assert helper_{i}(1) == {i + (0 if i else 2)}\n",
        )
    sidekit = [ctx.python, "-m", "sidekit_hooks.cli"]
    subprocess.run(
        [*sidekit, "rules", "new", "team", "--project", project],
        check=True,
        capture_output=True,
        cwd=REPO,
    )
    subprocess.run(
        [*sidekit, "conventions", "learn", "--project", project],
        check=True,
        capture_output=True,
        cwd=REPO,
    )
    subprocess.run(
        [ctx.python, "-m", "pytest", "-q", "tests"],
        capture_output=True,
        cwd=project,
        env=dict(os.environ, PYTHONPATH=project),
    )  # red: test_m0 fails
    subprocess.run(
        [ctx.python, "-m", "sidekit_hooks.code.functions", "build", project],
        check=True,
        capture_output=True,
        cwd=REPO,
    )


def rows(ctx: BenchContext) -> list[Row]:
    project = make_project()
    env = dict(os.environ, CLAUDE_PROJECT_DIR=project, CLAUDE_PLUGIN_ROOT=REPO)
    for name in ("GT_TOWN_ROOT", "GT_ROOT", "TMUX_PANE", "GT_SESSION"):
        env.pop(name, None)
    post = ["sh", "-c", f'"{os.path.join(REPO, "hooks")}/run" post_tool_use']
    state = os.path.join(project, ".sidekit", "state")
    out: list[Row] = []
    try:
        samples = time_command(
            post, ctx.repeats, edit_payload(project, "api/handlers/user.py", SESSION), env, project
        )
        out += ratio_row(
            "sidecars",
            "PostToolUse, Edit inside a scope (all sidecars on, nothing said)",
            samples,
            ctx,
            2.5,
        )
        samples = time_command(
            post,
            ctx.repeats,
            edit_payload(project, "auth/middleware.py", SESSION),
            env,
            project,
            setup=lambda: shutil.rmtree(state, ignore_errors=True),
        )
        out += ratio_row(
            "sidecars",
            "PostToolUse, Edit outside the scope (policy + queue + delivery)",
            samples,
            ctx,
            None,
        )
        samples = time_command(
            post, ctx.repeats, edit_payload(project, "auth/middleware.py", SESSION), env, project
        )
        out += ratio_row(
            "sidecars",
            "PostToolUse, the same finding again (held back: duplicate)",
            samples,
            ctx,
            2.5,
        )
        piped = as_stdin(
            bash(Path(project), "git status --short && ls api | tee /tmp/x", session=SESSION)
        )
        samples = time_command(post, ctx.repeats, piped, env, project)
        out += ratio_row(
            "sidecars", "PostToolUse, Bash inside a scope (write targets parsed)", samples, ctx, 2.5
        )
        arm_every_sidecar(ctx, project)
        samples, bare = time_paired(
            post, ctx, edit_payload(project, "api/handlers/user.py", SESSION), env, project
        )
        out += ratio_row(
            "sidecars",
            "PostToolUse, Edit with every sidecar armed (scope, pack, red cache, functions, "
            "conventions)",
            samples,
            ctx,
            None,
            bare,
            isolated_target=2.5,
        )
        memo = os.path.join(project, ".sidekit", "code", "tests-reaching.json")
        samples, bare = time_paired(
            post,
            ctx,
            edit_payload(project, "api/handlers/user.py", SESSION),
            env,
            project,
            setup=lambda: os.path.exists(memo) and os.remove(memo),
        )
        out += ratio_row(
            "sidecars",
            "the same, first edit of that file since the red run (answer not kept yet: handed to "
            "the background)",
            samples,
            ctx,
            None,
            bare,
        )
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return out
