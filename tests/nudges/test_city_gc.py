"""Interoperation with Gas City's own `gc` (built from its source): a `gc session nudge --delivery
queue` delivered by sidekit's hook, and a sidekit finding shown by `gc nudge status` and drained by
`gc nudge drain --inject`.

`gc` is found at $SIDEKIT_GC_BIN, else in tests/nudges/.cache/gc, else built there from a Gas City
checkout named by $SIDEKIT_GC_SRC (`go build ./cmd/gc`); without any of these the tests are skipped.
The city is made by `gc init` with the file bead store (GC_BEADS=file), a stub `claude` on PATH and
a throw-away HOME (the supervisor refuses to start there, which these tests do not need).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict

import pytest

from testing import requires
from testing.hooks import HOOK_SCRIPTS, context_of, payload
from testing.scope import out_of_scope_write

pytestmark = pytest.mark.slow

CACHE = Path(__file__).parent / ".cache"


@pytest.fixture(scope="session")
def gc_bin() -> Path:
    named = os.environ.get("SIDEKIT_GC_BIN", "")
    if named:
        return Path(named)
    cached = CACHE / "gc"
    if cached.exists():
        return cached
    source = os.environ.get("SIDEKIT_GC_SRC", "")
    if not source or not shutil.which("go"):
        requires.not_run_here(
            "no gc (Gas City's module is not served by the Go module proxy): set SIDEKIT_GC_BIN, "
            "or SIDEKIT_GC_SRC"
            " to a Gas City checkout (and have Go)"
        )
    CACHE.mkdir(exist_ok=True)
    done = subprocess.run(
        ["go", "build", "-o", str(cached), "./cmd/gc"],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if done.returncode:
        requires.not_run_here(f"gc does not build here: {done.stderr[-500:]}")
    return cached


class Town(TypedDict):
    """The module's city: the gc binary, the city's folder, its environment, the session and its
    project."""

    gc: str
    city: Path
    env: dict[str, str]
    session: str
    project: Path


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory, gc_bin: Path) -> Iterator[Town]:
    """One city for the module (`gc init` and `gc session new` take a while); each test has its own
    message."""
    tmp_path = tmp_path_factory.mktemp("gc-town")
    clean_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GC_", "GT_", "SIDEKIT_", "CLAUDE_")) and k != "TMUX_PANE"
    }
    stubs = tmp_path / "bin"
    stubs.mkdir()
    # A stand-in for Claude Code that shows gc the ready prompt it waits for, then idles.
    (stubs / "claude").write_text('#!/bin/sh\nprintf "\\342\\235\\257 "\nexec sleep 600\n')
    (stubs / "claude").chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    env = dict(
        clean_env, HOME=str(home), GC_BEADS="file", PATH=f"{stubs}{os.pathsep}{clean_env['PATH']}"
    )
    city = tmp_path / "city"
    # also the name of the tmux server gc starts for the session
    name = f"sidekit-test-{os.getpid()}"
    init = subprocess.run(
        [
            str(gc_bin),
            "init",
            "--name",
            name,
            "--provider",
            "claude",
            "--skip-provider-readiness",
            str(city),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "Initialized city" in init.stdout, init.stdout + init.stderr
    new = subprocess.run(
        [str(gc_bin), "session", "new", "mayor", "--no-attach", "--alias", "sky"],
        cwd=city,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert new.returncode == 0, new.stderr
    listed = subprocess.run(
        [str(gc_bin), "session", "list"],
        cwd=city,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    ).stdout
    assert " sky " in listed, listed
    session_id = listed.splitlines()[1].split()[0]  # "gc-1"
    project = city / "app"
    project.mkdir()
    yield {"gc": str(gc_bin), "city": city, "env": env, "session": session_id, "project": project}
    subprocess.run(["tmux", "-L", name, "kill-server"], capture_output=True, timeout=30)


def gc(town: Town, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(town["gc"]), *args],
        cwd=str(town["city"]),
        capture_output=True,
        text=True,
        env=town["env"],
        timeout=120,
    )


def hook_env(town: Town, **extra: str) -> dict[str, str]:
    env = dict(town["env"])
    # What gc puts in the session's environment (see its tmux new-session line).
    env.update(
        CLAUDE_PROJECT_DIR=str(town["project"]),
        GC_CITY=str(town["city"]),
        GC_ALIAS="sky",
        GC_AGENT="sky",
        GC_SESSION_ID=str(town["session"]),
        GC_CONTINUATION_EPOCH="1",
        **extra,
    )
    return env


def run_hook(event: str, body: dict[str, object], env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-S", str(HOOK_SCRIPTS[event])],
        input=json.dumps(body),
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert done.returncode == 0
    return context_of(done.stdout)


def test_a_gc_queued_nudge_is_delivered_once_by_sidekits_hook(town: Town) -> None:
    queued = gc(town, "session", "nudge", "sky", "check the failing build", "--delivery", "queue")
    assert queued.stdout == "Queued nudge for sky\n", queued.stderr
    # gc's own drain hook is wired in the city (.gc/settings.json): by default sidekit leaves it to
    # gc.
    project = Path(str(town["project"]))
    body = payload("UserPromptSubmit", project, prompt="go")
    assert run_hook("UserPromptSubmit", body, hook_env(town)) == ""
    assert "pending " in gc(town, "nudge", "status", "sky").stdout
    # With sidekit chosen as the drain owner it delivers the item, once, and gc sees the queue
    # empty.
    owner = hook_env(town, SIDEKIT_GC_DRAIN="sidekit")
    assert run_hook("UserPromptSubmit", body, owner) == "[from session] check the failing build"
    assert run_hook("UserPromptSubmit", body, owner) == ""
    status = gc(town, "nudge", "status", "sky").stdout
    assert status.splitlines()[1].split()[:4] == ["sky", "0", "0", "0"], status


def test_a_sidekit_finding_is_shown_by_gc_nudge_status_and_drained_by_gc(town: Town) -> None:
    project = Path(str(town["project"]))
    env = hook_env(town)
    write = out_of_scope_write(project, env)
    assert run_hook("PostToolUse", write, env) == ""  # gc owns the drain: sidekit only produced
    status = gc(town, "nudge", "status", "sky")
    lines = status.stdout.splitlines()
    assert lines[1].split()[:4] == ["sky", "1", "0", "0"], status.stdout + status.stderr
    (pending,) = [line for line in lines if line.startswith("pending ")]
    assert "source=sidekit  [sidecar:scope] auth/x.py is outside this task's scope" in pending
    drained = gc(town, "nudge", "drain", "--inject", "sky")
    assert drained.returncode == 0, drained.stderr
    assert "- [sidekit] [sidecar:scope] auth/x.py is outside this task's scope" in drained.stdout
    assert gc(town, "nudge", "status", "sky").stdout.splitlines()[1].split()[:4] == [
        "sky",
        "0",
        "0",
        "0",
    ]
