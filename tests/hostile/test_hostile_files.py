"""Files as the user left them, and clear errors (#19 Deliver 7): .gitignore round trips byte for
byte, bad CLI calls name the fix, and the report survives what a log can hold."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sidekit_hooks.pipeline.hook_events import EVENTS
from testing.hostile import ROOT, SCRIPTS, cli, env_for, payload


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def round_trip(project: Path) -> None:
    assert (
        cli("install", "--project", str(project), project=project, cwd=project.parent).returncode
        == 0
    )
    assert ".sidekit" in (project / ".gitignore").read_text()
    assert (
        cli("uninstall", "--project", str(project), project=project, cwd=project.parent).returncode
        == 0
    )


@pytest.mark.parametrize(
    "text",
    [b"", b"build/\r\n*.pyc\r\n", b"build/\n*.pyc", b"build/\r\n*.pyc", b"a\n"],
    ids=["tracked-empty", "crlf", "no-final-newline", "crlf-no-final-newline", "plain"],
)
def test_uninstall_gives_gitignore_back_byte_for_byte(project: Path, text: bytes) -> None:
    (project / ".gitignore").write_bytes(text)
    subprocess.run(["git", "-C", str(project), "add", ".gitignore"], check=True)
    round_trip(project)
    assert (project / ".gitignore").exists(), "a tracked .gitignore was deleted"
    assert (project / ".gitignore").read_bytes() == text


def test_a_gitignore_install_created_goes_again(project: Path) -> None:
    round_trip(project)
    assert not (project / ".gitignore").exists()


def test_install_adds_crlf_lines_to_a_crlf_gitignore(project: Path) -> None:
    (project / ".gitignore").write_bytes(b"build/\r\n")
    assert (
        cli("install", "--project", str(project), project=project, cwd=project.parent).returncode
        == 0
    )
    data = (project / ".gitignore").read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n"), data


@pytest.mark.parametrize(
    ("args", "message", "fix"),
    [
        (
            ["report", "--output", "{tmp}/missing/r.html", "--format", "html"],
            "cannot write the report to {tmp}/missing/r.html",
            "fix: create the folder first (mkdir -p {tmp}/missing)",
        ),
        (
            ["report", "--output", "{tmp}"],
            "cannot write the report to {tmp}: Is a directory",
            "fix: name a file, e.g. --output",
        ),
        (
            ["report", "--output", "/dev/full"],
            "cannot write the report to /dev/full: No space left on device",
            "fix: name a file you can write",
        ),
        (
            ["scope", "set", "--allow", "a/**"],
            "cannot write {project}/.sidekit/scope.toml: Is a directory",
            "fix: move it out of the way",
        ),
    ],
    ids=[
        "report-missing-folder",
        "report-into-a-folder",
        "report-full-disk",
        "scope-over-a-folder",
    ],
)
def test_bad_cli_calls_are_clear_errors_with_the_fix(
    project: Path, tmp_path: Path, args: list[str], message: str, fix: str
) -> None:
    (project / ".sidekit" / "scope.toml").mkdir(parents=True)
    names = {"tmp": str(tmp_path), "project": str(project)}
    done = cli(
        *[arg.format(**names) for arg in args],
        "--project",
        str(project),
        project=project,
        cwd=project.parent,
    )
    assert done.returncode in (1, 2), done.stderr
    assert "unexpected error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert message.format(**names) in done.stderr and fix.format(**names) in done.stderr, (
        done.stderr
    )


def decisions(project: Path, records: list[dict[str, object]]) -> None:
    folder = project / ".sidekit" / "log"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "decisions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


@pytest.mark.parametrize("ts", [math.nan, math.inf, -math.inf, 1e300, -5.0, "yesterday", True])
@pytest.mark.parametrize("kind", ["text", "json", "html"])
def test_report_survives_any_timestamp(project: Path, ts: object, kind: str) -> None:
    decisions(
        project,
        [
            {
                "ts": ts,
                "session": "s1",
                "sidecar": "scope",
                "rule": "r",
                "decision": "delivered",
                "text": "x",
            },
            {
                "ts": 1.7e9,
                "session": "s2",
                "sidecar": "scope",
                "rule": "r",
                "decision": "fired",
                "text": "y",
            },
        ],
    )
    for extra in ([], ["--days", "3"], ["--sessions", "1"]):
        done = cli(
            "report",
            "--format",
            kind,
            *extra,
            "--project",
            str(project),
            project=project,
            cwd=project.parent,
        )
        assert done.returncode == 0, done.stderr


class DataBlock(HTMLParser):
    """The text of `<script id="report-data">` as a browser's tokenizer cuts it."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.text = False, ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside = tag == "script" and ("id", "report-data") in attrs

    def handle_endtag(self, tag: str) -> None:
        self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.text += data


@pytest.mark.parametrize(
    "rule", ["a<!--b", "<!--<script>", "x</script><b>", "</SCRIPT ", "a&amp;<!-- -->"]
)
def test_a_rule_id_cannot_break_the_html_data_block(project: Path, rule: str) -> None:
    decisions(
        project,
        [
            {
                "ts": 1.7e9,
                "session": "s1",
                "sidecar": "specs",
                "rule": rule,
                "decision": "fired",
                "text": "t",
            }
        ],
    )
    done = cli(
        "report", "--format", "html", "--project", str(project), project=project, cwd=project.parent
    )
    assert done.returncode == 0, done.stderr
    parser = DataBlock()
    parser.feed(done.stdout)
    data = json.loads(parser.text)
    assert rule in json.dumps(data, ensure_ascii=False), data
    script = re.search(
        r'<script type="application/json" id="report-data">(.*?)</script>', done.stdout, re.S
    )
    assert script is not None and "<" not in script.group(1)


# The hook runs under this small launcher: a child forked from a large process (a long test session,
# an xdist worker) starts with that process's peak memory as its own (Linux keeps it through exec),
# so the hook is forked from the launcher, which is small, and its own peak is what the launcher
# reports.
LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"maxrss={usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def measured_hook(
    event: str, data: dict[str, object], project: Path, kill_after: float = 20.0
) -> tuple[int, str, float, int]:
    """A real hook run: (exit code, stdout, seconds until it exited, its peak memory in KiB), the
    memory of the hook's own process (see LAUNCHER), never that of the test process it was started
    from."""
    argv = [
        sys.executable,
        "-S",
        "-c",
        LAUNCHER,
        sys.executable,
        "-S",
        str(ROOT / "hooks" / SCRIPTS[event]),
    ]
    started = time.monotonic()
    child = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env_for(project),
        cwd=project,
        start_new_session=True,
    )
    timer = threading.Timer(
        kill_after, lambda: os.killpg(child.pid, signal.SIGKILL)
    )  # a hang reads as over time
    timer.start()
    try:
        out, err = child.communicate(json.dumps(data).encode())
    finally:
        timer.cancel()
    took = time.monotonic() - started
    reported = [
        line for line in err.decode("utf-8", "replace").splitlines() if line.startswith("maxrss=")
    ]
    memory = int(reported[-1].split("=", 1)[1]) if reported else 0
    return child.returncode, out.decode("utf-8", "replace"), took, memory


# A repository file that never ends (a link to /dev/zero) or blocks its reader (a FIFO) under the
# names the PreToolUse rewrite reads for the command it is judging (PYTHON: an environment that
# records, so the pytest rewrite reads on to the project's settings and ini files).
ENDLESS_FILES = [
    ("package.json", "dev-zero", "npm test"),
    ("package.json", "fifo", "npm test"),
    ("pyproject.toml", "fifo", "PYTHON -m pytest -q"),
    ("pyproject.toml", "dev-zero", "PYTHON -m pytest -q"),
    ("pytest.ini", "fifo", "PYTHON -m pytest"),
]
# The same under names PreToolUse does not read today (or read bounded and without blocking
# already).
ENDLESS_CONTROLS = [
    ("package.json", "dev-zero", "npx vitest run"),
    ("go.mod", "fifo", "go test ./..."),
    ("go.mod", "dev-zero", "go test ./..."),
    ("Cargo.toml", "fifo", "cargo test"),
    ("tox.ini", "dev-zero", "PYTHON -m pytest"),
]
HOOK_MEMORY_KIB = 100 * 1024  # a hook is a small Python: ~40 MB; 1.44 GB was /dev/zero read whole


def pretooluse_with_endless_file(project: Path, name: str, kind: str, command: str) -> None:
    (project / "src").mkdir()
    (project / "src" / "a_test.go").write_text("package a\n")
    if kind == "fifo":
        os.mkfifo(project / name)
    else:
        (project / name).symlink_to("/dev/zero")
    command = command.replace("PYTHON", sys.executable)
    data = payload(
        "PreToolUse",
        project,
        tool_name="Bash",
        tool_input={"command": command},
        tool_use_id="toolu_1",
    )
    code, out, took, memory = measured_hook("PreToolUse", data, project)
    assert code == 0 and took < EVENTS["PreToolUse"].deadline and memory < HOOK_MEMORY_KIB, (
        took,
        memory,
        out,
    )
    assert out == "" or json.loads(out)["hookSpecificOutput"]["hookEventName"] == "PreToolUse"


def case_ids(cases: list[tuple[str, str, str]]) -> list[str]:
    return [f"{name}-{kind}-{command.split()[0].lower()}" for name, kind, command in cases]


@pytest.mark.parametrize(("name", "kind", "command"), ENDLESS_FILES, ids=case_ids(ENDLESS_FILES))
def test_an_endless_repository_file_leaves_pretooluse_in_time_and_small(
    project: Path, name: str, kind: str, command: str
) -> None:
    pretooluse_with_endless_file(project, name, kind, command)


@pytest.mark.parametrize(
    ("name", "kind", "command"), ENDLESS_CONTROLS, ids=case_ids(ENDLESS_CONTROLS)
)
def test_control_an_endless_file_pretooluse_does_not_read(
    project: Path, name: str, kind: str, command: str
) -> None:
    pretooluse_with_endless_file(project, name, kind, command)


def test_control_pretooluse_of_a_plain_npm_test_is_in_time_and_small(project: Path) -> None:
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "vitest run"}}))
    data = payload(
        "PreToolUse",
        project,
        tool_name="Bash",
        tool_input={"command": "npm test"},
        tool_use_id="toolu_1",
    )
    code, _out, took, memory = measured_hook("PreToolUse", data, project)
    assert code == 0 and took < EVENTS["PreToolUse"].deadline and memory < HOOK_MEMORY_KIB, (
        took,
        memory,
    )


# Files a repository can commit where sidekit keeps its own state or reads its packs. A FIFO there
# held the reader: the CLI for ever; a hook only until its detector's budget ran out (so those are
# controls).
STATE_FIFOS = [".sidekit/scope.toml", "sidecar_rules/team.toml", ".sidekit/rules/local.toml"]


@pytest.mark.parametrize("name", STATE_FIFOS)
def test_control_a_fifo_among_sidekits_files_leaves_posttooluse_in_time(
    project: Path, name: str
) -> None:
    (project / name).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(project / name)
    (project / "app.py").write_text("x = 1\n")
    data = payload(
        "PostToolUse",
        project,
        tool_name="Edit",
        tool_input={
            "file_path": str(project / "app.py"),
            "old_string": "x = 1",
            "new_string": "x = 2",
        },
        tool_response={"filePath": str(project / "app.py")},
        tool_use_id="toolu_1",
    )
    code, out, took, memory = measured_hook("PostToolUse", data, project)
    assert code == 0 and took < EVENTS["PostToolUse"].deadline and memory < HOOK_MEMORY_KIB, (
        took,
        memory,
        out,
    )


def test_a_fifo_in_place_of_the_status_cache_never_holds_the_cli(project: Path) -> None:
    (project / ".sidekit").mkdir()
    os.mkfifo(project / ".sidekit" / "status.json")
    try:
        done = cli("status", project=project, timeout=10)
    except subprocess.TimeoutExpired:
        pytest.fail("sidekit status blocked on a FIFO named .sidekit/status.json")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["runner"] == "none", done.stdout
