"""The session's edges (#11): SessionStart and Stop as Claude Code runs them, and `sidekit report`
over 1,000 sessions. Hook rows are ratios against a bare interpreter timed next to each sample."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run import REPO, BenchContext, Row, ratio_row, time_command, time_paired

from testing.hooks import as_stdin, payload

QUICK_BUDGET = 3
SESSION = "bench-lifecycle"
FINDINGS = 10
SESSIONS = 1000


def hook(ctx: BenchContext, event: str) -> list[str]:
    return [
        ctx.python,
        "-S",
        os.path.join(REPO, "hooks", f"{event}.py"),
    ]  # the settings form `sidekit install` writes


def make_project() -> str:
    """A small package with a scope set and a built function index (the usual SessionStart)."""
    project = tempfile.mkdtemp(prefix="sidekit-bench-lifecycle-")
    os.makedirs(os.path.join(project, "api"))
    for index in range(FINDINGS):
        with open(os.path.join(project, "api", f"m{index}.py"), "w") as handle:
            handle.write(f"def handler_{index}(request):\n    return reply(status_code=400)\n")
    env = dict(os.environ, CLAUDE_PROJECT_DIR=project)
    sidekit = [ctx_python(), "-m", "sidekit_hooks.cli"]
    subprocess.run(
        [*sidekit, "scope", "set", "--issue", "gt-1", "--allow", "api/**"],
        cwd=project,
        env=env,
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [ctx_python(), "-m", "sidekit_hooks.code.functions", "build", project],
        cwd=REPO,
        env=env,
        check=True,
        capture_output=True,
    )
    return project


def ctx_python() -> str:
    return sys.executable


def seed_ledger(project: str) -> None:
    """Ten delivered findings to re-check: pattern matches, a def, and out-of-scope writes."""
    sys.path.insert(0, REPO)
    from sidekit_hooks.nudges import session_ledger
    from sidekit_hooks.nudges.recheck import line_digest

    path = session_ledger.path_of(project, SESSION)
    if os.path.exists(path):
        os.unlink(path)
    records: list[dict[str, object]] = []
    for index in range(FINDINGS):
        rel = f"api/m{index}.py"
        key = f"rule:acme.status:{rel}:{index}"
        kinds = (
            {
                "kind": "match",
                "pattern": r"status_code\s*=\s*400\b",
                "digest": line_digest("return reply(status_code=400)"),
            },
            {"kind": "def", "symbol": f"handler_{index}"},
            {"kind": "scope"},
        )
        check = {**kinds[index % 3], "path": rel, "before": "absent" if index % 3 == 2 else ""}
        records += [
            {"call": rel},
            {
                "admit": key,
                "sidecar": "scope" if index % 3 == 2 else "specs",
                "rule": "" if index % 3 == 2 else "acme.status",
                "severity": "medium",
                "path": rel,
                "text": f"[sidecar:specs] finding {index}",
                "recheck": check,
            },
            {"deliver": key},
        ]
    session_ledger.append(project, SESSION, records)


def seed_decisions(folder: str) -> None:
    """1,000 sessions of about a dozen decisions each, in the log the report reads."""
    lines = []
    start = time.time() - 30 * 86400
    for index in range(SESSIONS):
        session, ts = f"s{index:04d}", start + index * 2500
        for number in range(3):
            rule, key = f"acme.rule-{number}", f"rule:acme.rule-{number}:f{index}.py:{number}"
            text = f"[sidecar:specs] rule {number}"
            lines += [
                {
                    "ts": ts,
                    "session": session,
                    "sidecar": "specs",
                    "rule": rule,
                    "decision": "fired",
                    "key": key,
                    "text": text,
                },
                {
                    "ts": ts + 1,
                    "session": session,
                    "sidecar": "specs",
                    "rule": rule,
                    "decision": "delivered",
                    "key": key,
                    "text": text,
                },
                {
                    "ts": ts + 2,
                    "session": session,
                    "sidecar": "tools",
                    "rule": "tools.raw-pytest",
                    "decision": "suppressed",
                    "by": "cooldown",
                    "text": "t",
                },
                {
                    "ts": ts + 9,
                    "session": session,
                    "sidecar": "specs",
                    "rule": rule,
                    "decision": "rechecked",
                    "key": key,
                    "outcome": ("fixed", "still", "moot")[(index + number) % 3],
                    "calls": number + 1,
                },
            ]
    os.makedirs(folder, exist_ok=True)
    write_rolled(folder, [json.dumps(line) + "\n" for line in lines])


def write_rolled(folder: str, lines: list[str]) -> None:
    """The lines as the log holds them after that many appends: rolled over every MAX_BYTES into
    `decisions.jsonl.N` (oldest: highest N), the newest in `decisions.jsonl`."""
    from sidekit_hooks.core import hooklog

    chunks: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if size > hooklog.MAX_BYTES:  # the append after the file passed MAX_BYTES rolls it first
            chunks.append([])
            size = 0
        chunks[-1].append(line)
        size += len(line.encode())
    if len(chunks) - 1 > hooklog.generations(hooklog.DECISIONS):
        raise RuntimeError(f"{len(chunks) - 1} rolled files: more than the log keeps")
    for age, chunk in enumerate(reversed(chunks)):
        name = hooklog.DECISIONS + (f".{age}" if age else "")
        with open(os.path.join(folder, name), "w") as handle:
            handle.writelines(chunk)


def report_rows(ctx: BenchContext, project: str) -> list[Row]:
    seed_decisions(os.path.join(project, ".sidekit", "log"))
    argv = [
        ctx.python,
        "-m",
        "sidekit_hooks.cli",
        "report",
        "--project",
        project,
        "--format",
        "json",
    ]
    samples = time_command(argv, 3 if ctx.quick else 9, cwd=REPO)
    p50 = statistics.median(samples)
    done = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, timeout=60)
    answer = json.loads(done.stdout or "{}")
    read = (
        answer.get("sessions"),
        answer.get("decisions"),
    )  # what the report read: all of it, or a MISS
    rolled = len(
        [
            n
            for n in os.listdir(os.path.join(project, ".sidekit", "log"))
            if n.startswith("decisions.jsonl.")
        ]
    )
    return [
        Row(
            "lifecycle",
            f"sidekit report --format json over {SESSIONS:,} sessions ({SESSIONS * 12:,} "
            "decisions, "
            f"the live log and {rolled} rolled-over files)",
            f"p50 {p50 * 1000:.0f} ms, read {read[0]} sessions / {read[1]} decisions",
            f"< 1 s, all {SESSIONS:,} sessions",
            "ok" if p50 < 1.0 and read == (SESSIONS, SESSIONS * 12) else "MISS",
        )
    ]


def rows(ctx: BenchContext) -> list[Row]:
    project = make_project()
    env = dict(os.environ, CLAUDE_PROJECT_DIR=project)
    out: list[Row] = []
    try:
        start = as_stdin(
            payload("SessionStart", Path(project), session_id=SESSION, source="startup")
        )
        samples, bare = time_paired(hook(ctx, "session_start"), ctx, start, env, project)
        out += ratio_row(
            "lifecycle", "SessionStart, index built, scope primer", samples, ctx, 1.5, bare
        )
        stop = as_stdin(
            payload(
                "Stop",
                Path(project),
                session_id=SESSION,
                stop_hook_active=False,
                last_assistant_message="done",
            )
        )
        samples, bare = time_paired(
            hook(ctx, "stop"), ctx, stop, env, project, setup=lambda: seed_ledger(project)
        )
        out += ratio_row(
            "lifecycle", f"Stop, {FINDINGS} findings to re-check", samples, ctx, 2.5, bare
        )
        fresh = tempfile.mkdtemp(prefix="sidekit-bench-fresh-")
        for index in range(20):
            with open(os.path.join(fresh, f"m{index}.py"), "w") as handle:
                handle.write(
                    "".join(
                        f"def f{index}_{n}(x):\n    y = x + {n}\n    y = y * 2\n    y = y - 1\n   "
                        " return y\n\n"
                        for n in range(15)
                    )
                )
        cache = tempfile.mkdtemp(prefix="sidekit-bench-cache-")
        fresh_start = as_stdin(
            payload("SessionStart", Path(fresh), session_id=SESSION, source="startup")
        )
        samples, bare = time_paired(
            hook(ctx, "session_start"),
            ctx,
            fresh_start,
            dict(env, CLAUDE_PROJECT_DIR=fresh, SIDEKIT_CACHE_DIR=cache),
            fresh,
            setup=lambda: shutil.rmtree(cache, ignore_errors=True),
        )
        out += ratio_row(
            "lifecycle",
            "SessionStart, no index yet: 20 files, 300 functions indexed inline",
            samples,
            ctx,
            None,
            bare,
        )
        out += report_rows(ctx, project)
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return out
