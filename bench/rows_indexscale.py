"""An index that scales (#23 item 2): toolz, this repository and Django, as git working trees.

The sdists (toolz 1.0.0, Django 5.1.4) are fetched at run time into a cache folder and committed
into a fresh git repository (the index lists files through git, as in a real checkout); this
repository is a local clone of HEAD. Per project: the cold build's CPU (the command's own and git's)
and its size on disk against the indexed source; warm `symbol` and `usages` CPU through the CLI as a
multiple of a bare interpreter's, measured in turn with it; the same answers through one MCP server
(round trip, wall); `select` after touching one file; SessionStart on a repository with no
`.sidekit/` yet (the hook's own CPU: what it hands to the background is not counted).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

import sdist
from run import REPO, BenchContext, Row

from sidekit_hooks.cli.mcpserver import probe
from sidekit_hooks.code.files import RACY_SECONDS

# toolz and this repository (their MCP servers settle first); Django in a full run only
QUICK_BUDGET = 12
# Outside the section's own TMPDIR (removed after each section): the sdists are fetched once.
CACHE = os.environ.get("SIDEKIT_BENCH_CACHE") or os.path.expanduser("~/.cache/sidekit-bench")
SDISTS = (
    ("toolz", "1.0.0", "curry", "toolz/functoolz.py"),
    ("Django", "5.1.4", "Field", "django/utils/text.py"),
)
BUILD_CPU_TARGET = 6.0  # seconds, Django
DISK_TARGET = 1.5  # x the indexed source
CLI_TARGET = 3.0  # x a bare interpreter
MCP_TARGET_MS = 50.0
GIT = [
    "git",
    "-c",
    "user.email=bench@example.invalid",
    "-c",
    "user.name=bench",
    "-c",
    "commit.gpgsign=false",
]


def fetch(ctx: BenchContext, name: str, version: str) -> str:
    """The sdist unpacked under CACHE (downloaded once), copied into a fresh git repository."""
    archive_dir = os.path.join(CACHE, "sdists")
    archive = os.path.join(archive_dir, f"{name}-{version}.tar.gz")
    if not os.path.exists(archive):
        sdist.download(ctx.python, f"{name}=={version}", archive_dir)
    if not os.path.exists(archive):
        raise RuntimeError(f"pip download gave no {os.path.basename(archive)}")
    return commit(sdist.unpack(archive, tempfile.mkdtemp(prefix=f"sidekit-bench-{name}-")))


def commit(project: str) -> str:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "sdist"]):
        subprocess.run([*GIT, *args], cwd=project, capture_output=True, check=True, timeout=300)
    return project


def clone_repo() -> str:
    target = os.path.join(tempfile.mkdtemp(prefix="sidekit-bench-self-"), "sidekit-hooks")
    subprocess.run(
        ["git", "clone", "-q", "--local", REPO, target],
        capture_output=True,
        check=True,
        timeout=300,
    )
    return target


def env_for(project: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "CLAUDE_", "SIDEKIT_", "GT_", "TMUX"))
    }
    return dict(env, CLAUDE_PROJECT_DIR=project)


def cpu_of(argv: list[str], project: str, stdin: bytes = b"") -> float:
    """CPU seconds of one run (the command's and its waited-for children's, such as git)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        argv,
        input=stdin,
        capture_output=True,
        env=env_for(project),
        cwd=project,
        timeout=600,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def source_bytes(project: str) -> int:
    from sidekit_hooks.code.files import python_files

    return sum(size for _, size in python_files(project).values())


def index_bytes(project: str) -> int:
    base = os.path.join(project, ".sidekit", "code", "index.sqlite")
    return sum(os.path.getsize(base + s) for s in ("", "-wal", "-shm") if os.path.exists(base + s))


def paired(ctx: BenchContext, argv: list[str], project: str, repeats: int) -> tuple[float, float]:
    """(median CPU of argv, median CPU of a bare interpreter), run in turn."""
    bare, runs = [], []
    for _ in range(repeats):
        bare.append(cpu_of([ctx.python, "-c", "pass"], project))
        runs.append(cpu_of(argv, project))
    return statistics.median(runs), statistics.median(bare)


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISS"


def project_rows(ctx: BenchContext, label: str, project: str, name: str, touched: str) -> list[Row]:
    cli = [
        ctx.python,
        "-P",
        "-m",
        "sidekit_hooks.cli",
    ]  # as bin/sidekit runs it: never the project's own modules
    out: list[Row] = []
    files = len(__import__("sidekit_hooks.code.files", fromlist=["x"]).python_files(project))
    source = source_bytes(project)
    build = cpu_of([*cli, "usages", name, "--project", project], project)
    disk = index_bytes(project)
    target = f"<= {BUILD_CPU_TARGET:.0f} s (Django)" if label == "Django" else ""
    out.append(
        Row(
            "indexscale",
            f"{label} ({files:,} .py, {source / 1e6:.1f} MB): cold index build, CPU",
            f"{build:.2f} s",
            target,
            verdict(build <= BUILD_CPU_TARGET) if target else "",
        )
    )
    out.append(
        Row(
            "indexscale",
            f"{label}: index on disk",
            f"{disk / 1e6:.1f} MB = {disk / source:.2f}x the source",
            f"<= {DISK_TARGET}x",
            verdict(disk <= DISK_TARGET * source),
        )
    )
    # Warm means settled: past the racy window of the files the build read and of the .sidekit/ it
    # made (a query inside it lists and reads them again, as it must), as an agent's queries seconds
    # apart are.
    time.sleep(RACY_SECONDS + 0.5)
    cpu_of([*cli, "usages", name, "--project", project], project)
    repeats = 3 if ctx.quick else 11
    for command in ("symbol", "usages"):
        used, bare = paired(ctx, [*cli, command, name, "--project", project], project, repeats)
        out.append(
            Row(
                "indexscale",
                f"{label}: warm `sidekit {command} {name}`, CPU",
                f"{used * 1000:.0f} ms = {used / bare:.1f}x bare ({bare * 1000:.0f} ms)",
                f"<= {CLI_TARGET}x",
                verdict(used <= CLI_TARGET * bare),
            )
        )
    calls = [("symbol", {"name": name}), ("usages", {"name": name})] * (repeats + 1)
    found = probe.probe(
        [*cli, "mcp"], project, env_for(project), timeout=120, calls=calls, settle=10
    )
    for tool in ("symbol", "usages"):
        served = [ms for called, ms, _ in found.calls if called == tool][1:]
        if found.error or not served:
            out.append(
                Row(
                    "indexscale",
                    f"{label}: warm MCP {tool}",
                    f"failed: {found.error or 'no answer'}"[:120],
                    f"<= {MCP_TARGET_MS:.0f} ms",
                    "MISS",
                )
            )
            continue
        p50 = statistics.median(served)
        out.append(
            Row(
                "indexscale",
                f"{label}: warm MCP {tool} round trip",
                f"p50 {p50:.1f} ms",
                f"<= {MCP_TARGET_MS:.0f} ms",
                verdict(p50 <= MCP_TARGET_MS),
            )
        )
    with open(os.path.join(project, touched), "a", encoding="utf-8") as handle:
        handle.write("\n\ndef sidekit_bench_added():\n    return 1\n")
    selected = cpu_of([*cli, "select", "--project", project], project)
    out.append(
        Row(
            "indexscale",
            f"{label}: `sidekit select` after touching {touched}, CPU",
            f"{selected:.2f} s",
        )
    )
    return out


def write_row(ctx: BenchContext, label: str, project: str, touched: str) -> Row:
    """PostToolUse for a Write that adds a function to an existing module (the hook's own CPU,
    median of 5; the tools sidecar compares it with the workspace's functions, from the index or in
    the background)."""
    target = os.path.join(project, touched)
    with open(target, encoding="utf-8") as handle:
        content = (
            handle.read()
            + "\n\ndef sidekit_bench_written(items):\n    return [item for item in items if item]\n"
        )
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(content)
    event = json.dumps(
        {
            "session_id": "bench-indexscale",
            "cwd": project,
            "hook_event_name": "PostToolUse",
            "transcript_path": os.path.join(project, "t.jsonl"),
            "tool_name": "Write",
            "tool_use_id": "toolu_bench",
            "tool_input": {"file_path": target, "content": content},
            "tool_response": {"type": "update", "filePath": target, "content": content},
        }
    ).encode()
    hook = [ctx.python, "-S", os.path.join(REPO, "hooks", "post_tool_use.py")]
    used, bare = [], []
    for _ in range(5):
        bare.append(cpu_of([ctx.python, "-I", "-S", "-c", "pass"], project))
        used.append(cpu_of(hook, project, event))
    cpu, base = statistics.median(used), statistics.median(bare)
    return Row(
        "indexscale",
        f"{label}: PostToolUse Write adding a function (hook's own CPU)",
        f"{cpu * 1000:.0f} ms = {cpu / max(base, 1e-3):.1f}x `-I -S` bare",
    )


def session_start_row(ctx: BenchContext, label: str, source: str) -> Row:
    """The SessionStart hook on a repository sidekit has never seen (a fresh clone: no
    .sidekit/)."""
    project = os.path.join(tempfile.mkdtemp(prefix="sidekit-bench-cold-"), label)
    subprocess.run(
        ["git", "clone", "-q", "--local", source, project],
        capture_output=True,
        check=True,
        timeout=300,
    )
    event = json.dumps(
        {
            "session_id": "bench-indexscale",
            "cwd": project,
            "hook_event_name": "SessionStart",
            "source": "startup",
            "transcript_path": os.path.join(project, "t.jsonl"),
        }
    ).encode()
    hook = [ctx.python, "-S", os.path.join(REPO, "hooks", "session_start.py")]
    bare = cpu_of([ctx.python, "-I", "-S", "-c", "pass"], project)
    used = cpu_of(hook, project, event)
    return Row(
        "indexscale",
        f"{label}: SessionStart on a cold repository (hook's own CPU)",
        f"{used * 1000:.0f} ms = {used / max(bare, 1e-3):.1f}x `-I -S` bare",
    )


def rows(ctx: BenchContext) -> list[Row]:
    projects: list[tuple[str, str, str, str]] = []
    out: list[Row] = []
    try:
        projects.append(("toolz", fetch(ctx, *SDISTS[0][:2]), *SDISTS[0][2:]))
        projects.append(("sidekit-hooks", clone_repo(), "Index", "sidekit_hooks/code/parse.py"))
        if ctx.quick:
            out.append(
                Row(
                    "indexscale",
                    "Django 5.1.4 (2,787 .py)",
                    "measured in a full run only (--quick: toolz and this repository)",
                )
            )
        else:
            projects.append(("Django", fetch(ctx, *SDISTS[1][:2]), *SDISTS[1][2:]))
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        out.append(Row("indexscale", "fetching the projects", f"failed: {exc}"[:120], "", "MISS"))
    for label, project, name, touched in projects:
        if ctx.time_left() < (6 if ctx.quick else 20):
            out.append(
                Row(
                    "indexscale", f"{label}: not measured", "stopped: out of its budget", "", "MISS"
                )
            )
            continue
        out += project_rows(ctx, label, project, name, touched)
    for (
        label,
        project,
        _,
        touched,
    ) in projects:  # last: the workers they start must not share the CPU with a figure
        out.append(write_row(ctx, label, project, touched))
    for label, project, _, _ in projects:
        out.append(session_start_row(ctx, label, project))
    return out
