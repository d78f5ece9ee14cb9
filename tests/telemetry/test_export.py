"""The OpenTelemetry export: a real OTLP/HTTP receiver on loopback, decoded with opentelemetry-proto."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.core import exportconfig, hooklog
from sidekit_hooks.telemetry import collect, worker
from testing.hooks import REPO, HookRunner, payload
from testing.otlp import Receiver, closed_port_endpoint
from testing.scope import out_of_scope_write

SPEC = "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400."
SCOPE = "[sidecar:scope] src/app.py is outside the scope you set (tests/)."


def seed(project: Path) -> None:
    """One session as the hooks log it: a delivered finding fixed later, one held back, one ignored."""
    hooklog.CONTEXT.update({"prompt": "p-7", "tool_use_id": "toolu_9", "gt_role": "app/crew/max", "gc_agent": "mayor"})
    try:
        for record in (
            {"session": "s1", "sidecar": "specs", "rule": "acme.422", "key": "k1", "decision": "fired", "text": SPEC},
            {
                "session": "s1",
                "sidecar": "specs",
                "rule": "acme.422",
                "key": "k1",
                "decision": "delivered",
                "text": SPEC,
            },
            {
                "session": "s1",
                "sidecar": "tools",
                "decision": "suppressed",
                "by": "cooldown",
                "text": "[sidecar:tools] x",
            },
            {"session": "s1", "sidecar": "scope", "key": "k2", "decision": "delivered", "text": SCOPE},
            {
                "session": "s1",
                "sidecar": "specs",
                "rule": "acme.422",
                "key": "k1",
                "decision": "rechecked",
                "outcome": "fixed",
                "calls": 2,
                "text": SPEC,
            },
            {
                "session": "s1",
                "sidecar": "scope",
                "key": "k2",
                "decision": "rechecked",
                "outcome": "still",
                "text": SCOPE,
            },
        ):
            hooklog.append(str(project), hooklog.DECISIONS, record)
        hooklog.append(str(project), hooklog.TIMINGS, {"hook": "Stop", "session": "s1", "ms": 12.5, "bytes": 0})
    finally:
        hooklog.CONTEXT.clear()


@pytest.fixture
def configured(monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str]) -> None:
    monkeypatch.setenv("SIDEKIT_OTEL_HEADERS", "authorization=Bearer%20t0k,x-team=fleet")


def test_a_session_ships_as_decoded_logs_and_metrics(
    project: Path, configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(project)
    with Receiver() as rx:
        monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", rx.endpoint)
        result = worker.export(str(project))
    assert (result.ok, result.shipped) == (True, 7)
    decisions = [
        (r["attributes"]["sidekit.outcome"], r["attributes"]["sidekit.sidecar"], r["body"])
        for r in rx.logs
        if r["event"] == "sidekit.decision"
    ]
    assert decisions == [
        ("fired", "specs", SPEC),
        ("delivered", "specs", SPEC),
        ("held_back", "tools", "[sidecar:tools] x"),
        ("delivered", "scope", SCOPE),
        ("fixed", "specs", SPEC),
        ("ignored", "scope", SCOPE),
    ]
    first = rx.logs[0]["attributes"]
    assert first == {
        "session.id": "s1",
        "prompt.id": "p-7",
        "tool_use_id": "toolu_9",
        "sidekit.sidecar": "specs",
        "sidekit.rule_id": "acme.422",
        "sidekit.finding": "k1",
        "gt.role": "app/crew/max",
        "gc.agent": "mayor",
        "sidekit.outcome": "fired",
    }
    assert rx.logs[2]["attributes"]["sidekit.held_by"] == "cooldown"
    (timing,) = [r for r in rx.logs if r["event"] == "sidekit.hook"]
    assert (timing["attributes"]["sidekit.hook"], timing["attributes"]["sidekit.duration_ms"]) == ("Stop", 12.5)
    counts = {(a["sidekit.sidecar"], a["sidekit.outcome"]): v for a, v in rx.metrics["sidekit.decisions"]}
    assert counts == {
        ("specs", "fired"): 1,
        ("specs", "delivered"): 1,
        ("tools", "held_back"): 1,
        ("scope", "delivered"): 1,
        ("specs", "fixed"): 1,
        ("scope", "ignored"): 1,
    }
    assert sorted(v for _, v in rx.metrics["sidekit.nudge.bytes"]) == sorted([len(SPEC), len(SCOPE)])
    assert [(a, v) for a, v in rx.metrics["sidekit.hook.duration"]] == [({"sidekit.hook": "Stop"}, 12.5)]
    assert all("session.id" not in a for series in rx.metrics.values() for a, _ in series)  # low cardinality
    assert rx.resources[0]["service.name"] == "sidekit"
    assert {h.get("authorization") for h in rx.headers} == {"Bearer t0k"}
    assert {h.get("x-team") for h in rx.headers} == {"fleet"}


def test_only_what_is_new_is_shipped(project: Path, configured: None, monkeypatch: pytest.MonkeyPatch) -> None:
    seed(project)
    with Receiver() as rx:
        monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", rx.endpoint)
        assert worker.export(str(project)).shipped == 7
        assert (worker.export(str(project)).shipped, rx.requests) == (0, 2)
        hooklog.append(
            str(project),
            hooklog.DECISIONS,
            {"session": "s2", "sidecar": "scope", "decision": "fired", "text": "[sidecar:scope] y"},
        )
        assert worker.export(str(project)).shipped == 1
    assert [r["attributes"]["session.id"] for r in rx.logs][-1] == "s2"


def test_a_rolled_over_log_is_read_from_the_cursor_then_afresh(project: Path) -> None:
    log = project / ".sidekit" / "log" / hooklog.DECISIONS
    hooklog.append(str(project), hooklog.DECISIONS, {"decision": "fired", "n": 1})
    batch = collect.pending(str(project))
    hooklog.append(str(project), hooklog.DECISIONS, {"decision": "fired", "n": 2})
    os.replace(log, str(log) + ".1")
    hooklog.append(str(project), hooklog.DECISIONS, {"decision": "fired", "n": 3})
    assert [r["n"] for r in collect.pending(str(project), batch.cursor).decisions] == [2, 3]


def test_every_rolled_generation_after_the_cursor_is_read(project: Path) -> None:
    log = project / ".sidekit" / "log" / hooklog.DECISIONS
    hooklog.append(str(project), hooklog.DECISIONS, {"decision": "fired", "n": 1})
    batch = collect.pending(str(project))
    hooklog.append(str(project), hooklog.DECISIONS, {"decision": "fired", "n": 2})
    os.replace(log, str(log) + ".2")  # two roll-overs since the cursor
    hooklog.append(str(project), hooklog.DECISIONS, {"decision": "fired", "n": 3})
    os.replace(log, str(log) + ".1")
    hooklog.append(str(project), hooklog.DECISIONS, {"decision": "fired", "n": 4})
    again = collect.pending(str(project), batch.cursor)
    assert [r["n"] for r in again.decisions] == [2, 3, 4]
    assert collect.pending(str(project), again.cursor).decisions == []


def test_collector_down_keeps_everything_for_the_next_try(
    project: Path, configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(project)
    monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", closed_port_endpoint())
    naps: list[float] = []
    result = worker.export(str(project), sleep=naps.append, timeout=1.0)
    assert (result.ok, result.shipped, naps) == (False, 0, [0.0, 1.0, 3.0])
    assert "did not accept the export; 7 record(s) wait for the next try" in result.message
    with Receiver() as rx:
        monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", rx.endpoint)
        assert worker.export(str(project)).shipped == 7


def test_a_refusing_collector_is_retried_then_left(
    project: Path, configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed(project)
    with Receiver(status=400) as rx:  # 400 is not retried by the exporter itself: each try is one request
        monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", rx.endpoint)
        result = worker.export(str(project), sleep=lambda _: None)
    assert (result.ok, rx.requests) == (False, 3)
    assert collect.load_cursor(str(project)) == {}


def test_nothing_is_sent_without_configuration(project: Path, clean_env: dict[str, str]) -> None:
    seed(project)
    with Receiver() as rx:
        result = worker.export(str(project))
        assert rx.requests == 0
    assert (result.ok, result.shipped) == (True, 0)
    assert result.message.startswith("no OpenTelemetry endpoint configured")


def test_endpoint_and_headers_from_each_place(
    project: Path, monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str]
) -> None:
    assert not exportconfig.configured(str(project))
    (project / "pyproject.toml").write_text(
        '[tool.sidekit]\notel-endpoint = "http://c:4318"\notel-headers = {x-a = "1"}\n'
    )
    assert exportconfig.configured(str(project))
    assert exportconfig.resolve(str(project)) == ("http://c:4318", {"x-a": "1"})
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT", "http://plugin:4318")
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_HEADERS", "k=v")
    assert exportconfig.resolve(str(project)) == ("http://plugin:4318", {"k": "v"})
    monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", "http://env:4318/")
    assert exportconfig.resolve(str(project)) == ("http://env:4318/", {})


def test_the_worker_says_when_the_otel_extra_is_missing(project: Path, clean_env: dict[str, str]) -> None:
    env = dict(clean_env, SIDEKIT_OTEL_ENDPOINT="http://127.0.0.1:9", PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-S", "-m", "sidekit_hooks.telemetry.worker", str(project)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr == (
        "OpenTelemetry export configured but opentelemetry-sdk, "
        "opentelemetry-exporter-otlp-proto-http not installed: "
        "pip install 'sidekit-hooks[otel]'; nothing sent\n"
    )


PROBE = """
import json, socket, sys
sys.path.insert(0, sys.argv[1])
connects = []
real = socket.socket.connect
def spy(self, address):
    connects.append(str(address))
    return real(self, address)
socket.socket.connect = spy
from sidekit_hooks import hook
hook.main(sys.argv[2])
sys.stderr.write(json.dumps({"otel": sorted(m for m in sys.modules if m.startswith("opentelemetry")),
                             "telemetry": sorted(m for m in sys.modules if m.startswith("sidekit_hooks.telemetry")),
                             "connects": connects}))
"""


def run_probe(project: Path, env: dict[str, str], event: str) -> tuple[dict[str, Any], float]:
    body = json.dumps(payload(event, project, session_id="s1", prompt="go"))
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(REPO), event], input=body, capture_output=True, text=True, env=env, timeout=30
    )
    return json.loads(done.stderr), time.monotonic() - began


@pytest.mark.parametrize("collector", ["up", "down", "slow"])
def test_the_hook_path_never_imports_opentelemetry_nor_opens_a_socket(
    project: Path, clean_env: dict[str, str], collector: str
) -> None:
    with Receiver(delay=5.0 if collector == "slow" else 0.0) as rx:
        endpoint = closed_port_endpoint() if collector == "down" else rx.endpoint
        env = dict(clean_env, CLAUDE_PROJECT_DIR=str(project), SIDEKIT_OTEL_ENDPOINT=endpoint)
        for event in ("UserPromptSubmit", "Stop"):
            seen, took = run_probe(project, env, event)
            assert seen == {"otel": [], "telemetry": [], "connects": []}
            assert took < 3.0  # not a benchmark (bench/rows_fleets.py): a slow collector would add 5 s
    timings = [json.loads(line) for line in (project / ".sidekit" / "log" / "timings.jsonl").read_text().splitlines()]
    assert [t["hook"] for t in timings] == ["UserPromptSubmit", "Stop"]


def test_stop_starts_the_detached_exporter(project: Path, run_hook: HookRunner) -> None:
    seed(project)
    with Receiver() as rx:
        stop = payload("Stop", project, session_id="s1")
        done = run_hook("Stop", stop, env={"SIDEKIT_OTEL_ENDPOINT": rx.endpoint}, timeout=30)
        assert done.returncode == 0
        for _ in range(300):
            if any(
                r["event"] == "sidekit.hook"
                and r["attributes"].get("sidekit.hook") == "Stop"
                and r["attributes"].get("session.id") == "s1"
                and r["attributes"].get("sidekit.duration_ms") != 12.5
                for r in rx.logs
            ):
                break
            time.sleep(0.1)
    assert sum(r["event"] == "sidekit.decision" for r in rx.logs) == 6
    assert [r for r in rx.logs if r["event"] == "sidekit.hook"][-1]["attributes"]["sidekit.hook"] == "Stop"


def test_no_timing_is_logged_without_configuration(project: Path, clean_env: dict[str, str]) -> None:
    env = dict(clean_env, CLAUDE_PROJECT_DIR=str(project))
    run_probe(project, env, "UserPromptSubmit")
    assert not (project / ".sidekit" / "log" / "timings.jsonl").exists()


def test_a_real_hooks_decisions_carry_the_prompt_tool_and_fleet_names(
    project: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    """What the export's attributes come from: the payload's prompt_id and tool_use_id, GT_ROLE, GC_AGENT."""
    body = out_of_scope_write(
        project, dict(clean_env, CLAUDE_PROJECT_DIR=str(project)), tool_use_id="toolu_42", prompt_id="p-42"
    )
    done = run_hook("PostToolUse", body, env={"GT_ROLE": "app/crew/max", "GT_RUN_ID": "run-9"}, timeout=30)
    assert "outside this task's scope" in done.stdout
    records = hooklog.read(str(project), hooklog.DECISIONS)
    assert [(r["decision"], r["prompt"], r["tool_use_id"], r["gt_role"], r["gt_run_id"]) for r in records] == [
        ("fired", "p-42", "toolu_42", "app/crew/max", "run-9"),
        ("delivered", "p-42", "toolu_42", "app/crew/max", "run-9"),
    ]
    assert collect.attributes(records[0])["prompt.id"] == "p-42"
