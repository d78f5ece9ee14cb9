"""Delivery always goes on: no queued file or payload field holds the queue back (#15, deliver
2)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from testing.hooks import edit
from testing.hostile import cli, context_of, hook, log_text, payload, put, queue_dir, queued_name


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


def pending(project: Path) -> list[str]:
    folder = queue_dir(project)
    return (
        sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))
        if folder.is_dir()
        else []
    )


def delivered_on_prompt(project: Path) -> tuple[str, list[str]]:
    """What the next prompt's hook said, and what is still queued after it."""
    done = hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="hi"), project)
    return context_of(done.stdout), pending(project)


def test_a_lone_surrogate_is_delivered_as_a_replacement_character(project: Path) -> None:
    folder = queue_dir(project)
    put(folder, "bad \udc80 byte", age=2)
    put(folder, "behind it", age=1)
    done = hook(
        "UserPromptSubmit",
        payload("UserPromptSubmit", project, prompt="hi"),
        project,
        PYTHONIOENCODING="utf-8:strict",
        LC_ALL="C.UTF-8",
    )
    assert context_of(done.stdout) == "[from mayor] bad \ufffd byte\n[from mayor] behind it"
    assert pending(project) == []


def test_a_file_without_expires_at_expires_one_ttl_after_it_was_written(project: Path) -> None:
    folder = queue_dir(project)
    put(folder, "two hours old, no expiry", age=7200, expires_at=None)
    put(folder, "fresh", age=1)
    assert delivered_on_prompt(project) == ("[from mayor] fresh", [])


def test_a_timestamp_at_the_end_of_time_blocks_nothing(project: Path) -> None:
    folder = queue_dir(project)
    put(folder, "end of time", age=5, timestamp="9999-12-31T23:59:59+00:00", expires_at=None)
    put(folder, "after it", age=1)
    assert delivered_on_prompt(project) == ("[from mayor] after it", [])


def test_a_malformed_file_ages_by_its_name_not_its_mtime(project: Path) -> None:
    folder = queue_dir(project)
    folder.mkdir(parents=True)
    bad = folder / queued_name(age=3600)
    bad.write_text('{"message": "half')  # mtime: now (every claim refreshes it)
    put(folder, "after it", age=1)
    assert delivered_on_prompt(project) == ("[from mayor] after it", [])
    # Moved aside with its reason, not deleted: a person can still read what gt or a tool wrote.
    assert (folder / ".quarantine" / f"{bad.name}.malformed").read_text() == '{"message": "half'


@pytest.mark.parametrize("path", ["api/a\x00b.py", "api/\udc80.py"], ids=["nul", "lone-surrogate"])
def test_a_bad_path_costs_no_delivery(project: Path, path: str) -> None:
    # A task scope makes the scope sidecar speak about the path, so the policy fingerprints the
    # file.
    assert (
        cli(
            "scope", "set", "--project", str(project), "--allow", "other/**", project=project
        ).returncode
        == 0
    )
    put(queue_dir(project), "queued before", age=1)
    done = hook("PostToolUse", edit(project, path, "a", "b"), project)
    assert done.returncode == 0
    said = context_of(done.stdout)
    assert said.startswith("[from mayor] queued before\n[sidecar:scope] ")
    assert '"where":"hook"' not in log_text(project)


def test_a_tool_response_nested_1000_deep_costs_no_delivery(project: Path) -> None:
    put(queue_dir(project), "queued before", age=1)
    deep = "[" * 1000 + "]" * 1000
    body = (
        json.dumps(
            payload(
                "PostToolUse",
                project,
                tool_name="Bash",
                tool_input={"command": "ls"},
                tool_response="X",
            )
        )[:-1]
        + f', "extra": {deep}}}'
    )
    body = body.replace(
        '"tool_response": "X"', f'"tool_response": {{"stdout": "ok", "deep": {deep}}}'
    )
    done = hook("PostToolUse", body, project)
    assert context_of(done.stdout) == "[from mayor] queued before"
    assert "RecursionError" not in log_text(project)


def test_a_fifo_as_a_path_does_not_hold_the_hook(project: Path) -> None:
    assert (
        cli(
            "scope", "set", "--project", str(project), "--allow", "other/**", project=project
        ).returncode
        == 0
    )
    os.mkfifo(project / "pipe.py")
    put(queue_dir(project), "queued before", age=1)
    started = time.monotonic()
    done = hook("PostToolUse", edit(project, str(project / "pipe.py"), "a", "b"), project)
    assert time.monotonic() - started < 5
    assert context_of(done.stdout).startswith("[from mayor] queued before\n[sidecar:scope] ")
    assert '"where":"deadline"' not in log_text(project)
