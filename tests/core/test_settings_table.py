"""docs/settings.md, row by row: each setting from the repository's place is ignored or contained,
and from the user's place it works. The table and the cases must name the same settings, in the same
order."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sidekit_hooks.cli.commands import doctor
from sidekit_hooks.core import exportconfig
from sidekit_hooks.runners.pytest import interpreter
from sidekit_hooks.runners.pytest import rewrite as rewrite
from sidekit_hooks.telemetry import worker
from testing.hooks import REPO, HookRunner, bash, context_of, payload, run_sidekit, write
from testing.listener import wait_for_workers
from testing.otlp import Receiver

TABLE = REPO / "docs" / "settings.md"
TOKEN = "Bearer%20user-t0ken"


class Case:
    """What one row's test gets: the project, the hooks and CLI with the user's config folder."""

    def __init__(
        self, project: Path, home: Path, env: dict[str, str], run_hook: HookRunner
    ) -> None:
        self.project, self.home, self.env, self.run_hook = project, home, env, run_hook

    def sidekit(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return run_sidekit(
            *args, "--project", str(self.project), cwd=self.project, env=dict(self.env, **env)
        )

    def pyproject(self, table: str) -> None:
        (self.project / "pyproject.toml").write_text(
            f'[project]\nname = "x"\n\n[tool.sidekit]\n{table}\n'
        )

    def edit_nudges(self, session: str = "sess-1") -> str:
        """What the model reads after a Write of src/app.py (where the test packs fire), in
        `session`."""
        (self.project / "src").mkdir(exist_ok=True)
        (self.project / "src" / "app.py").write_text("x = 1\n")
        done = self.run_hook(
            "PostToolUse", write(self.project, "src/app.py", "x = 1\n", session=session)
        )
        return context_of(done.stdout) if '"systemMessage"' not in done.stdout else done.stdout


def seeded(case: Case) -> None:
    from sidekit_hooks.core import hooklog

    hooklog.append(
        str(case.project), hooklog.DECISIONS, {"session": "s1", "decision": "fired", "text": "x"}
    )


def otel_project(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    seeded(case)
    with Receiver() as rx:
        case.pyproject(f'otel-endpoint = "{rx.endpoint}"\notel-headers = {{x-team = "web"}}')
        assert not exportconfig.configured(str(case.project))
        assert (worker.export(str(case.project)).shipped, rx.requests) == (0, 0)
        trusted = case.sidekit("otel", "trust", rx.endpoint)
        assert trusted.returncode == 0, trusted.stderr
        assert worker.export(str(case.project)).shipped == 1
    assert {h.get("x-team") for h in rx.headers} == {"web"}


def otel_env(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    seeded(case)
    monkeypatch.setenv("SIDEKIT_OTEL_HEADERS", f"authorization={TOKEN}")
    with (
        Receiver() as project_rx
    ):  # the repository's endpoint, even trusted, never gets the user's token
        case.pyproject(f'otel-endpoint = "{project_rx.endpoint}"')
        assert case.sidekit("otel", "trust", project_rx.endpoint).returncode == 0
        assert worker.export(str(case.project)).shipped == 1
    assert {h.get("authorization") for h in project_rx.headers} == {None}
    seeded(case)
    with Receiver() as rx:
        monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", rx.endpoint)
        assert worker.export(str(case.project)).shipped == 1
    assert {h.get("authorization") for h in rx.headers} == {"Bearer user-t0ken"}


def otel_plugin(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    seeded(case)
    monkeypatch.setenv("SIDEKIT_OTEL_HEADERS", f"authorization={TOKEN}")
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_HEADERS", "x-plugin=1")
    with Receiver() as rx:
        monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT", rx.endpoint)
        assert worker.export(str(case.project)).shipped == 1
    assert {(h.get("x-plugin"), h.get("authorization")) for h in rx.headers} == {("1", None)}


def judge(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    mark = case.home / "judged"
    command = f"{sys.executable} -c \"open('{mark}', 'w').write('ran'); print('NONE')\""
    case.pyproject(f"judge = {json.dumps(command)}\nSIDEKIT_JUDGE = {json.dumps(command)}")
    call = bash(case.project, "curl -s https://example.org", stdout="ok")
    assert case.run_hook("PostToolUse", call).returncode == 0
    wait_for_workers(str(case.project))
    assert not mark.exists()
    assert case.run_hook("PostToolUse", call, env={"SIDEKIT_JUDGE": command}).returncode == 0
    wait_for_workers(str(case.project))
    deadline = (
        time.monotonic() + 30
    )  # the judge is a detached worker: on a loaded machine it may start late
    while not mark.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert mark.read_text() == "ran"


def python(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    mark = case.home / "python-ran"
    outside = case.home / "elsewhere" / "bin" / "python"
    outside.parent.mkdir(parents=True)
    outside.write_text(f'#!/bin/sh\necho ran >> {mark}\nexec {sys.executable} "$@"\n')
    outside.chmod(0o755)
    (case.project / "tests").mkdir()
    (case.project / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    case.pyproject(f'python = "{outside}"')
    assert interpreter.find(str(case.project)).source == "sidekit"
    assert case.sidekit("test").returncode == 0
    assert not mark.exists()
    inside = case.project / "envs" / "bin" / "python"
    inside.parent.mkdir(parents=True)
    inside.symlink_to(outside)  # the repository's own interpreter folder: contained, so it is used
    case.pyproject('python = "envs/bin/python"')
    assert (
        interpreter.find(str(case.project)).path,
        interpreter.find(str(case.project)).source,
    ) == (
        str(inside),
        "setting",
    )
    (case.project / "pyproject.toml").unlink()
    assert case.sidekit("test", SIDEKIT_PYTHON=str(outside)).returncode == 0
    assert mark.read_text().startswith("ran")


def nudge_budget(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    from sidekit_hooks.nudges import spend

    case.pyproject(
        'nudge-budget = "on"\nSIDEKIT_NUDGE_BUDGET = "on"'
    )  # no project file turns it on or off
    monkeypatch.chdir(case.project)
    monkeypatch.setenv("SIDEKIT_NUDGE_BUDGET", "")
    assert spend.share() is None
    monkeypatch.setenv("SIDEKIT_NUDGE_BUDGET", "on")
    assert spend.share() == spend.SHARE == 0.05
    monkeypatch.setenv("SIDEKIT_NUDGE_BUDGET", "off")
    assert spend.share() is None
    monkeypatch.setenv("SIDEKIT_NUDGE_BUDGET", "0.1")
    assert spend.share() == 0.1


def hook_deadline(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    from sidekit_hooks.core import hook_table

    monkeypatch.delenv(hook_table.DEADLINE_ENV, raising=False)
    case.pyproject(
        f"{hook_table.DEADLINE_ENV} = 3\nhook-deadline = 3"
    )  # no project file lengthens it
    assert hook_table.deadline_of("PostToolUse") == hook_table.EVENTS["PostToolUse"].deadline
    for value, deadline in (
        ("2", 2.0),
        ("600", hook_table.MAX_DEADLINE),
        ("0", 0.8),
        ("nan", 0.8),
        ("x", 0.8),
    ):
        monkeypatch.setenv(
            hook_table.DEADLINE_ENV, value
        )  # longer, within the client's timeout, never shorter
        assert (hook_table.deadline_of("PostToolUse"), hook_table.deadline_of("PreToolUse")) == (
            deadline,
            deadline,
        )
    monkeypatch.setenv(hook_table.DEADLINE_ENV, "1.6")
    assert hook_table.stretch_of("Stop") == 2.0  # the detectors' share grows with it


def compact_pytest(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    command = f"{sys.executable} -m pytest -q"
    assert rewrite.rewrite(command, str(case.project), str(case.project)).startswith(command + " ")
    case.pyproject("compact-pytest = false")  # the repository may only turn it off
    assert rewrite.rewrite(command, str(case.project), str(case.project)) == ""
    case.pyproject("compact-pytest = true")
    monkeypatch.setenv("SIDEKIT_COMPACT_PYTEST", "0")
    assert rewrite.rewrite(command, str(case.project), str(case.project)) == ""


PACK = """[pack]
name = "{name}"
[[rules]]
id = "{name}.r1"
sidecar = "specs"
message = "Pack {name} speaks."
[rules.when]
tools = ["Write"]
"""


def rule_packs(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = case.home / "secret.toml"
    outside.write_text(PACK.format(name="outside"))
    packs = case.project / "sidecar_rules"
    packs.mkdir()
    (packs / "linked.toml").symlink_to(outside)
    (packs / "own.toml").write_text(PACK.format(name="own"))
    local = case.project / ".sidekit" / "rules"
    local.mkdir(parents=True)
    (local / "linked.toml").symlink_to(outside)
    assert case.edit_nudges() == "[sidecar:specs] Pack own speaks."
    user = case.home / "xdg" / "sidekit" / "rules"
    user.mkdir(parents=True)
    (user / "mine.toml").write_text(
        PACK.format(name="outside")
    )  # the same pack, from the user's place
    assert (
        case.edit_nudges("sess-2") == "[sidecar:specs] Pack outside speaks."
    )  # own's was said once already


def scope(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = case.home / "scope.toml"
    outside.write_text('allow = ["api/**"]\nissue = "planted"\n')
    (case.project / ".sidekit").mkdir()
    (case.project / ".sidekit" / "scope.toml").symlink_to(outside)
    said = case.edit_nudges()
    assert (
        "planted" not in said and "[sidecar:scope]" not in said
    )  # refused (the user is told), never read
    (case.project / ".sidekit" / "scope.toml").unlink()
    assert case.sidekit("scope", "set", "--issue", "gt-1", "--allow", "api/**").returncode == 0
    assert "[sidecar:scope] src/app.py" in case.edit_nudges("sess-2")


def mcp_entry(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    mark = case.home / "started"
    program = case.home / "bin" / "curl"
    program.parent.mkdir()
    program.write_text(f"#!/bin/sh\necho started > {mark}\n")
    program.chmod(0o755)
    entry = {"command": str(program), "args": ["-P", "-m", "sidekit_hooks.cli", "mcp"]}
    (case.project / ".mcp.json").write_text(json.dumps({"mcpServers": {"sidekit": entry}}))
    check = doctor._mcp_check(str(case.project))
    assert (check.status, mark.exists()) == ("problem", False)
    assert (
        check.detail
        == f".mcp.json server 'sidekit' was not started: its command {program} is not a Python "
        "interpreter"
    )
    (case.project / ".mcp.json").unlink()
    assert (
        case.sidekit("install", "--mcp").returncode == 0
    )  # the user's own entry: doctor starts it
    assert doctor._mcp_check(str(case.project)).detail.startswith(
        ".mcp.json server 'sidekit' lists 10 tools"
    )


def test_commands(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    mark = case.home / "tests-ran"
    (case.project / "package.json").write_text(
        json.dumps({"scripts": {"test": f"echo npm >> {mark}"}})
    )
    (case.project / "tests").mkdir()
    (case.project / "tests" / "conftest.py").write_text(
        f"open({str(mark)!r}, 'a').write('pytest\\n')\n"
    )
    (case.project / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    for event, body in (
        ("SessionStart", payload("SessionStart", case.project, source="startup")),
        ("UserPromptSubmit", payload("UserPromptSubmit", case.project, prompt="run the tests")),
        (
            "PostToolUse",
            write(case.project, "tests/test_ok.py", "def test_ok():\n    assert True\n"),
        ),
        ("Stop", payload("Stop", case.project)),
    ):
        assert case.run_hook(event, body).returncode == 0
    wait_for_workers(str(case.project))
    assert not mark.exists()
    assert (
        case.sidekit("test").returncode == 0
    )  # the user (or agent) runs the tests: the runner does
    assert mark.read_text() == "pytest\n"


CASES: dict[str, Callable[[Case, pytest.MonkeyPatch], None]] = {
    "`otel-endpoint`, `otel-headers`": otel_project,
    "`SIDEKIT_OTEL_ENDPOINT`, `SIDEKIT_OTEL_HEADERS`": otel_env,
    "`otel_endpoint`, `otel_headers` (plugin options)": otel_plugin,
    "`SIDEKIT_JUDGE` (+ `_TIMEOUT`, `_INTERVAL`)": judge,
    "`python`": python,
    "`SIDEKIT_NUDGE_BUDGET`": nudge_budget,
    "`SIDEKIT_HOOK_DEADLINE`": hook_deadline,
    "`compact-pytest = false`": compact_pytest,
    "rule packs (rules and their `[policy]`)": rule_packs,
    "task scope": scope,
    "`sidekit` server in `.mcp.json`": mcp_entry,
    "test commands (`package.json` scripts, `go test`, `cargo test`, `mvn test`...)": test_commands,
}


def table_rows() -> list[str]:
    text = TABLE.read_text()
    body = text.split("## The table", 1)[1].split("\n## ", 1)[0]
    return [
        re.split(r"\s*\|\s*", line.strip())[1]
        for line in body.splitlines()
        if line.startswith("| ")
    ][1:]


def test_every_row_of_the_table_has_its_case() -> None:
    assert table_rows() == list(CASES)


@pytest.fixture
def case(
    project: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    clean_env: dict[str, str],
    run_hook: HookRunner,
) -> Case:
    for name in (
        "SIDEKIT_PYTHON",
        "SIDEKIT_COMPACT_PYTEST",
        "CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT",
        "VIRTUAL_ENV",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    env = {k: v for k, v in os.environ.items() if k not in ("SIDEKIT_PYTHON", "VIRTUAL_ENV")}

    def hook(
        event: str, body: object, env: dict[str, str] | None = None, **kwargs: object
    ) -> object:
        return run_hook(
            event, body, env={"XDG_CONFIG_HOME": str(tmp_path / "xdg"), **(env or {})}, **kwargs
        )

    return Case(project, tmp_path, env, hook)  # type: ignore[arg-type]


@pytest.mark.parametrize("row", list(CASES))
def test_row(row: str, case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    CASES[row](case, monkeypatch)
