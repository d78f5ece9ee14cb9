"""`sidekit mcp` (#12, #34), measured the way Claude Code 2.1.328 talks to it: spawn -> the
client's opening (`server/discover`, protocol 2026-07-28) answered, spawn -> `tools/list` answered,
spawn -> the first real tool call answered (sent as soon as `tools/list` is answered, while the
server still imports the MCP SDK), warm `symbol` and `usages` round trips against the CLI commands,
and the bytes every request pays for the tool definitions. One row keeps the 2025 handshake
(`initialize`), which the client no longer takes with sidekit (docs/warm-path.md) but other clients
and servers that refuse `server/discover` still do.

The client is `sidekit_hooks.cli.mcpserver.probe` (plain JSON-RPC over the pipes, standard library,
the client's recorded envelope on every request), so no client library's import time is counted.
The project is generated: 40 modules that use one helper.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile

from run import BenchContext, Row, p95, time_command

from sidekit_hooks.cli.mcpserver import probe, tools

# p50, spawn -> first tools/list answer (#12's target on a 2-core machine), either opening
STARTUP_TARGET_MS = 500.0
# p50, spawn -> the first tool call answered, the call sent when tools/list is answered (#34: "the
# MCP server's first real tool call after start answers within 300 ms")
FIRST_CALL_TARGET_MS = 300.0
# p50, a warm `symbol` / `usages` round trip through MCP (#34)
WARM_TARGET_MS = 50.0
QUICK_BUDGET = 4  # seconds under --quick
MODULES = 40
CLIENT = "client's opening"  # server/discover (2026-07-28), the envelope on every request
HANDSHAKE = "2025 handshake (initialize; not 2.1.328's path)"


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
        return opening(ctx, root, env) + handshake(ctx, root, env) + round_trips(ctx, root, env)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def server(ctx: BenchContext) -> list[str]:
    return [ctx.python, "-m", "sidekit_hooks.cli", "mcp"]


def timed(what: str, samples: list[float], bare: list[float], target_ms: float) -> Row:
    """p50 and p95 in ms, p50 as a multiple of the bare interpreter timed beside it, against a p50
    target."""
    p50 = statistics.median(samples)
    value = (
        f"p50 {p50:.0f} ms, p95 {p95(samples):.0f} ms "
        f"({p50 / 1000 / statistics.median(bare):.1f}x bare interpreter)"
    )
    return Row("mcp", what, value, f"p50 <= {target_ms:.0f} ms", verdict(p50 <= target_ms))


def failed(what: str, error: str, target: str) -> Row:
    return Row("mcp", what, f"failed: {error}"[:120], target, "MISS")


def verdict(held: bool) -> str:
    return "ok" if held else "MISS"


def opening(ctx: BenchContext, root: str, env: dict[str, str]) -> list[Row]:
    """A fresh server per sample (index built), opened as the client opens it: `server/discover`,
    `tools/list`, then `usages helper` sent as soon as tools/list is answered, as a client that
    calls a tool at once does, while the server is still importing the MCP SDK."""
    discovered: list[float] = []
    listed: list[float] = []
    first_call: list[float] = []
    bare: list[float] = []
    size = 0
    errors = []
    for _ in range(ctx.repeats):
        bare += time_command([ctx.python, "-c", "pass"], 1)
        found = probe.probe(server(ctx), root, env, calls=[("usages", {"name": "helper"})])
        if found.error or found.opening != probe.DISCOVER:
            errors.append(found.error or f"the server refused server/discover ({found.opening})")
            continue
        discovered.append(found.first_answer_ms)
        listed.append(found.tools_ms)
        size = found.definitions_bytes
        if found.calls and '"uses"' in found.calls[0][2]:
            first_call.append(found.first_call_done_ms)
        else:
            errors.append(f"the first call answered {found.calls[:1]}")
    asks = [
        (f"{CLIENT}: spawn -> server/discover answered", discovered, STARTUP_TARGET_MS),
        (f"{CLIENT}: spawn -> tools/list answered", listed, STARTUP_TARGET_MS),
        (
            f"{CLIENT}: spawn -> first tools/call answered (usages, sent on tools/list's answer)",
            first_call,
            FIRST_CALL_TARGET_MS,
        ),
    ]
    out = [
        timed(what, samples, bare, target)
        if samples
        else failed(what, errors[0] if errors else "no sample", f"p50 <= {target:.0f} ms")
        for what, samples, target in asks
    ]
    if listed:
        out.append(
            Row(
                "mcp",
                "tool definitions (all 10, as tools/list sends them)",
                f"{size} bytes",
                f"<= {tools.DEFINITIONS_BUDGET}",
                verdict(size <= tools.DEFINITIONS_BUDGET),
            )
        )
    return out


def handshake(ctx: BenchContext, root: str, env: dict[str, str]) -> list[Row]:
    """The 2025 handshake alone: `initialize`, `notifications/initialized`, `tools/list`."""
    listed: list[float] = []
    bare: list[float] = []
    errors = []
    for _ in range(ctx.repeats):
        bare += time_command([ctx.python, "-c", "pass"], 1)
        found = probe.probe(server(ctx), root, env, opening=probe.HANDSHAKE)
        if found.error:
            errors.append(found.error)
            continue
        listed.append(found.tools_ms)
    what = f"{HANDSHAKE}: spawn -> tools/list answered"
    if not listed:
        return [failed(what, errors[0], f"p50 <= {STARTUP_TARGET_MS:.0f} ms")]
    return [timed(what, listed, bare, STARTUP_TARGET_MS)]


def round_trips(ctx: BenchContext, root: str, env: dict[str, str]) -> list[Row]:
    """A warm server (one session opened as the client opens it, index built, start-up settled)
    against one `sidekit CMD` process per answer."""
    asks = {"symbol": {"name": "helper"}, "usages": {"name": "helper"}}
    calls = list(asks.items()) * (ctx.repeats + 1)
    found = probe.probe(server(ctx), root, env, timeout=120, calls=calls, settle=10)
    target = f"MCP p50 <= {WARM_TARGET_MS:.0f} ms"
    out = []
    for name in asks:
        command = [name, "helper"]
        what = f"{CLIENT}: warm {name} round trip vs `sidekit {' '.join(command)}`"
        served = [ms for tool, ms, _ in found.calls if tool == name][1:]  # the first call warms up
        if not served or found.error or found.opening != probe.DISCOVER:
            out.append(failed(what, found.error or f"no answers ({found.opening})", target))
            continue
        argv = [ctx.python, "-m", "sidekit_hooks.cli", *command, "--project", root]
        spawned = time_command(argv, ctx.repeats, env=env)
        mcp_ms = statistics.median(served)
        cli_ms = statistics.median(spawned) * 1000
        out.append(
            Row(
                "mcp",
                what,
                f"MCP p50 {mcp_ms:.1f} ms, p95 {p95(served):.1f} ms; CLI p50 {cli_ms:.0f} ms "
                f"({cli_ms / mcp_ms:.0f}x)",
                target,
                verdict(mcp_ms <= WARM_TARGET_MS),
            )
        )
    return out
