"""Whether the client's Bash rules judge a command and its rewrite alike: the rule readings, the
sources."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sidekit_hooks.runners import permissions

ORIGINAL = "python -m pytest -q tests/integration"
REWRITTEN = ORIGINAL + " -o sidekit_compact=true"


@pytest.fixture(autouse=True)
def no_client(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No `claude` runs these tests (even when the suite itself runs inside a session) and HOME is
    empty."""
    for name in ("CLAUDE_PID", "CLAUDECODE", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(permissions, "client_argv", lambda: [])


@pytest.mark.parametrize(
    ("rule", "alike"),
    [
        ("Bash", True),
        ("Bash(*)", True),
        ("Bash(python -m pytest:*)", True),
        ("Bash(python -m pytest *)", True),
        ("Bash(python*)", True),
        ("Bash(git status)", True),
        ("Bash(pytest -q)", True),  # matches neither
        ("Read(*)", True),
        (
            "Bash(* tests/integration)",
            False,
        ),  # a wildcard that does not name pytest, anchored at the end
        ("Bash(python -m pytest -q tests/integration)", False),  # exact
        ("Bash(*integration)", False),
        ("Bash(* -o *)", False),  # matches only the rewrite
        ("Bash(*sidekit_compact*)", False),
        ("Bash(python -m pytest -q tests/integration:*)", True),
    ],
)
def test_each_rule_is_judged_on_both_commands(tmp_path: Path, rule: str, alike: bool) -> None:
    for kind in ("allow", "deny", "ask"):
        (tmp_path / ".claude").mkdir(exist_ok=True)
        (tmp_path / ".claude" / "settings.json").write_text(
            json.dumps({"permissions": {kind: [rule]}})
        )
        assert permissions.judged_alike(ORIGINAL, REWRITTEN, [str(tmp_path)]) is alike, (kind, rule)


@pytest.mark.parametrize(
    "command",
    [
        "cd sub && python -m pytest -q tests/integration",
        "FOO=1  python -m pytest -q tests/integration",
    ],
)
def test_compound_commands_and_assignments_are_judged_per_reading(
    tmp_path: Path, command: str
) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.local.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(python -m pytest -q tests/integration)"]}})
    )
    assert not permissions.judged_alike(
        command, command + " -o sidekit_compact=true", [str(tmp_path)]
    )


def test_every_settings_layer_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "p"
    home = tmp_path / "home" / ".claude"
    home.mkdir(parents=True)
    deny = json.dumps({"permissions": {"deny": ["Bash(* tests/integration)"]}})
    (home / "settings.json").write_text(deny)
    assert not permissions.judged_alike(ORIGINAL, REWRITTEN, [str(project)])
    (home / "settings.json").write_text("{}")
    assert permissions.judged_alike(ORIGINAL, REWRITTEN, [str(project)])
    monkeypatch.setattr(permissions, "MANAGED", str(tmp_path / "managed.json"))
    (tmp_path / "managed.json").write_text(deny)
    assert not permissions.judged_alike(ORIGINAL, REWRITTEN, [str(project)])


@pytest.mark.parametrize(
    "text",
    [
        '{"permissions": {"allow": ["Bash(git',
        '{"permissions": ["Bash(x)"]}',
        '{"permissions": {"deny": "Bash(x)"}}',
    ],
)
def test_a_settings_file_that_cannot_be_read_means_no(tmp_path: Path, text: str) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(text)
    assert not permissions.judged_alike(ORIGINAL, REWRITTEN, [str(tmp_path)])


def test_a_settings_folder_in_place_of_the_file_means_no(tmp_path: Path) -> None:
    (tmp_path / ".claude" / "settings.json").mkdir(parents=True)
    assert not permissions.judged_alike(ORIGINAL, REWRITTEN, [str(tmp_path)])


def test_client_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [
        "claude",
        "-p",
        "go",
        "--allowedTools",
        "Bash(git log:*) Edit,Read",
        "Bash(python -m pytest -q)",
        "--model",
        "m",
        "--disallowed-tools=Bash(rm:*)",
        "--settings",
        json.dumps({"permissions": {"ask": ["Bash(*integration)"]}}),
    ]
    assert permissions.flag_rules(argv) == ["git log:*", "python -m pytest -q", "rm:*"]
    monkeypatch.setattr(permissions, "client_argv", lambda: argv)
    assert "*integration" in permissions.bash_rules([str(tmp_path)])
    assert not permissions.judged_alike(ORIGINAL, REWRITTEN, [str(tmp_path)])
    with pytest.raises(permissions.Unknown):
        permissions.flag_rules(["claude", "--permission-prompt-tool", "mcp__x__y"])


def test_split_rules_keeps_parentheses_whole() -> None:
    assert permissions.split_rules("Bash(npm run a, b) Edit , Read") == [
        "Bash(npm run a, b)",
        "Edit",
        "Read",
    ]


def test_the_client_is_found_by_claude_pid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    monkeypatch.setenv(
        "CLAUDE_PID", str(os.getpid())
    )  # this process is no claude: the walk goes on, finds none
    monkeypatch.delenv("CLAUDECODE", raising=False)
    with pytest.raises(permissions.Unknown):  # a client is said to run, and none is found: unknown
        permissions.client_argv()


def test_the_folders_whose_settings_count_include_each_cd_on_the_way(tmp_path: Path) -> None:
    cwd, project = str(tmp_path / "p" / "sub"), str(tmp_path / "p")
    assert permissions.command_folders(
        "cd a && cd '../b c' && cd - && go test ./...", cwd, project
    ) == [
        project,
        cwd,
        f"{cwd}/a",
        f"{cwd}/b c",
    ]
    assert permissions.command_folders("go test ./... && cd a", cwd, cwd) == [cwd]


def test_a_deny_in_the_folder_the_command_moves_to_counts(tmp_path: Path) -> None:
    (tmp_path / "sub" / ".claude").mkdir(parents=True)
    deny = {"permissions": {"deny": ["Bash(* ./internal/secret)"]}}
    (tmp_path / "sub" / ".claude" / "settings.json").write_text(json.dumps(deny))
    command = "cd sub && go test ./internal/secret"
    assert not permissions.rewrite_keeps_verdict(
        command, command + " -exec x", str(tmp_path), str(tmp_path)
    )
    assert permissions.rewrite_keeps_verdict(
        "go test ./internal/secret",
        "go test ./internal/secret -exec x",
        str(tmp_path),
        str(tmp_path),
    )


@pytest.mark.parametrize(
    ("rule", "alike"),
    [
        ("Bash(cargo test:*)", False),
        ("Bash(cargo:*)", False),
        ("Bash(git status)", True),  # a rule that names neither
    ],
)
def test_a_wrapper_in_front_of_the_runner_is_judged_apart_by_every_rule_that_names_it(
    tmp_path: Path, rule: str, alike: bool
) -> None:
    """Why the runner's own lines are not folded by wrapping the command (docs/runners.md, issue #33
    item 3): the wrapped command's first word is not the runner's, so every rule naming the runner
    tells them apart, while an appended option keeps them alike."""
    written = "cargo test --no-fail-fast"
    for kind in ("allow", "deny", "ask"):
        (tmp_path / ".claude").mkdir(exist_ok=True)
        (tmp_path / ".claude" / "settings.json").write_text(
            json.dumps({"permissions": {kind: [rule]}})
        )
        wrapped = f"/bin/sh /opt/sidekit/fold.sh {written}"
        assert permissions.judged_alike(written, wrapped, [str(tmp_path)]) is alike, (kind, rule)
        assert permissions.judged_alike(
            written, written + " --config term.quiet=true", [str(tmp_path)]
        ), (kind, rule)
