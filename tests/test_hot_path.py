"""The scope sidecar and the policy stay on the standard library's cheap side (no json, re,
typing...)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sidekit_hooks.detectors.scope.model import Scope, save
from testing.hooks import REPO, payload

HEAVY = (
    "re",
    "json",
    "tomllib",
    "typing",
    "enum",
    "dataclasses",
    "pathlib",
    "difflib",
    "shlex",
    "fnmatch",
)
# Only the scope sidecar runs here (other sidecars have their own guards); the policy runs for real,
# after a warm-up event, so a first-event rule-pack compile is not counted.
PROBE = (
    "import sys; sys.path.insert(0, sys.argv[1]); from sidekit_hooks import detectors; from "
    "sidekit_hooks.pipeline import runtime; from sidekit_hooks.nudges import queue;"
    "[detectors.unregister(n) for n in detectors.names() if n != 'scope'];"
    "o = runtime.run('PostToolUse', sys.stdin.read()); queue.commit(o.claims);"
    f"print(sorted(m for m in {HEAVY!r} if m in sys.modules)); print(o.output)"
)


@pytest.mark.parametrize(
    ("tool", "tool_input", "says"),
    [
        ("Edit", {"file_path": "api/a.py", "old_string": "A", "new_string": "B"}, False),
        ("Edit", {"file_path": "auth/x.py", "old_string": "A", "new_string": "B"}, True),
        ("Bash", {"command": "sed -i 's/a/b/' auth/x.py > log.txt"}, True),
        (
            "Grep",
            {"pattern": "def", "path": "auth"},
            False,
        ),  # looking outside: held back by default (threshold)
    ],
)
def test_no_heavy_imports_on_the_scope_path(
    project: Path, clean_env: dict[str, str], tool: str, tool_input: dict[str, str], says: bool
) -> None:
    save(str(project), Scope(["api/**"], issue="gt-1"))
    for rel in ("api/a.py", "auth/x.py"):
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text("A\n")
    if "file_path" in tool_input:
        tool_input = {**tool_input, "file_path": str(project / tool_input["file_path"])}
    body = json.dumps(payload("PostToolUse", project, tool_name=tool, tool_input=tool_input))
    warm = json.dumps(
        payload(
            "PostToolUse",
            project,
            tool_name="Read",
            tool_input={"file_path": str(project / "api/a.py")},
        )
    )
    script = REPO / "hooks" / "post_tool_use.py"
    subprocess.run(
        [sys.executable, "-S", str(script)],
        input=warm,
        text=True,
        check=True,
        timeout=30,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
        cwd=str(project),
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", PROBE, str(REPO)],
        input=body,
        capture_output=True,
        text=True,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
        cwd=str(project),
        timeout=30,
    )
    imported, output = done.stdout.split("\n", 1)
    assert (done.stderr, imported) == ("", "[]")
    assert ("[sidecar:scope]" in output) is says
