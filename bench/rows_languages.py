"""The code index in every language (#34 items 1-2): cold build and size on the largest real project of
each language the index reads through tree-sitter, and a warm `symbol` against a bare interpreter.

The projects are the ones tests/code/test_languages_real_projects.py measures recall on (tests/code/realprojects.py:
fetched from npm, the Go module proxy, crates.io and Maven Central with each ecosystem's own client,
cached in tests/code/.cache). Each is cloned afresh (no `.sidekit/`), so the first query builds the
index: its CPU (the command's own and git's), and the index on disk against the source it indexed.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile

from run import REPO, BenchContext, Row

from sidekit_hooks.code.files import RACY_SECONDS

sys.path.insert(0, os.path.join(REPO, "tests", "code"))
import realprojects  # noqa: E402  (tests/code: the same projects the recall tests read)

# The largest project of each language among the measured ones (files, bytes).
# The largest project of each language among the measured ones, and a name it defines and uses.
LARGEST = {
    "ts": ("rxjs@7.8.1", "mergeMap"),
    "js": ("axios@1.7.7", "AxiosError"),
    "go": ("github.com/spf13/cobra@v1.8.1", "Command"),
    "rust": ("anyhow@1.0.86", "Error"),
    "java": ("org.apache.commons:commons-lang3:3.14.0", "StringUtils"),
}
QUICK = ("ts",)  # --quick: the TypeScript project only
QUICK_BUDGET = 6  # seconds under --quick (bench/run.py): one project, cached after its first fetch
CLI_TARGET = 3.0  # x a bare interpreter (the warm-query target)
DISK_TARGET = 1.5  # x the indexed source


def project_of(coordinate: str) -> realprojects.Project:
    return next(p for p in realprojects.TUNING + realprojects.HELD_OUT if p.coordinate == coordinate)


def cpu_of(argv: list[str], cwd: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "CLAUDE_", "SIDEKIT_", "GT_"))}
    subprocess.run(argv, capture_output=True, env=env, cwd=cwd, timeout=600, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def fresh_clone(source: str) -> str:
    target = os.path.join(tempfile.mkdtemp(prefix="sidekit-bench-lang-"), "project")
    subprocess.run(["git", "clone", "-q", "--local", source, target], capture_output=True, check=True, timeout=300)
    return target


def index_bytes(project: str) -> int:
    base = os.path.join(project, ".sidekit", "code", "index.sqlite")
    return sum(os.path.getsize(base + s) for s in ("", "-wal", "-shm") if os.path.exists(base + s))


def language_rows(ctx: BenchContext, language: str) -> list[Row]:
    coordinate, name = LARGEST[language]
    project = project_of(coordinate)
    source_root = str(realprojects.laid_out(project))
    files = realprojects.sources(project)
    source = sum(len(data) for data in files.values())
    clone = fresh_clone(source_root)
    cli = [ctx.python, "-P", "-m", "sidekit_hooks.cli"]
    build = cpu_of([*cli, "symbol", name, "--project", clone], clone)
    disk = index_bytes(clone)
    import time

    time.sleep(RACY_SECONDS)  # past the racy window of the files just written: the next queries are warm
    cpu_of([*cli, "symbol", name, "--project", clone], clone)
    out: list[Row] = []
    for command in ("symbol", "usages"):
        warm, bare = [], []
        for _ in range(max(3, ctx.repeats)):
            bare.append(cpu_of([ctx.python, "-c", "pass"], clone))
            warm.append(cpu_of([*cli, command, name, "--project", clone], clone))
        ratio = statistics.median(warm) / max(statistics.median(bare), 1e-3)
        out.append(
            Row(
                "languages",
                f"{coordinate}: warm `{command} {name}`, CPU",
                f"{statistics.median(warm) * 1000:.0f} ms = {ratio:.1f}x bare",
                f"<= {CLI_TARGET:.0f}x",
                "ok" if ratio <= CLI_TARGET else "MISS",
            )
        )
    label = f"{project.coordinate} ({len(files):,} {language} files, {source / 1e6:.2f} MB)"
    return [
        Row("languages", f"{label}: cold index build, CPU", f"{build:.2f} s"),
        Row(
            "languages",
            f"{label}: index on disk",
            f"{disk / 1e6:.2f} MB = {disk / source:.2f}x the source",
            f"<= {DISK_TARGET}x",
            "ok" if disk <= DISK_TARGET * source else "MISS",
        ),
        *out,
    ]


def rows(ctx: BenchContext) -> list[Row]:
    out: list[Row] = []
    for language in QUICK if ctx.quick else tuple(LARGEST):
        if ctx.time_left() < 20:
            out.append(
                Row("languages", f"{LARGEST[language][0]}: not measured", "stopped: out of its budget", "", "MISS")
            )
            continue
        try:
            out += language_rows(ctx, language)
        except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
            out.append(Row("languages", f"{LARGEST[language][0]}: fetching", f"failed: {exc}"[:120], "", "MISS"))
    return out
