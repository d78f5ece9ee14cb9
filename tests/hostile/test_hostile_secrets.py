"""Secrets stay out of decisions.jsonl, the judge's input and logs, and nudges (#15, deliver 6)."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import pytest

from sidekit_hooks.core.redact import MASK, redact
from testing.hostile import context_of, hook, log_text, payload, queue_dir

TOKEN = "ghp_" + "a1B2" * 9  # GitHub's shape: ghp_ + 36 characters
SECRETS = {
    "aws": ("grep -r AKIAIOSFODNN7EXAMPLE .", "AKIAIOSFODNN7EXAMPLE"),
    "github": (f"export GITHUB_TOKEN={TOKEN}", TOKEN),
    "github-pat": ("github_pat_" + "A" * 30, "github_pat_" + "A" * 30),
    "gitlab": ("glpat-" + "x" * 20, "glpat-" + "x" * 20),
    "slack": ("curl -d token=xoxb-123456789012-abcdefABCDEF", "xoxb-123456789012-abcdefABCDEF"),
    "jwt": (
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "eyJhbGci",
    ),
    "private-key": (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA",
    ),
    "password": ("DB_PASSWORD=hunter2hunter2 ./run", "hunter2hunter2"),
    "secret-json": ('{"client_secret": "s3cr3t-value"}', "s3cr3t-value"),
}


@pytest.mark.parametrize("name", list(SECRETS))
def test_the_usual_secret_shapes_are_masked(name: str) -> None:
    text, secret = SECRETS[name]
    masked = redact(text)
    assert secret not in masked and MASK in masked


@pytest.mark.parametrize(
    "text",
    [
        "grep -rn parse_event sidekit_hooks",
        "severity high; path auth/x.py",
        "keyboard: ok",
        "[sidecar:scope] api/x.py is outside this task's scope",
        "",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_ordinary_text_does_not_even_import_re() -> None:
    import subprocess

    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); from sidekit_hooks.core.redact import redact;"
        "redact('[sidecar:tools] Searching code text for `parse_event`: severity high'); "
        "print('re' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe, str(Path(__file__).resolve().parents[2])],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    pass\n")
    return root


def test_a_secret_in_a_grep_command_stays_out_of_decisions_and_nudges(project: Path) -> None:
    from sidekit_hooks.code.index import Index

    # The grep hint speaks only for a name an index knows as a definition (#14): the code defines
    # it.
    (project / "b.py").write_text(f"def {TOKEN}():\n    pass\n")
    with Index.open(str(project)):
        pass
    event = payload(
        "PostToolUse",
        project,
        tool_name="Bash",
        tool_use_id="t1",
        tool_input={"command": f"grep -rn {TOKEN} ."},
        tool_response={"stdout": "b.py:1: a long listing\n" * 120, "stderr": ""},
    )  # hints follow long output
    done = hook("PostToolUse", event, project)
    said = context_of(done.stdout)
    assert said.startswith("[sidecar:tools] ") and MASK in said and TOKEN not in said
    decisions = log_text(project, "decisions.jsonl")
    assert '"decision":"fired"' in decisions and TOKEN not in decisions


def test_the_judge_never_sees_nor_repeats_a_secret(project: Path, tmp_path: Path) -> None:
    seen = tmp_path / "judge-saw.json"
    judge = tmp_path / "judge.py"
    judge.write_text(
        "import sys\n"
        f"open({str(seen)!r}, 'w').write(sys.stdin.read())\n"
        f"print('the output holds the key {TOKEN}; rotate it')\n"
    )
    printed = {
        "stdout": f"GITHUB_TOKEN={TOKEN}\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
        "stderr": "",
    }
    event = payload(
        "PostToolUse", project, tool_name="Bash", tool_use_id="t1", tool_input={"command": "env"}
    )
    event["tool_response"] = printed
    hook(
        "PostToolUse",
        event,
        project,
        SIDEKIT_JUDGE=f"{shlex.quote(sys.executable)} {shlex.quote(str(judge))}",
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and '"outcome":"queued"' not in log_text(
        project, "judge.jsonl"
    ):
        time.sleep(0.1)
    assert seen.is_file()
    assert TOKEN not in seen.read_text() and "AKIAIOSFODNN7EXAMPLE" not in seen.read_text()
    assert TOKEN not in log_text(project, "judge.jsonl")
    queued = "".join(p.read_text() for p in queue_dir(project).glob("*.json"))
    assert "rotate it" in queued and TOKEN not in queued
