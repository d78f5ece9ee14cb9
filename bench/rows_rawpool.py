"""Raw pytest compacted where the code under test uses `multiprocessing.Pool` and `terminate()`
(#19).

Forked pool workers once inherited the compact plugin's SIGTERM handler, and a compacted run hung in
2 of 27 runs (0 of 27 raw). Here one small suite (pool workers terminated mid-task, a few failing
tests so the answer is compacted) runs RUNS times compacted (`-o sidekit_compact=true`) and as many
times raw, interleaved, each under a HANG_AFTER-second limit: the rows give the hangs and the runs
whose exit code differs from the raw run's. --quick: QUICK_RUNS of each.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

from run import REPO, BenchContext, Row

# seconds: one pair of runs (about 6 s: the suite ends in a pool that must be terminated)
QUICK_BUDGET = 6
RUNS, QUICK_RUNS = 50, 1
HANG_AFTER = 60.0  # seconds: a run still going after this counts as a hang (it is killed)
SUITE = textwrap.dedent("""\
    import multiprocessing, time

    def work(n):
        time.sleep(0.002 * (n % 5))
        return n * n

    def test_pool_terminated_mid_task():
        for _ in range(6):
            pool = multiprocessing.get_context("fork").Pool(4)
            pool.map_async(work, range(64))
            time.sleep(0.02)
            pool.terminate()
            pool.join()

    def test_pool_finishes():
        with multiprocessing.get_context("fork").Pool(2) as pool:
            assert pool.map(work, range(8)) == [n * n for n in range(8)]
""") + "".join(f"\ndef test_red_{i}():\n    assert {i} < 0, 'x' * 200\n" for i in range(12))


def one_run(
    python: str, folder: str, compact: bool, limit: float = HANG_AFTER
) -> tuple[int | None, float]:
    """(exit code, or None for a hang; seconds)."""
    argv = [python, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]
    argv += ["-o", "sidekit_compact=true"] if compact else ["-p", "no:sidekit"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "SIDEKIT_"))}
    env["PYTHONPATH"] = REPO
    started = time.monotonic()
    child = subprocess.Popen(
        argv,
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        child.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, 9)
        child.communicate()
        return None, time.monotonic() - started
    return child.returncode, time.monotonic() - started


def rows(ctx: BenchContext) -> list[Row]:
    runs = QUICK_RUNS if ctx.quick else RUNS
    folder = tempfile.mkdtemp(prefix="sidekit-bench-rawpool-")
    try:
        with open(os.path.join(folder, "test_pool.py"), "w", encoding="utf-8") as handle:
            handle.write(SUITE)
        hangs = differ = done = 0
        raw_codes: set[int | None] = set()
        slowest = pair = 0.0
        for _ in range(runs):
            if (
                ctx.time_left() < 2 * pair + 2
            ):  # the next pair would not fit in the section's budget
                break
            started = time.monotonic()
            limit = min(HANG_AFTER, max(3.0, ctx.time_left() / 2 - 1))
            raw, _ = one_run(sys.executable, folder, compact=False, limit=limit)
            compacted, seconds = one_run(sys.executable, folder, compact=True, limit=limit)
            pair = max(pair, time.monotonic() - started)
            raw_codes.add(raw)
            hangs += compacted is None
            differ += compacted != raw
            slowest = max(slowest, seconds)
            done += 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    codes = ", ".join(str(c) for c in sorted(raw_codes, key=str))
    # --quick may run fewer pairs than planned on a busy machine; a full run must do them all.
    enough = done > 0 and (ctx.quick or done == runs)
    planned = "" if done == runs else f" ({runs} planned, the budget allowed {done})"
    return [
        Row(
            "rawpool",
            f"Pool+terminate suite: hangs in {done} compacted runs{planned}",
            str(hangs),
            "0",
            "ok" if hangs == 0 and enough else "MISS",
        ),
        Row(
            "rawpool",
            f"exit code differs from the raw run's (raw: {codes})",
            f"{differ} of {done}",
            "0",
            "ok" if differ == 0 and enough else "MISS",
        ),
        Row("rawpool", "slowest compacted run", f"{slowest:.2f} s"),
    ]
