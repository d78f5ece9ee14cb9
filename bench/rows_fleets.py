"""Fleets (#22): the OpenTelemetry export of 1,000 sessions, a hook with the export configured
(collector up, down, slow) against one without, and a drain of Gas City's queue. Hook rows are
ratios against a bare interpreter timed next to each sample."""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from rows_lifecycle import SESSIONS, seed_decisions
from run import REPO, BenchContext, Row, ratio_row, time_command, time_paired

QUICK_BUDGET = 5
CITY_ITEMS = 20


class Collector:
    """An OTLP/HTTP endpoint on loopback that accepts everything (after `delay` seconds)."""

    def __init__(self, delay: float = 0.0) -> None:
        outer = self
        self.delay = delay

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                time.sleep(outer.delay)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def closed_endpoint() -> str:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}"


def hook(ctx: BenchContext, event: str) -> list[str]:
    return [ctx.python, "-S", os.path.join(REPO, "hooks", f"{event}.py")]


def prompt(project: str) -> bytes:
    return json.dumps(
        {
            "session_id": "bench-fleets",
            "cwd": project,
            "hook_event_name": "UserPromptSubmit",
            "prompt_id": "p-1",
            "prompt": "go",
        }
    ).encode()


def export_rows(ctx: BenchContext, collector: Collector) -> list[Row]:
    project = tempfile.mkdtemp(prefix="sidekit-bench-fleets-")
    try:
        seed_decisions(os.path.join(project, ".sidekit", "log"))
        cursor = os.path.join(project, ".sidekit", "otel-cursor.json")
        env = dict(os.environ, SIDEKIT_OTEL_ENDPOINT=collector.endpoint)
        argv = [
            ctx.python,
            "-m",
            "sidekit_hooks.cli",
            "report",
            "--export",
            "otlp",
            "--project",
            project,
        ]
        samples = time_command(
            argv,
            2 if ctx.quick else 5,
            env=env,
            cwd=REPO,
            setup=lambda: os.path.exists(cursor) and os.unlink(cursor),
        )
    finally:
        shutil.rmtree(project, ignore_errors=True)
    p50 = statistics.median(samples)
    return [
        Row(
            "fleets",
            f"sidekit report --export otlp, {SESSIONS:,} sessions ({SESSIONS * 12:,} decisions) "
            "as logs + metrics",
            f"p50 {p50 * 1000:.0f} ms",
            "< 10 s",
            "ok" if p50 < 10 else "MISS",
        )
    ]


def hook_rows(ctx: BenchContext, collector: Collector, slow: Collector) -> list[Row]:
    """Each collector state timed in turn with the unconfigured hook (A/B/A/B...), so the shared
    machine's load falls on both alike; the row that matters is the median of the paired
    differences."""
    project = tempfile.mkdtemp(prefix="sidekit-bench-fleets-hook-")
    out: list[Row] = []
    try:
        base = dict(os.environ, CLAUDE_PROJECT_DIR=project)
        base.pop("SIDEKIT_OTEL_ENDPOINT", None)
        argv, body = hook(ctx, "user_prompt_submit"), prompt(project)
        samples, bare = time_paired(argv, ctx, body, base, project)
        out += ratio_row(
            "fleets", "UserPromptSubmit, no export configured", samples, ctx, None, bare
        )
        worst = 0.0
        for label, endpoint in (
            ("collector up", collector.endpoint),
            ("collector down", closed_endpoint()),
            ("collector slow (5 s)", slow.endpoint),
        ):
            env = dict(base, SIDEKIT_OTEL_ENDPOINT=endpoint)
            diffs = []
            for _ in range(ctx.repeats):
                without = time_command(argv, 1, body, base, project)[0]
                diffs.append(time_command(argv, 1, body, env, project)[0] - without)
            diff = statistics.median(diffs)
            worst = max(worst, diff)
            out.append(
                Row(
                    "fleets",
                    f"UserPromptSubmit, export configured, {label}: minus none (paired p50)",
                    f"{diff * 1000:+.1f} ms",
                )
            )
        out.append(
            Row(
                "fleets",
                "UserPromptSubmit: export configured minus none, worst collector state",
                f"{worst * 1000:+.1f} ms",
                "< +5 ms",
                "ok" if worst < 0.005 else "MISS",
            )
        )
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return out


def city_rows(ctx: BenchContext) -> list[Row]:
    """A drain of CITY_ITEMS pending Gas City items through the real hook (state.json rewritten each
    run)."""
    sys.path.insert(0, REPO)
    from sidekit_hooks.nudges import city

    town = tempfile.mkdtemp(prefix="sidekit-bench-city-")
    project = os.path.join(town, "rig")
    os.makedirs(os.path.join(town, ".gc", "runtime", "nudges"))
    os.makedirs(project)
    state = os.path.join(town, ".gc", "runtime", "nudges", "state.json")
    items = [
        city.new_item(f"message {n} from the mayor", "polecat-1", "") for n in range(CITY_ITEMS)
    ]

    def refill() -> None:
        with open(state, "w") as handle:
            handle.write(json.dumps({"pending": items}, indent=2) + "\n")

    env = dict(
        os.environ, CLAUDE_PROJECT_DIR=project, GC_CITY=town, GC_AGENT="polecat-1", HOME=town
    )
    try:
        samples, bare = time_paired(
            hook(ctx, "user_prompt_submit"), ctx, prompt(project), env, project, setup=refill
        )
        out = ratio_row(
            "fleets",
            f"UserPromptSubmit in a Gas City, {CITY_ITEMS} items pending in state.json",
            samples,
            ctx,
            None,
            bare,
        )
        refill()
        done = subprocess.run(
            hook(ctx, "user_prompt_submit"), input=prompt(project), env=env, capture_output=True
        )
        shown = (
            json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"].count("\n") + 1
            if done.stdout
            else 0
        )
        out.append(
            Row(
                "fleets",
                "  of which shown in one delivery (1,000-character budget)",
                f"{shown} lines",
            )
        )
    finally:
        shutil.rmtree(town, ignore_errors=True)
    return out


def rows(ctx: BenchContext) -> list[Row]:
    collector, slow = Collector(), Collector(delay=5.0)
    try:
        # The hook timings first: cheap, so even a section stopped early on a busy machine has its
        # figures.
        hooks = hook_rows(ctx, collector, slow)
        return hooks + export_rows(ctx, collector) + city_rows(ctx)
    finally:
        collector.close()
        slow.close()
