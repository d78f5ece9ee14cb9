"""Hook latency: the hook as Claude Code runs it, against a bare interpreter of the same venv
(#2)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

from run import REPO, BenchContext, Row, ratio_row, time_paired

from testing.hooks import as_stdin, edit, payload

QUICK_BUDGET = 3  # seconds under --quick (bench/run.py)

SESSION = "bench-session"
MOD_PATCH = [
    {
        "oldStart": 1,
        "oldLines": 2,
        "newStart": 1,
        "newLines": 2,
        "lines": [" def f():", "-    return 1", "+    return 2"],
    }
]


def edit_payload(project: str, rel: str = "pkg/mod.py", session: str = SESSION) -> bytes:
    """The bench's Edit of `rel` (`return 1` -> `return 2`); rows_rules, rows_install and
    rows_sidecars send it too."""
    return as_stdin(
        edit(
            Path(project),
            rel,
            "return 1",
            "return 2",
            "def f():\n    return 1\n",
            session,
            patch=MOD_PATCH,
            tool_use_id="toolu_bench",
        )
    )


def prompt_payload(project: str) -> bytes:
    return as_stdin(
        payload("UserPromptSubmit", Path(project), session_id=SESSION, prompt="carry on")
    )


def make_project() -> str:
    project = tempfile.mkdtemp(prefix="sidekit-bench-")
    os.makedirs(os.path.join(project, "pkg"))
    with open(os.path.join(project, "pkg", "mod.py"), "w") as handle:
        handle.write("def f():\n    return 2\n")
    return project


def queue_five(ctx: BenchContext, project: str) -> None:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from sidekit_hooks.nudges import queue; from sidekit_hooks.core import workspace;"
        "[queue.enqueue(workspace.queue_root(sys.argv[2]), sys.argv[3], "
        "queue.Nudge(f'[sidecar:scope] nudge {i}')) for i in range(5)]"
    )
    subprocess.run([sys.executable, "-c", code, REPO, project, SESSION], check=True)


# what a queued finding carries so its delivery can tell it still holds (nudges/recheck.py)
RECHECKED = [
    {"kind": "scope", "path": "pkg/mod.py", "before": "absent"},
    {
        "kind": "match",
        "path": "pkg/mod.py",
        "pattern": "return 2",
        "digest": f"{zlib.crc32(b'return 2'):08x}",
    },
    {"kind": "def", "path": "pkg/mod.py", "symbol": "f"},
    {
        "kind": "tests",
        "path": "pkg/mod.py",
        "generation": "7",
        "tests": "tests/test_mod.py::test_f",
    },
    {
        "kind": "tests",
        "path": "",
        "generation": "6",
        "tests": "",
    },  # an older run's report: dropped as moot
]


def queue_five_rechecked(ctx: BenchContext, project: str) -> None:
    """Five findings queued by an earlier call, each with its re-check (the last one no longer
    true)."""
    cache = {
        "format": 1,
        "generation": 7,
        "failing": 1,
        "moreClusters": 0,
        "clusters": [{"id": "c1", "tests": ["tests/test_mod.py::test_f"]}],
        "files": {},
    }
    with open(os.path.join(project, ".sidekit", "status.json"), "w") as handle:
        json.dump(cache, handle)
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]);"
        "from sidekit_hooks.nudges import queue; from sidekit_hooks.core import workspace;"
        "[queue.enqueue(workspace.queue_root(sys.argv[2]), sys.argv[3], "
        "queue.Nudge(f'[sidecar:scope] nudge {i}', "
        "extra={'sidecar': 'scope', 'finding': f'k{i}', 'recheck': json.dumps(r)})) "
        "for i, r in enumerate(json.loads(sys.argv[4]))]"
    )
    subprocess.run(
        [sys.executable, "-c", code, REPO, project, SESSION, json.dumps(RECHECKED)], check=True
    )


ROUND_TRIP = """
import sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from sidekit_hooks.nudges import delivery, queue
root, rounds = tempfile.mkdtemp(), int(sys.argv[2])
def nudge():
    return queue.Nudge("[sidecar:scope] auth/x.py is outside this task's scope", sender="sidekit/scope",
                       extra={"sidecar": "scope"})
start = time.perf_counter()
for _ in range(rounds):
    queue.enqueue(root, "s", nudge())
    text, delivered, left = delivery.plan(queue.claim(root, "s"))
    queue.commit(delivered)
through = (time.perf_counter() - start) / rounds
start = time.perf_counter()
for _ in range(rounds):
    queue.claim(root, "s")  # the drain still looks at the (empty) queue
    delivery.line_for(nudge())
print(through * 1000, (time.perf_counter() - start) / rounds * 1000)
"""


def queue_round_trip(ctx: BenchContext) -> list[Row]:
    """What a finding of this very event pays for going through the queue instead of straight
    out."""
    rounds = 100 if ctx.quick else 1000
    done = subprocess.run(
        [ctx.python, "-c", ROUND_TRIP, REPO, str(rounds)],
        capture_output=True,
        text=True,
        check=True,
    )
    through, direct = (float(x) for x in done.stdout.split())
    return [
        Row(
            "hooks",
            "one finding through the queue (enqueue, claim, plan, commit) vs straight out, "
            "in-process",
            f"{through:.3f} ms vs {direct:.3f} ms",
        )
    ]


def rows(ctx: BenchContext) -> list[Row]:
    project = make_project()
    env = dict(os.environ, CLAUDE_PROJECT_DIR=project, CLAUDE_PLUGIN_ROOT=REPO)
    hooks = os.path.join(REPO, "hooks")
    post = ["sh", "-c", f'"{hooks}/run" post_tool_use']
    prompt = ["sh", "-c", f'"{hooks}/run" user_prompt_submit']
    out: list[Row] = []
    try:
        # Each sample is paired with a bare-interpreter run taken just before it (a shared machine's
        # load varies).
        samples, bare = time_paired(post, ctx, edit_payload(project), env, project)
        out += ratio_row(
            "hooks", "PostToolUse on an Edit (plugin command)", samples, ctx, 2.5, bare
        )
        settings_form = [
            ctx.python,
            "-S",
            os.path.join(hooks, "post_tool_use.py"),
        ]  # what `sidekit install` writes
        samples, bare = time_paired(settings_form, ctx, edit_payload(project), env, project)
        out += ratio_row(
            "hooks", "PostToolUse on an Edit (settings command)", samples, ctx, 2.5, bare
        )
        samples, bare = time_paired(prompt, ctx, prompt_payload(project), env, project)
        out += ratio_row("hooks", "UserPromptSubmit, empty queue", samples, ctx, 1.5, bare)
        samples, bare = time_paired(
            prompt,
            ctx,
            prompt_payload(project),
            env,
            project,
            setup=lambda: queue_five(ctx, project),
        )
        out += ratio_row("hooks", "UserPromptSubmit, five queued nudges", samples, ctx, None, bare)
        os.makedirs(os.path.join(project, ".sidekit"), exist_ok=True)
        samples, bare = time_paired(
            prompt,
            ctx,
            prompt_payload(project),
            env,
            project,
            setup=lambda: queue_five_rechecked(ctx, project),
        )
        out += ratio_row(
            "hooks",
            "UserPromptSubmit, five queued findings re-checked at delivery (#18)",
            samples,
            ctx,
            None,
            bare,
        )
        out += queue_round_trip(ctx)
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return out
