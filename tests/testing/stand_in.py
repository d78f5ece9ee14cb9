"""The PreToolUse hook as Claude Code starts it, under a stand-in `claude` process whose command
line carries permission flags (as `claude -p ... --allowedTools ... --disallowedTools ...` does):
what the hostile rewrite tests of every runner share. The hook script comes from
`testing.hostile.ROOT`, so a case can be pointed at an older checkout through
`SIDEKIT_HOSTILE_ROOT`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from testing.hooks import pre_bash
from testing.hostile import ROOT, env_for


def pre_tool_use(
    project: Path,
    command: str,
    parent_rules: list[str] | None = None,
    *,
    with_pid: bool = True,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The PreToolUse hook on one Bash call (HOME is `project`'s sibling `home`); with
    `parent_rules`, started by a stand-in `claude` process whose command line carries them, which
    exports `CLAUDE_PID` as Claude Code 2.1.328 does, or (`with_pid=False`) leaves the hook to find
    it."""
    payload = json.dumps(pre_bash(project, command, "s"))
    hook = [sys.executable, "-S", str(ROOT / "hooks" / "pre_tool_use.py")]
    argv = hook
    if parent_rules is not None:
        # A shell script (a tenth of a Python start): it stays the hook's parent, so its command
        # line (`sh .../claude -p go FLAGS --model m --hook HOOK...`) is what the hook reads.
        stand_in = project.parent / "bin" / "claude"
        stand_in.parent.mkdir(exist_ok=True)
        exported = "CLAUDE_PID=$$\nexport CLAUDE_PID\n" if with_pid else ""
        stand_in.write_text(
            exported + "CLAUDECODE=1\nexport CLAUDECODE\n"
            'while [ "$#" -gt 0 ] && [ "$1" != --hook ]; do shift; done\n'
            'shift\n"$@"\nexit $?\n'  # not the last command: sh never execs it in its place
        )
        argv = [
            "/bin/sh",
            str(stand_in),
            "-p",
            "go",
            *parent_rules,
            "--model",
            "m",
            "--hook",
            *hook,
        ]
    done = subprocess.run(
        argv,
        input=payload,
        capture_output=True,
        text=True,
        cwd=str(project),
        timeout=60,
        env=env_for(project, HOME=str(project.parent / "home"), **(env or {})),
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done


def rewritten(done: subprocess.CompletedProcess[str]) -> str:
    """The command the hook hands back ('' when it leaves the call alone)."""
    return (
        str(json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"])
        if done.stdout
        else ""
    )
