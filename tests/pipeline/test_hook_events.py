"""The one table of hook events (sidekit_hooks/core/hook_table.py) and what the pipeline makes of it
(pipeline/hook_events.py): everything else derives from it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from sidekit_hooks.pipeline.hook_events import (
    EVENTS,
    PACKAGED,
    answers,
    entry_script,
    judged_by,
    packaged_entry_script,
    plugin_hooks,
)
from testing.hooks import REPO

PACKAGE = REPO / "sidekit_hooks"
TABLE = PACKAGE / "core" / "hook_table.py"


def declarations(source: str, filename: str) -> list[str]:
    """Collections written out in code that name two or more hook events: each is a second table."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [key for key in node.keys if key is not None]
        else:
            continue
        named = {
            item.value for item in items if isinstance(item, ast.Constant) and item.value in EVENTS
        }
        if len(named) >= 2:
            found.append(f"{filename}:{node.lineno} {sorted(named)}")
    return found


def test_no_module_declares_events_outside_the_table() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != TABLE:
            found += declarations(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert found == []


def test_the_check_finds_a_planted_second_table() -> None:
    planted = 'BOUNDARIES = frozenset({"PostToolUse", "UserPromptSubmit"})\nONE = "Stop"\n'
    assert declarations(planted, "planted.py") == [
        "planted.py:1 ['PostToolUse', 'UserPromptSubmit']"
    ]


def test_the_plugin_hooks_json_is_the_table() -> None:
    document = json.loads((REPO / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    assert document["hooks"] == plugin_hooks()


def test_every_entry_script_is_the_template_and_no_other_exists() -> None:
    scripts = {
        path.stem: path.read_text(encoding="utf-8") for path in (REPO / "hooks").glob("*.py")
    }
    assert scripts == {event.script: entry_script(name) for name, event in EVENTS.items()}


def test_the_package_carries_the_same_entries_for_an_install_without_its_checkout() -> None:
    scripts = {
        path.stem: path.read_text(encoding="utf-8") for path in (PACKAGE / PACKAGED).glob("*.py")
    }
    assert scripts == {event.script: packaged_entry_script(name) for name, event in EVENTS.items()}


def test_the_plugin_launcher_runs_only_an_entry_script(tmp_path: Path) -> None:
    import subprocess

    for name in ("../sidekit_hooks/hook", "nonexistent", "", "stop;true"):
        done = subprocess.run(
            [str(REPO / "hooks" / "run"), name],
            input="{}",
            capture_output=True,
            text=True,
            timeout=30,
            env={"PATH": "/usr/bin:/bin", "CLAUDE_PLUGIN_DATA": str(tmp_path)},
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), name
    assert not any(
        tmp_path.iterdir()
    )  # no environment build was started for a name that is not an event


def test_detectors_judge_the_events_the_table_gives_them() -> None:
    from sidekit_hooks import detectors

    for name in detectors.PATHS:
        assert detectors.REGISTRY[name][1] == judged_by(name) == detectors.load(name).hooks, name
    assert judged_by("conventions") == frozenset({"PostToolUse"})
    assert judged_by("nonexistent") == frozenset()


def test_of_an_events_handlers_the_last_word_the_command_says_answers() -> None:
    names = ("test", "jest")
    said = {"npx jest test/x": "jest", "pytest -q": "test", "npx jest": "jest", "echo hi": "test"}
    for command, answering in said.items():
        assert [name for name in names if answers(names, name, command)] == [answering], command
    assert answers(names, "", "npx jest") and answers(
        names, "other", "pytest -q"
    )  # a lone handler answers all


def test_the_plugin_launcher_hands_a_handler_name_on_and_refuses_anything_else(
    tmp_path: Path,
) -> None:
    import subprocess

    payload = {
        "session_id": "s",
        "cwd": str(tmp_path),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "npx jest test/x"},
    }

    def launch(*args: str) -> str:
        done = subprocess.run(
            [str(REPO / "hooks" / "run"), "pre_tool_use", *args],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=30,
            cwd=tmp_path,
            env={
                "PATH": "/usr/bin:/bin",
                "CLAUDE_PLUGIN_DATA": str(tmp_path / "data"),
                "HOME": str(tmp_path),
            },
        )
        assert (done.returncode, done.stderr) == (0, ""), args
        return done.stdout

    rewritten = json.loads(launch("jest"))["hookSpecificOutput"]["updatedInput"]["command"]
    assert rewritten.startswith("npx jest test/x --reporters=")
    assert launch("test") == ""  # the `*test*` handler also started for it: it stands aside
    for refused in (("../x",), ("Jest",), ("jest", "again"), ("a b",)):
        assert launch(*refused) == "", refused
    assert not (tmp_path / "data").exists()  # nothing was built for a refused call
