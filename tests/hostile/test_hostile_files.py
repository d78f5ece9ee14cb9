"""Files as the user left them, and clear errors (#19 Deliver 7): .gitignore round trips byte for byte,
bad CLI calls name the fix, and the report survives what a log can hold."""

from __future__ import annotations

import json
import math
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from testing.hostile import cli


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def round_trip(project: Path) -> None:
    assert cli("install", "--project", str(project), project=project, cwd=project.parent).returncode == 0
    assert ".sidekit" in (project / ".gitignore").read_text()
    assert cli("uninstall", "--project", str(project), project=project, cwd=project.parent).returncode == 0


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
    assert cli("install", "--project", str(project), project=project, cwd=project.parent).returncode == 0
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
    ids=["report-missing-folder", "report-into-a-folder", "report-full-disk", "scope-over-a-folder"],
)
def test_bad_cli_calls_are_clear_errors_with_the_fix(
    project: Path, tmp_path: Path, args: list[str], message: str, fix: str
) -> None:
    (project / ".sidekit" / "scope.toml").mkdir(parents=True)
    names = {"tmp": str(tmp_path), "project": str(project)}
    done = cli(*[arg.format(**names) for arg in args], "--project", str(project), project=project, cwd=project.parent)
    assert done.returncode in (1, 2), done.stderr
    assert "unexpected error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert message.format(**names) in done.stderr and fix.format(**names) in done.stderr, done.stderr


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
            {"ts": ts, "session": "s1", "sidecar": "scope", "rule": "r", "decision": "delivered", "text": "x"},
            {"ts": 1.7e9, "session": "s2", "sidecar": "scope", "rule": "r", "decision": "fired", "text": "y"},
        ],
    )
    for extra in ([], ["--days", "3"], ["--sessions", "1"]):
        done = cli("report", "--format", kind, *extra, "--project", str(project), project=project, cwd=project.parent)
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


@pytest.mark.parametrize("rule", ["a<!--b", "<!--<script>", "x</script><b>", "</SCRIPT ", "a&amp;<!-- -->"])
def test_a_rule_id_cannot_break_the_html_data_block(project: Path, rule: str) -> None:
    decisions(
        project, [{"ts": 1.7e9, "session": "s1", "sidecar": "specs", "rule": rule, "decision": "fired", "text": "t"}]
    )
    done = cli("report", "--format", "html", "--project", str(project), project=project, cwd=project.parent)
    assert done.returncode == 0, done.stderr
    parser = DataBlock()
    parser.feed(done.stdout)
    data = json.loads(parser.text)
    assert rule in json.dumps(data, ensure_ascii=False), data
    script = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', done.stdout, re.S)
    assert script is not None and "<" not in script.group(1)
