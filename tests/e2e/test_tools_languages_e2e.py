"""The tools sidecar in a TypeScript project, in the real client (2.1.328, a scripted model): a
restructured copy of a project helper gets the tools nudge. The copy is read with tree-sitter by the
background worker, so the nudge arrives at the next boundary: next to the following tool call's
result."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from testing.claude import FINAL_TEXT, SessionRunner, ToolCall, reminder, result_text, split_result
from testing.language_copies import TS_COPY, TS_HELPER, TS_NEAR_MISS

PROMPT = "Carry on with the task."
NUDGE = (
    '[sidecar:tools] src/utils.ts:1 withTrailingSlash(input = "", respectQueryAndFragment?: '
    "boolean) already "
    "does this; reuse it instead of ensureSlash()."
)
# The agent looks at what it wrote, once the background work is done (a person would run the tests
# here).
SETTLED = 'for i in $(seq 1 300); do [ -z "$(ls .sidekit/later 2>/dev/null)" ] && break; sleep 0.1; done; echo ok'


def typescript_project(project: Path, sidekit: Callable[..., str]) -> None:
    (project / "src").mkdir()
    (project / "src" / "utils.ts").write_text(TS_HELPER)
    (project / "package.json").write_text(
        '{"name": "app", "type": "module", "devDependencies": {"vitest": "^2"}}\n'
    )
    (project / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}}\n')
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)
    sidekit("install", "--project", str(project))


def session(run_session: SessionRunner, project: Path, copy: str) -> list[list[str]]:
    steps = [
        ToolCall("Write", {"file_path": str(project / "src" / "slashes.ts"), "content": copy}),
        ToolCall("Bash", {"command": SETTLED, "description": "wait"}),
        FINAL_TEXT,
    ]
    run = run_session(PROMPT, steps)
    return [split_result(result_text(run.tool_result(index)))[1] for index in range(2)]


def test_a_restructured_typescript_copy_of_a_helper_gets_the_tools_nudge(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    typescript_project(project, sidekit)
    assert session(run_session, project, TS_COPY) == [
        [],
        [reminder("PostToolUse:Bash hook additional context", NUDGE)],
    ]


def test_a_typescript_near_miss_gets_no_nudge(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    typescript_project(project, sidekit)
    assert session(run_session, project, TS_NEAR_MISS) == [[], []]
