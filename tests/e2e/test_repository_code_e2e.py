"""A plugin-form session in the real Claude Code CLI, in a repository that commits `sidekit_hooks/`
and modules named like the standard library's: nothing of the repository's code runs (#19 Deliver
1).

The plugin starts its hooks (hooks/run), its MCP server (.mcp.json: bin/sidekit mcp, in the project
folder) and, through the agent's Bash, `sidekit status`; each planted module would leave a marker.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from testing import planted
from testing.claude import FINAL_TEXT, REPO, SessionRunner, ToolCall, result_text, split_result
from testing.planted import STANDARD_NAMES

PLANTED = ("sidekit_hooks/__init__.py", "sidekit_hooks/cli/__init__.py", *STANDARD_NAMES)
PROMPT = "Carry on with the task."
PLUGIN = Path(
    os.environ.get("SIDEKIT_HOSTILE_ROOT") or REPO
)  # an older checkout (with a .venv), to show it fail


def plant(project: Path, markers: Path) -> None:
    planted.plant(project, markers, PLANTED)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)


def test_a_plugin_session_runs_no_code_of_the_repository(
    run_session: SessionRunner, project: Path, tmp_path: Path
) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    plant(project, markers)
    path = os.pathsep.join(
        part
        for part in os.environ.get("PATH", "").split(os.pathsep)
        if part and not (Path(part) / "sidekit").exists()
    )  # the plugin's bin/ puts it there
    steps = [
        ToolCall("Bash", {"command": "sidekit status; sidekit --version", "description": "status"}),
        ToolCall(
            "Edit",
            {"file_path": str(project / "json.py"), "old_string": "open(", "new_string": "open ("},
        ),
        FINAL_TEXT,
    ]

    run = run_session(PROMPT, steps, plugin_dir=PLUGIN, env={"PATH": path})

    body, _ = split_result(result_text(run.tool_result(0)))
    assert "sidekit " in body and "Traceback" not in body, body
    assert sorted(os.listdir(markers)) == []
