"""The benchmark table: every speed and size figure the issues ask for, in one run.

    python bench/run.py                        # the full table
    python bench/run.py --quick                # a figure per section within 3 minutes on a busy 2-core machine
    python bench/run.py --only hooks           # one section (bench/rows_hooks.py)
    python bench/run.py --quick --markdown docs/performance.md

Each `bench/rows_<section>.py` module contributes rows through `rows(ctx) -> list[Row]`. Each runs
in its own process with a time budget (`ctx.budget` seconds, `ctx.time_left()`): a section that
overruns is stopped and shown as a MISS row, so one slow section can never stall the table.

With `--quick` each section gets what it asks for with a module-level `QUICK_BUDGET = <s>` (seconds
on the reference machine, where a bare interpreter takes REFERENCE_BARE; default 4), scaled by the
bare interpreter measured at the start: a machine twice as busy gets twice the seconds. Together
they never get more than QUICK_CAP, so --quick ends within 3 minutes however busy the machine; time
a section leaves unused passes on to the next. A section makes its cheapest figure first (a stopped
section still shows every figure it made), checks `ctx.time_left()` before each heavy step, and uses
`ctx.quick` to do less (fewer repeats, smaller inputs, the heavy part skipped with a row that says
so). A section that ends without a single measured figure gets a MISS row saying so.

Times are shown as ratios against a bare interpreter timed next to each figure, so the table means
the same on any machine.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
# tests/ too: the rows send hooks the payloads the tests build (testing.hooks, over
# sidekit_hooks.nudges.payloads).
sys.path[:0] = [p for p in (REPO, HERE, os.path.join(REPO, "tests")) if p not in sys.path]

# seconds: `python -c pass` (wall p50) on the 2-core machine QUICK_BUDGETs were set on
REFERENCE_BARE = 0.010
# a section never gets less than it asks for (a faster machine just finishes sooner)
MIN_SCALE = 1.0
# seconds all quick sections share at most: with the baseline and one section's overrun, < 3 min
QUICK_CAP = 160.0
FULL_SECTION_BUDGET = 900.0  # seconds per section in a full run
# seconds: what a section gets when those before it overran (at most the least ask)
MIN_SECTION_BUDGET = 3.0
DEFAULT_QUICK_BUDGET = 4.0  # what a section without `QUICK_BUDGET = <seconds>` is assumed to need
QUICK_REPEATS, FULL_REPEATS = 5, 31
# How the sections word a row that holds no measurement (see `is_figure`).
NOT_A_FIGURE = (
    "skipped",
    "not measured",
    "not run",
    "measured in a full run only",
    "stopped",
    "failed",
    "did not run",
)


@dataclass
class Row:
    section: str
    what: str
    value: str
    target: str = ""
    verdict: str = ""  # "ok", "MISS" or "" when there is no target

    def __post_init__(self) -> None:
        if ROW_MADE is not None:
            ROW_MADE(self)


# In a section's process: called with every Row as it is made, so a section stopped over its budget
# still shows the figures it measured before (see run_section).
ROW_MADE: Callable[[Row], None] | None = None


@dataclass
class BenchContext:
    quick: bool
    python: str
    repeats: int
    bare: list[float] = field(default_factory=list)  # seconds, bare-interpreter samples
    budget: float = FULL_SECTION_BUDGET  # seconds this section may take
    started: float = field(default_factory=time.monotonic)

    @property
    def bare_p50(self) -> float:
        return statistics.median(self.bare)

    def time_left(self) -> float:
        """Seconds of this section's budget still unspent (a section checks it before a heavy
        step)."""
        return self.budget - (time.monotonic() - self.started)


def time_command(
    argv: Sequence[str],
    repeats: int,
    stdin: bytes = b"",
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    setup: Callable[[], None] | None = None,
) -> list[float]:
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


@dataclass
class Baseline:
    """Bare-interpreter samples: `python -c pass`, and `python -I -S -c pass` (how the hooks really
    start)."""

    plain: list[float] = field(default_factory=list)
    isolated: list[float] = field(default_factory=list)


def bare_argv(python: str, isolated: bool = False) -> list[str]:
    return [python, "-I", "-S", "-c", "pass"] if isolated else [python, "-c", "pass"]


def time_paired(
    argv: Sequence[str],
    ctx: BenchContext,
    stdin: bytes = b"",
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    setup: Callable[[], None] | None = None,
) -> tuple[list[float], Baseline]:
    """(command samples, bare-interpreter samples) taken in turn, so load on a shared machine hits
    both alike."""
    samples: list[float] = []
    bare = Baseline()
    for _ in range(ctx.repeats):
        bare.plain += time_command(bare_argv(ctx.python), 1)
        bare.isolated += time_command(bare_argv(ctx.python, isolated=True), 1)
        samples += time_command(argv, 1, stdin, env, cwd, setup)
    return samples, bare


def p95(samples: Sequence[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def ratio_row(
    section: str,
    what: str,
    samples: Sequence[float],
    ctx: BenchContext,
    target: float | None,
    bare: Baseline | None = None,
    isolated_target: float | None = None,
) -> list[Row]:
    """p50 and p95 of a timed command as multiples of the bare interpreter's p50, and its p50
    against `python -I -S -c pass` (how the hooks start).

    `bare`: samples paired with `samples` (see `time_paired`). Without them a fresh baseline is
    taken now, next to the samples, rather than the one from the start of the run: on a shared
    machine the load a minute ago says little about the load now.
    """
    if bare is None or not bare.plain:
        bare = Baseline(
            time_command(bare_argv(ctx.python), ctx.repeats),
            time_command(bare_argv(ctx.python, isolated=True), ctx.repeats),
        )
    bare_p50 = statistics.median(bare.plain)
    p50_ratio = statistics.median(samples) / bare_p50
    p95_ratio = p95(samples) / bare_p50
    isolated_ratio = statistics.median(samples) / statistics.median(bare.isolated)
    held = [p50_ratio <= target] if target is not None else []
    held += [isolated_ratio <= isolated_target] if isolated_target is not None else []
    verdict = "" if not held else ("ok" if all(held) else "MISS")
    value = (
        f"p50 {p50_ratio:.2f}x, p95 {p95_ratio:.2f}x ({statistics.median(samples) * 1000:.1f} ms); "
        f"-I -S p50 {isolated_ratio:.2f}x"
    )
    targets = ([f"p50 <= {target}x"] if target else []) + (
        [f"-I -S p50 <= {isolated_target}x"] if isolated_target else []
    )
    return [Row(section, what, value, ", ".join(targets), verdict)]


def discover(only: str | None) -> list[str]:
    names = sorted(n[:-3] for n in os.listdir(HERE) if n.startswith("rows_") and n.endswith(".py"))
    return [n for n in names if only is None or n == f"rows_{only}"]


def render(rows: list[Row], markdown: bool) -> str:
    headers = ("section", "what", "value", "target", "")
    table = [headers] + [(r.section, r.what, r.value, r.target, r.verdict) for r in rows]
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += [
            "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"
            for cells in table[1:]
        ]
        return "\n".join(lines)
    widths = [max(len(cells[i]) for cells in table) for i in range(len(headers))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=False)).rstrip()
        for cells in table
    )


def machine() -> str:
    cpu = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next(
                (line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")),
                "",
            )
    except OSError:
        pass
    where = f"{platform.system()} {platform.release()} {platform.machine()}, {os.cpu_count()} cores"
    return f"{platform.python_implementation()} {platform.python_version()}, {where}" + (
        f" ({cpu})" if cpu else ""
    )


# --- one section in its own process
# ----------------------------------------------------------------


def run_child(name: str, ctx_json: str) -> int:
    """`--child`: run one section module and print its rows as JSON lines."""
    global ROW_MADE
    ctx = BenchContext(**json.loads(ctx_json))
    ctx.started = time.monotonic()
    module = importlib.import_module(name)
    ROW_MADE = lambda row: print(json.dumps({"made": asdict(row)}), flush=True)  # noqa: E731
    rows = module.rows(ctx)
    ROW_MADE = None
    for row in rows:
        print(json.dumps(asdict(row)), flush=True)
    return 0


def run_section(name: str, ctx: BenchContext, budget: float) -> list[Row]:
    """Run `bench/<name>.py` under `budget` seconds; a failure or an overrun becomes a MISS row."""
    section = name[len("rows_") :]
    child_ctx = json.dumps(
        {
            "quick": ctx.quick,
            "python": ctx.python,
            "repeats": ctx.repeats,
            "bare": ctx.bare,
            "budget": budget,
        }
    )
    argv = [ctx.python, os.path.abspath(__file__), "--child", name, "--context", child_ctx]
    # Its own process group, so an overrun stops whatever the section started too; its own TMPDIR,
    # so what a stopped section could not clean up is removed all the same.
    scratch = tempfile.mkdtemp(prefix=f"sidekit-bench-{section}-")
    child = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        start_new_session=True,
        env=dict(os.environ, TMPDIR=scratch),
    )
    try:
        stdout, stderr = child.communicate(timeout=budget + 2)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        stdout, _ = child.communicate()
        made = [row for row in parse_rows(stdout, made=True) if row.section == section]
        return made + [
            Row(
                section,
                "not measured" if not made else f"stopped after {len(made)} figure(s)",
                f"stopped: over its {budget:.0f} s budget",
                f"<= {budget:.0f} s",
                "MISS",
            )
        ]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rows = parse_rows(stdout, made=False)
    if child.returncode != 0:
        last = (stderr.strip().splitlines() or [f"exit {child.returncode}"])[-1]
        rows.append(Row(section, "error", last[:160], "", "MISS"))
    return rows


def parse_rows(stdout: str, made: bool) -> list[Row]:
    """The section's rows: the ones it returned, or (`made`) every one it made before it was
    stopped."""
    rows = []
    for line in stdout.splitlines():
        try:
            item = json.loads(line)
            if made != ("made" in item):
                continue
            rows.append(Row(**(item["made"] if made else item)))
        except (ValueError, TypeError, KeyError):
            continue  # a stray print of the section, not a row
    return rows


def quick_budget(name: str) -> float:
    """The section's `QUICK_BUDGET = <seconds>`, read from its source (importing it is the section's
    job)."""
    try:
        with open(os.path.join(HERE, f"{name}.py"), encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("QUICK_BUDGET"):
                    return float(line.split("=", 1)[1].split("#", 1)[0])
    except (OSError, ValueError):
        pass
    return DEFAULT_QUICK_BUDGET


def quick_scale(bare_p50: float) -> float:
    """How much longer than on the reference machine things take here now, going by a bare
    interpreter."""
    return max(MIN_SCALE, bare_p50 / REFERENCE_BARE)


def quick_total(asked: float, bare_p50: float) -> float:
    """Seconds the --quick sections share: what they ask for (reference seconds) scaled with the
    bare interpreter measured now, not fixed; never past QUICK_CAP."""
    return min(QUICK_CAP, asked * quick_scale(bare_p50))


def budgets(
    weights: list[float],
    quick: bool,
    spent: Callable[[], float],
    total: float,
    floor: float = MIN_SECTION_BUDGET,
) -> Callable[[int], float]:
    """The budget of the i-th section: its share of what is left, by weight (quick), or the full-run
    cap. `floor`: the least a section gets however little is left."""

    def budget(index: int) -> float:
        if not quick:
            return FULL_SECTION_BUDGET
        left = total - spent()
        return max(floor, left * weights[index] / sum(weights[index:]))

    return budget


def is_figure(row: Row) -> bool:
    """A row that holds a measurement, not a note of why there is none."""
    return row.what != "error" and not row.value.startswith(NOT_A_FIGURE)


def without_figure(section: str, rows: list[Row]) -> list[Row]:
    """A MISS row when none of a section's rows holds a measurement: every section must measure
    something."""
    if any(is_figure(row) for row in rows):
        return []
    return [
        Row(
            section,
            "no figure in this run",
            "every row of the section says why it measured nothing",
            ">= 1",
            "MISS",
        )
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="fewer repeats, small inputs (a figure per section, under 3 minutes)",
    )
    parser.add_argument("--only", help="one section module, e.g. hooks for rows_hooks.py")
    parser.add_argument(
        "--markdown", metavar="FILE", help="also write the table as Markdown to FILE"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--context", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return run_child(args.child, args.context)
    names = discover(args.only)
    if not names:
        known = ", ".join(n[len("rows_") :] for n in discover(None))
        print(
            f"bench: no section {args.only!r} (bench/rows_{args.only}.py); known: {known}",
            file=sys.stderr,
        )
        return 2
    started = time.monotonic()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    python = os.path.join(REPO, ".venv", "bin", "python")
    ctx = BenchContext(
        quick=args.quick,
        python=python if os.path.exists(python) else sys.executable,
        repeats=QUICK_REPEATS if args.quick else FULL_REPEATS,
    )
    # Measure the code as installed: compiled, so every hook reads .pyc (install.sh does the same).
    subprocess.run(
        [
            ctx.python,
            "-m",
            "compileall",
            "-q",
            os.path.join(REPO, "sidekit_hooks"),
            os.path.join(REPO, "hooks"),
        ],
        capture_output=True,
        check=False,
    )
    ctx.bare = time_command(bare_argv(ctx.python), ctx.repeats)
    isolated = time_command(bare_argv(ctx.python, isolated=True), ctx.repeats)
    rows = [
        Row(
            "baseline",
            "bare interpreter (python -c pass)",
            f"p50 {ctx.bare_p50 * 1000:.1f} ms, p95 {p95(ctx.bare) * 1000:.1f} ms",
        ),
        Row(
            "baseline",
            "bare interpreter, as hooks start (python -I -S -c pass)",
            f"p50 {statistics.median(isolated) * 1000:.1f} ms, p95 {p95(isolated) * 1000:.1f} ms",
        ),
    ]
    sections_started = time.monotonic()
    asked = [quick_budget(name) for name in names]
    budget_of = budgets(
        asked,
        args.quick,
        lambda: time.monotonic() - sections_started,
        quick_total(sum(asked), ctx.bare_p50),
    )
    empty: list[str] = []
    for index, name in enumerate(names):
        budget, began, section = budget_of(index), time.monotonic(), name[len("rows_") :]
        made = run_section(name, ctx, budget)
        missing = without_figure(section, made)
        empty += [section] if missing else []
        rows.extend(made + missing)
        # Progress on stderr (the table goes to stdout): which section took how much of its budget.
        print(
            f"bench: {section} {time.monotonic() - began:.1f} s of {budget:.0f} s", file=sys.stderr
        )
    print(f"bench: sections without a figure: {', '.join(empty) or 'none'}", file=sys.stderr)
    elapsed = time.monotonic() - started
    mode = "quick" if args.quick else "full"
    print(f"sidekit bench on {machine()} ({mode}, {elapsed:.0f} s{load_note(load)})\n")
    print(render(rows, markdown=False))
    if args.markdown:
        write_markdown(args.markdown, rows, args, elapsed, load)
    return 0  # a missed target is reported in the table; the run itself succeeded


def load_note(load: float | None) -> str:
    """Other work on the machine skews every time; say how busy it was when the run began."""
    return "" if load is None else f", load average {load:.1f} at start"


def write_markdown(
    path: str, rows: list[Row], args: argparse.Namespace, elapsed: float, load: float | None
) -> None:
    command = (
        "python bench/run.py"
        + (" --quick" if args.quick else "")
        + (f" --only {args.only}" if args.only else "")
    )
    day = datetime.date.today().isoformat()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(
            f"# Performance\n\nGenerated by `{command} --markdown {path}` "
            f"on {day}, in {elapsed:.0f} s{load_note(load)}, on {machine()}.\n"
            "Times are multiples of a bare interpreter of the same venv (`python -c pass`) timed "
            "next to "
            "each figure, and where marked `-I -S`, of `python -I -S -c pass` (how the hooks "
            "start); "
            "`ok`/`MISS` compare each figure with its target.\n\n"
        )
        handle.write(render(rows, markdown=True) + "\n")


if __name__ == "__main__":
    # Run as the module `run`, the name the section modules import it by, so they share one Row
    # class.
    import run as bench

    raise SystemExit(bench.main())
