"""The tools sidecar as a whole: one finding per habit, short lines, and what a hook imports for
it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sidekit_hooks import detectors
from sidekit_hooks.detectors import tools
from sidekit_hooks.nudges.findings import HABIT
from testing.hooks import bash


def test_no_check_speaks_on_an_ordinary_command(catalog: Callable[[str], list[str]]) -> None:
    assert catalog("ls -la && git status") == []


def test_one_finding_per_habit_in_a_compound_command(project: Path) -> None:
    found = tools.shell_findings("cat a.py && cat b.py; pytest; pytest -q", str(project))
    assert [f.key for f in found] == ["tools:read", "tools:pytest"]
    # Advice on how the agent works, not on the code: the policy ranks them below every concrete
    # finding.
    assert {(f.kind, f.rank) for f in found} == {(HABIT, detectors.rank_of("tools"))}


def test_hook_stays_quiet_on_ordinary_commands(project: Path, run_hook: Any) -> None:
    for command in (
        "git status",
        "ls -la src",
        "python -m pip install -e .",
        "grep -c x notes.txt",
    ):
        done = run_hook("PostToolUse", bash(project, command))
        assert (done.returncode, done.stdout) == (0, ""), command


HOT_PATH_CHECK = """
import sys
sys.path.insert(0, sys.argv[1])
from sidekit_hooks import detectors
from sidekit_hooks.pipeline import runtime
from sidekit_hooks.core import fastjson
for name in list(detectors.REGISTRY):  # this sidecar's own cost: other sidecars test theirs
    if name not in ("tools", "judge", "conventions"):
        detectors.unregister(name)
project = sys.argv[2]
events = [
    {"tool_name": "Bash", "tool_input": {"command": "git status && ls src | wc -l; grep -c x notes.txt"},
     "tool_response": {"stdout": "", "stderr": "", "interrupted": False}},
    {"tool_name": "Read", "tool_input": {"file_path": project + "/app.py"}, "tool_response": {}},
    {"tool_name": "Edit", "tool_input": {"file_path": project + "/app.py", "old_string": "a = 1", "new_string": "a = 2"},
     "tool_response": {"originalFile": "a = 1\\n", "structuredPatch": [{"lines": ["-a = 1", "+a = 2"]}]}},
    {"tool_name": "Edit", "tool_input": {"file_path": project + "/app.py", "old_string": "a = 2",
     "new_string": "def short(x):\\n    return x"},
     "tool_response": {"originalFile": "a = 2\\n", "structuredPatch": [{"lines": ["-a = 2", "+def short(x):", "+    return x"]}]}},
]
for fields in events:
    payload = {"session_id": "s", "cwd": project, "hook_event_name": "PostToolUse", **fields}
    runtime.run("PostToolUse", fastjson.dumps(payload))
heavy = sorted(m for m in ("re", "json", "ast", "enum", "typing", "subprocess", "rapidfuzz", "tomllib") if m in sys.modules)
print(",".join(heavy))
"""


def test_silent_events_import_nothing_heavy(project: Path, clean_env: dict[str, str]) -> None:
    import subprocess
    import sys

    (project / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    (project / "app.py").write_text("a = 1\n")
    repo = str(Path(tools.__file__).parents[3])
    done = subprocess.run(
        [sys.executable, "-S", "-c", HOT_PATH_CHECK, repo, str(project)],
        capture_output=True,
        text=True,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_any_command_gives_at_most_one_short_line_per_habit(project: Path) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    long_name = "x" * 400
    words = st.sampled_from(
        [
            "cat",
            "head",
            "tail",
            "grep",
            "-rn",
            "rg",
            "find",
            "-name",
            "pytest",
            "sed",
            "-n",
            "1,5p",
            "|",
            "&&",
            ";",
            ">",
            "2>&1",
            "<<EOF",
            "\nEOF\n",
            "'",
            '"',
            "$(",
            "`",
            "\\",
            "-f",
            ".",
            "a.py",
            long_name,
            long_name + ".py",
            "slugify",
            "-type",
            "f",
        ]
    )

    @settings(max_examples=300, deadline=None)
    @given(st.lists(words, max_size=12).map(" ".join))
    def check(command: str) -> None:
        found = tools.shell_findings(command, str(project))
        assert len({f.key for f in found}) == len(found)
        assert all(len(f.text()) < 300 and "\n" not in f.text() for f in found)

    check()


def test_registry_events_match_the_detectors_and_prompts_import_none(
    project: Path, clean_env: dict[str, str]
) -> None:
    import subprocess
    import sys

    for name in detectors.names():
        assert detectors.REGISTRY[name][1] == detectors.load(name).hooks, name
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from sidekit_hooks.pipeline import runtime;"
        'runtime.run(\'UserPromptSubmit\', \'{"session_id": "s", "prompt": "hi"}\');'
        "print(sorted(m for m in sys.modules if m.startswith('sidekit_hooks.detectors.')))"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", code, str(Path(tools.__file__).parents[3])],
        capture_output=True,
        text=True,
        cwd=str(project),
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
