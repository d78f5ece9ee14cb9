"""MCP tools stay inside (#19 Deliver 2): `install --mcp` allows every tool without a prompt.

The server is driven over raw stdio JSON-RPC (as Claude Code does), so the same file can be pointed
at an older checkout with SIDEKIT_HOSTILE_ROOT.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from testing.hostile import CLI, ROOT, cli, env_for

SUITE = {
    "tests/test_a.py": "def test_one():\n    assert True\n\n\ndef test_two():\n    assert True\n"
}


class Server:
    """`sidekit mcp` over stdio; `call` answers (text, is_error), or fails the test on silence."""

    def __init__(self, project: Path) -> None:
        env = env_for(
            project, PYTEST_ADDOPTS="-p no:randomly -p no:xdist -p no:hypothesispytest -p no:anyio"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", CLI, str(ROOT), "mcp", "--project", str(project)],
            cwd=project.parent,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 1
        self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "1"},
            },
        )
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def request(
        self, method: str, params: dict[str, Any], raw: bytes | None = None, wait: float = 60
    ) -> Any:
        self.next_id += 1
        self.send(
            raw
            or json.dumps(
                {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
            ).encode()
        )
        expected = (
            json.loads(raw)["id"] if raw else self.next_id
        )  # not a late answer to an earlier case
        assert self.process.stdout is not None
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], deadline - time.monotonic())
            if not ready:
                break
            message = json.loads(self.process.stdout.readline())
            if message.get("id") == expected:
                return message
        pytest.fail(f"no answer to {method} within {wait} s")

    def call(self, tool: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        found = self.request("tools/call", {"name": tool, "arguments": arguments})
        result = found["result"]
        return result["content"][0]["text"], bool(result.get("isError"))

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def with_suite(project: Path) -> Path:
    for name, text in SUITE.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    return project


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the cases whose answer nothing an earlier call left can change (a refusal, a
    bound, a run of the passing SUITE): each case is a call and its answer, and a server's start
    would be most of its CPU. The scope cases, which change the project, get their own
    (`own_server`)."""
    project = tmp_path_factory.mktemp("mcp") / "proj"
    project.mkdir()
    running = Server(with_suite(project))
    yield running
    running.close()


@pytest.fixture
def own_server(project: Path) -> Iterator[Server]:
    running = Server(with_suite(project))
    yield running
    running.close()


@pytest.mark.parametrize(
    "args",
    [
        ["--basetemp={outside}"],
        ["--junitxml={outside}/x.xml"],
        ["-o", "cache_dir={outside}"],
        ["-p", "no:sidekit"],
        ["-c", "{outside}/x.ini"],
        ["--rootdir={outside}"],
        ["{outside}"],
        ["../outside"],
        ["tests/../../outside"],
        ["@args.txt"],
        ["-k"],
        ["--maxfail=everything"],
        ["-n", "1; rm -rf /"],
    ],
)
def test_mcp_test_refuses_anything_but_test_selection(
    server: Server, tmp_path: Path, args: list[str]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    text, is_error = server.call("test", {"args": [arg.format(outside=outside) for arg in args]})
    assert is_error, text
    assert "fix: give only test selection: node ids or paths inside the project" in text, text
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]


@pytest.mark.parametrize(
    "args",
    [
        ["tests/test_a.py::test_one"],
        ["-k", "one"],
        ["-x", "--lf"],
        ["--ff", "--maxfail=2"],
        ["-m", "not slow", "tests"],
        ["-kone"],
    ],
)
def test_mcp_test_runs_test_selection(server: Server, args: list[str]) -> None:
    text, is_error = server.call("test", {"args": args})
    assert not is_error, text
    assert json.loads(text)["exit"] == 0, text


def test_mcp_select_refuses_an_option_as_base(server: Server) -> None:
    text, is_error = server.call("select", {"base": "--output=/tmp/x"})
    assert is_error and "'base' must be a revision, not an option" in text, text


def user_sets_scope(project: Path, *rules: str) -> None:
    """The user's `sidekit scope set --issue gt-1 RULES`, from the CLI."""
    done = cli(
        "scope",
        "set",
        "--issue",
        "gt-1",
        *rules,
        "--project",
        str(project),
        project=project,
        cwd=project.parent,
    )
    assert done.returncode == 0


def test_scope_set_narrows_keeps_the_issue_and_logs(own_server: Server, project: Path) -> None:
    user_sets_scope(project, "--allow", "api/**")
    text, is_error = own_server.call("scope_set", {"allow": ["api/handlers/**"], "issue": ""})
    assert not is_error, text
    assert json.loads(text) == {
        "issue": "gt-1",
        "allow": ["api/handlers/**"],
        "file": ".sidekit/scope.toml",
    }
    logged = [
        json.loads(line)
        for line in (project / ".sidekit" / "log" / "scope.jsonl").read_text().splitlines()
    ]
    assert [(row["action"], row["allow"], row["issue"]) for row in logged] == [
        ("narrowed", ["api/handlers/**"], "gt-1")
    ]


@pytest.mark.parametrize(
    "allow, deny", [(["**"], []), (["api/**", "lib/**"], []), (["api/**"], None)]
)
def test_scope_set_never_widens_the_users_scope(
    own_server: Server, project: Path, allow: list[str], deny: list[str] | None
) -> None:
    user_sets_scope(project, "--allow", "api/**", "--deny", "api/secret/**")
    before = (project / ".sidekit" / "scope.toml").read_text()
    text, is_error = own_server.call(
        "scope_set", {"allow": allow, "deny": deny if deny is not None else []}
    )
    assert is_error and "scope_set would widen the scope the user set" in text, text
    assert (project / ".sidekit" / "scope.toml").read_text() == before
    shown = json.loads(
        cli("scope", "show", "--project", str(project), project=project, cwd=project.parent).stdout
    )
    assert shown["proposal"]["allow"] == allow and shown["issue"] == "gt-1"
    doctor = cli(
        "doctor", "--project", str(project), project=project, cwd=project.parent, timeout=180
    ).stdout
    assert "scope: the agent proposed a wider scope" in doctor, doctor
    logged = (project / ".sidekit" / "log" / "scope.jsonl").read_text()
    assert '"action":"proposed"' in logged.replace(" ", "")


def test_a_lone_surrogate_gets_an_answer(server: Server) -> None:
    raw = b'{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"symbol","arguments":{"name":"a\\ud800b"}}}'
    found = server.request("tools/call", {}, raw=raw, wait=30)
    assert found["id"] == 99 and "result" in found, found


def test_inputs_are_bounded(server: Server) -> None:
    started = time.monotonic()
    text, is_error = server.call(
        "failures", {"tests": [f"tests/test_a.py::t{i}" for i in range(20_000)]}
    )
    assert is_error and "'tests' has 20000 items; at most 200 per call" in text, text
    text, is_error = server.call("symbol", {"name": "x" * 100_000})
    assert is_error and "at most 4096" in text, text
    assert time.monotonic() - started < 10
