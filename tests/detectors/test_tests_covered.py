"""The tests sidecar with a test-impact map: an edit to a file failing tests execute, though none
raise in it.

Real runs throughout: `sidekit map` and pytest (with the sidekit plugin) on a fixture project, then
the real PostToolUse hook in a subprocess.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.detectors import tests as tests_sidecar
from sidekit_hooks.detectors.tests import DETECTOR, after_edit_covered
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.findings import Context
from testing import made_once
from testing.hooks import HookRunner, context_of, edit, payload
from testing.red_run import pytest_run

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "impact"))
from test_covers import PROJECT  # noqa: E402

from testing.code import sidekit, write  # noqa: E402

CALC_LINE = (
    "[sidecar:tests] pkg/calc.py is covered by 4 tests that failed in the last run (5 failed, 2 "
    "passed; "
    "2 root causes); details: sidekit failures tests/test_fmt.py::test_show[2]; re-run: sidekit "
    "test tests/test_fmt.py"
)
RETURN_CHANGE = ("return", "return  ")  # old, new: a whitespace edit of a return line


@pytest.fixture(scope="module")
def red_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture project after a red pytest run: 4 tests fail in fmt.py, 1 in its own test
    file. Made once; the tests read copies (`red`, `mapped`)."""
    root = made_once.new_folder(tmp_path_factory, "red")
    with made_once.as_a_test_sees_it(tmp_path_factory) as env:
        write(root, PROJECT)
        pytest_run(root, env, "-p", "no:cacheprovider")
    return root


@pytest.fixture(scope="module")
def mapped_once(red_once: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The red project after `sidekit map` (its test-impact map and coverage digest)."""
    root = made_once.copy_into(red_once, made_once.new_folder(tmp_path_factory, "mapped"))
    with made_once.as_a_test_sees_it(tmp_path_factory):
        sidekit(root, "map")
    return root


@pytest.fixture
def red(red_once: Path, project: Path) -> Path:
    """This test's own copy of the red project (no map yet)."""
    return made_once.copy_into(red_once, project)


@pytest.fixture
def mapped(mapped_once: Path, project: Path) -> Path:
    """This test's own copy of the red project after `sidekit map`."""
    return made_once.copy_into(mapped_once, project)


IMPORTS_LINE = (
    "[sidecar:tests] pkg/calc.py is imported by 4 tests that failed in the last run (5 failed, 2 "
    "passed; "
    "2 root causes); details: sidekit failures tests/test_fmt.py::test_show[2]; "
    "re-run: sidekit test tests/test_fmt.py"
)


def finished_later(project: Path) -> None:
    """Wait for the background worker the hook handed the edit to (the import graph is no hook's
    work)."""
    decisions = project / ".sidekit" / "log" / "decisions.jsonl"
    deadline = time.monotonic() + 30
    while not (decisions.exists() and '"finished-later"' in decisions.read_text()):
        assert time.monotonic() < deadline, "no worker finished the edit"
        time.sleep(0.1)


def test_edit_of_a_covered_helper_names_the_failing_tests_that_run_it(
    red: Path, run_hook: HookRunner
) -> None:
    # No map yet: no traceback frame there.
    assert run_hook("PostToolUse", edit(red, "pkg/calc.py", *RETURN_CHANGE)).stdout == ""
    finished_later(red)  # without a map, the import basis answers at the next boundary
    prompt = payload("UserPromptSubmit", red, prompt="go on")
    assert context_of(run_hook("UserPromptSubmit", prompt).stdout) == IMPORTS_LINE
    sidekit(red, "map")
    done = run_hook("PostToolUse", edit(red, "pkg/calc.py", *RETURN_CHANGE, session="sess-2"))
    assert (done.returncode, context_of(done.stdout)) == (0, CALC_LINE)
    assert done.stderr == ""


def test_a_stale_digest_still_hints_and_a_traceback_frame_wins(
    mapped: Path, run_hook: HookRunner
) -> None:
    (mapped / "pkg" / "calc.py").write_text(
        "def half(n):\n    # halves n\n    return n / 2\n"
    )  # changed after the map
    assert (
        context_of(run_hook("PostToolUse", edit(mapped, "pkg/calc.py", *RETURN_CHANGE)).stdout)
        == CALC_LINE
    )
    # fmt.py is in the failing tracebacks: the cache's own, more precise line.
    other_session = edit(
        mapped, "pkg/fmt.py", *RETURN_CHANGE, session="sess-2"
    )  # the same session is in its cooldown
    assert context_of(run_hook("PostToolUse", other_session).stdout).startswith(
        "[sidecar:tests] 4 tests that failed in the last run pass through pkg/fmt.py (5 failed, 2 "
        "passed;"
    )


@pytest.mark.parametrize("path", ["pkg/other.py", "tests/test_calc.py", "pkg/new.py"])
def test_files_covered_only_by_passing_tests_or_test_files_are_silent(
    mapped: Path, run_hook: HookRunner, path: str
) -> None:
    if not (mapped / path).exists():
        (mapped / path).write_text("def new():\n    return 1\n")
    done = run_hook("PostToolUse", edit(mapped, path, *RETURN_CHANGE))
    assert (done.returncode, done.stdout) == (0, "")


def test_green_cache_or_broken_digest_is_silent(
    mapped: Path, clean_env: dict[str, str], run_hook: HookRunner
) -> None:
    digest = mapped / ".sidekit" / "code" / "covers.json"
    digest.write_text("{not json")
    done = run_hook("PostToolUse", edit(mapped, "pkg/calc.py", *RETURN_CHANGE))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    finished_later(
        mapped
    )  # the import basis, from the background, goes out at the next boundary while still red
    prompt = payload("UserPromptSubmit", mapped, prompt="go on")
    assert context_of(run_hook("UserPromptSubmit", prompt).stdout) == IMPORTS_LINE
    sidekit(mapped, "map")
    write(
        mapped,
        {
            "pkg/calc.py": "def half(n):\n    return n // 2\n",
            "tests/test_other.py": "def test_ok():\n    pass\n",
        },
    )
    pytest_run(mapped, clean_env, "-p", "no:cacheprovider")
    assert json.loads((mapped / ".sidekit" / "status.json").read_text())["failing"] == 0
    assert run_hook("PostToolUse", edit(mapped, "pkg/calc.py", *RETURN_CHANGE)).stdout == ""


SUMMARY: dict[str, Any] = {
    "generation": 3,
    "failing": 3,
    "run": {"counts": {"failed": 3, "passed": 9}},
    "clusters": [
        {
            "id": "c1",
            "affected": 2,
            "tests": ["tests/a/test_x.py::test_1", "tests/b/test_y.py::test_2"],
        },
        {"id": "c2", "affected": 1, "tests": ["tests/test_z.py::test_3"]},
    ],
}


def test_biggest_cluster_first_and_every_test_file_in_the_rerun() -> None:
    failing = {
        "tests/test_z.py::test_3": "c2",
        "tests/b/test_y.py::test_2": "c1",
        "tests/a/test_x.py::test_1": "c1",
    }
    covering = ["tests/test_z.py::test_3", "tests/b/test_y.py::test_2", "tests/ok.py::test_passes"]
    [found] = after_edit_covered("lib/m.py", SUMMARY, covering, failing)
    assert found.text() == (
        "[sidecar:tests] lib/m.py is covered by 2 tests that failed in the last run (3 failed, 9 "
        "passed; 2 root causes); "
        "details: sidekit failures tests/b/test_y.py::test_2; re-run: sidekit test "
        "tests/b/test_y.py tests/test_z.py"
    )
    assert found.key == "tests:edit:lib/m.py:3"


def test_long_ids_and_many_files_stay_within_300_characters() -> None:
    deep = "/".join(["a_rather_long_folder_name"] * 5)
    tests = [f"{deep}/test_mod_{i}.py::test_{'x' * 80}" for i in range(6)]
    failing = dict.fromkeys(tests, "c9")
    [found] = after_edit_covered(f"{deep}/core.py", SUMMARY, tests, failing)
    assert found.message.endswith("; details: sidekit failures c9; re-run: sidekit test --select")
    assert len(found.text()) <= 300
    [one] = after_edit_covered("lib/m.py", SUMMARY, tests[:1], failing)
    assert one.message.startswith("lib/m.py is covered by 1 test that failed in the last run (")
    assert one.message.endswith(
        "re-run: sidekit test --select"
    )  # the test file would take it over 300
    fits = tests[0].replace("a_rather_long_folder_name/", "", 1)
    [named] = after_edit_covered("lib/m.py", SUMMARY, [fits], {fits: "c9"})
    assert named.message.endswith(f"re-run: sidekit test {fits.split('::')[0]}")
    assert len(named.text()) <= 300


def test_no_failing_test_among_the_covering_ones_says_nothing() -> None:
    assert (
        after_edit_covered(
            "lib/m.py", SUMMARY, ["tests/ok.py::test_passes"], {"tests/test_z.py::test_3": "c2"}
        )
        == []
    )


def detect_in_process(project: Path, path: str) -> list[str]:
    ctx = Context(str(project), "sess-1", time.monotonic() + 5)
    event = parse_event("PostToolUse", edit(project, path, *RETURN_CHANGE), str(project))
    return [finding.text() for finding in DETECTOR.detect(event, ctx)]


def test_a_table_too_big_for_a_hook_leaves_the_summary_tests_named_as_at_least(
    mapped: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert detect_in_process(mapped, "pkg/calc.py") == [
        CALC_LINE
    ]  # 4 failing in one cluster: the table is read
    monkeypatch.setattr(tests_sidecar, "TABLE_READ_LIMIT", 100)
    assert detect_in_process(mapped, "pkg/calc.py") == [
        CALC_LINE.replace("by 4 tests", "by at least 3 tests")
    ]


def test_past_the_deadline_the_digest_is_not_read(mapped: Path) -> None:
    ctx = Context(str(mapped), "sess-1", time.monotonic() - 1)
    event = parse_event("PostToolUse", edit(mapped, "pkg/calc.py", *RETURN_CHANGE), str(mapped))
    assert DETECTOR.detect(event, ctx) == [] and "tests:covers" not in ctx.memo
