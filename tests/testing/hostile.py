"""Helpers for the hostile-repository suite (#15).

Every case drives sidekit from the outside (hook entry scripts, the `sidekit` CLI, files on disk),
so the same test file can be pointed at an older checkout: `SIDEKIT_HOSTILE_ROOT=/path/to/checkout
pytest tests/hostile` runs it against that tree (which is how each case was shown to fail before).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from sidekit_hooks.pipeline.hook_events import EVENTS

REPO = Path(__file__).resolve().parents[2]
ROOT = Path(os.environ.get("SIDEKIT_HOSTILE_ROOT") or REPO)
SCRIPTS = {name: f"{event.script}.py" for name, event in EVENTS.items()}
CLI = "import sys; sys.path.insert(0, sys.argv.pop(1)); from sidekit_hooks.cli import main; sys.exit(main())"
QUEUE = Path(".runtime") / "nudge_queue"


def _suite_deadline() -> dict[str, str]:
    """The suite's hook deadline (tests/conftest.py), when the test has not asked for the real
    one."""
    from sidekit_hooks.core.hook_table import DEADLINE_ENV

    return {DEADLINE_ENV: os.environ[DEADLINE_ENV]} if DEADLINE_ENV in os.environ else {}


def env_for(project: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GT_", "CLAUDE_", "TMUX", "SIDEKIT_"))
    }
    env.update(
        CLAUDE_PROJECT_DIR=str(project),
        XDG_CONFIG_HOME=str(project.parent / "xdg"),
        SIDEKIT_CACHE_DIR=str(project.parent / "cache"),
        # each case is a few bytes of payload: the budget (nudges/spend.py) is not its subject
        SIDEKIT_NUDGE_BUDGET="off",
        **_suite_deadline(),
        **extra,
    )
    return env


def hook(
    event: str,
    payload: dict[str, Any] | str | bytes,
    project: Path,
    timeout: float = 30,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """Run a real hook entry script the way Claude Code does; stdout/stderr decoded leniently."""
    data = (
        payload
        if isinstance(payload, bytes)
        else (payload if isinstance(payload, str) else json.dumps(payload)).encode(
            "utf-8", "surrogatepass"
        )
    )
    done = subprocess.run(
        [sys.executable, "-S", str(ROOT / "hooks" / SCRIPTS[event])],
        input=data,
        capture_output=True,
        env=env_for(project, **env),
        cwd=str(project),
        timeout=timeout,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def cli(
    *args: str | bytes, project: Path, cwd: Path | None = None, timeout: float = 120, **env: str
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-c", CLI, str(ROOT), *args],
        capture_output=True,
        env=env_for(project, **env),
        cwd=str(cwd or project),
        timeout=timeout,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def payload(event: str, project: Path, **fields: Any) -> dict[str, Any]:
    return {"session_id": "sess-1", "cwd": str(project), "hook_event_name": event, **fields}


def context_of(stdout: str) -> str:
    if not stdout.strip():
        return ""
    data = json.loads(stdout)
    assert isinstance(data, dict), stdout
    return str(data.get("hookSpecificOutput", {}).get("additionalContext", ""))


def queue_dir(project: Path, session: str = "sess-1") -> Path:
    return project / QUEUE / session


def queued_name(age: float = 0.0, tag: str = "") -> str:
    """A Gas Town queue file name, `<UnixNano>-<8 hex>.json`, written `age` seconds ago."""
    return f"{time.time_ns() - int(age * 1e9)}-{tag or os.urandom(4).hex()}.json"


def put(
    folder: Path, message: str, age: float = 0.0, raw: str | None = None, **fields: Any
) -> Path:
    """Queue one message the way gt does (with an expiry unless a field says otherwise)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / queued_name(age)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() - age))
    later = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() + 1800))
    data = {
        "sender": "mayor",
        "message": message,
        "priority": "normal",
        "timestamp": stamp,
        "expires_at": later,
        **fields,
    }
    data = {k: v for k, v in data.items() if v is not None}
    path.write_bytes(
        (raw if raw is not None else json.dumps(data)).encode("utf-8", "surrogatepass")
    )
    return path


def tree(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Everything under `folder` (names, mtimes, bytes): to prove nothing there was touched."""
    out: dict[str, tuple[int, bytes]] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            out[str(path.relative_to(folder))] = (path.stat().st_mtime_ns, path.read_bytes())
        else:
            out[str(path.relative_to(folder))] = (0, b"")
    return out


def log_text(project: Path, name: str = "hooks.jsonl") -> str:
    path = project / ".sidekit" / "log" / name
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
