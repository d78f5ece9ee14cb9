"""Raw pytest through Bash (#10): what the model receives, what compaction costs, what the hook
costs.

Real suites from PyPI sdists, each installed (editable, with pytest) into its own `.venv` at run
time and wired with `sidekit install --project`, then one bug planted so that many tests fail:

- bytes the model receives for `.venv/bin/python -m pytest -q`, raw (`SIDEKIT_RAW=1`) and compacted,
  through the real Claude Code CLI (tests/e2e) when it is installed; pytest's own bytes otherwise;
- wall time of the compacted run against the same raw run (interleaved rounds, best of each), and
  against a run without sidekit at all (`-p no:sidekit`, no recording);
- CPU (user + system, the children's rusage, medians) of the compacted run against `pytest -q
  --tb=no` on the same suite (#23: the compacted run formats every long traceback the answer then
  throws away), also on a synthetic suite of 300 failures with deep tracebacks (no download);
- the PreToolUse hook (settings command) on a non-pytest Bash call and on a pytest one, against a
  bare interpreter.

--quick: toolz only, two rounds. Full: toolz, more-itertools and click, five rounds.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from pathlib import Path

import sdist
from run import REPO, BenchContext, Row, ratio_row, time_paired

from testing.hooks import as_stdin, pre_bash

# seconds: the hook timings; a suite (a venv: 30 s and more) only when a busy machine gives time
QUICK_BUDGET = 3
TARGET_WALL = 1.10
TARGET_HOOK = 1.5
TARGET_CPU = 1.10  # compacted CPU against `pytest -q --tb=no` on the same suite (#23)
PLUGIN = ["-o", "sidekit_compact=true"]  # what the PreToolUse rewrite appends


def _replace(old: str, new: str) -> object:
    def plant(path: str) -> bool:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        if old not in source:
            return False
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source.replace(old, new, 1))
        return True

    return plant


def _first_statement(function: str, line: str) -> object:
    def plant(path: str) -> bool:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines(keepends=True)
        tree = ast.parse("".join(lines))
        found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function]
        if not found:
            return False
        body = found[0].body
        first = body[1] if isinstance(body[0], ast.Expr) and len(body) > 1 else body[0]
        lines.insert(first.lineno - 1, " " * first.col_offset + line + "\n")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("".join(lines))
        return True

    return plant


# (sdist name, version or "", file the bug goes into, how to plant it, pytest arguments)
SUITES = (
    (
        "toolz",
        "",
        "toolz/itertoolz.py",
        _replace("    return next(iter(seq))\n", "    return seq[0]\n"),
        ["toolz"],
    ),
    (
        "more-itertools",
        "10.5.0",
        "more_itertools/more.py",
        _first_statement("chunked", "iterable = list(iterable)[1:]"),
        ["tests"],
    ),
    (
        "click",
        "",
        "src/click/_compat.py",
        _replace(
            "    return len(strip_ansi(x))\n",
            "    return len(strip_ansi(x)) if len(x) < 40 else int(x)\n",
        ),
        ["tests"],
    ),
)


def _clean_env() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "CLAUDE_", "SIDEKIT_", "GT_"))
        and k not in ("VIRTUAL_ENV", "PYTHONPATH")
    }


def prepare(ctx: BenchContext, work: str, name: str, version: str) -> str:
    """The sdist unpacked, with `.venv` holding it (editable) and pytest, wired by `sidekit
    install`."""
    spec = f"{name}=={version}" if version else name
    root = sdist.fetch(ctx.python, spec, work, timeout=300)
    python = os.path.join(root, ".venv", "bin", "python")
    for argv in (
        [ctx.python, "-m", "venv", os.path.join(root, ".venv")],
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "pytest", "-e", root],
        [ctx.python, "-m", "sidekit_hooks.cli", "install", "--project", root],
    ):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=900, env=_clean_env())
        if done.returncode:
            raise RuntimeError((done.stderr.strip().splitlines() or ["install failed"])[-1][:120])
    return root


CPU: dict[
    str, list[float]
] = {}  # CPU seconds per kind of run (children's rusage): load on the machine adds none


def timed(argv: list[str], cwd: str, kind: str = "") -> tuple[float, bytes, int]:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, env=_clean_env(), timeout=900)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if kind:
        CPU.setdefault(kind, []).append(
            after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        )
    return wall, done.stdout + done.stderr, done.returncode


def model_bytes(root: str, command: str) -> tuple[int, int] | None:
    """(raw, compacted) bytes of the tool_result the model received, through the real CLI; None
    without it."""
    sys.path.insert(0, os.path.join(REPO, "tests"))
    try:
        from testing.claude import ToolCall, find_cli, result_text, run_claude, split_result
    except ImportError:
        return None
    cli, _ = find_cli()
    if cli is None:
        return None
    steps = [
        ToolCall("Bash", {"command": f"SIDEKIT_RAW=1 {command}", "description": "raw"}),
        ToolCall("Bash", {"command": command, "description": "compacted"}),
        "done",
    ]
    home = Path(tempfile.mkdtemp(prefix="sidekit-bench-home-"))
    try:
        run = run_claude(
            cli, Path(root), "Run the tests.", steps, session_id=str(uuid.uuid4()), home=home
        )
        sizes = [len(split_result(result_text(run.tool_result(i)))[0].encode()) for i in (0, 1)]
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return sizes[0], sizes[1]


def suite_rows(ctx: BenchContext, work: str, suite: tuple) -> list[Row]:  # type: ignore[type-arg]
    name, version, bug_file, plant, args = suite
    try:
        root = prepare(ctx, work, name, version)
    except (RuntimeError, OSError, subprocess.SubprocessError, tarfile.TarError) as exc:
        return [Row("rawpytest", f"{name}: raw pytest compacted", f"skipped: {exc}")]
    if not plant(os.path.join(root, bug_file)):
        return [
            Row(
                "rawpytest",
                f"{name}: raw pytest compacted",
                f"skipped: {bug_file} changed upstream; update the bug",
            )
        ]
    python = os.path.join(root, ".venv", "bin", "python")
    base = [python, "-m", "pytest", "-q", *args]
    rounds = 2 if ctx.quick else 5
    timed(base, root)  # warm-up: bytecode, page cache
    plain_t, raw_t, compact_t = [], [], []
    timed([*base, "--tb=no"], root)  # its own warm-up
    raw_out = compact_out = b""
    code = 0
    CPU.clear()
    for _ in range(rounds):
        plain_t.append(timed([*base, "-p", "no:sidekit"], root)[0])
        timed([*base, "--tb=no"], root, "tbno")
        seconds, raw_out, code = timed(base, root, "raw")
        raw_t.append(seconds)
        seconds, compact_out, compact_code = timed([*base, *PLUGIN], root, "compact")
        compact_t.append(seconds)
        if compact_code != code:
            return [
                Row(
                    "rawpytest",
                    f"{name}: exit code kept",
                    f"raw {code}, compacted {compact_code}",
                    "equal",
                    "MISS",
                )
            ]
    last = (
        raw_out.decode(errors="replace").strip().splitlines()[-1][:50] if raw_out.strip() else "?"
    )
    where = f"{name} ({last})"
    received = model_bytes(root, " ".join([".venv/bin/python", "-m", "pytest", "-q", *args]))
    if received:
        before, after = received
        bytes_row = Row(
            "rawpytest",
            f"{where}: bytes the model received (real CLI)",
            f"{before:,} B raw -> {after:,} B compacted ({before / max(1, after):.1f}x less); "
            f"pytest printed {len(raw_out):,} B",
            "<= 800 B",
            "ok" if after <= 800 else "MISS",
        )
    else:
        size = len(compact_out) + len(f"Exit code {code}\n")
        bytes_row = Row(
            "rawpytest",
            f"{where}: bytes for the model (no CLI installed: pytest's own)",
            f"{len(raw_out):,} B raw -> {size:,} B compacted ({len(raw_out) / max(1, size):.1f}x "
            "less)",
            "<= 800 B",
            "ok" if size <= 800 else "MISS",
        )
    ratio = min(compact_t) / min(raw_t)
    cpu = min(CPU["compact"]) / min(CPU["raw"])
    bare = min(compact_t) / min(plain_t)
    wall = Row(
        "rawpytest",
        f"{name}: wall time, compacted vs raw (best of {rounds})",
        f"{ratio:.2f}x ({min(compact_t):.2f} s vs {min(raw_t):.2f} s); CPU {cpu:.2f}x; vs no "
        "sidekit at all "
        f"{bare:.2f}x ({min(plain_t):.2f} s)",
        f"<= {TARGET_WALL}x",
        "ok" if ratio <= TARGET_WALL else "MISS",
    )
    return [bytes_row, wall, cpu_row(name, rounds)]


def cpu_row(name: str, rounds: int) -> Row:
    """Compacted CPU against `pytest -q --tb=no` and raw `pytest -q` on the same suite (medians of
    CPU)."""
    import statistics

    compact_cpu, tbno, raw = (statistics.median(CPU[kind]) for kind in ("compact", "tbno", "raw"))
    ratio = compact_cpu / tbno
    return Row(
        "rawpytest",
        f"{name}: CPU, compacted vs `pytest -q --tb=no` (median of {rounds})",
        f"{ratio:.2f}x ({compact_cpu:.2f} s vs {tbno:.2f} s); raw `pytest -q` {raw / tbno:.2f}x "
        f"({raw:.2f} s)",
        f"<= {TARGET_CPU}x",
        "ok" if ratio <= TARGET_CPU else "MISS",
    )


SYNTHETIC_LIB = (
    "def parse(value):\n    return helper(value)\n\n\ndef helper(value):\n    return int(value)\n"
)
SYNTHETIC_TESTS = """import pytest

from lib import parse


def deeper(value, depth):
    if depth == 0:
        return parse(value)
    return deeper(value, depth - 1)


@pytest.mark.parametrize("n", range(300))
def test_parse(n):
    data = {"n": n, "text": "abc" * 5}
    assert deeper(data["text"], 6) == n
"""


def synthetic_rows(ctx: BenchContext, work: str) -> list[Row]:
    """300 failures, each with a ten-frame traceback: the formatting a compacted run throws away, at
    its largest."""
    root = os.path.join(work, "synthetic")
    os.makedirs(os.path.join(root, "tests"))
    for name, text in (
        ("lib.py", SYNTHETIC_LIB),
        ("tests/test_many.py", SYNTHETIC_TESTS),
        ("tests/__init__.py", ""),
        ("pytest.ini", "[pytest]\n"),
    ):
        with open(os.path.join(root, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    python = os.path.join(root, ".venv", "bin", "python")
    for argv in (
        [ctx.python, "-m", "venv", os.path.join(root, ".venv")],
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "pytest"],
        [ctx.python, "-m", "sidekit_hooks.cli", "install", "--project", root],
    ):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=900, env=_clean_env())
        if done.returncode:
            return [
                Row(
                    "rawpytest",
                    "synthetic 300 failures: CPU",
                    f"skipped: {done.stderr.strip()[-120:]}",
                )
            ]
    base = [python, "-m", "pytest", "-q", "-p", "no:randomly", "tests"]
    rounds = 2 if ctx.quick else 5
    CPU.clear()
    timed(base, root)
    for _ in range(rounds):
        timed([*base, "--tb=no"], root, "tbno")
        timed(base, root, "raw")
        timed([*base, *PLUGIN], root, "compact")
    return [cpu_row("synthetic 300 failures", rounds)]


def hook_rows(ctx: BenchContext) -> list[Row]:
    project = tempfile.mkdtemp(prefix="sidekit-bench-pretool-")
    try:
        env = dict(_clean_env(), CLAUDE_PROJECT_DIR=project)
        hook = [
            ctx.python,
            "-S",
            os.path.join(REPO, "hooks", "pre_tool_use.py"),
        ]  # what `sidekit install` writes
        plain, raw_pytest = (
            as_stdin(pre_bash(Path(project), command, "bench"))
            for command in ("git status --short", f"{ctx.python} -m pytest -q tests")
        )
        samples, bare = time_paired(hook, ctx, plain, env, project)
        out = ratio_row(
            "rawpytest",
            "PreToolUse on a non-pytest Bash call (settings command)",
            samples,
            ctx,
            TARGET_HOOK,
            bare,
        )
        samples, bare = time_paired(hook, ctx, raw_pytest, env, project)
        out += ratio_row(
            "rawpytest", "PreToolUse on a pytest call (rewritten)", samples, ctx, None, bare
        )
        return out
    finally:
        shutil.rmtree(project, ignore_errors=True)


def rows(ctx: BenchContext) -> list[Row]:
    out = hook_rows(ctx)
    work = tempfile.mkdtemp(prefix="sidekit-bench-rawpytest-")
    try:
        for suite in SUITES[:1] if ctx.quick else SUITES:
            if ctx.time_left() < 30:
                out.append(
                    Row(
                        "rawpytest",
                        f"{suite[0]}: raw pytest compacted",
                        "skipped: section budget spent",
                    )
                )
                continue
            out += suite_rows(ctx, work, suite)
        if ctx.time_left() >= 20:
            out += synthetic_rows(ctx, work)
        else:
            out.append(
                Row("rawpytest", "synthetic 300 failures: CPU", "skipped: section budget spent")
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out
