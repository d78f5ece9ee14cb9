"""A denied test run stays denied when sidekit is wired, in the real Claude Code CLI (2.1.328) (#31
item 1).

The scripted model runs one test command that the user's rules deny: by the client's own flag
(`--disallowedTools "Bash(<the command>)"` beside `--allowedTools Bash`), or by a settings wildcard
that names no program (`Bash(* ./internal/secret)`, `Bash(* secret)`). Without sidekit the client
refuses it; a rewrite that appended options would slip past the rule. The test itself writes a
marker file when it runs, so "never ran" is seen on disk, and the same session without the deny (the
control) creates the marker through the rewritten command.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from testing import js
from testing.bash_runs import answer, bash_session
from testing.claude import Run

pytestmark = pytest.mark.slow

GO_COMMAND = "go test ./internal/secret"
VITEST_COMMAND = "npx vitest run secret"
MARKER = "secret-test-ran"


def go_project(project: Path) -> Path:
    """A go module whose `internal/secret` test writes the marker when it runs."""
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    (project / "internal" / "secret").mkdir(parents=True)
    (project / "go.mod").write_text("module example.com/m\n\ngo 1.21\n")
    (project / "internal" / "secret" / "secret_test.go").write_text(
        'package secret\n\nimport (\n\t"os"\n\t"testing"\n)\n\n'
        "func TestSecret(t *testing.T) "
        f"{{\n\tif err := os.WriteFile({json.dumps(str(project / MARKER))}, "
        '[]byte("ran"), 0o644); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n'
    )
    return project


def vitest_project(root: Path) -> Path:
    """A vitest project whose `test/secret.test.js` writes the marker when it runs."""
    project = js.base_project(root, "vitest", script="vitest run")
    (project / "test").mkdir()
    (project / "test" / "secret.test.js").write_text(
        "import { writeFileSync } from 'node:fs'\nimport { test } from 'vitest'\n\n"
        f"test('secret', () => {{ writeFileSync({json.dumps(str(project / MARKER))}, 'ran') }})\n"
    )
    return project


def go_env() -> dict[str, str]:
    """The agent's go shares this machine's build cache (its HOME is a fresh folder); no cached
    result."""
    cache = subprocess.run(
        ["go", "env", "GOCACHE"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return {"GOCACHE": cache, "GOFLAGS": "-count=1", "PATH": os.environ.get("PATH", "")}


def deny_in_settings(project: Path, rule: str, mode: str) -> None:
    """The project's settings (as `sidekit install` left them) gain a deny rule and a default
    mode."""
    settings = project / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["permissions"] = {"deny": [rule], "defaultMode": mode}
    settings.write_text(json.dumps(data))


def session(
    cli: Path,
    project: Path,
    home: Path,
    command: str,
    permissions: Sequence[str],
    env: dict[str, str],
) -> tuple[Run, str, list[str]]:
    """One session running `command`: (the run, what the model received, the rewrites the hook
    answered)."""
    run = bash_session(
        cli, project, home, [command], permissions=tuple(permissions), env=env, hook_events=True
    )
    _, body, _ = answer(run, 0)
    return run, body, answered(run.hooks_per_call("PreToolUse")[0])


def answered(messages: list[dict[str, Any]]) -> list[str]:
    """The commands the PreToolUse handlers answered with (`updatedInput`)."""
    return [
        json.loads(message["stdout"])["hookSpecificOutput"]["updatedInput"]["command"]
        for message in messages
        if message.get("subtype") == "hook_response"
        and '"updatedInput"' in str(message.get("stdout", ""))
    ]


FLAGS = ("--permission-mode", "default", "--allowedTools", "Bash")
# How each case denies the command: the client's own flag; a settings wildcard in the default mode
# with Bash allowed (rewritten, the command would run), with nothing allowed (rewritten, the deny
# would turn into "requires approval"), and under bypassPermissions (only a deny stops a call
# there).
CASES: dict[str, tuple[str, Sequence[str]]] = {
    "disallowed-tools": ("", FLAGS),
    "settings-default": ("default", FLAGS),
    "settings-default-nothing-allowed": ("default", ("--permission-mode", "default")),
    "settings-bypass": ("bypassPermissions", ("--permission-mode", "bypassPermissions")),
}
BYPASS_ENV = {
    "IS_SANDBOX": "1"
}  # the CLI refuses bypassPermissions as root unless it runs in a sandbox


def denied_by(
    case: str, project: Path, command: str, wildcard: str
) -> tuple[list[str], dict[str, str]]:
    """The permission flags (and any environment) of a session in which `case` denies `command`."""
    mode, flags = CASES[case]
    if not mode:
        return [*flags, "--disallowedTools", f"Bash({command})"], {}
    deny_in_settings(project, wildcard, mode)
    return list(flags), BYPASS_ENV if mode == "bypassPermissions" else {}


@pytest.fixture
def wired_go(project: Path, sidekit: Callable[..., str]) -> Path:
    go_project(project)
    sidekit("install", "--project", str(project))
    return project


@pytest.fixture
def wired_vitest(tmp_path: Path, sidekit: Callable[..., str]) -> Path:
    project = vitest_project(tmp_path / "secret-vitest")
    sidekit("install", "--project", str(project))
    return project


def test_control_go_without_a_deny_runs_rewritten(
    claude_cli: Path, wired_go: Path, tmp_path: Path
) -> None:
    _, body, rewrites = session(
        claude_cli, wired_go, tmp_path / "home", GO_COMMAND, FLAGS, go_env()
    )
    assert [r.split(" -exec ")[0] for r in rewrites] == [GO_COMMAND], rewrites
    assert (wired_go / MARKER).read_text() == "ran", body
    assert body.startswith("ok  \texample.com/m/internal/secret"), body


@pytest.mark.parametrize("case", list(CASES))
def test_a_denied_go_test_never_runs(
    claude_cli: Path, wired_go: Path, tmp_path: Path, case: str
) -> None:
    flags, env = denied_by(case, wired_go, GO_COMMAND, "Bash(* ./internal/secret)")
    _, body, rewrites = session(
        claude_cli, wired_go, tmp_path / "home", GO_COMMAND, flags, {**go_env(), **env}
    )
    assert not (wired_go / MARKER).exists(), (body, rewrites)  # the denied test never ran
    assert body == f"Permission to use Bash with command {GO_COMMAND} has been denied.", (
        body,
        rewrites,
    )
    assert rewrites == []


def test_control_vitest_without_a_deny_runs_rewritten(
    claude_cli: Path, wired_vitest: Path, tmp_path: Path
) -> None:
    _, body, rewrites = session(
        claude_cli, wired_vitest, tmp_path / "home", VITEST_COMMAND, FLAGS, {}
    )
    assert [r.split(" --reporter=")[0] for r in rewrites] == [VITEST_COMMAND], rewrites
    assert (wired_vitest / MARKER).read_text() == "ran", body


@pytest.mark.parametrize("case", list(CASES))
def test_a_denied_vitest_run_never_runs(
    claude_cli: Path, wired_vitest: Path, tmp_path: Path, case: str
) -> None:
    flags, env = denied_by(case, wired_vitest, VITEST_COMMAND, "Bash(* secret)")
    _, body, rewrites = session(
        claude_cli, wired_vitest, tmp_path / "home", VITEST_COMMAND, flags, env
    )
    assert not (wired_vitest / MARKER).exists(), (body, rewrites)  # the denied test never ran
    assert body == f"Permission to use Bash with command {VITEST_COMMAND} has been denied.", (
        body,
        rewrites,
    )
    assert rewrites == []
