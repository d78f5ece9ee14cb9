"""`sidekit test` against plain `pytest -q` on a real third-party suite (#5).

The suite is toolz's, from its PyPI source distribution, fetched into a temp folder at run time (never
committed). Rows: wall time of `sidekit test` as a multiple of `pytest -q -p no:sidekit` (runs
interleaved, so machine load hits both alike), and answer bytes against pytest's output bytes, green
and with one bug injected into a low-level helper (`toolz.itertoolz.first`).
"""

from __future__ import annotations

import glob
import os
import shutil
import statistics
import subprocess
import tarfile
import tempfile
import time

from run import BenchContext, Row

PACKAGE = "toolz"
BUG_FILE = os.path.join("toolz", "itertoolz.py")
BUG = ("    return next(iter(seq))\n", "    return seq[0]\n")  # first() breaks on iterators, sets, dicts
TARGET = 1.10


def fetch(ctx: BenchContext, into: str) -> str:
    """Download and unpack the sdist; returns the source folder. Raises with the reason on failure."""
    done = subprocess.run([ctx.python, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps",
                           "--disable-pip-version-check", "-q", "-d", into, PACKAGE],
                          capture_output=True, text=True, timeout=180)
    archives = glob.glob(os.path.join(into, f"{PACKAGE}-*.tar.gz"))
    if done.returncode or not archives:
        raise RuntimeError((done.stderr.strip().splitlines() or ["pip download failed"])[-1][:120])
    with tarfile.open(archives[0]) as archive:
        archive.extractall(into, filter="data")
    return archives[0][: -len(".tar.gz")]


def timed(argv: list[str], env: dict[str, str], cwd: str) -> tuple[float, bytes, int]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, cwd=cwd, check=False)
    return time.perf_counter() - start, done.stdout, done.returncode


def rows(ctx: BenchContext) -> list[Row]:
    workdir = tempfile.mkdtemp(prefix="sidekit-bench-status-")
    try:
        try:
            suite = fetch(ctx, workdir)
        except (RuntimeError, OSError, subprocess.SubprocessError, tarfile.TarError) as exc:
            return [Row("status", f"sidekit test vs pytest -q ({PACKAGE} sdist)", f"skipped: {exc}", f"<= {TARGET}x", "")]
        return measure(ctx, suite)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def measure(ctx: BenchContext, suite: str) -> list[Row]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "CLAUDE_", "SIDEKIT_"))}
    env["PYTHONPATH"] = suite
    # --quick: one test module, one round, no warm-up (about 20 s); full: the whole suite, five rounds.
    target = [os.path.join("toolz", "tests", "test_itertoolz.py")] if ctx.quick else ["toolz"]
    rounds = 1 if ctx.quick else 5
    plain = [ctx.python, "-m", "pytest", "-q", "-p", "no:sidekit", *target]
    sidekit = [ctx.python, "-m", "sidekit_hooks.cli", "test", *target]
    if not ctx.quick:
        timed(plain, env, suite)  # warm-up: bytecode, page cache
    plain_times: list[float] = []
    sidekit_times: list[float] = []
    for _ in range(rounds):
        seconds, raw, _ = timed(plain, env, suite)
        plain_times.append(seconds)
        seconds, answer, _ = timed(sidekit, env, suite)
        sidekit_times.append(seconds)
    ratio = statistics.median(sidekit_times) / statistics.median(plain_times)
    tests = answer_count(answer)
    where = f"{PACKAGE} {os.path.basename(suite).rpartition('-')[2]}, {tests} tests{' (one module)' if ctx.quick else ''}"
    out = [Row("status", f"sidekit test wall time vs pytest -q ({where})",
               f"{ratio:.2f}x ({statistics.median(sidekit_times):.2f} s vs {statistics.median(plain_times):.2f} s, "
               f"median of {rounds})", f"<= {TARGET}x", "ok" if ratio <= TARGET else "MISS"),
           Row("status", "answer bytes, green run", f"{len(answer.strip())} B vs pytest -q {len(raw)} B "
               f"({len(answer.strip()) / max(1, len(raw)):.0%})", "<= 200 B", "ok" if len(answer.strip()) <= 200 else "MISS")]
    path = os.path.join(suite, BUG_FILE)
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    if BUG[0] in source:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source.replace(BUG[0], BUG[1], 1))
        _, raw, _ = timed(plain, env, suite)
        _, answer, _ = timed(sidekit, env, suite)
        failed = raw.decode(errors="replace").strip().splitlines()[-1] if raw.strip() else "?"
        out.append(Row("status", f"answer bytes, one bug in a helper ({failed[:40]})",
                       f"{len(answer.strip())} B vs pytest -q {len(raw)} B ({len(answer.strip()) / max(1, len(raw)):.0%})",
                       "<= 800 B", "ok" if len(answer.strip()) <= 800 else "MISS"))
    return out


def answer_count(answer: bytes) -> int:
    import json

    try:
        data = json.loads(answer)
    except ValueError:
        return 0
    return sum(int(data.get(k, 0)) for k in ("passed", "failed", "errors", "skipped", "xfailed", "xpassed"))
