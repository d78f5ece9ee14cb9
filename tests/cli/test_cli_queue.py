from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidekit_hooks import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_nudge_then_queue_lists_it(
    project: Path, capsys: pytest.CaptureFixture[str], clean_env: dict[str, str]
) -> None:
    code, out, _ = run(
        capsys,
        "nudge",
        "--project",
        str(project),
        "--session",
        "s1",
        "--sender",
        "mayor",
        "read",
        "mail",
    )
    assert code == 0 and out.startswith(str(project / ".runtime" / "nudge_queue" / "s1") + "/")
    code, out, _ = run(capsys, "queue", "--project", str(project), "--session", "s1")
    answer = json.loads(out)
    assert (
        code == 0
        and answer["pending"] == 1
        and answer["nudges"][0]["text"] == "[from mayor] read mail"
    )
    assert "remainder" not in answer and "\n" not in out.strip()


def test_urgent_with_ttl_and_text_format(
    project: Path, capsys: pytest.CaptureFixture[str], clean_env: dict[str, str]
) -> None:
    run(
        capsys,
        "nudge",
        "--project",
        str(project),
        "--session",
        "s1",
        "--priority",
        "urgent",
        "--ttl",
        "5m",
        "now",
    )
    code, out, _ = run(
        capsys, "queue", "--project", str(project), "--session", "s1", "--format", "text"
    )
    assert (
        code == 0
        and "pending: 1" in out
        and "priority: urgent" in out
        and "[URGENT from sidekit] now" in out
    )


def test_errors_end_with_the_fix(
    project: Path, capsys: pytest.CaptureFixture[str], clean_env: dict[str, str]
) -> None:
    code, _, err = run(capsys, "nudge", "--project", str(project), "hello")
    assert (
        code == 1
        and err
        == "sidekit: no session given and none found in the environment\n  fix: add --session "
        "SESSION_ID\n"
    )
    code, _, err = run(capsys, "queue", "--project", str(project), "--session", "..")
    assert code == 1 and err.endswith(
        "  fix: pass the Claude session_id or the tmux session name\n"
    )
    code, _, err = run(
        capsys, "nudge", "--session", "s", "--ttl", "soon", "x", "--project", str(project)
    )
    assert code == 1 and "fix: write e.g. --ttl 30m, 2h or 1d" in err


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "frobnicate")
    assert code == 2 and err == "sidekit: unknown command 'frobnicate'\n  fix: sidekit --help\n"
