"""A compacted `go test` whose package fails to build: no test binary runs, so the sh wrapper never
hears of it; what go printed reaches the cache through the hooks (runners/junit/feed.py's feed), and
`status` stops saying the package's last green run."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from sidekit_hooks.runners import Result, store
from sidekit_hooks.runners.go import adapter as go
from testing.hooks import HookRunner, bash, fed_one_error_quietly, pre_bash, status_now

# go 1.26 on example.com/m with ./q's test file broken (stderr, then stdout, as the Bash tool joins
# them)
BROKEN = (
    "# example.com/m/q [example.com/m/q.test]\n"
    'q/q_test.go:6:14: cannot use "s" (untyped string constant) as int value in variable '
    "declaration\n"
    "ok  \texample.com/m/p\t0.003s\nFAIL\texample.com/m/q [build failed]\nFAIL\n"
)


@pytest.fixture
def module(project: Path) -> Path:
    root = project
    for rel, text in {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "p/p_test.go": 'package p\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n',
        "q/q_test.go": 'package q\n\nimport "testing"\n\nfunc TestB(t *testing.T) {\n\tvar x int '
        '= "s"\n}\n',
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / ".git").mkdir()
    return root


def test_the_packages_go_printed_as_build_failed_are_errors_at_their_compiler_line(
    module: Path,
) -> None:
    found = go.build_failures(str(module), str(module), BROKEN, 1.0, 1)
    assert found is not None and found.tests == {} and found.args == ["q"]
    assert {path: (e["type"], e["at"], e["message"]) for path, e in found.errors.items()} == {
        "q": (
            "build failed",
            "q/q_test.go:6",
            'cannot use "s" (untyped string constant) as int value in variable declaration',
        )
    }


def test_a_run_from_the_package_folder_places_the_error_in_the_project(module: Path) -> None:
    text = BROKEN.replace("q/q_test.go", "./q_test.go").replace(
        "ok  \texample.com/m/p\t0.003s\n", ""
    )
    found = go.build_failures(str(module), str(module / "q"), text, 1.0, 1)
    assert found is not None and found.errors["q"]["at"] == "q/q_test.go:6"


def test_a_run_that_built_every_package_is_nothing_to_feed(module: Path) -> None:
    assert (
        go.build_failures(str(module), str(module), "ok  \texample.com/m/p\t0.003s\n", 1.0, 0)
        is None
    )


def test_the_real_hooks_turn_a_build_failure_after_a_green_run_into_a_failed_status(
    module: Path, run_hook: HookRunner
) -> None:
    """The held-out go-cmp case: green, then a test file that does not compile; status said
    `passed`."""
    green = Result("go", time.time() - 5, 0)
    green.tests = {"p::TestA": {"o": "passed", "d": 0.0}, "q::TestB": {"o": "passed", "d": 0.0}}
    store.save(str(module), green)
    assert status_now(module)["state"] == "passed"
    pre = run_hook("PreToolUse", pre_bash(module, "go test ./..."))
    assert (
        pre.returncode == 0
        and "-exec" in json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    )
    post = run_hook(
        "PostToolUseFailure", bash(module, "go test ./...", error=f"Exit code 1\n{BROKEN}")
    )
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")
    found = fed_one_error_quietly(module)  # the model has just read go's own words on it
    assert found == {
        "runner": "go",
        "state": "failed",
        "passed": 1,
        "collectErrors": 1,
        "newFailures": 1,
        "clusters": [
            {
                "id": found["clusters"][0]["id"],
                "type": "build failed",
                "phase": "collect",
                "at": "q/q_test.go:6",
                "message": 'cannot use "s" (untyped string constant) as int value i\u2026',
                "new": 1,
                "first": "q",
            }
        ],
    }


def test_a_green_go_run_through_the_hooks_starts_no_worker(
    module: Path, run_hook: HookRunner
) -> None:
    run_hook("PreToolUse", pre_bash(module, "go test ./..."))
    assert list((module / ".sidekit" / "junit-feed").iterdir())  # the run's marker
    post = run_hook("PostToolUse", bash(module, "go test ./...", "ok  \texample.com/m/p\t0.003s\n"))
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")
    assert not list((module / ".sidekit" / "junit-feed").iterdir())  # claimed, and no job left
    assert not (module / ".sidekit" / "status.json").exists()
