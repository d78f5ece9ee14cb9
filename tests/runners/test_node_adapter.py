"""The node adapter as the registry and the shared rewrite see it: which words run `node --test`,
the options a raw run gets (appended only), what it leaves alone, and the one permission
judgment."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from sidekit_hooks import runners
from sidekit_hooks.runners.node import adapter as node
from testing.pretool import run_hook

HERE = os.path.dirname(node.__file__)
APPENDED = (
    f" --test-reporter={HERE}/summary.mjs --test-reporter-destination=stdout"
    f" --test-reporter={HERE}/records.mjs "
    "--test-reporter-destination=PROJECT/.sidekit/node/report-N.jsonl"
)
REPORT = re.compile(r"report-[0-9a-f]{12}\.jsonl")


def hook(project: Path, env: dict[str, str], command: str) -> str:
    body = {
        "session_id": "s",
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "t",
    }
    done = run_hook(
        body, dict(env, CLAUDE_PROJECT_DIR=str(project), HOME=str(project.parent / "home")), project
    )
    assert done.returncode == 0 and done.stderr == ""
    return done.stdout


@pytest.mark.parametrize(
    ("words", "runs"),
    [
        (["node", "--test"], True),
        (["/usr/local/bin/node", "--test", "test/"], True),
        (["node", "--test-only", "--test"], True),
        (["node", "app.js"], False),
        (["node", "--test-reporter=tap", "app.js"], False),
        (["nodemon", "--test"], False),
    ],
)
def test_which_words_run_node_s_test_runner(words: list[str], runs: bool) -> None:
    assert node.matches(words) is runs
    assert (runners.for_words(words) is node) is runs


def test_a_raw_run_gets_sidekit_s_reporters_appended(
    project: Path, clean_env: dict[str, str]
) -> None:
    answer = json.loads(hook(project, clean_env, "node --test test/"))["hookSpecificOutput"][
        "updatedInput"
    ]
    shown = REPORT.sub("report-N.jsonl", answer["command"]).replace(str(project), "PROJECT")
    assert shown == "node --test test/" + APPENDED
    assert (
        project / ".sidekit" / "node"
    ).is_dir()  # node does not make the folder of a destination


@pytest.mark.parametrize(
    "command",
    [
        "node --test --test-reporter=tap",
        "node --test --test-reporter-destination=out.txt",
        "node --test --watch",
        "node --test --help",
        "node --test -e 'x'",
        "node --test | tail",
        "node app.js",
        "SIDEKIT_RAW=1 node --test",
    ],
)
def test_what_it_leaves_as_written(project: Path, clean_env: dict[str, str], command: str) -> None:
    assert hook(project, clean_env, command) == ""


def test_the_permission_rules_judge_its_rewrite(project: Path, clean_env: dict[str, str]) -> None:
    (project / ".claude").mkdir()
    settings = project / ".claude" / "settings.json"
    settings.write_text(
        json.dumps({"permissions": {"deny": ["Bash(node --test)"]}})
    )  # exact: would slip past
    assert hook(project, clean_env, "node --test") == ""
    settings.write_text(
        json.dumps({"permissions": {"allow": ["Bash(node --test:*)"]}})
    )  # a prefix: alike
    assert hook(project, clean_env, "node --test")


def test_a_linked_state_folder_leading_out_leaves_it_alone(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (project / ".sidekit").symlink_to(outside)
    assert node.compact_words(["node", "--test"], str(project)) is None
    assert list(outside.iterdir()) == []


def test_it_is_detected_by_its_test_script(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIDEKIT_RUNNER", raising=False)
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "node --test"}}))
    assert runners.detect(str(project)) == "node"
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "node app.js"}}))
    assert runners.detect(str(project)) == "none"


def test_what_it_tells_the_rest_of_the_package() -> None:
    """Fed after the run by its reporters' records; no selection graph (every test runs); no pending
    writer."""
    said = (
        runners.feeds(node),
        hasattr(node, "feed_after"),
        hasattr(node, "selection"),
        hasattr(node, "PENDING"),
    )
    assert said == ("reporter", True, False, False)
    assert runners.TRIGGERS["node"] == ("--test",) and runners.trigger_words() == ("test", "jest")
