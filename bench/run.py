"""The benchmark table: every speed and size figure the issues ask for, in one run.

    python bench/run.py            # the full table
    python bench/run.py --quick    # under a minute on a 2-core machine
    python bench/run.py --only hooks --markdown docs/performance.md

Each `bench/rows_*.py` module contributes rows through `rows(ctx) -> list[Row]`. Times are shown as
ratios against a bare interpreter measured in the same run, so the table means the same on any machine.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, HERE]


@dataclass
class Row:
    section: str
    what: str
    value: str
    target: str = ""
    verdict: str = ""  # "ok", "MISS" or "" when there is no target


@dataclass
class BenchContext:
    quick: bool
    python: str
    repeats: int
    bare: list[float] = field(default_factory=list)  # seconds, bare-interpreter samples

    @property
    def bare_p50(self) -> float:
        return statistics.median(self.bare)


def time_command(argv: Sequence[str], repeats: int, stdin: bytes = b"", env: dict[str, str] | None = None,
                 cwd: str | None = None, setup: Callable[[], None] | None = None) -> list[float]:
    """Wall times of `repeats` fresh runs of a command, one warm-up run first."""
    samples = []
    for index in range(repeats + 1):
        if setup is not None:
            setup()
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=cwd, check=False)
        if index:
            samples.append(time.perf_counter() - start)
    return samples


def p95(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def ratio_row(section: str, what: str, samples: Sequence[float], ctx: BenchContext, target: float | None) -> list[Row]:
    """p50 and p95 of a timed command as multiples of the bare interpreter's p50."""
    p50_ratio = statistics.median(samples) / ctx.bare_p50
    p95_ratio = p95(samples) / ctx.bare_p50
    verdict = "" if target is None else ("ok" if p50_ratio <= target else "MISS")
    value = f"p50 {p50_ratio:.2f}x, p95 {p95_ratio:.2f}x ({statistics.median(samples) * 1000:.1f} ms)"
    return [Row(section, what, value, f"p50 <= {target}x" if target else "", verdict)]


def discover(only: str | None) -> list[str]:
    names = sorted(n[:-3] for n in os.listdir(HERE) if n.startswith("rows_") and n.endswith(".py"))
    return [n for n in names if only is None or n == f"rows_{only}"]


def render(rows: list[Row], markdown: bool) -> str:
    headers = ("section", "what", "value", "target", "")
    table = [headers] + [(r.section, r.what, r.value, r.target, r.verdict) for r in rows]
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(cells) + " |" for cells in table[1:]]
        return "\n".join(lines)
    widths = [max(len(cells[i]) for cells in table) for i in range(len(headers))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip() for cells in table)


def machine() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, small inputs (under a minute)")
    parser.add_argument("--only", help="one section module, e.g. hooks for rows_hooks.py")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as Markdown to FILE")
    args = parser.parse_args(argv)
    python = os.path.join(REPO, ".venv", "bin", "python")
    ctx = BenchContext(quick=args.quick, python=python if os.path.exists(python) else sys.executable,
                       repeats=9 if args.quick else 31)
    # Measure the code as installed: compiled, so every hook reads .pyc (install.sh does the same).
    subprocess.run([ctx.python, "-m", "compileall", "-q", os.path.join(REPO, "sidekit_hooks"), os.path.join(REPO, "hooks")],
                   capture_output=True, check=False)
    ctx.bare = time_command([ctx.python, "-c", "pass"], ctx.repeats)
    rows = [Row("baseline", "bare interpreter (python -c pass)", f"p50 {ctx.bare_p50 * 1000:.1f} ms, p95 {p95(ctx.bare) * 1000:.1f} ms")]
    started = time.perf_counter()
    for name in discover(args.only):
        module = importlib.import_module(name)
        try:
            rows.extend(module.rows(ctx))
        except Exception as exc:  # a broken section is a row, not a crash of the whole table
            rows.append(Row(name[5:], "error", f"{type(exc).__name__}: {exc}"[:160], "", "MISS"))
    table = render(rows, markdown=False)
    print(f"sidekit bench on {machine()} ({'quick' if args.quick else 'full'}, {time.perf_counter() - started:.0f} s)\n")
    print(table)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(f"# Performance\n\nGenerated by `python bench/run.py{' --quick' if args.quick else ''}` on {machine()}.\n"
                         "Times are multiples of a bare interpreter of the same venv measured in the same run.\n\n")
            handle.write(render(rows, markdown=True) + "\n")
    return 0  # a missed target is reported in the table; the run itself succeeded


if __name__ == "__main__":
    raise SystemExit(main())
