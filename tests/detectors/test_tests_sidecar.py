"""The tests sidecar through the real hook entry points, on a cache a real pytest run wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.detectors.tests import runs_pytest
from testing import made_once
from testing.hooks import HookRunner, bash, context_of, edit, payload
from testing.red_run import pytest_run, red_package

LOWER_CHANGE = ("lower(", "lower( ")  # old, new: a whitespace edit


FAILING = {
    "pkg/text.py": "def slug(value):\n    return value.lower(\n        )[99]\n",
    "tests/test_text.py": """\
        import pytest
        from pkg.text import slug

        @pytest.mark.parametrize("word", ["A", "B", "C"])
        def test_slug(word):
            assert slug(word)

        def test_other():
            assert 1 == 2
    """,
}


@pytest.fixture
def failing(project: Path, clean_env: dict[str, str]) -> Path:
    """After a red pytest run that has just ended: a command's run is told only then
    (`is_this_run`)."""
    return red_package(project, clean_env, FAILING)


@pytest.fixture(scope="module")
def failing_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same red project, made once: the edit tests (which do not ask how long ago the run
    ended) read copies of it (`failed_earlier`)."""
    with made_once.as_a_test_sees_it(tmp_path_factory) as env:
        return red_package(made_once.new_folder(tmp_path_factory, "failing"), env, FAILING)


@pytest.fixture
def failed_earlier(failing_once: Path, project: Path) -> Path:
    """This test's own copy of the red project."""
    return made_once.copy_into(failing_once, project)


def bash_failed(project: Path, command: str) -> dict[str, Any]:
    return bash(project, command, error="Exit code 1\n4 failed in 0.1s", tool_use_id="toolu_2")


def test_edit_of_a_file_in_failing_tracebacks_says_so_with_the_command(
    failed_earlier: Path, run_hook: HookRunner
) -> None:
    done = run_hook("PostToolUse", edit(failed_earlier, "pkg/text.py", *LOWER_CHANGE))
    assert done.returncode == 0
    assert context_of(done.stdout) == (
        "[sidecar:tests] 3 tests that failed in the last run pass through pkg/text.py "
        "(4 failed; 2 root causes); details: sidekit failures tests/test_text.py::test_slug[A]; "
        "re-run: sidekit test tests/test_text.py"
    )


def test_edit_of_the_failing_test_file_itself(failed_earlier: Path, run_hook: HookRunner) -> None:
    text = context_of(
        run_hook("PostToolUse", edit(failed_earlier, "tests/test_text.py", *LOWER_CHANGE)).stdout
    )
    assert text.startswith(
        "[sidecar:tests] 4 tests that failed in the last run live in tests/test_text.py ("
    )


def test_edit_of_an_unrelated_file_says_nothing(failed_earlier: Path, run_hook: HookRunner) -> None:
    (failed_earlier / "pkg" / "other.py").write_text("x = 1\n")
    done = run_hook("PostToolUse", edit(failed_earlier, "pkg/other.py", *LOWER_CHANGE))
    assert (done.returncode, done.stdout) == (0, "")


def test_raw_pytest_with_failures_gets_the_clustered_status(
    failing: Path, run_hook: HookRunner
) -> None:
    done = run_hook(
        "PostToolUseFailure", bash_failed(failing, f"cd {failing} && python -m pytest -q")
    )
    summary = json.loads((failing / ".sidekit" / "status.json").read_text())
    biggest = summary["clusters"][0]["id"]
    assert context_of(done.stdout) == (
        "[sidecar:tests] pytest: 4 failed; 2 root causes; biggest: IndexError at pkg/text.py:2 "
        "(3 tests): "
        f"sidekit failures {biggest}. Next time `sidekit test` answers in one JSON line"
    )


def test_a_compacted_go_run_gets_no_tests_line_from_the_sidecar(
    failing: Path, run_hook: HookRunner
) -> None:
    """The model has read a compacted go run's failures in its own output (the sidecar speaks after
    a run of a runner fed by its own plugin only), even with a red cache to speak of."""
    done = run_hook(
        "PostToolUseFailure", bash_failed(failing, "go test ./...")
    )  # (the tmp path says pytest)
    assert (done.returncode, done.stdout) == (0, "")


def test_raw_pytest_green_gets_no_tests_line(
    project: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    (project / "pytest.ini").write_text("[pytest]\n")
    (project / "test_ok.py").write_text("def test_ok():\n    pass\n")
    pytest_run(project, clean_env)
    ok = payload(
        "PostToolUse",
        project,
        tool_name="Bash",
        tool_input={"command": "pytest -q"},
        tool_response={"stdout": "1 passed", "stderr": "", "interrupted": False},
    )
    done = run_hook("PostToolUse", ok)
    # Green output speaks for itself; only the tools sidecar's one-time "use sidekit test" may
    # speak.
    assert done.returncode == 0
    assert [
        line for line in context_of(done.stdout).splitlines() if line.startswith("[sidecar:tests]")
    ] == []


def test_no_cache_or_a_corrupt_one_is_silent(project: Path, run_hook: HookRunner) -> None:
    assert run_hook("PostToolUse", edit(project, "pkg/text.py", *LOWER_CHANGE)).stdout == ""
    (project / ".sidekit").mkdir(exist_ok=True)
    (project / ".sidekit" / "status.json").write_text("{broken")
    done = run_hook("PostToolUseFailure", bash_failed(project, "pytest"))
    assert (done.returncode, done.stdout) == (0, "")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("pytest", True),
        ("python -m pytest -x tests/", True),
        ("cd a && PYTHONPATH=. .venv/bin/pytest -q", True),
        ("uv run pytest", True),
        ("timeout 60 python3 -m pytest", True),
        ("py.test tests", True),
        ("grep -rn pytest .", False),
        ("sidekit test", False),
        ("pip install pytest", False),
        ("cat pytest.ini", False),
        ("echo 'run pytest later'", False),
        ("go test ./...", True),
        ("cd m && cargo test -p b", True),
        ("go vet ./...", False),
        ("npm test", False),
        ("echo go test", False),
    ],
)
def test_runs_pytest(command: str, expected: bool) -> None:
    assert runs_pytest(command) is expected


def test_a_corrupt_cache_is_logged_for_doctor(project: Path, run_hook: HookRunner) -> None:
    (project / ".sidekit").mkdir()
    (project / ".sidekit" / "status.json").write_text("{half")
    (project / "a.py").write_text("x = 2\n")
    edit = payload(
        "PostToolUse",
        project,
        tool_name="Edit",
        tool_input={
            "file_path": str(project / "a.py"),
            "old_string": "x = 1",
            "new_string": "x = 2",
        },
    )
    done = run_hook("PostToolUse", edit)
    assert (done.returncode, done.stdout) == (0, "")
    log = (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
    assert (
        '"where":"detector:tests","error":"status.json is corrupt; the next pytest run rebuilds it"'
        in log
    )


def test_after_a_raw_run_the_sidecar_names_the_runner_that_wrote_the_cache() -> None:
    from sidekit_hooks.detectors.tests import after_run

    run = {"started": 100.0, "finished": 101.0, "counts": {"failed": 2, "passed": 1}}
    cluster = {
        "id": "abc12345",
        "type": "t.Error",
        "at": "calc/calc_test.go:9",
        "affected": 2,
        "tests": ["calc::TestA"],
    }
    summary = {"generation": 3, "runner": "go", "run": run, "clusters": [cluster]}
    found = after_run(summary, now=101.5, duration=2.0)
    assert [f.message for f in found] == [
        "go: 2 failed, 1 passed; 1 root cause; biggest: t.Error at calc/calc_test.go:9 (2 tests): "
        "sidekit failures "
        "abc12345. Next time `sidekit test` answers in one JSON line"
    ]
    assert after_run(dict(summary, run=dict(run, compact=True)), now=101.5, duration=2.0) == []
