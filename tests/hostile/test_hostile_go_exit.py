"""Exit parity for go (#31, deliver 7): the rewritten `go test ... -exec <sidekit's wrapper>` ends
as the raw run does. A test binary's `os.Exit(130)` is exit status 130 (never "signal: interrupt");
a signal sent to the run stays a signal. Real `go test`, the rewrite taken from the real PreToolUse
hook."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from testing.hostile import hook, payload

pytestmark = pytest.mark.slow

EXITS = 'package p\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestExit(t *testing.T) { os.Exit(130) }\n'
# As ^C or a kill of the run's process group does, without reaching go: the wrapper go started, and
# the binary.
SIGNALLED = (
    'package p\n\nimport (\n\t"os"\n\t"syscall"\n\t"testing"\n\t"time"\n)\n\n'
    "func TestSignalled(t *testing.T) {\n\tsyscall.Kill(os.Getppid(), syscall.SIGTERM)\n"
    "\tsyscall.Kill(os.Getpid(), syscall.SIGTERM)\n\ttime.Sleep(5 * time.Second)\n}\n"
)


def module(tmp_path: Path, test: str) -> Path:
    if not shutil.which("go"):
        pytest.skip("go is not installed")
    root = tmp_path / "m"
    (root / "p").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "go.mod").write_text("module example.com/m\n\ngo 1.21\n")
    (root / "p" / "p_test.go").write_text(test)
    return root


def rewritten(project: Path) -> str:
    body = payload("PreToolUse", project, tool_name="Bash", tool_input={"command": "go test ./p/"})
    body["permission_mode"] = "bypassPermissions"
    done = hook("PreToolUse", body, project)
    command = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert " -exec " in command and command.startswith("go test ./p/ "), command
    return str(command)


def bash(project: Path, command: str) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIDEKIT_", "CLAUDE_"))}
    env.update(CLAUDE_PROJECT_DIR=str(project), GOFLAGS="-count=1")
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        start_new_session=True,  # a signal the test sends its group stays in it
    )
    return done.returncode, done.stdout + done.stderr


def test_os_exit_130_is_exit_status_130(tmp_path: Path) -> None:
    project = module(tmp_path, EXITS)
    raw = bash(project, "go test ./p/")
    compacted = bash(project, rewritten(project))
    assert raw[0] == compacted[0] == 1
    assert "exit status 130" in raw[1] and "exit status 130" in compacted[1], compacted[1]
    assert "signal" not in compacted[1]


def test_control_a_signal_sent_to_the_run_stays_a_signal(tmp_path: Path) -> None:
    project = module(tmp_path, SIGNALLED)
    code, out = bash(project, rewritten(project))
    assert code == 1
    assert "signal: terminated" in out and "exit status" not in out, out
