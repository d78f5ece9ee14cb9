"""A raw `npx jest` through Bash in the real Claude Code CLI (2.1.328): it reaches the PreToolUse
hook, the model gets it compact, and it is rewritten exactly once (#20).

`npx jest` does not say "test", so the hook has a second handler (`if: Bash(*jest*)` beside
`Bash(*test*)`). For `npx jest test/` the CLI starts both (it checks each `if` on its own and runs
every handler that matches); exactly one answers with `updatedInput`, seen in the stream's hook
events. Both forms: the settings `sidekit install --project` writes, and the plugin
(`--plugin-dir`). The project re-tests semver's own source with jest 30 (tests/testing/js.py, from
the npm registry), a bug planted in `compare.js` failing 30 of 50 tests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from testing import js
from testing.bash_runs import answer, bash_session
from testing.hooks import REPO

pytestmark = pytest.mark.slow

COMMANDS = ("npx jest", "npx jest test/", "SIDEKIT_RAW=1 npx jest")


def answered(messages: list[dict[str, Any]]) -> list[str]:
    """The commands that PreToolUse handlers answered with (`updatedInput`), one per answering
    handler."""
    found = []
    for message in messages:
        if message.get("subtype") == "hook_response" and '"updatedInput"' in str(
            message.get("stdout", "")
        ):
            found.append(
                json.loads(message["stdout"])["hookSpecificOutput"]["updatedInput"]["command"]
            )
    return found


def started(messages: list[dict[str, Any]]) -> int:
    return sum(1 for message in messages if message.get("subtype") == "hook_started")


@pytest.mark.parametrize("form", ["settings", "plugin"])
def test_a_red_npx_jest_reaches_the_model_compact_rewritten_once(
    claude_cli: Path, tmp_path: Path, sidekit: Callable[..., str], form: str
) -> None:
    project = js.semver_project(tmp_path / "semver-jest", "jest", planted=True)
    if form == "settings":
        sidekit("install", "--project", str(project))
    plugin = {"plugin_dir": REPO} if form == "plugin" else {}
    run = bash_session(claude_cli, project, tmp_path / "home", COMMANDS, hook_events=True, **plugin)
    hooks = run.hooks_per_call("PreToolUse")
    # `npx jest`: only the jest handler starts; `npx jest test/`: both start, one answers; raw: left
    # alone
    assert [started(calls) for calls in hooks[:3]] == [1, 2, 1]
    rewrites = [answered(calls) for calls in hooks[:3]]
    assert [len(found) for found in rewrites] == [1, 1, 0], rewrites
    assert rewrites[0][0].startswith("npx jest --reporters=") and rewrites[1][0].startswith(
        "npx jest test/ --reporters="
    )
    for step in (0, 1):
        block, body, reminders = answer(run, step)
        assert block["is_error"] is True and reminders == [], body
        assert len(body.encode()) <= 800, body
        assert body.startswith("Exit code 1\nsidekit: jest") and "exit code 1" in body, body
        assert '"exit":1' in body and '"failed":30' in body and '"passed":20' in body, body
        assert f'"at":"{js.PLANTED}:5"' in body and ".sidekit/jest/raw-" in body, body
    (raw, raw_body, _), (_, compact_body, _) = answer(run, 2), answer(run, 0)
    assert raw["is_error"] is True and "sidekit:" not in raw_body
    assert len(raw_body.encode()) > 3 * len(compact_body.encode())
    print(
        f"\n{form}: model received {len(raw_body.encode())} B raw, {len(compact_body.encode())} B "
        "compact"
    )
