"""A compacted vitest or jest run that stops before sidekit's reporter loads (`npx jest nomatch`:
"No tests found"): nothing of it reached the cache, so `status` said the last green run (held-out ms
and ufo). The hooks mark the rewritten call and, after a red end with no reporter output saved
since, file the run's error (runners/junit/feed.py's js_stopped_early)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.pipeline import runtime
from sidekit_hooks.runners import Result, store
from sidekit_hooks.runners.junit import feed as junit_feed
from testing.hooks import (
    HookRunner,
    bash,
    fed_one_error_quietly,
    pre_bash,
    status_now,
    wait_for_feed,
)

# jest 30 and vitest 4, as each prints the run (the Bash tool joins stderr and stdout)
SAID = {
    "jest": (
        "npx jest nomatch",
        "No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0\n"
        "In /p\n  3 files checked.\n  testMatch: **/?(*.)+(spec|test).[jt]s?(x) - 1 match\n"
        "Pattern: nomatch - 0 matches\n",
    ),
    "vitest": (
        "npx vitest run --project nomatch",
        "\n\u23af\u23af Startup Error \u23af\u23af\nError: No projects were found. Make sure your "
        "configuration is correct. "
        'The filter matched no projects: nomatch. The projects definition: [\n    "."\n].\n'
        "    at resolveProjects (file:///p/node_modules/vitest/dist/chunks/cli-api.js:11218:37) {\n"
        "  plugin: 'vitest',\n  hook: 'configureServer'\n}\n",
    ),
}


@pytest.fixture(params=sorted(SAID))
def runner(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def package(project: Path, runner: str) -> Path:
    (project / "package.json").write_text(
        json.dumps({"name": "p", "devDependencies": {runner: "*"}})
    )
    (project / "a.test.js").write_text("test('a', () => {})\n")
    (project / ".git").mkdir()
    green = Result(runner, time.time() - 5, 0)
    green.tests = {"a.test.js::a": {"o": "passed", "d": 0.0}}
    store.save(str(project), green)
    return project


def rewritten(project: Path, command: str, run_hook: HookRunner) -> None:
    pre = run_hook("PreToolUse", pre_bash(project, command))
    assert (
        pre.returncode == 0
        and "--reporter" in json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    )
    assert len(list((project / ".sidekit" / "junit-feed").iterdir())) == 1  # the call's marker


def test_a_red_run_that_never_loaded_the_reporter_is_an_error_of_the_run(
    package: Path, runner: str, run_hook: HookRunner
) -> None:
    command, said = SAID[runner]
    assert status_now(package)["state"] == "passed"
    rewritten(package, command, run_hook)
    post = run_hook("PostToolUseFailure", bash(package, command, error=f"Exit code 1\n{said}"))
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")
    found = fed_one_error_quietly(package)  # the model has just read the runner's own words
    words = next(line for line in said.splitlines() if line.startswith(("No", "Error")))
    assert found == {
        "runner": runner,
        "state": "failed",
        "passed": 1,
        "collectErrors": 1,
        "newFailures": 1,
        "clusters": [
            {
                "id": found["clusters"][0]["id"],
                "type": "NoTests",
                "phase": "collect",
                "message": found["clusters"][0]["message"],
                "new": 1,
                "first": "(exit 1)",
            }
        ],
    }
    assert words.startswith(
        found["clusters"][0]["message"].removesuffix("\u2026")
    )  # clipped to status's width
    kept = [
        p.read_text()
        for p in (package / ".sidekit" / runner).iterdir()
        if p.name.startswith("raw-")
    ]
    assert kept == [said]


def test_a_run_whose_reporter_saved_its_output_fed_the_cache_itself_and_starts_no_worker(
    package: Path, runner: str, run_hook: HookRunner
) -> None:
    command, said = SAID[runner]
    rewritten(package, command, run_hook)
    (package / ".sidekit" / runner).mkdir(exist_ok=True)
    (package / ".sidekit" / runner / "raw-20261203-000000-1.txt").write_text(
        said
    )  # as capture.cjs saves it
    post = run_hook("PostToolUseFailure", bash(package, command, error=f"Exit code 1\n{said}"))
    assert (post.returncode, post.stderr) == (0, "")
    assert not list(
        (package / ".sidekit" / "junit-feed").iterdir()
    )  # claimed in the hook, and no job for a worker
    assert status_now(package)["state"] == "passed"


def test_a_green_run_starts_no_worker(package: Path, runner: str, run_hook: HookRunner) -> None:
    command, _said = SAID[runner]
    rewritten(package, command, run_hook)
    post = run_hook("PostToolUse", bash(package, command, "ok\n"))
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")
    assert not list((package / ".sidekit" / "junit-feed").iterdir())  # claimed, and no job left
    assert status_now(package)["state"] == "passed"


def test_a_command_left_as_written_gets_no_marker(
    package: Path, runner: str, run_hook: HookRunner
) -> None:
    command, _said = SAID[runner]
    pre = run_hook("PreToolUse", pre_bash(package, f"SIDEKIT_RAW=1 {command}"))
    assert (pre.returncode, pre.stdout) == (0, "")
    assert not (package / ".sidekit" / "junit-feed").exists() or not list(
        (package / ".sidekit/junit-feed").iterdir()
    )


REAL = {
    "jest": ["npx", "jest", "nomatch"],
    "vitest": ["npx", "vitest", "run", "--project", "nomatch"],
}


@pytest.mark.slow
def test_the_real_runner_stopped_early_and_status_says_so(
    tmp_path: Path, runner: str, run_hook: HookRunner
) -> None:
    """The held-out case end to end: a green run through the hooks, then a rewritten run the real
    runner ends before any reporter loads; `status` turns red, in the runner's own words."""
    from testing import js

    project = js.semver_project(tmp_path / "proj", runner, planted=False)
    if runner == "vitest":  # a project filter needs projects
        (project / "vitest.config.mjs").write_text("export default { test: { projects: ['.'] } }\n")
    green = js.run(
        js.compact_command(
            runner, ["npx", runner] + (["run"] if runner == "vitest" else []), project
        ),
        project,
    )
    assert green.exit == 0 and status_now(project)["state"] == "passed", green.output

    command = " ".join(REAL[runner])
    saved = sorted((project / ".sidekit" / runner).glob("raw-*"))
    pre = run_hook("PreToolUse", pre_bash(project, command))
    ran = js.run(json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"], project)
    raw = js.run(command, project)
    assert (ran.exit, ran.output) == (
        raw.exit,
        raw.output,
    ) and raw.exit == 1  # short: the runner's words as they were
    assert sorted((project / ".sidekit" / runner).glob("raw-*")) == saved  # no reporter loaded
    run_hook(
        "PostToolUseFailure", bash(project, command, error=f"Exit code {ran.exit}\n{ran.output}")
    )
    assert [r["decision"] for r in wait_for_feed(project)] == ["junit-fed"]
    found = status_now(project)
    assert (found["state"], found["passed"], found["clusters"][0]["type"]) == (
        "failed",
        50,
        "NoTests",
    )
    assert found["clusters"][0]["message"].removesuffix("\u2026") in ran.output


@pytest.mark.parametrize("saved", [True, False])
def test_the_hook_starts_a_worker_only_when_the_reporter_saved_nothing(
    package: Path, runner: str, saved: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    command, said = SAID[runner]
    spawned: list[list[str]] = []
    monkeypatch.setattr(
        "sidekit_hooks.core.background.spawn_module", lambda module, args: spawned.append(args)
    )
    assert junit_feed.mark_started(pre_bash(package, command), command.split(), runner)
    if saved:
        (package / ".sidekit" / runner).mkdir(exist_ok=True)
        (package / ".sidekit" / runner / "raw-20261203-000000-1.txt").write_text(
            said
        )  # as capture.cjs saves it
    event = parse_event(
        "PostToolUseFailure", bash(package, command, error=f"Exit code 1\n{said}"), str(package)
    )
    job = junit_feed.hand_over(event, runtime.FEED_WORKER)
    assert (bool(job), len(spawned)) == ((False, 0) if saved else (True, 1))
