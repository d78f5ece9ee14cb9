"""The tests sidecar without a map (basis `imports`, #10) and only about the run a command made
(#14), through the real hook entry point, on caches a real pytest run wrote."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.code.index import Index
from testing import made_once
from testing.hooks import HookRunner, bash, context_of, edit, payload
from testing.red_run import pytest_run, red_package

UPPER_TO_LOWER = ("upper", "lower")  # old, new
FOUR_FAILED = "Exit code 1\n4 failed"  # what a failed pytest run tells PostToolUseFailure


WRONG_VALUE = {
    "pkg/text.py": "def slug(value):\n    return value.upper()\n",
    "pkg/fmt.py": "from pkg.text import slug\n\n\ndef title(value):\n    return slug(value) + "
    "'!'\n",
    "pkg/other.py": "X = 1\n",
    "tests/test_fmt.py": """\
        import pytest
        from pkg.fmt import title

        @pytest.mark.parametrize("word", ["a", "b", "c"])
        def test_title(word):
            assert title(word) == word + "!"
    """,
    "tests/test_other.py": "from pkg.other import X\n\ndef test_x():\n    assert X == 2\n",
}


@pytest.fixture
def wrong_value_now(project: Path, clean_env: dict[str, str]) -> Path:
    """A helper returns a wrong value (raises nowhere); the failing tests reach it through another
    module. After a red pytest run that has just ended: for the tests of whether the run a command
    made is the cache's (`is_this_run`: how long ago it finished)."""
    return red_package(project, clean_env, WRONG_VALUE)


@pytest.fixture(scope="module")
def wrong_value_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same project and red run, made once: the tests that do not ask how long ago the run
    ended read copies of it (`wrong_value`)."""
    with made_once.as_a_test_sees_it(tmp_path_factory) as env:
        return red_package(made_once.new_folder(tmp_path_factory, "wrong"), env, WRONG_VALUE)


@pytest.fixture
def wrong_value(wrong_value_once: Path, project: Path) -> Path:
    """This test's own copy of the red project (its run ended when the module's first test began or
    earlier: a test that ages it moves it further back; one that runs pytest writes a newer run)."""
    return made_once.copy_into(wrong_value_once, project)


def sidecar_lines(stdout: str) -> list[str]:
    return [line for line in context_of(stdout).splitlines() if line.startswith("[sidecar:tests]")]


TEXT_LINE = (
    "[sidecar:tests] pkg/text.py is imported by 3 tests that failed in the last run (4 failed; 2 "
    "root causes); "
    "details: sidekit failures tests/test_fmt.py::test_title[a]; "
    "re-run: sidekit test tests/test_fmt.py"
)


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def red_raw_run(project: Path) -> dict[str, Any]:
    # Its own session: the run's nudge would hold the edit's back (cooldown).
    return bash(
        project,
        "pytest -q",
        error=FOUR_FAILED,
        session="the-run-session",
        tool_use_id="toolu_0",
        duration_ms=30_000,
    )


def answer_ready(project: Path) -> bool:
    return (project / ".sidekit" / "code" / "tests-reaching.json").exists() and not (
        project / ".sidekit" / "code" / "index-build.lock"
    ).exists()


def test_after_a_red_run_the_first_edit_to_an_imported_module_names_the_failing_tests(
    wrong_value_now: Path, run_hook: HookRunner
) -> None:
    # The red run's hook starts the background answer; the first edit reads it (one small JSON
    # file).
    run_hook("PostToolUseFailure", red_raw_run(wrong_value_now))
    wait_for(lambda: answer_ready(wrong_value_now), "the background import answer never came")
    done = run_hook("PostToolUse", edit(wrong_value_now, "pkg/text.py", *UPPER_TO_LOWER))
    assert sidecar_lines(done.stdout) == [TEXT_LINE]


def test_session_start_warms_the_import_index_and_the_red_runs_answer(
    wrong_value: Path, run_hook: HookRunner
) -> None:
    run_hook("SessionStart", payload("SessionStart", wrong_value, source="startup"))
    wait_for(lambda: answer_ready(wrong_value), "SessionStart did not warm the import index")
    assert (wrong_value / ".sidekit" / "code" / "index.sqlite").exists()
    assert (
        len(
            sidecar_lines(
                run_hook("PostToolUse", edit(wrong_value, "pkg/text.py", *UPPER_TO_LOWER)).stdout
            )
        )
        == 1
    )


def test_a_module_no_failing_test_imports_says_nothing(
    wrong_value: Path, run_hook: HookRunner
) -> None:
    (wrong_value / "pkg" / "unused.py").write_text("Y = 1\n")
    run_hook("PostToolUseFailure", red_raw_run(wrong_value))
    wait_for(lambda: answer_ready(wrong_value), "the background import answer never came")
    assert (
        sidecar_lines(
            run_hook("PostToolUse", edit(wrong_value, "pkg/unused.py", *UPPER_TO_LOWER)).stdout
        )
        == []
    )
    assert not (wrong_value / ".sidekit" / "later").exists() or not list(
        (wrong_value / ".sidekit" / "later").iterdir()
    )


def test_without_the_answer_the_hook_walks_nothing_and_the_finding_comes_at_the_next_boundary(
    wrong_value: Path, run_hook: HookRunner
) -> None:
    index = wrong_value / ".sidekit" / "code" / "index.sqlite"
    assert not index.exists()
    assert (
        sidecar_lines(
            run_hook("PostToolUse", edit(wrong_value, "pkg/text.py", *UPPER_TO_LOWER)).stdout
        )
        == []
    )
    decisions = wrong_value / ".sidekit" / "log" / "decisions.jsonl"
    wait_for(
        lambda: decisions.exists() and '"finished-later"' in decisions.read_text(),
        "no worker finished the edit",
    )
    assert index.exists()  # built by the worker, not the hook
    prompt = payload("UserPromptSubmit", wrong_value, prompt="go on")
    assert sidecar_lines(run_hook("UserPromptSubmit", prompt).stdout) == [TEXT_LINE]


def test_the_hook_never_opens_the_index(
    wrong_value: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """#23: the index and the graph are the background's; the hook hands the event over instead."""
    from sidekit_hooks.core import background
    from sidekit_hooks.pipeline import runtime

    Index.open(str(wrong_value)).close()
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(wrong_value))
    opened: list[str] = []
    monkeypatch.setattr(Index, "open", lambda *a, **k: opened.append("open"))
    started: list[list[str]] = []

    def spawn(module: str, args: list[str], env: object = None) -> int:
        started.append([module, *args])
        return 1

    monkeypatch.setattr(background, "spawn_module", spawn)
    outcome = runtime.run(
        "PostToolUse", json.dumps(edit(wrong_value, "pkg/text.py", *UPPER_TO_LOWER))
    )
    assert outcome.output == "" and opened == []
    assert [s[0] for s in started if s[0] == "sidekit_hooks.pipeline.finish"] == [
        "sidekit_hooks.pipeline.finish"
    ]


def age_cache(project: Path, seconds: float) -> None:
    path = project / ".sidekit" / "status.json"
    summary = json.loads(path.read_text())
    summary["run"]["started"] -= seconds
    summary["run"]["finished"] -= seconds
    path.write_text(json.dumps(summary))


def test_no_tests_claim_after_a_newer_green_run(wrong_value: Path, run_hook: HookRunner) -> None:
    # The red cache is from a run 60 s ago; the agent's raw pytest just now took 5 s and did not
    # record (another environment): what it printed is the truth, the cache is not this run's.
    age_cache(wrong_value, 60)
    passed = bash(wrong_value, "pytest -q", stdout="5 passed", duration_ms=5000)
    failed = bash(wrong_value, "pytest -q", error=FOUR_FAILED, duration_ms=5000)
    assert sidecar_lines(run_hook("PostToolUse", passed).stdout) == []
    assert sidecar_lines(run_hook("PostToolUseFailure", failed).stdout) == []


def test_the_run_the_command_made_is_told(wrong_value_now: Path, run_hook: HookRunner) -> None:
    failed = bash(wrong_value_now, "python -m pytest -q", error=FOUR_FAILED, duration_ms=30_000)
    lines = sidecar_lines(run_hook("PostToolUseFailure", failed).stdout)
    assert len(lines) == 1 and lines[0].startswith(
        "[sidecar:tests] pytest: 4 failed; 2 root causes; biggest: "
    )


def test_without_a_duration_only_a_run_that_just_ended_counts(
    wrong_value_now: Path, run_hook: HookRunner
) -> None:
    failed = bash(wrong_value_now, "pytest -q", error=FOUR_FAILED)
    assert len(sidecar_lines(run_hook("PostToolUseFailure", failed).stdout)) == 1
    age_cache(wrong_value_now, 60)
    assert sidecar_lines(run_hook("PostToolUseFailure", failed).stdout) == []


def test_a_compacted_run_already_told_the_model(
    wrong_value: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    pytest_run(wrong_value, clean_env, "-p", "sidekit_hooks.runners.pytest.compact")
    assert (
        json.loads((wrong_value / ".sidekit" / "status.json").read_text())["run"]["compact"] is True
    )
    failed = bash(wrong_value, "pytest -q", error=FOUR_FAILED, duration_ms=30_000)
    assert sidecar_lines(run_hook("PostToolUseFailure", failed).stdout) == []


def test_the_import_answer_is_kept_per_generation(wrong_value: Path) -> None:
    from sidekit_hooks.detectors import tests as sidecar
    from sidekit_hooks.status import cache

    summary = cache.read(cache.summary_path(str(wrong_value))).data
    reach = sidecar.build_reach(str(wrong_value), summary)
    assert (
        reach["pkg/text.py"] == ["tests/test_fmt.py"] and "pkg/other.py" not in reach["pkg/text.py"]
    )
    assert reach["pkg/other.py"] == ["tests/test_other.py"]
    assert sidecar.read_reach(str(wrong_value), summary["generation"]) == reach
    assert (
        sidecar.read_reach(str(wrong_value), summary["generation"] + 1) is None
    )  # a new run asks again


# ---------------------------------------------------------------------------------------------------
# The model's own run (#18: the import line right after the agent's own red run repeated what it had just read)


def own_compact_run(project: Path, env: dict[str, str]) -> str:
    """A red run as the agent's raw `pytest -q` makes it (compacted: no nudge of its own), and what
    it printed."""
    output = pytest_run(
        project, env, "-p", "sidekit_hooks.runners.pytest.compact", SIDEKIT_COMPACT_SHORT="0"
    )
    assert json.loads((project / ".sidekit" / "status.json").read_text())["run"]["compact"] is True
    return output


def agent_ran(project: Path, run_hook: HookRunner, output: str, **fields: Any) -> None:
    failed = bash(
        project, "pytest -q", error=f"Exit code 1\n{output}", duration_ms=30_000, **fields
    )
    assert (
        sidecar_lines(run_hook("PostToolUseFailure", failed).stdout) == []
    )  # compacted: the answer spoke
    wait_for(lambda: answer_ready(project), "the background import answer never came")


def test_after_the_agents_own_red_run_the_edit_does_not_repeat_its_failures(
    wrong_value: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    output = own_compact_run(wrong_value, clean_env)
    assert "test_title" in output and "test_x" in output  # the answer named both failures
    agent_ran(wrong_value, run_hook, output)
    assert (
        sidecar_lines(
            run_hook("PostToolUse", edit(wrong_value, "pkg/text.py", *UPPER_TO_LOWER)).stdout
        )
        == []
    )
    # Another session (another terminal's agent, a later session) never read that output.
    other = edit(wrong_value, "pkg/text.py", *UPPER_TO_LOWER, session="sess-2")
    assert sidecar_lines(run_hook("PostToolUse", other).stdout) == [TEXT_LINE]


def test_a_newer_run_the_model_did_not_see_speaks_again(
    wrong_value: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    agent_ran(wrong_value, run_hook, own_compact_run(wrong_value, clean_env))
    pytest_run(wrong_value, clean_env)  # the same failures, from a run in another terminal
    assert sidecar_lines(
        run_hook("PostToolUse", edit(wrong_value, "pkg/text.py", *UPPER_TO_LOWER)).stdout
    ) == [TEXT_LINE]


def test_a_failure_the_output_did_not_name_speaks(
    wrong_value: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    output = own_compact_run(wrong_value, clean_env)
    agent_ran(wrong_value, run_hook, output.replace("test_title", "test_?"))
    assert sidecar_lines(
        run_hook("PostToolUse", edit(wrong_value, "pkg/text.py", *UPPER_TO_LOWER)).stdout
    ) == [TEXT_LINE]


def test_a_background_run_is_not_one_the_model_read(
    wrong_value: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    # `pytest -q &` returns at once: the cache's run (the fixture's, a minute ago) started before
    # the command did.
    age_cache(wrong_value, 60)
    started = bash(wrong_value, "pytest -q > log.txt &", stdout="", duration_ms=40)
    run_hook("PostToolUse", started)
    run_hook("SessionStart", payload("SessionStart", wrong_value, source="startup"))
    wait_for(lambda: answer_ready(wrong_value), "SessionStart did not warm the import index")
    assert sidecar_lines(
        run_hook("PostToolUse", edit(wrong_value, "pkg/text.py", *UPPER_TO_LOWER)).stdout
    ) == [TEXT_LINE]


def test_after_a_partial_green_run_the_line_speaks_of_the_runs_that_ran_each_test(
    wrong_value: Path, run_hook: HookRunner, clean_env: dict[str, str]
) -> None:
    """#35: the newest run fixed and re-ran two of the three failing tests; the third and test_x
    were not re-run. The line counts only what still fails, says those failures come from an earlier
    run, and takes no count from the newest run (which passed 2): no line mixes runs."""
    (wrong_value / "pkg" / "text.py").write_text("def slug(value):\n    return value.lower()\n")
    pytest_run(
        wrong_value,
        clean_env,
        "tests/test_fmt.py::test_title[a]",
        "tests/test_fmt.py::test_title[b]",
    )
    run_hook("PostToolUseFailure", red_raw_run(wrong_value))  # starts the background import answer
    wait_for(lambda: answer_ready(wrong_value), "the background import answer never came")
    done = run_hook("PostToolUse", edit(wrong_value, "pkg/text.py", "lower", "casefold"))
    assert sidecar_lines(done.stdout) == [
        "[sidecar:tests] pkg/text.py is imported by 1 test that failed in an earlier run (not "
        "re-run since); "
        "details: sidekit failures tests/test_fmt.py::test_title[c]; re-run: sidekit test "
        "tests/test_fmt.py"
    ]
