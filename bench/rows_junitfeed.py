"""A raw `mvn test` feeding the cache (runners/junit/feed.py): what the two hooks of the call cost,
as Claude Code's settings form starts them, against a bare interpreter. PreToolUse writes the call's
marker; PostToolUseFailure claims it and starts the detached worker (which the figure does not
include: nothing waits for it). The worker's reading of the reports is not timed here."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from run import REPO, BenchContext, Row, ratio_row, time_paired

from sidekit_hooks.runners.junit import feed as junit_feed
from testing.hooks import bash, pre_bash

QUICK_BUDGET = 6  # seconds under --quick: two hooks, paired with bare interpreters
COMMAND = "mvn -q test"
UNMARKED = "mvn -q test-compile"  # says "test", runs no test: the hook's path without the marker


def make_project() -> Path:
    project = Path(tempfile.mkdtemp(prefix="sidekit-bench-junitfeed-"))
    (project / ".git").mkdir()
    (project / "pom.xml").write_text("<project/>")
    return project


def rows(ctx: BenchContext) -> list[Row]:
    project = make_project()
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project), SIDEKIT_WORKER_SECONDS="20")
    hooks = os.path.join(REPO, "hooks")
    pre = json.dumps(pre_bash(project, COMMAND)).encode()
    post = json.dumps(bash(project, COMMAND, error="Exit code 1\n[ERROR] BUILD FAILURE")).encode()
    out: list[Row] = []
    try:
        argv = [ctx.python, "-S", os.path.join(hooks, "pre_tool_use.py"), "test"]
        samples, bare = time_paired(argv, ctx, pre, env, str(project))
        out += ratio_row(
            "junitfeed", f"PreToolUse on `{COMMAND}` (marker written)", samples, ctx, None, bare
        )
        unmarked = json.dumps(pre_bash(project, UNMARKED)).encode()
        samples, bare = time_paired(argv, ctx, unmarked, env, str(project))
        out += ratio_row(
            "junitfeed",
            f"PreToolUse on `{UNMARKED}` (no marker: the same path)",
            samples,
            ctx,
            None,
            bare,
        )

        def marked() -> None:
            junit_feed.mark_started(pre_bash(project, COMMAND), ["mvn", "-q", "test"])

        argv = [ctx.python, "-S", os.path.join(hooks, "post_tool_use_failure.py")]
        samples, bare = time_paired(argv, ctx, post, env, str(project), setup=marked)
        out += ratio_row(
            "junitfeed",
            f"PostToolUseFailure on `{COMMAND}` (worker started)",
            samples,
            ctx,
            None,
            bare,
        )
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return out
