"""Code navigation and test impact on real third-party projects (#6).

The projects (sdists from the package index, with their tests) are downloaded at run time into a
temporary folder and never committed. Rows: cold index, warm `usages` against its 150 ms target
(wall, with the CPU time beside it: on a busy machine wall time is mostly waiting), answer bytes
against `grep -rn` for the same name, and one planted bug in more-itertools: what `sidekit select`
picks (with its map) against pytest-testmon (installed into a throw-away venv) on the same change,
and against the full suite.
"""

from __future__ import annotations

import ast
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time

import sdist
from run import REPO, BenchContext, Row

PROJECT = "more-itertools"
VERSION = "10.5.0"
PLANT_IN = ("more_itertools/more.py", "chunked")  # the function whose body gets the bug
BUG = "iterable = list(iterable)[1:]"  # drops the first item: every caller sees wrong chunks
# (project, version, names): for each, a name with some uses and one used all over the project.
NAVIGATED = (
    (PROJECT, VERSION, ("chunked", "islice")),
    ("pytest", "8.3.3", ("getoption", "config")),
)
USAGES_TARGET_MS = 150
SECTION = "code"
QUICK_BUDGET = 5  # seconds under --quick (bench/run.py): one sdist fetched, indexed and queried


def _run(
    argv: list[str], cwd: str, env: dict[str, str], timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def timed(
    argv: list[str], repeats: int, env: dict[str, str], cwd: str
) -> tuple[list[float], list[float]]:
    """(wall seconds, CPU seconds of the child) for `repeats` runs after one warm-up run."""
    walls, cpus = [], []
    for index in range(repeats + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, env=env, cwd=cwd, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if index:
            walls.append(wall)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def plant(project: str) -> None:
    """Insert the bug as the first statement of the function's body (after its docstring)."""
    path = os.path.join(project, PLANT_IN[0])
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines(keepends=True)
    tree = ast.parse("".join(lines))
    function = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == PLANT_IN[1]
    )
    first = function.body[1] if isinstance(function.body[0], ast.Expr) else function.body[0]
    indent = " " * first.col_offset
    lines.insert(first.lineno - 1, f"{indent}{BUG}\n")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("".join(lines))


def counts(output: str) -> dict[str, int]:
    """pytest's final tally: {"passed": n, "failed": n, "deselected": n, ...}."""
    tally: dict[str, int] = {}
    for number, word in re.findall(
        r"(\d+) (passed|failed|deselected|errors?|skipped|xfailed)", output
    ):
        tally[word.rstrip("s") if word.startswith("error") else word] = int(number)
    return tally


def failed_ids(output: str) -> set[str]:
    return set(re.findall(r"^(?:FAILED|ERROR) (\S+)", output, re.MULTILINE))


def sidekit(ctx: BenchContext, project: str, env: dict[str, str], *args: str) -> tuple[str, float]:
    start = time.perf_counter()
    done = _run(
        [ctx.python, "-m", "sidekit_hooks.cli", args[0], "--project", project, *args[1:]],
        project,
        env,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"sidekit {' '.join(args)}: {done.stderr.strip()[-200:]}")
    return done.stdout.strip(), elapsed


def navigation_rows(
    ctx: BenchContext, project: str, env: dict[str, str], names: tuple[str, ...]
) -> list[Row]:
    out: list[Row] = []
    label = os.path.basename(project)
    _, cold = sidekit(ctx, project, env, "symbol", names[0])
    files = json.loads(sidekit(ctx, project, env, "symbol", names[0])[0])["searched"]
    out.append(
        Row(SECTION, f"{label}: cold index + symbol ({files} files)", f"{cold * 1000:.0f} ms")
    )
    argv = [ctx.python, "-m", "sidekit_hooks.cli", "usages", names[1], "--project", project]
    walls, cpus = timed(argv, ctx.repeats, env, project)
    p50 = statistics.median(walls) * 1000
    out.append(
        Row(
            SECTION,
            f"{label}: warm usages {names[1]} (whole command)",
            f"p50 {p50:.0f} ms wall, {statistics.median(cpus) * 1000:.0f} ms CPU",
            f"<= {USAGES_TARGET_MS} ms",
            "ok" if p50 <= USAGES_TARGET_MS else "MISS",
        )
    )
    for name in names:
        answer, _ = sidekit(ctx, project, env, "usages", name)
        grep = subprocess.run(
            ["grep", "-rn", "--include=*.py", name, "."], cwd=project, capture_output=True
        )
        uses = json.loads(answer)["uses"]
        out.append(
            Row(
                SECTION,
                f"{label}: usages {name}, answer vs grep -rn ({uses} AST uses)",
                f"{len(answer.encode())} B vs {len(grep.stdout):,} B "
                f"({len(answer.encode()) / max(1, len(grep.stdout)):.1%})",
            )
        )
    return out


def testmon_venv(ctx: BenchContext, work: str) -> str:
    venv = os.path.join(work, "testmon-venv")
    subprocess.run([ctx.python, "-m", "venv", venv], check=True, capture_output=True)
    python = os.path.join(venv, "bin", "python")
    done = _run(
        [python, "-m", "pip", "install", "-q", "pytest", "pytest-testmon"], work, dict(os.environ)
    )
    if done.returncode != 0:
        raise RuntimeError(f"pip install pytest-testmon failed: {done.stderr.strip()[-200:]}")
    return python


def impact_rows(ctx: BenchContext, pristine: str, work: str, env: dict[str, str]) -> list[Row]:
    out: list[Row] = []
    pytest_args = ["-q", "-rfE", "tests"]  # testmon needs pytest's cache plugin: keep it for both

    # The full suite on the planted bug: what every selection must catch.
    full = shutil.copytree(pristine, os.path.join(work, "full"))
    plant(full)
    start = time.perf_counter()
    done = _run([ctx.python, "-m", "pytest", *pytest_args], full, env)
    full_secs = time.perf_counter() - start
    full_counts, must_catch = counts(done.stdout), failed_ids(done.stdout)
    suite = sum(full_counts.get(k, 0) for k in ("passed", "failed", "error", "skipped", "xfailed"))
    out.append(
        Row(
            SECTION,
            "full suite on the planted bug",
            f"{suite} tests, {len(must_catch)} fail, {full_secs:.1f} s",
        )
    )

    # sidekit: map on the clean tree, plant, select, run the selection.
    ours = shutil.copytree(pristine, os.path.join(work, "ours"))
    map_answer, map_secs = sidekit(ctx, ours, env, "map", "--", *pytest_args)
    out.append(
        Row(
            SECTION,
            "sidekit map (suite under per-test coverage)",
            f"{map_secs:.1f} s, {map_answer}",
        )
    )
    plant(ours)
    _, first_secs = sidekit(ctx, ours, env, "select")  # builds the index too
    answer, select_secs = sidekit(ctx, ours, env, "select")
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[2]); from sidekit_hooks.impact.selection "
        "import selection;"
        "print(json.dumps(selection(sys.argv[1], None).tests))"
    )
    chosen = json.loads(_run([ctx.python, "-c", code, ours, REPO], ours, env).stdout)
    start = time.perf_counter()
    done = _run([ctx.python, "-m", "pytest", "-q", "-rfE", *chosen], ours, env)
    run_secs = time.perf_counter() - start
    caught = len(must_catch & failed_ids(done.stdout))
    out.append(
        Row(
            SECTION,
            "sidekit select + run the selection",
            f"{len(chosen)} of {suite} tests, caught {caught}/{len(must_catch)}, "
            f"select {select_secs * 1000:.0f} ms (first, with the index: {first_secs * 1000:.0f} "
            "ms)"
            f" + run {run_secs:.1f} s; answer {len(answer.encode())} B",
            "recall 100%",
            "ok" if caught == len(must_catch) else "MISS",
        )
    )

    # pytest-testmon on the same change: record on the clean tree, plant, let it select and run.
    python = testmon_venv(ctx, work)
    theirs = shutil.copytree(pristine, os.path.join(work, "theirs"))
    clean_env = {k: v for k, v in env.items() if k != "PYTEST_DISABLE_PLUGIN_AUTOLOAD"}
    start = time.perf_counter()
    _run([python, "-m", "pytest", "--testmon", *pytest_args], theirs, clean_env)
    record_secs = time.perf_counter() - start
    plant(theirs)
    start = time.perf_counter()
    done = _run([python, "-m", "pytest", "--testmon", *pytest_args], theirs, clean_env)
    testmon_secs = time.perf_counter() - start
    tally = counts(done.stdout)
    ran = sum(tally.get(k, 0) for k in ("passed", "failed", "error", "skipped", "xfailed"))
    caught = len(must_catch & failed_ids(done.stdout))
    out.append(Row(SECTION, "pytest-testmon record run (clean tree)", f"{record_secs:.1f} s"))
    out.append(
        Row(
            SECTION,
            "pytest-testmon select + run (same bug)",
            f"{ran} of {suite} tests, caught {caught}/{len(must_catch)}, {testmon_secs:.1f} s",
        )
    )

    # Without a map: the static import graph.
    imports = shutil.copytree(pristine, os.path.join(work, "imports"))
    plant(imports)
    answer, secs = sidekit(ctx, imports, env, "select")
    out.append(
        Row(
            SECTION,
            "sidekit select without a map (import graph, index built)",
            f"{answer} in {secs * 1000:.0f} ms",
        )
    )
    return out


def rows(ctx: BenchContext) -> list[Row]:
    work = tempfile.mkdtemp(prefix="sidekit-bench-code-")
    # Only the plugins a run asks for: the same for every tool compared (testmon's venv has no
    # others).
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "PYTEST_"))}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    out: list[Row] = []
    try:
        for name, version, names in (
            NAVIGATED[:1] if ctx.quick else NAVIGATED
        ):  # --quick: the small one
            out += navigation_rows(
                ctx, sdist.fetch(ctx.python, f"{name}=={version}", work), env, names
            )
        project = os.path.join(work, f"{PROJECT}-{VERSION}")
        shutil.rmtree(os.path.join(project, ".sidekit"), ignore_errors=True)
        if shutil.which("git"):  # select reads changes from git: make the clean tree a commit
            git = [
                "git",
                "-c",
                "user.email=b@example.invalid",
                "-c",
                "user.name=b",
                "-c",
                "commit.gpgsign=false",
            ]
            for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "sdist"]):
                subprocess.run([*git, *args], cwd=project, check=True, capture_output=True)
        if ctx.quick:
            out.append(
                Row(
                    SECTION,
                    "select vs pytest-testmon",
                    "skipped under --quick (needs a venv and four suite runs)",
                )
            )
        else:
            out += impact_rows(ctx, project, work, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out
