"""The code side in another language inside the real Claude Code CLI (2.1.328, scripted model, #34):
a real Go module (spf13/cobra, fetched from the Go module proxy at test time) learns its conventions
with `sidekit conventions learn`, and a new file that breaks one the repository holds in at least
90% of its cases gets the conventions nudge next to the Write's result; a file that keeps them gets
none."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from testing.claude import (
    FINAL_TEXT,
    SessionRunner,
    ToolCall,
    reminder,
    result_text,
    split_result,
    write_settings,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "code"))
import realprojects  # noqa: E402  (tests/code's fetcher: the module proxy, through `go mod download`)

PROMPT = "Carry on with the task."
COBRA = next(p for p in realprojects.TUNING if p.coordinate.startswith("github.com/spf13/cobra@"))
BREAKING = "package cobra\n\nfunc flag_names(c *Command) []string { return nil }\n"
KEEPING = "package cobra\n\nfunc flagNames(c *Command) []string { return nil }\n"
MIXED_CAPS = (
    "[sidecar:conventions] Go functions here are MixedCaps (296 of 296, 100%); "
    "drop the underscore from the new func's name."
)


def written(path: Path) -> str:
    return f"File created successfully at: {path} (file state is current in your context — no need to Read it back)"


@pytest.fixture
def cobra(project: Path) -> Path:
    if not shutil.which("go"):
        from testing import requires

        requires.missing("go is needed to fetch the Go module", "install Go from go.dev")
    shutil.copytree(
        realprojects.laid_out(COBRA),
        project,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns(".sidekit"),
    )
    return project


def test_a_go_file_that_breaks_a_learned_convention_gets_the_conventions_nudge(
    run_session: SessionRunner, cobra: Path, sidekit: Callable[..., str]
) -> None:
    learned = sidekit("conventions", "learn")
    assert '"id":"conventions.go.function-names","prevalence":1.0,"of":296' in learned.replace(
        " ", ""
    )
    write_settings(cobra, sys.executable)
    breaking, keeping = cobra / "flag_names.go", cobra / "flag_list.go"
    steps = [
        ToolCall("Write", {"file_path": str(breaking), "content": BREAKING}),
        ToolCall("Write", {"file_path": str(keeping), "content": KEEPING}),
        FINAL_TEXT,
    ]

    run = run_session(PROMPT, steps)

    assert split_result(result_text(run.tool_result(0))) == (
        written(breaking),
        [reminder("PostToolUse:Write hook additional context", MIXED_CAPS)],
    )
    assert split_result(result_text(run.tool_result(1))) == (written(keeping), [])
