"""A go package go answers from its own test cache (`ok <path> (cached)`) never runs its binary, so
the sh wrapper never hears of it: after a fix that brings a package back to the inputs of a green
run, its failures stayed in status (issue #33, item 8: one spf13/cast copy showed 463 failures, 441
current plus 22 stale). What go printed reaches the cache through the hooks (runners/junit/feed.py's
feed)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from sidekit_hooks.runners import Result, store
from sidekit_hooks.runners.go import adapter as go
from testing.hooks import HookRunner, bash, pre_bash, status_now, wait_for_feed

CACHED = "ok  \texample.com/m/p\t(cached)\nok  \texample.com/m/q\t0.004s\n"


@pytest.fixture
def module(project: Path) -> Path:
    for rel, text in {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "p/p_test.go": 'package p\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n',
        "q/q_test.go": 'package q\n\nimport "testing"\n\nfunc TestB(t *testing.T) {}\n',
    }.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    (project / ".git").mkdir()
    return project


def red(module: Path) -> None:
    """The run before the fix: p's TestA failed, q's TestB passed."""
    run = Result("go", time.time() - 5, 1)
    failure = {"type": "t.Error", "message": "got 2", "at": "p/p_test.go:5"}
    run.tests = {
        "p::TestA": {"o": "failed", "d": 0.0, "p": "call", "f": failure},
        "q::TestB": {"o": "passed", "d": 0.0},
    }
    store.save(str(module), run)


def test_the_cached_failures_of_a_package_go_answered_from_its_cache_pass_again(
    module: Path,
) -> None:
    red(module)
    assert go.cached_ok(CACHED) == ["example.com/m/p"]
    assert go.needs_feed(str(module), CACHED, 0, 0)
    job = {
        "root": str(module),
        "started": 1.0,
        "exit": 0,
        "output": CACHED,
        "payload": {},
        "args": ["test", "./..."],
    }
    found = go.feed_after(job)
    assert found is not None and found.errors == {} and found.args == ["p"]
    assert found.tests == {"p::TestA": {"o": "passed", "d": 0.0}}


@pytest.mark.parametrize(
    ("args", "whole"),
    [
        (["test", "./..."], True),
        (["test", "-v", "-race", "-count", "2", "-timeout=30s", "./p", "./q"], True),
        (
            ["test", "-run", "TestA", "./..."],
            False,
        ),  # a cached ok of TestA alone says nothing of TestB
        (["test", "-run=TestA", "./..."], False),
        (["test", "-short", "./..."], False),  # tests that skip under -short did not pass
        (["test", "-skip", "TestB", "./..."], False),
        (["test", "-failfast", "./..."], False),
    ],
)
def test_only_a_run_of_every_test_clears_the_cached_failures(
    module: Path, args: list[str], whole: bool
) -> None:
    red(module)
    job = {
        "root": str(module),
        "started": 1.0,
        "exit": 0,
        "output": CACHED,
        "payload": {},
        "args": args,
    }
    found = go.feed_after(job)
    assert (found is not None and found.tests == {"p::TestA": {"o": "passed", "d": 0.0}}) is whole


def test_a_cached_package_with_nothing_failing_in_the_cache_needs_no_feed(module: Path) -> None:
    assert not go.needs_feed(str(module), CACHED, 0, 0)  # no cache yet
    green = Result("go", time.time() - 5, 0)
    green.tests = {"p::TestA": {"o": "passed", "d": 0.0}}
    store.save(str(module), green)
    assert not go.needs_feed(str(module), CACHED, 0, 0)
    assert not go.needs_feed(str(module), "ok  \texample.com/m/p\t0.003s\n", 0, 0)


def test_the_real_hooks_clear_a_fixed_package_go_answered_from_its_cache(
    module: Path, run_hook: HookRunner
) -> None:
    red(module)
    assert status_now(module)["state"] == "failed"
    pre = run_hook("PreToolUse", pre_bash(module, "go test ./..."))
    assert (
        pre.returncode == 0
        and "-exec" in json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    )
    post = run_hook("PostToolUse", bash(module, "go test ./...", CACHED))
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")
    fed = wait_for_feed(module)
    assert [(r["decision"], r["exit"], r["tests"], r["errors"]) for r in fed] == [
        ("junit-fed", 0, 1, 0)
    ]
    found = status_now(module)
    assert (found["state"], found.get("failed", 0), found.get("clusters")) == ("passed", 0, None), (
        found
    )
