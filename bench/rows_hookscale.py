"""A hook's cost does not grow with the repository (#23): the first Edit after a red run, on toolz
(a small package) and Django (about 2,800 .py files), both sdists fetched at run time.

Before #23 the tests sidecar opened the code index (a walk and a stat of the whole tree) and built
the import graph inside PostToolUse: 19.9x a bare interpreter on Django. Now a hook reads only the
answer kept for the red run (`.sidekit/code/tests-reaching.json`) or hands the event to the
background (sidekit_hooks/pipeline/finish.py). Rows give the hook's own CPU (detached workers are
not its children) as a multiple of a bare interpreter's, measured in turn with it, and the
Django/toolz ratio.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import sdist
from run import REPO, BenchContext, Row

from testing.hooks import as_stdin, edit

QUICK_BUDGET = 10  # seconds: toolz only (Django's fetch, red run and index take about 40 s more)
PROJECTS = (
    ("toolz", "1.0.0", "toolz/itertoolz.py", "toolz.itertoolz"),
    ("Django", "5.1.4", "django/utils/text.py", "django.utils.text"),
)
SESSION = "bench-hookscale"
RED_TEST = "test_sidekit_bench_red.py"
# As the hooks warm them: the tests sidecar's import index (and the red run's answer), the tools
# sidecar's index.
WARM_UPS = (
    ("sidekit_hooks.detectors.tests", "build-index"),
    ("sidekit_hooks.code.functions", "build"),
)
SCALE_TARGET = 1.5  # Django's hook CPU at most this multiple of toolz's


def clean_env(project: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "CLAUDE_", "SIDEKIT_", "GT_", "TMUX"))
    }
    return dict(env, CLAUDE_PROJECT_DIR=project)


def make_red(ctx: BenchContext, project: str, module: str) -> None:
    """A real red run: one failing test that imports the module the edit will touch."""
    with open(os.path.join(project, RED_TEST), "w", encoding="utf-8") as handle:
        handle.write(
            f"import {module}\n\n\ndef test_red():\n    assert {module}.__name__ == 'nope'\n"
        )
    subprocess.run(
        [ctx.python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", RED_TEST],
        cwd=project,
        env=dict(clean_env(project), PYTHONPATH=project),
        capture_output=True,
        timeout=300,
    )
    if not os.path.exists(os.path.join(project, ".sidekit", "status.json")):
        raise RuntimeError(f"no red cache in {os.path.basename(project)}")


def cpu_of(
    argv: list[str], stdin: bytes = b"", env: dict[str, str] | None = None, cwd: str | None = None
) -> tuple[float, bytes]:
    """(CPU seconds of one run of `argv`: its own, not that of detached workers it starts; its
    stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        argv, input=stdin, capture_output=True, env=env, cwd=cwd, check=False, timeout=60
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done.stdout


def settle(project: str, seconds: float = 120) -> None:
    """Wait for the background workers the hooks started (so they do not load the next sample)."""
    code = os.path.join(project, ".sidekit", "code", "index-build.lock")
    later = os.path.join(project, ".sidekit", "later")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (
        os.path.exists(code) or (os.path.isdir(later) and os.listdir(later))
    ):
        time.sleep(0.1)


def measure(
    ctx: BenchContext, project: str, rel: str, hooks: str, fresh: bool, repeats: int
) -> tuple[float, float, int]:
    """(median hook CPU, median bare CPU, samples whose hook named the failing test), taken in turn.
    `fresh`: the red run's answer removed first."""
    argv = [ctx.python, "-S", os.path.join(hooks, "post_tool_use.py")]
    memo = os.path.join(project, ".sidekit", "code", "tests-reaching.json")
    state = os.path.join(project, ".sidekit", "state")
    hook, bare = [], []
    said = 0
    change = as_stdin(
        edit(Path(project), rel, "x", "y", session=SESSION, tool_use_id="toolu_bench")
    )
    for index in range(repeats + 1):
        shutil.rmtree(state, ignore_errors=True)  # the policy's memory: each sample is a first edit
        if fresh and os.path.exists(memo):
            os.remove(memo)
        cpu, stdout = cpu_of(argv, change, clean_env(project), project)
        settle(project)
        base, _ = cpu_of([ctx.python, "-c", "pass"])
        if index:
            hook.append(cpu)
            bare.append(base)
            said += RED_TEST.encode() in stdout
    return statistics.median(hook), statistics.median(bare), said


def prepared(ctx: BenchContext, work: str) -> Iterator[tuple[str, str, str]]:
    """(name, project, edited file) for each project, red, its index and the red run's answer built;
    each measured before the next is fetched (--quick: toolz only, so its rows come first and
    alone)."""
    for name, version, rel, module in PROJECTS[:1] if ctx.quick else PROJECTS:
        project = sdist.fetch(ctx.python, f"{name}=={version}", work)
        make_red(ctx, project, module)
        for warm_up in WARM_UPS:
            argv = [ctx.python, "-m", *warm_up, project]
            subprocess.run(argv, cwd=REPO, env=clean_env(project), capture_output=True, timeout=900)
        yield name, project, rel


def rows(ctx: BenchContext, hooks: str = "") -> list[Row]:
    hooks = hooks or os.path.join(REPO, "hooks")
    work = tempfile.mkdtemp(prefix="sidekit-bench-hookscale-")
    repeats = 3 if ctx.quick else 15
    out: list[Row] = []
    try:
        projects = prepared(ctx, work)
        figures: dict[tuple[str, bool], float] = {}
        for name, project, rel in projects:
            files = sum(f.endswith(".py") for _, _, names in os.walk(project) for f in names)
            for fresh in (True, False):
                hook, bare, said = measure(ctx, project, rel, hooks, fresh, repeats)
                figures[(name, fresh)] = hook
                what = (
                    "first Edit after a red run, its import answer not kept yet (handed to the "
                    "background)"
                    if fresh
                    else "an Edit after a red run, its import answer kept"
                )
                # Fresh: each sample's finding is finished in the background and goes out with the
                # next call.
                named = "at the next call" if fresh else "at once"
                out.append(
                    Row(
                        "hookscale",
                        f"{name} ({files} .py files): {what}",
                        f"CPU {hook / bare:.2f}x a bare interpreter ({hook * 1000:.0f} ms; bare "
                        f"{bare * 1000:.0f} ms); the failing test named {named} in "
                        f"{said}/{repeats}",
                    )
                )
        if ctx.quick:
            out.append(
                Row(
                    "hookscale",
                    "Django, and Django / toolz",
                    "measured in a full run only (--quick: toolz)",
                )
            )
        for fresh in (True, False) if ("Django", True) in figures else ():
            scale = figures[("Django", fresh)] / figures[("toolz", fresh)]
            what = "first Edit after a red run" if fresh else "an Edit after a red run, answer kept"
            out.append(
                Row(
                    "hookscale",
                    f"Django / toolz, {what}",
                    f"CPU {scale:.2f}x",
                    f"<= {SCALE_TARGET}x",
                    "ok" if scale <= SCALE_TARGET else "MISS",
                )
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out
