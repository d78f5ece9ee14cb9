"""The CLI never prints a traceback, never creates a missing project, never loses a nudge silently
(#15, deliver 5)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from testing.hostile import cli, context_of, hook, log_text, payload, put, queue_dir


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nudge", "--session", "s", "--ttl", "inf", "hi"], "cannot read the duration --ttl 'inf'"),
        (
            ["nudge", "--session", "s", "--ttl", "99999999999999999999d", "hi"],
            "cannot read the duration --ttl '99999999999999999999d'",
        ),
        (
            ["nudge", "--session", "s", "--after", "1e12", "hi"],
            "cannot read the duration --after '1e12'",
        ),
        (["nudge", "--session", "s", b"bad \xff text"], "is not valid UTF-8"),
        (["symbol", b"na\xffme"], "is not valid UTF-8"),
        (["usages", b"na\xffme"], "is not valid UTF-8"),
        (["select", "--project", "/etc/passwd"], "the project folder /etc/passwd is not a folder"),
        (["map", "--python", "/nonexistent"], "--python /nonexistent: no such interpreter"),
    ],
    ids=[
        "ttl-inf",
        "ttl-overflow",
        "after-1e12",
        "nudge-utf8",
        "symbol-utf8",
        "usages-utf8",
        "select-file",
        "map-python",
    ],
)
def test_bad_input_is_a_clear_error_not_a_traceback(
    project: Path, args: list[str | bytes], message: str
) -> None:
    extra = [] if "--project" in args else ["--project", str(project)]
    if args[0] in ("symbol", "usages"):
        extra = []
    done = cli(*args[:1], *extra, *args[1:], project=project)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (1, 2) and message in done.stderr, done.stderr
    assert "fix:" in done.stderr


COMMANDS = [
    "doctor",
    "report",
    "nudge --session s hi",
    "queue --session s",
    "rules list",
    "rules lint",
    "rules test",
    "rules new x",
    "scope set --allow a/**",
    "scope show",
    "scope clear",
    "conventions learn",
    "status",
    "test",
    "failures",
    "select",
    "tests-for a.py",
    "blast-radius a.py",
    "symbol x",
    "usages x",
    "map",
    "install",
    "uninstall",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_no_command_creates_a_missing_project_folder(
    project: Path, tmp_path: Path, command: str
) -> None:
    missing = tmp_path / "missing" / "proj"
    done = cli(*command.split(), "--project", str(missing), project=project, timeout=60)
    assert not missing.exists() and not missing.parent.exists()
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "does not exist" in done.stderr


def test_nudge_over_the_cap_says_what_it_dropped(project: Path) -> None:
    # The oldest, the one to drop, is queued by the CLI; the 49 after it are queued as gt (and the
    # CLI) write them, without a process each: the cap on the next call is the subject here.
    cli("nudge", "--project", str(project), "--session", "s", "n0", project=project)
    for index in range(1, 50):
        put(queue_dir(project, "s"), f"n{index}", sender="sidekit")
    done = cli(
        "nudge", "--project", str(project), "--session", "s", "one too many", project=project
    )
    assert done.returncode == 0
    assert (
        "the queue holds at most 50; dropped the oldest" in done.stderr
        and "from sidekit" in done.stderr
    )
    assert '"where":"queue-cap"' in log_text(project)
    assert len(list(queue_dir(project, "s").glob("*.json"))) == 50


def test_a_finding_that_could_not_be_queued_is_said_later(project: Path) -> None:
    assert (
        cli(
            "scope", "set", "--project", str(project), "--allow", "api/**", project=project
        ).returncode
        == 0
    )
    (project / "web").mkdir()
    (project / "web" / "x.py").write_text("a\n")
    event = payload(
        "PostToolUse",
        project,
        tool_name="Edit",
        tool_use_id="t1",
        tool_input={
            "file_path": str(project / "web" / "x.py"),
            "old_string": "a",
            "new_string": "b",
        },
    )
    blocked = queue_dir(project)
    blocked.parent.mkdir(parents=True)
    blocked.write_text(
        "a file where the session's queue folder should be: enqueue fails (like a full disk)"
    )
    first = hook("PostToolUse", event, project)
    assert first.returncode == 0 and context_of(first.stdout) == ""
    blocked.unlink()
    second = hook("PostToolUse", event, project)
    assert context_of(second.stdout).startswith(
        "[sidecar:scope] web/x.py is outside this task's scope"
    )


def test_replay_of_a_20_mb_transcript_is_quick(project: Path, tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    with path.open("w") as handle:
        size, index = 0, 0
        while size < 20 * 1024 * 1024:
            index += 1
            call = {
                "type": "assistant",
                "sessionId": "S",
                "cwd": str(project),
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": f"t{index}",
                            "name": "Bash",
                            "input": {"command": f"echo {index}"},
                        }
                    ],
                },
            }
            result = {
                "type": "user",
                "sessionId": "S",
                "cwd": str(project),
                "message": {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": f"t{index}", "content": "x" * 5000}
                    ],
                },
                "toolUseResult": {"stdout": "line\n" * 1000, "stderr": "", "interrupted": False},
            }
            for line in (call, result):
                text = json.dumps(line) + "\n"
                handle.write(text)
                size += len(text)
    started = time.monotonic()
    done = cli("replay", str(path), project=project, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{index} steps" in done.stdout
    assert time.monotonic() - started < 60  # minutes before (a hook subprocess per step)
