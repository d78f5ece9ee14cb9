"""`sidekit test` against plain `pytest -q` on real third-party suites (#5).

The suites come from PyPI source distributions, fetched into a temp folder at run time (never
committed). toolz: wall time of `sidekit test` as a multiple of `pytest -q -p no:sidekit` (runs
interleaved, so machine load hits both alike), and answer bytes against pytest's output bytes, green
and with one bug injected into a low-level helper (`toolz.itertoolz.first`). click (full run only):
the issue's cascade, one bug in `click._compat.term_len` seen through click's own test runner, run
by `sidekit test` in the project's own `.venv` (an editable install, as developers have it).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import tarfile
import tempfile
import time

import sdist
from run import BenchContext, Row

PACKAGE = "toolz"
BUG_FILE = os.path.join("toolz", "itertoolz.py")
BUG = (
    "    return next(iter(seq))\n",
    "    return seq[0]\n",
)  # first() breaks on iterators, sets, dicts
TARGET = 1.10
# seconds under --quick (bench/run.py): toolz in a venv, pytest and `sidekit test` runs
QUICK_BUDGET = 10


CASCADE = "click"
CASCADE_FILE = os.path.join("src", "click", "_compat.py")
CASCADE_BUG = (
    "    return len(strip_ansi(x))\n",
    "    return len(strip_ansi(x)) if len(x) < 40 else int(x)\n",
)


def fetch(ctx: BenchContext, into: str, package: str = PACKAGE) -> str:
    """Download and unpack the sdist; returns the source folder. Raises with the reason on
    failure."""
    return sdist.unpack(sdist.download(ctx.python, package, into, timeout=180)[0], into)


def timed(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, bytes, int]:
    seconds, _, out, code = timed_cpu(argv, env, cwd)
    return seconds, out, code


def timed_cpu(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, float, bytes, int]:
    """(wall seconds, CPU seconds of the child and its children, stdout, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, cwd=cwd, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, done.stdout, done.returncode


def rows(ctx: BenchContext) -> list[Row]:
    workdir = tempfile.mkdtemp(prefix="sidekit-bench-status-")
    try:
        try:
            suite = fetch(ctx, workdir)
        except (RuntimeError, OSError, subprocess.SubprocessError, tarfile.TarError) as exc:
            return [
                Row(
                    "status",
                    f"sidekit test vs pytest -q ({PACKAGE} sdist)",
                    f"skipped: {exc}",
                    f"<= {TARGET}x",
                    "",
                )
            ]
        out = measure(ctx, suite)
        out.extend(cascade(ctx, workdir))
        return out
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def measure(ctx: BenchContext, suite: str) -> list[Row]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "CLAUDE_", "SIDEKIT_"))
    }
    env["PYTHONPATH"] = suite
    # --quick: one test module, one round, no warm-up (about 20 s); full: the whole suite, five
    # rounds.
    target = [os.path.join("toolz", "tests", "test_itertoolz.py")] if ctx.quick else ["toolz"]
    rounds = 1 if ctx.quick else 5
    plain = [ctx.python, "-m", "pytest", "-q", "-p", "no:sidekit", *target]
    sidekit = [ctx.python, "-m", "sidekit_hooks.cli", "test", *target]
    if not ctx.quick:
        timed(plain, env, suite)  # warm-up: bytecode, page cache
    plain_times: list[float] = []
    sidekit_times: list[float] = []
    plain_cpu: list[float] = []
    sidekit_cpu: list[float] = []
    for _ in range(rounds):
        seconds, cpu, raw, _ = timed_cpu(plain, env, suite)
        plain_times.append(seconds)
        plain_cpu.append(cpu)
        seconds, cpu, answer, _ = timed_cpu(sidekit, env, suite)
        sidekit_times.append(seconds)
        sidekit_cpu.append(cpu)
    # Other work on the machine only ever adds time: the fastest round of each is the fairest pair.
    ratio = min(sidekit_times) / min(plain_times)
    median_ratio = statistics.median(sidekit_times) / statistics.median(plain_times)
    cpu_ratio = statistics.median(sidekit_cpu) / statistics.median(plain_cpu)
    tests = answer_count(answer)
    where = f"{PACKAGE} {os.path.basename(suite).rpartition('-')[2]}, {tests} tests{' (one module)' if ctx.quick else ''}"
    out = [
        Row(
            "status",
            f"sidekit test wall time vs pytest -q ({where})",
            f"{ratio:.2f}x best of {rounds} ({min(sidekit_times):.2f} s vs {min(plain_times):.2f} "
            "s); "
            f"median {median_ratio:.2f}x; CPU {cpu_ratio:.2f}x",
            f"<= {TARGET}x",
            "ok" if ratio <= TARGET else "MISS",
        ),
        Row(
            "status",
            "answer bytes, green run",
            f"{len(answer.strip())} B vs pytest -q {len(raw)} B "
            f"({len(answer.strip()) / max(1, len(raw)):.0%})",
            "<= 200 B",
            "ok" if len(answer.strip()) <= 200 else "MISS",
        ),
    ]
    path = os.path.join(suite, BUG_FILE)
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    if BUG[0] in source:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source.replace(BUG[0], BUG[1], 1))
        _, raw, _ = timed(plain, env, suite)
        _, answer, _ = timed(sidekit, env, suite)
        failed = raw.decode(errors="replace").strip().splitlines()[-1] if raw.strip() else "?"
        out.append(
            Row(
                "status",
                f"answer bytes, one bug in a helper ({failed[:40]})",
                f"{len(answer.strip())} B vs pytest -q {len(raw)} B "
                f"({len(answer.strip()) / max(1, len(raw)):.0%})",
                "<= 800 B",
                "ok" if len(answer.strip()) <= 800 else "MISS",
            )
        )
    return out


def answer_count(answer: bytes) -> int:
    import json

    try:
        data = json.loads(answer)
    except ValueError:
        return 0
    return sum(
        int(data.get(k, 0)) for k in ("passed", "failed", "errors", "skipped", "xfailed", "xpassed")
    )


def cascade(ctx: BenchContext, workdir: str) -> list[Row]:
    what = f"{CASCADE}: one bug in a helper, seen through its test runner"
    if ctx.quick:
        return [Row("status", what, "skipped in --quick (a venv and ~2,400 tests: about a minute)")]
    try:
        suite = fetch(ctx, workdir, CASCADE)
        python = os.path.join(suite, ".venv", "bin", "python")
        for argv in (
            [ctx.python, "-m", "venv", os.path.join(suite, ".venv")],
            [
                python,
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "pytest",
                "-e",
                suite,
            ],
        ):
            done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
            if done.returncode:
                raise RuntimeError(
                    (done.stderr.strip().splitlines() or ["install failed"])[-1][:120]
                )
    except (RuntimeError, OSError, subprocess.SubprocessError, tarfile.TarError) as exc:
        return [Row("status", what, f"skipped: {exc}")]
    path = os.path.join(suite, CASCADE_FILE)
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    if CASCADE_BUG[0] not in source:
        return [Row("status", what, "skipped: the helper changed upstream; update CASCADE_BUG")]
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(source.replace(CASCADE_BUG[0], CASCADE_BUG[1], 1))
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "CLAUDE_", "SIDEKIT_"))
    }
    _, raw, _ = timed([python, "-m", "pytest", "-q", "-p", "no:sidekit"], env, suite)
    _, line, _ = timed([python, "-m", "pytest", "-q", "-p", "no:sidekit", "--tb=line"], env, suite)
    _, answer, _ = timed([ctx.python, "-m", "sidekit_hooks.cli", "test"], env, suite)
    import json

    try:
        data = json.loads(answer)
    except ValueError:
        return [Row("status", what, f"no answer: {answer[:80]!r}", "", "MISS")]
    causes = len(data.get("clusters", [])) + int(data.get("moreClusters", 0))
    size = len(answer.strip())
    return [
        Row(
            "status",
            f"{what} ({data.get('failed', 0)} failed -> {causes} root causes)",
            f"{size} B vs pytest -q {len(raw)} B, --tb=line {len(line)} B "
            f"({size / max(1, len(raw)):.1%})",
            "<= 800 B",
            "ok" if size <= 800 else "MISS",
        )
    ]
