"""Bad input is bad input (#31, deliver 7): a malformed event is logged as such in every hook, never
as a crash, and a bad `--python` gets a clear message that ends with the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testing.hostile import SCRIPTS, cli, hook, log_text

CMD = '"tool_name":"Bash","tool_input":{"command":"pytest -q tests"}'
MALFORMED = {
    "bom": ("\ufeff{" + CMD + "}").encode(),
    "unterminated": b'{"tool_name":"Bash","tool_input":{"command":"pytest -q',
    "trailing": ("{" + CMD + '} {"x": 1}').encode(),
    "list": b'["pytest", "test"]',
    "string": b'"pytest tests"',
}
# Every body names a test run: PreToolUse reads no further than that word in a payload without one
# (the hook's start-up cost for every other Bash call), so only those can be judged there.


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "tests").mkdir()
    (root / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    return root


def records(project: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in log_text(project).splitlines() if line.strip()]


def answered(stdout: str) -> bool:
    """Nothing, or exactly one JSON object."""
    return not stdout.strip() or isinstance(json.loads(stdout), dict)


@pytest.mark.parametrize("kind", sorted(MALFORMED))
@pytest.mark.parametrize("event", sorted(SCRIPTS))
def test_a_malformed_event_is_logged_as_bad_input(project: Path, event: str, kind: str) -> None:
    done = hook(event, MALFORMED[kind], project)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    assert [(r["hook"], r["where"]) for r in records(project)] == [(event, "bad-input")]


LONE = '{"session_id":"s\\ud800","cwd":"%s","prompt":"fix \\udc00 test","tool_name":"Bash","tool_input":{"command":"pytest \\ud800"}}'


@pytest.mark.parametrize("event", sorted(SCRIPTS))
def test_lone_surrogates_are_mended_and_logged_as_bad_input(project: Path, event: str) -> None:
    done = hook(event, LONE % project, project, PYTHONIOENCODING="utf-8:strict")
    assert done.returncode == 0 and answered(done.stdout) and done.stderr == ""
    assert {(r["hook"], r["where"]) for r in records(project)} == {(event, "bad-input")}


def test_an_event_over_the_limit_is_bad_input_not_a_cut_document(project: Path) -> None:
    body = b'{"prompt":"' + b"x" * (64 << 20) + b'"}'
    done = hook("UserPromptSubmit", body, project, timeout=120)
    assert done.returncode == 0 and done.stdout == ""
    assert [(r["where"], r["error"]) for r in records(project)] == [
        ("bad-input", "the event is over 64 MiB; not read")
    ]


def test_control_a_well_formed_event_logs_nothing(project: Path) -> None:
    body = json.dumps({"session_id": "s", "cwd": str(project), "prompt": "hello"})
    done = hook("UserPromptSubmit", body, project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert records(project) == []


@pytest.mark.parametrize(
    ("given", "what"), [("/no/such/python", "does not exist"), ("/etc", "is a folder")]
)
def test_a_bad_python_gets_a_clear_message_ending_with_the_fix(
    project: Path, given: str, what: str
) -> None:
    done = cli("test", "--python", given, project=project)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"sidekit: --python {given}: no such interpreter ({what})",
        "  fix: pass the project's interpreter (without --python, the one `sidekit doctor` shows): "
        "sidekit test --python .venv/bin/python",
    ]


def test_control_a_bad_command_name_names_the_help(project: Path) -> None:
    done = cli("no-such-command", project=project)
    assert (done.returncode, done.stderr) == (
        2,
        "sidekit: unknown command 'no-such-command'\n  fix: sidekit --help\n",
    )


def test_a_bad_option_ends_with_the_command_that_shows_the_options(project: Path) -> None:
    done = cli("status", "--since", "abc", project=project)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-2:] == [
        "sidekit status: error: argument --since: invalid int value: 'abc'",
        "  fix: sidekit status --help",
    ]
