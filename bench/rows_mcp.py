"""`sidekit mcp` (#12): start-up to the first tools/list answer, the first tool call right after it
(#34: answered before the SDK's imports are done), warm tool round trips against the CLI command,
and the bytes every request pays for the tool definitions.

The client is `sidekit_hooks.cli.mcpserver.probe` (plain JSON-RPC over the pipes, standard library),
so no client library's import time is counted. The project is generated: 40 modules that use one
helper.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile

from run import BenchContext, Row, p95, time_command

from sidekit_hooks.cli.mcpserver import probe, tools

# p50, spawn -> first tools/list answer (the target on a 2-core machine)
STARTUP_TARGET_MS = 500.0
# p50, the first tool call sent right after the tools/list answer -> its answer (#34)
FIRST_CALL_TARGET_MS = 300.0
QUICK_BUDGET = 3  # seconds under --quick
MODULES = 40


def make_project(root: str) -> None:
    os.makedirs(os.path.join(root, "pkg"))
    os.makedirs(os.path.join(root, "tests"))
    with open(os.path.join(root, "pytest.ini"), "w") as handle:
        handle.write("[pytest]\n")
    open(os.path.join(root, "pkg", "__init__.py"), "w").close()
    with open(os.path.join(root, "pkg", "core.py"), "w") as handle:
        handle.write("def helper(x):\n    return x + 1\n")
    for n in range(MODULES):
        with open(os.path.join(root, "pkg", f"mod{n}.py"), "w") as handle:
            handle.write(
                "from pkg.core import helper\n\n\n"
                + "".join(f"def f{k}(x):\n    return helper(x) * {k}\n\n\n" for k in range(3))
            )
        with open(os.path.join(root, "tests", f"test_mod{n}.py"), "w") as handle:
            handle.write(
                f"from pkg.mod{n} import f1\n\n\ndef test_f1():\n    assert f1(1) == "
                f"{2 if n % 10 else 3}\n"
            )


def rows(ctx: BenchContext) -> list[Row]:
    root = tempfile.mkdtemp(prefix="sidekit-bench-mcp-")
    try:
        make_project(root)
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CLAUDE_", "PYTEST_", "SIDEKIT_"))
        }
        env["PYTEST_ADDOPTS"] = "-p no:hypothesispytest -p no:xdist -p no:randomly"
        cli = [ctx.python, "-m", "sidekit_hooks.cli"]
        subprocess.run(
            [*cli, "test", "--project", root],
            env=env,
            capture_output=True,
            timeout=300,
            check=False,
        )
        return startup(ctx, root, env) + first_call(ctx, root, env) + round_trips(ctx, root, env)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def startup(ctx: BenchContext, root: str, env: dict[str, str]) -> list[Row]:
    argv = [ctx.python, "-m", "sidekit_hooks.cli", "mcp"]
    samples: list[float] = []
    bare: list[float] = []
    size = 0
    errors = []
    for _ in range(ctx.repeats):
        bare += time_command([ctx.python, "-c", "pass"], 1)
        found = probe.probe(argv, root, env)
        if found.error:
            errors.append(found.error)
            continue
        samples.append(found.tools_ms / 1000)
        size = found.definitions_bytes
    if not samples:
        return [
            Row(
                "mcp",
                "start-up: spawn -> first tools/list answer",
                f"failed: {errors[0]}"[:120],
                f"p50 < {STARTUP_TARGET_MS:.0f} ms",
                "MISS",
            )
        ]
    p50 = statistics.median(samples) * 1000
    value = (
        f"p50 {p50:.0f} ms, p95 {p95(samples) * 1000:.0f} ms "
        f"({p50 / 1000 / statistics.median(bare):.1f}x bare interpreter)"
    )
    return [
        Row(
            "mcp",
            "start-up: spawn -> first tools/list answer",
            value,
            f"p50 < {STARTUP_TARGET_MS:.0f} ms",
            "ok" if p50 < STARTUP_TARGET_MS else "MISS",
        ),
        Row(
            "mcp",
            "tool definitions (all 10, as tools/list sends them)",
            f"{size} bytes",
            f"<= {tools.DEFINITIONS_BUDGET}",
            "ok" if size <= tools.DEFINITIONS_BUDGET else "MISS",
        ),
    ]


def first_call(ctx: BenchContext, root: str, env: dict[str, str]) -> list[Row]:
    """A fresh server per sample (index built): `usages helper` sent as soon as tools/list is
    answered, as a client that calls a tool at once does, while the server is still importing the
    MCP SDK."""
    argv = [ctx.python, "-m", "sidekit_hooks.cli", "mcp"]
    samples: list[float] = []
    since_spawn: list[float] = []
    errors = []
    for _ in range(ctx.repeats):
        found = probe.probe(argv, root, env, calls=[("usages", {"name": "helper"})])
        if found.error or not found.calls or '"uses"' not in found.calls[0][2]:
            errors.append(found.error or f"answered {found.calls[:1]}")
            continue
        samples.append(found.calls[0][1])
        since_spawn.append(found.tools_ms + found.calls[0][1])
    what = "first tool call (usages) right after tools/list: sent -> answered"
    if not samples:
        return [
            Row(
                "mcp",
                what,
                f"failed: {errors[0]}"[:120],
                f"p50 <= {FIRST_CALL_TARGET_MS:.0f} ms",
                "MISS",
            )
        ]
    p50 = statistics.median(samples)
    return [
        Row(
            "mcp",
            what,
            f"p50 {p50:.0f} ms, p95 {p95(samples):.0f} ms; spawn -> its answer p50 "
            f"{statistics.median(since_spawn):.0f} ms",
            f"p50 <= {FIRST_CALL_TARGET_MS:.0f} ms",
            "ok" if p50 <= FIRST_CALL_TARGET_MS else "MISS",
        )
    ]


def round_trips(ctx: BenchContext, root: str, env: dict[str, str]) -> list[Row]:
    """A warm server (one session, index built) against one `sidekit CMD` process per answer."""
    asks = {"status": ({}, ["status"]), "usages": ({"name": "helper"}, ["usages", "helper"])}
    calls = [(name, arguments) for name, (arguments, _) in asks.items()] * (ctx.repeats + 1)
    found = probe.probe(
        [ctx.python, "-m", "sidekit_hooks.cli", "mcp"],
        root,
        env,
        timeout=120,
        calls=calls,
        settle=10,
    )
    out = []
    for name, (_, command) in asks.items():
        served = [ms for tool, ms, _ in found.calls if tool == name][1:]  # the first call warms up
        argv = [ctx.python, "-m", "sidekit_hooks.cli", *command, "--project", root]
        spawned = time_command(argv, ctx.repeats, env=env)
        if not served or found.error:
            out.append(
                Row(
                    "mcp",
                    f"warm {name} round trip vs `sidekit {command[0]}`",
                    f"failed: {found.error or 'no answers'}"[:120],
                    "",
                    "MISS",
                )
            )
            continue
        mcp_ms = statistics.median(served)
        cli_ms = statistics.median(spawned) * 1000
        out.append(
            Row(
                "mcp",
                f"warm {name} round trip vs `sidekit {' '.join(command)}`",
                f"MCP p50 {mcp_ms:.1f} ms, CLI p50 {cli_ms:.0f} ms ({cli_ms / mcp_ms:.0f}x)",
            )
        )
    return out
