"""Nothing lost to the clock (#18): a detector cut off in the hook is finished by a detached worker,
whose findings are queued through the policy and delivered at the next boundary."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks import detectors
from sidekit_hooks.core import background, hook_table, later
from sidekit_hooks.nudges.findings import Finding
from sidekit_hooks.pipeline import finish, hook, runtime
from testing.hooks import context_of, edit, payload
from testing.near_copy import NEW_SLUG, indexed_project


class SlowInAHook:
    """Slow in a hook (past any budget), quick in the worker: like the tools sidecar on a loaded
    machine."""

    name = "slowhook"
    hooks = frozenset({"PostToolUse"})

    def detect(self, event: object, ctx: object) -> list[Finding]:
        if not getattr(ctx, "memo", {}).get("background"):
            time.sleep(5)
        return [Finding("tools", "utils/text.py already has slugify()", key="tools:slugify")]


SLOW = SlowInAHook()


def run_in_process(monkeypatch: pytest.MonkeyPatch, event: str, data: dict[str, object]) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(data).encode())))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert hook.main(event, []) == 0
    return out.getvalue()


@pytest.fixture
def slow_by_path(
    monkeypatch: pytest.MonkeyPatch, project: Path, clean_env: dict[str, str]
) -> Iterator[list[list[str]]]:
    """The slow detector registered by import path (the only kind a worker can load); the worker's
    start recorded. The hook's own deadline, not the suite's longer one (tests/conftest.py): the
    cut-off is the subject."""
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    monkeypatch.delenv(hook_table.DEADLINE_ENV, raising=False)
    kept = dict(detectors.REGISTRY)
    detectors.REGISTRY.clear()
    detectors.register("slowhook", f"{__name__}:SLOW", frozenset({"PostToolUse"}))
    started: list[list[str]] = []

    def spawn(module: str, args: list[str], env: object = None) -> int:
        started.append([module, *args])
        return 1

    monkeypatch.setattr(background, "spawn_module", spawn)
    yield started
    detectors.REGISTRY.clear()
    detectors.REGISTRY.update(kept)
    detectors.unregister("slowhook")


def test_a_detector_cut_off_in_the_hook_is_finished_later_and_delivered_at_the_next_boundary(
    project: Path, slow_by_path: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    started = time.monotonic()
    said = run_in_process(
        monkeypatch, "PostToolUse", edit(project, "a.py", "x = 1", "x = 2", "x = 1\n")
    )
    assert time.monotonic() - started < 0.8 and said == ""  # cut off: nothing now, and not late
    assert len(slow_by_path) == 1 and slow_by_path[0][0] == "sidekit_hooks.pipeline.finish"
    job = Path(slow_by_path[0][1])
    assert job.parent == project / ".sidekit" / "later"
    assert json.loads(job.read_text())["detectors"] == ["slowhook"]
    assert finish.main([str(job)]) == 0  # what the detached worker runs
    assert not job.exists()
    said = run_in_process(
        monkeypatch, "UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on")
    )
    assert context_of(said) == "[sidecar:tools] utils/text.py already has slugify()"
    decisions = (project / ".sidekit" / "log" / "decisions.jsonl").read_text()
    assert (
        '"decision":"finished-later","detectors":["slowhook"],"why":"budget","found":1' in decisions
    )


def test_a_detector_the_hard_deadline_cuts_short_is_finished_later_not_dropped(
    project: Path, slow_by_path: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sidekit_hooks.pipeline.runtime.DETECTOR_BUDGET", 10.0)
    monkeypatch.setattr(
        "sidekit_hooks.pipeline.runtime.DELIVERY_RESERVE", -10.0
    )  # no cut-off before the hard deadline
    started = time.monotonic()
    said = run_in_process(
        monkeypatch, "PostToolUse", edit(project, "a.py", "x = 1", "x = 2", "x = 1\n")
    )
    assert time.monotonic() - started < 2 and said == ""
    assert (
        '"where":"deadline","culprit":"detector slowhook"'
        in (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
    )
    assert [module for module, *_ in slow_by_path] == ["sidekit_hooks.pipeline.finish"]
    job = Path(slow_by_path[0][1])
    assert json.loads(job.read_text())["detectors"] == ["slowhook"]
    assert finish.main([str(job)]) == 0
    said = run_in_process(
        monkeypatch, "UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on")
    )
    assert context_of(said) == "[sidecar:tools] utils/text.py already has slugify()"


def test_a_job_is_finished_once_whoever_races_for_it(
    project: Path, slow_by_path: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_in_process(monkeypatch, "PostToolUse", edit(project, "a.py", "x = 1", "x = 2", "x = 1\n"))
    job = slow_by_path[0][1]
    assert finish.main([job]) == 0
    assert finish.main([job]) == 0  # the second worker finds it taken
    said = run_in_process(
        monkeypatch, "UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on")
    )
    assert context_of(said) == "[sidecar:tools] utils/text.py already has slugify()"


def test_an_object_detector_is_not_handed_over(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker can load only what is registered by import path; an object lives in one process."""
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    started: list[str] = []

    def spawn(module: str, args: list[str], env: object = None) -> int:
        started.append(module)
        return 1

    monkeypatch.setattr(background, "spawn_module", spawn)
    detectors.register("slowobject", SlowInAHook())
    try:
        run_in_process(
            monkeypatch, "PostToolUse", edit(project, "a.py", "x = 1", "x = 2", "x = 1\n")
        )
    finally:
        detectors.unregister("slowobject")
    assert "sidekit_hooks.pipeline.finish" not in started
    assert not (project / ".sidekit" / "later").exists()


def test_too_many_waiting_jobs_are_not_piled_up(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(background, "spawn_module", lambda *a, **k: 1)
    data = edit(project, "a.py", "x = 1", "x = 2", "x = 1\n")
    jobs = [
        later.hand_over(
            str(project), "PostToolUse", data, ["tests"], "budget", runtime.FINISH_WORKER
        )
        for _ in range(later.MAX_WAITING + 2)
    ]
    assert all(jobs[: later.MAX_WAITING]) and jobs[later.MAX_WAITING :] == ["", ""]
    assert len(list((project / ".sidekit" / "later").glob("*.json"))) == later.MAX_WAITING


class SlowEverywhere:
    name = "slowall"
    hooks = frozenset({"PostToolUse"})

    def detect(self, event: object, ctx: object) -> list[Finding]:
        time.sleep(30)
        return []


SLOW_EVERYWHERE = SlowEverywhere()


def test_a_detector_too_slow_for_the_worker_too_is_not_handed_over_again(
    project: Path, slow_by_path: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    detectors.REGISTRY.clear()
    detectors.register("slowall", f"{__name__}:SLOW_EVERYWHERE", frozenset({"PostToolUse"}))
    monkeypatch.setattr(finish, "WORKER_BUDGET", 0.3)
    run_in_process(monkeypatch, "PostToolUse", edit(project, "a.py", "x = 1", "x = 2", "x = 1\n"))
    assert len(slow_by_path) == 1
    assert finish.main([slow_by_path[0][1]]) == 0  # overran the worker's budget as well
    run_in_process(monkeypatch, "PostToolUse", edit(project, "a.py", "x = 1", "x = 2", "x = 1\n"))
    assert (
        len(slow_by_path) == 1
    )  # not handed over again: one bad input keeps no worker busy after every call
    assert (
        "ran past the worker's 0.3 s too"
        in (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
    )


# an interpreter without rapidfuzz, as a fresh plugin falls back to
BASE_PYTHON = "/usr/bin/python3"


@pytest.mark.skipif(
    not os.path.exists(BASE_PYTHON)
    or subprocess.run(
        [BASE_PYTHON, "-c", "import sys, rapidfuzz; sys.exit(sys.version_info < (3, 11))"],
        capture_output=True,
    ).returncode
    != 1,
    reason="needs a Python >= 3.11 without rapidfuzz at /usr/bin/python3",
)
def test_what_needs_the_environment_waits_for_it_and_is_delivered_once_it_is_ready(
    project: Path, clean_env: dict[str, str], tmp_path: Path, run_hook: Any
) -> None:
    """The plugin's first session (#18): the hooks run on the standard library while the environment
    builds; the helper comparison needs rapidfuzz, so its worker waits for the environment and
    finishes there. Deferred, not dropped."""
    from testing.hooks import REPO

    indexed_project(project, views="import re\n")
    data = edit(project, "app/views.py", "import re", "import re\n\n\n" + NEW_SLUG, "import re\n")
    (project / "app" / "views.py").write_text(
        "import re\n\n\n" + NEW_SLUG
    )  # what the Edit left on disk
    job = later.later_dir(str(project)) + "/job.json"
    os.makedirs(os.path.dirname(job))
    Path(job).write_text(
        json.dumps(
            {
                "hook": "PostToolUse",
                "project": str(project),
                "detectors": ["tools"],
                "why": "budget",
                "payload": data,
            }
        )
    )
    venv = tmp_path / "building-venv"
    env = dict(
        clean_env,
        PYTHONPATH=str(REPO),
        SIDEKIT_AWAITING_VENV=str(venv),
        CLAUDE_PROJECT_DIR=str(project),
    )
    done = subprocess.run(
        [BASE_PYTHON, "-S", "-m", "sidekit_hooks.pipeline.finish", job],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    queue_dir = project / ".runtime" / "nudge_queue" / "sess-1"
    time.sleep(1.5)
    assert (
        not queue_dir.exists() or list(queue_dir.iterdir()) == []
    )  # nothing said on the fallback: it waits
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text(
        f'#!/bin/sh\nexec {sys.executable} "$@"\n'
    )  # the environment, built
    (venv / "bin" / "python").chmod(0o755)
    (venv / ".sidekit-ready").touch()
    deadline = time.monotonic() + 30
    while not (queue_dir.exists() and list(queue_dir.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.1)
    said = run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on"))
    assert context_of(said.stdout) == (
        "[sidecar:tools] utils/text.py:5 slugify(value) already does this; reuse it instead of "
        "new_slug()."
    )
