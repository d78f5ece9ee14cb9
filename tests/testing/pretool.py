"""The real PreToolUse hook, run as Claude Code runs it (`python -S hooks/pre_tool_use.py`) or in
one fresh interpreter that then reports what it imported: what the rewrite tests of every runner
share."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from testing.hooks import REPO, pre_bash
from testing.runs import run_text

HOOK = REPO / "hooks" / "pre_tool_use.py"
# For `in_process(..., then=SIDEKIT_MODULES)`: which sidekit modules the hook imported.
SIDEKIT_MODULES = "sorted(m for m in sys.modules if m.startswith('sidekit_hooks'))"


def run_hook(
    body: dict[str, Any], env: dict[str, str], cwd: Path, *handler: str
) -> subprocess.CompletedProcess[str]:
    """The hook script (given `handler` arguments, if any) fed `body` on stdin."""
    argv = [sys.executable, "-S", str(HOOK), *handler]
    return run_text(argv, stdin=json.dumps(body), cwd=cwd, env=env, timeout=30)


def rewritten(project: Path, command: str, env: dict[str, str]) -> str:
    """What the hook turns a Bash `command` into ('' = left alone)."""
    done = run_hook(pre_bash(project, command, "s", tool_use_id="t"), env, project)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return (
        str(json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"])
        if done.stdout
        else ""
    )


def in_process(
    body: dict[str, Any], env: dict[str, str], cwd: Path, then: str
) -> subprocess.CompletedProcess[str]:
    """`hook.main('PreToolUse')` on `body` in a fresh `python -S`, which then prints the Python
    expression `then` (after the hook's own output)."""
    probe = (
        "import sys, io; sys.path.insert(0, sys.argv[1]);"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[2].encode()));"
        "from sidekit_hooks.pipeline import hook; hook.main('PreToolUse', []); sys.stdout.flush();"
        f"print({then})"
    )
    return run_text(
        [sys.executable, "-S", "-c", probe, str(REPO), json.dumps(body)],
        cwd=cwd,
        env=env,
        timeout=30,
    )
