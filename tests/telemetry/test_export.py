"""The OpenTelemetry export: a real OTLP/HTTP receiver on loopback, decoded with
opentelemetry-proto."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.core import exportconfig, hooklog, trust
from sidekit_hooks.pipeline.hook_events import EVENTS
from sidekit_hooks.telemetry import collect, worker
from testing.hooks import HOOK_SCRIPTS, REPO, HookRunner, bash, edited, payload, pre_bash
from testing.listener import wait_for_workers
from testing.otlp import Receiver, closed_port_endpoint
from testing.scope import out_of_scope_write

SPEC = "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400."
SCOPE = "[sidecar:scope] src/app.py is outside the scope you set (tests/)."


def seed(project: Path) -> None:
    """One session as the hooks log it: a delivered finding fixed later, one held back, one
    ignored."""
    hooklog.CONTEXT.update(
        {"prompt": "p-7", "tool_use_id": "toolu_9", "gt_role": "app/crew/max", "gc_agent": "mayor"}
    )
    try:
        for record in (
            {
                "session": "s1",
                "sidecar": "specs",
                "rule": "acme.422",
                "key": "k1",
                "decision": "fired",
                "text": SPEC,
            },
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
            {
                "session": "s1",
                "sidecar": "scope",
                "key": "k2",
                "decision": "delivered",
                "text": SCOPE,
            },
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
        hooklog.append(
            str(project), hooklog.TIMINGS, {"hook": "Stop", "session": "s1", "ms": 12.5, "bytes": 0}
        )
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
    assert (timing["attributes"]["sidekit.hook"], timing["attributes"]["sidekit.duration_ms"]) == (
        "Stop",
        12.5,
    )
    counts = {
        (a["sidekit.sidecar"], a["sidekit.outcome"]): v for a, v in rx.metrics["sidekit.decisions"]
    }
    assert counts == {
        ("specs", "fired"): 1,
        ("specs", "delivered"): 1,
        ("tools", "held_back"): 1,
        ("scope", "delivered"): 1,
        ("specs", "fixed"): 1,
        ("scope", "ignored"): 1,
    }
    assert sorted(v for _, v in rx.metrics["sidekit.nudge.bytes"]) == sorted(
        [len(SPEC), len(SCOPE)]
    )
    assert [(a, v) for a, v in rx.metrics["sidekit.hook.duration"]] == [
        ({"sidekit.hook": "Stop"}, 12.5)
    ]
    assert all(
        "session.id" not in a for series in rx.metrics.values() for a, _ in series
    )  # low cardinality
    assert rx.resources[0]["service.name"] == "sidekit"
    assert {h.get("authorization") for h in rx.headers} == {"Bearer t0k"}
    assert {h.get("x-team") for h in rx.headers} == {"fleet"}


def test_only_what_is_new_is_shipped(
    project: Path, configured: None, monkeypatch: pytest.MonkeyPatch
) -> None:
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
    with Receiver(
        status=400
    ) as rx:  # 400 is not retried by the exporter itself: each try is one request
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


@pytest.fixture
def user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private $XDG_CONFIG_HOME: the user's trust file lives there, never in ~/.config."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def explained(project: Path) -> tuple[str, dict[str, str], str, str]:
    found = exportconfig.explain(str(project))
    return found.endpoint, found.headers, found.source, found.ignored


def test_endpoint_and_headers_from_each_place(
    project: Path, monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str], user_config: Path
) -> None:
    assert not exportconfig.configured(str(project))
    (project / "pyproject.toml").write_text(
        '[tool.sidekit]\notel-endpoint = "http://c:4318"\notel-headers = {x-a = "1"}\n'
    )
    assert not exportconfig.configured(str(project))  # the repository's word alone turns nothing on
    assert explained(project) == ("", {}, "", "http://c:4318")
    trust.grant("otel-endpoint", str(project), "http://c:4318")
    assert exportconfig.configured(str(project))
    assert explained(project) == ("http://c:4318", {"x-a": "1"}, "project", "")
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT", "http://plugin:4318")
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_HEADERS", "k=v")
    assert explained(project) == ("http://plugin:4318", {"k": "v"}, "plugin", "http://c:4318")
    monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", "http://env:4318/")
    assert explained(project) == ("http://env:4318/", {}, "env", "http://c:4318")


def test_environment_headers_go_only_with_the_environments_endpoint(
    project: Path, monkeypatch: pytest.MonkeyPatch, clean_env: dict[str, str], user_config: Path
) -> None:
    monkeypatch.setenv("SIDEKIT_OTEL_HEADERS", "authorization=Bearer%20t0k")
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_HEADERS", "x-plugin=1")
    (project / "pyproject.toml").write_text(
        '[tool.sidekit]\notel-endpoint = "http://c:4318"\notel-headers = "x-team=web"\n'
    )
    trust.grant("otel-endpoint", str(project), "http://c:4318")
    assert exportconfig.resolve(str(project)) == ("http://c:4318", {"x-team": "web"})
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT", "http://plugin:4318")
    assert exportconfig.resolve(str(project)) == ("http://plugin:4318", {"x-plugin": "1"})
    monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", "http://env:4318")
    assert exportconfig.resolve(str(project)) == (
        "http://env:4318",
        {"authorization": "Bearer t0k"},
    )


def test_trust_is_for_one_endpoint_of_one_project(
    project: Path, tmp_path: Path, user_config: Path
) -> None:
    (project / "pyproject.toml").write_text('[tool.sidekit]\notel-endpoint = "http://c:4318"\n')
    other = tmp_path / "clone"
    other.mkdir()
    (other / "pyproject.toml").write_bytes((project / "pyproject.toml").read_bytes())
    link = tmp_path / "link"
    link.symlink_to(project)
    trust.grant("otel-endpoint", str(project), "http://c:4318")
    assert (exportconfig.configured(str(project)), exportconfig.configured(str(link))) == (
        True,
        True,
    )
    assert not exportconfig.configured(
        str(other)
    )  # the same repository elsewhere is another project
    (project / "pyproject.toml").write_text('[tool.sidekit]\notel-endpoint = "http://c:4319"\n')
    assert not exportconfig.configured(str(project))  # a changed endpoint needs trust again
    assert trust.revoke("otel-endpoint", str(project)) == ["http://c:4318"]
    assert trust.entries() == []
    assert oct((user_config / "sidekit" / "trust.json").stat().st_mode & 0o777) == "0o600"


def test_an_untrusted_endpoint_is_named_by_the_worker_with_the_command_that_trusts_it(
    project: Path, clean_env: dict[str, str], user_config: Path
) -> None:
    (project / "pyproject.toml").write_text('[tool.sidekit]\notel-endpoint = "http://c:4318"\n')
    result = worker.export(str(project))
    assert (result.ok, result.shipped) == (True, 0)
    assert result.message == (
        "no OpenTelemetry endpoint configured (SIDEKIT_OTEL_ENDPOINT, the plugin's otel_endpoint "
        "option, or a "
        "trusted [tool.sidekit] otel-endpoint); pyproject.toml names http://c:4318, which you "
        "have not trusted "
        "for this project (sidekit otel trust http://c:4318): nothing sent"
    )


def test_the_worker_says_when_the_otel_extra_is_missing(
    project: Path, clean_env: dict[str, str]
) -> None:
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


NETAUDIT = REPO / "tests" / "testing" / "netaudit.py"
SESSION_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "SubagentStop",
    "Stop",
)
TELEMETRY_WORKER = "sidekit_hooks.telemetry.worker"
# The one other program sidekit's hooks and workers start: git, on what is on disk (no fetch, no
# push).
OFFLINE_GIT = frozenset(
    {"ls-files", "rev-parse", "diff", "status", "log", "show", "merge-base", "check-ignore"}
)


def unaudited(seen: list[dict[str, Any]]) -> list[list[str]]:
    """Children started outside the audit (not a Python worker started through it), other than
    offline git."""
    out = []
    for record in seen:
        if record["kind"] != "spawn" or record["wrapped"]:
            continue
        argv = record["argv"]
        words = [
            w
            for i, w in enumerate(argv[1:], 1)
            if not w.startswith("-") and argv[i - 1] not in ("-C", "-c")
        ]
        if not (os.path.basename(argv[0]) == "git" and words and words[0] in OFFLINE_GIT):
            out.append(argv)
    return out


def session_payloads(project: Path) -> dict[str, dict[str, Any]]:
    """One of each of the seven events, with what makes their sidecars and workers run."""
    (project / "src").mkdir(exist_ok=True)
    (project / "src" / "app.py").write_text("def total(xs):\n    return sum(xs)\n")
    return {
        "SessionStart": payload("SessionStart", project, source="startup"),
        "UserPromptSubmit": payload("UserPromptSubmit", project, prompt="fix the failing test"),
        "PreToolUse": pre_bash(project, "python -m pytest -q tests"),
        "PostToolUse": edited(
            project, "src/app.py", "sum(xs)", "sum(xs) + 0", "def total(xs):\n    return sum(xs)\n"
        ),
        "PostToolUseFailure": bash(
            project, "python -m pytest -q", error="Exit code 1\nE   assert 1 == 2"
        ),
        "SubagentStop": payload(
            "SubagentStop", project, agent_id="agent-1", stop_hook_active=False
        ),
        "Stop": payload("Stop", project, stop_hook_active=False),
    }


def audited_session(project: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    """The seven events through the real entry scripts, each under the audit hook
    (testing/netaudit.py), and every worker they start under it too; what the audit saw, once every
    worker has ended."""
    log = project.parent / "netaudit.jsonl"
    env = dict(env, CLAUDE_PROJECT_DIR=str(project), NETAUDIT_LOG=str(log))
    for event, body in session_payloads(project).items():
        done = subprocess.run(
            [sys.executable, "-S", str(NETAUDIT), str(HOOK_SCRIPTS[event])],
            input=json.dumps(body),
            capture_output=True,
            text=True,
            env=env,
            cwd=project,
            timeout=30,
        )
        assert (done.returncode, done.stderr) == (0, ""), event
    wait_for_workers(str(project))
    return [json.loads(line) for line in log.read_text().splitlines()]


def by_program(seen: list[dict[str, Any]], kind: str) -> dict[str, list[str]]:
    """{program: [what it did of `kind`]}, e.g. the network events of each hook and worker."""
    found: dict[str, list[str]] = {}
    for record in seen:
        if record["kind"] == kind:
            found.setdefault(record["program"], []).append(
                record.get("event") or record.get("module") or ""
            )
    return found


def started(seen: list[dict[str, Any]]) -> list[str]:
    return [record["program"] for record in seen if record["kind"] == "start"]


@pytest.mark.parametrize("config", ["none", "repository endpoint"])
def test_no_hook_nor_worker_makes_a_network_call_unless_the_user_set_an_endpoint(
    project: Path, clean_env: dict[str, str], tmp_path: Path, config: str
) -> None:
    env = dict(clean_env, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    with Receiver() as rx:
        if (
            config == "repository endpoint"
        ):  # committed, untrusted; the user's token is in the environment
            (project / "pyproject.toml").write_text(
                f'[tool.sidekit]\notel-endpoint = "{rx.endpoint}"\n'
            )
            env["SIDEKIT_OTEL_HEADERS"] = "authorization=Bearer%20t0k"
        seen = audited_session(project, env)
        assert rx.requests == 0
    assert [p for p in started(seen) if p.endswith(".py")] == [
        f"{EVENTS[e].script}.py" for e in SESSION_EVENTS
    ]
    assert TELEMETRY_WORKER not in started(seen)
    assert "sidekit_hooks.detectors.tests" in started(
        seen
    )  # SessionStart's index worker ran, under the audit
    assert by_program(seen, "network") == {}
    assert by_program(seen, "import") == {}
    assert unaudited(seen) == []  # every child is audited too
    assert not (project / ".sidekit" / "log" / "timings.jsonl").exists()


def test_with_the_users_endpoint_only_the_detached_worker_touches_the_network(
    project: Path, clean_env: dict[str, str]
) -> None:
    """The positive control of the audit: it reaches the exporter the Stop hook starts, and sees its
    calls."""
    with Receiver() as rx:
        env = dict(clean_env, SIDEKIT_OTEL_ENDPOINT=rx.endpoint)
        seen = audited_session(project, env)
        assert rx.requests > 0
    hooks = {f"{EVENTS[e].script}.py" for e in SESSION_EVENTS}
    network, imports = by_program(seen, "network"), by_program(seen, "import")
    assert started(seen).count(TELEMETRY_WORKER) == 1
    assert set(network) == {TELEMETRY_WORKER}
    assert "socket.connect" in network[TELEMETRY_WORKER]
    assert not hooks & set(imports)  # no hook imports opentelemetry nor sidekit_hooks.telemetry
    assert unaudited(seen) == []
    timings = [
        json.loads(line)
        for line in (project / ".sidekit" / "log" / "timings.jsonl").read_text().splitlines()
    ]
    # PreToolUse answers from its own fast path (hook._pre_tool_use), which logs no timing
    assert [t["hook"] for t in timings] == [e for e in SESSION_EVENTS if e != "PreToolUse"]


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
    assert [r for r in rx.logs if r["event"] == "sidekit.hook"][-1]["attributes"][
        "sidekit.hook"
    ] == "Stop"


def test_a_real_hooks_decisions_carry_the_prompt_tool_and_fleet_names(
    project: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    """What the export's attributes come from: the payload's prompt_id and tool_use_id, GT_ROLE,
    GC_AGENT."""
    body = out_of_scope_write(
        project,
        dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
        tool_use_id="toolu_42",
        prompt_id="p-42",
    )
    done = run_hook(
        "PostToolUse", body, env={"GT_ROLE": "app/crew/max", "GT_RUN_ID": "run-9"}, timeout=30
    )
    assert "outside this task's scope" in done.stdout
    records = hooklog.read(str(project), hooklog.DECISIONS)
    assert [
        (r["decision"], r["prompt"], r["tool_use_id"], r["gt_role"], r["gt_run_id"])
        for r in records
    ] == [
        ("fired", "p-42", "toolu_42", "app/crew/max", "run-9"),
        ("delivered", "p-42", "toolu_42", "app/crew/max", "run-9"),
    ]
    assert collect.attributes(records[0])["prompt.id"] == "p-42"
