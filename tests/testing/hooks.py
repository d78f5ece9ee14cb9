"""Helpers for tests that drive the real hook entry points, and the one set of payload builders
(import as `from testing.hooks import ...`)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sidekit_hooks.nudges import payloads
from sidekit_hooks.pipeline.hook_events import EVENTS

REPO = Path(__file__).resolve().parents[2]
HOOK_SCRIPTS = {name: REPO / "hooks" / f"{event.script}.py" for name, event in EVENTS.items()}

HookRunner = Callable[..., subprocess.CompletedProcess[str]]
SIDEKIT = [sys.executable, "-m", "sidekit_hooks.cli"]


def run_sidekit(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """`sidekit ARGS` in a subprocess, as a user runs it."""
    return subprocess.run(
        [*SIDEKIT, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout
    )


def edit(
    project: Path,
    rel: str,
    old: str,
    new: str,
    original: str = "",
    session: str = "sess-1",
    *,
    patch: list[dict[str, Any]] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A PostToolUse payload of an Edit of `project/rel` (from the package's own payload builder);
    `original`: what the file held before; `patch`: its structuredPatch (default: old lines out, new
    in). `fields` add to the payload or replace its defaults (tool_use_id, tool_response...)."""
    tool_input, response = payloads.edit_call(str(project / rel), old, new, original, patch=patch)
    return tool_call(
        "PostToolUse",
        project,
        session,
        "Edit",
        tool_input,
        **{"tool_use_id": "toolu_1", "tool_response": response, **fields},
    )


def edited(
    project: Path, rel: str, old: str, new: str, original: str, **fields: Any
) -> dict[str, Any]:
    """An Edit as it happens: `project/rel` now holds `original` with `old` replaced by `new`, and
    the payload's structuredPatch keeps `old`'s lines as context and adds the lines `new` has beyond
    them."""
    target = project / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(original.replace(old, new, 1))
    lines = [f" {line}" for line in old.splitlines()] if old else []
    lines += [f"+{line}" for line in new.splitlines()[len(old.splitlines()) :]]
    hunk = {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": lines}
    return edit(project, rel, old, new, original, patch=[hunk], **fields)


def appended(project: Path, rel: str, added: str, **fields: Any) -> dict[str, Any]:
    """An Edit that adds `added` at the end of `project/rel` (which exists), done on disk too."""
    original = (project / rel).read_text()
    return edited(project, rel, original, original + added, original, **fields)


def write(
    project: Path,
    rel: str,
    content: str,
    original: str | None = None,
    session: str = "sess-1",
    **fields: Any,
) -> dict[str, Any]:
    """A PostToolUse payload of a Write of `project/rel`; `original`: what the file held before."""
    tool_input, response = payloads.write_call(str(project / rel), content, original)
    return tool_call(
        "PostToolUse",
        project,
        session,
        "Write",
        tool_input,
        **{"tool_use_id": "toolu_2", "tool_response": response, **fields},
    )


def bash(
    project: Path,
    command: str,
    stdout: str = "",
    error: str = "",
    session: str = "sess-1",
    **fields: Any,
) -> dict[str, Any]:
    """A Bash call's PostToolUse payload, or its PostToolUseFailure payload when `error` is
    given."""
    tool_input, response = payloads.bash_call(command, stdout)
    if error:
        return tool_call(
            "PostToolUseFailure",
            project,
            session,
            "Bash",
            tool_input,
            **{"tool_use_id": "toolu_3", "error": error, **fields},
        )
    return tool_call(
        "PostToolUse",
        project,
        session,
        "Bash",
        tool_input,
        **{"tool_use_id": "toolu_3", "tool_response": response, **fields},
    )


def pre_bash(project: Path, command: str, session: str = "sess-1", **fields: Any) -> dict[str, Any]:
    """A Bash call's PreToolUse payload: the call before it runs (no response yet)."""
    tool_input, _ = payloads.bash_call(command)
    return tool_call(
        "PreToolUse", project, session, "Bash", tool_input, **{"tool_use_id": "toolu_3", **fields}
    )


def as_stdin(data: dict[str, Any]) -> bytes:
    """A payload as a hook reads it on stdin."""
    return json.dumps(data).encode()


def tool_call(
    event: str, project: Path, session: str, tool: str, tool_input: dict[str, Any], **fields: Any
) -> dict[str, Any]:
    """A tool call's payload; `fields` (tool_response or error, tool_use_id...) after the common
    ones."""
    return payload(
        event, project, session_id=session, tool_name=tool, tool_input=tool_input, **fields
    )


def payload(event: str, project: Path, **fields: Any) -> dict[str, Any]:
    """A payload with the common fields Claude Code 2.1.328 sends, plus `fields`."""
    base: dict[str, Any] = {
        "session_id": "sess-1",
        "transcript_path": str(project / "t.jsonl"),
        "cwd": str(project),
        "prompt_id": "p-1",
        "permission_mode": "acceptEdits",
        "hook_event_name": event,
    }
    base.update(fields)
    return base


def context_of(stdout: str) -> str:
    """The additionalContext a hook printed ('' for no output); fails on anything but one JSON
    object."""
    if not stdout.strip():
        return ""
    data = json.loads(stdout)
    assert isinstance(data, dict) and set(data) == {"hookSpecificOutput"}, stdout
    return str(data["hookSpecificOutput"]["additionalContext"])


def wait_for_feed(project: Path, timeout: float = 30.0) -> list[dict[str, Any]]:
    """The feed worker's decisions (runners/junit/feed.py), once its job is taken and done."""
    log = project / ".sidekit/log/decisions.jsonl"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists():
            found = [json.loads(line) for line in log.read_text().splitlines()]
            fed = [
                record for record in found if str(record.get("decision", "")).startswith("junit-")
            ]
            if fed and not list((project / ".sidekit/junit-feed").iterdir()):
                return fed
        time.sleep(0.05)
    raise AssertionError(f"no feed decision in {log}")


def status_now(project: Path) -> dict[str, Any]:
    """`sidekit status` as the agent's shell runs it, without the fields that move with time."""
    done = run_sidekit("status", "--project", str(project), cwd=project)
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return {k: v for k, v in found.items() if k not in ("age", "generation")}


def fed_one_error_quietly(project: Path, code: int = 1) -> dict[str, Any]:
    """After a compacted run the hooks fed (a go build failure, a JS run that stopped early, a cargo
    compile error): the worker filed one error of a run that exited `code` and queued no word (the
    model has just read the runner's own); status."""
    fed = wait_for_feed(project)  # the worker's last word, after anything it would queue
    assert [(r["decision"], r["exit"], r["tests"], r["errors"]) for r in fed] == [
        ("junit-fed", code, 0, 1)
    ]
    said = [
        json.loads(line).get("text", "")
        for line in (project / ".sidekit/log/decisions.jsonl").open()
    ]
    assert [text for text in said if text] == []
    return status_now(project)
