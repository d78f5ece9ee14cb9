"""Per-test truth (#35 item 1): a tests line speaks of one run, and is true of each test's newest
run.

A hypothesis property over interleavings of partial and whole runs, fixes, breaks, deleted test
files, lines said and lines delivered. The cache is the real one (`status.record.merge` writes it as
a run's end does); the lines are the tests sidecar's own (`detectors.tests`), and delivery is the
real re-check (`nudges.recheck.outcome`). Every line that goes out is judged against the cache at
that moment:
- each test it counts failed in the newest run that ran that test;
- a line that states the newest run's status counts only failures of that run (no mixing of runs).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sidekit_hooks.detectors import tests as sidecar
from sidekit_hooks.nudges import recheck
from sidekit_hooks.status import cache, record
from testing.examples import depths

FILES = ("tests/test_a.py", "tests/test_b.py")
TESTS = tuple(f"{path}::test_{n}" for path in FILES for n in range(4))
SOURCE = "pkg/text.py"  # every test imports it

Step = tuple[str, Any]
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("run"), st.frozensets(st.sampled_from(TESTS), min_size=1)),
        st.tuples(st.just("whole"), st.none()),
        st.tuples(st.just("fix"), st.sampled_from(TESTS)),
        st.tuples(st.just("break"), st.sampled_from(TESTS)),
        st.tuples(st.just("delete"), st.sampled_from(FILES)),
        st.tuples(st.just("say"), st.none()),
        st.tuples(st.just("deliver"), st.none()),
    ),
    min_size=1,
    max_size=14,
)


class Project:
    """A folder with the test files, which tests are broken now, and the cache the runs left."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.broken = set(TESTS)
        self.clock = 1_000.0
        for path in FILES:
            self.restore(path)

    def restore(self, path: str) -> None:
        os.makedirs(os.path.join(self.root, "tests"), exist_ok=True)
        Path(self.root, path).write_text("def test_0(): pass\n")

    def run(self, chosen: frozenset[str] | None) -> None:
        """A pytest run of `chosen` tests (None: the whole suite), as the recorder plugin merges
        it."""
        present = [t for t in TESTS if os.path.exists(os.path.join(self.root, t.split("::")[0]))]
        ran = [t for t in present if chosen is None or t in chosen]
        if not ran:
            return
        self.clock += 10
        results: dict[str, dict[str, Any]] = {
            t: {"o": "failed" if t in self.broken else "passed", "d": 0.01} for t in ran
        }
        for test in results:
            if results[test]["o"] == "failed":
                results[test]["f"] = {
                    "type": "AssertionError",
                    "message": "wrong",
                    "frames": [f"{SOURCE}:2"],
                }
        run: dict[str, Any] = {
            "started": self.clock - 5,
            "finished": self.clock,
            "exit": 1 if self.broken & set(ran) else 0,
        }
        run.update(
            args=[] if chosen is None else sorted(ran),
            selected=len(ran),
            ran=len(ran),
            interrupted=False,
        )
        known = set(present) if chosen is None else None
        summary, table = record.merge(self.root, run, results, {}, known)
        cache.write(cache.table_path(self.root), table)
        cache.write(cache.summary_path(self.root), summary)

    def summary(self) -> dict[str, Any]:
        return dict(cache.read(cache.summary_path(self.root)).data)

    def table(self) -> dict[str, Any]:
        return dict(cache.read(cache.table_path(self.root)).data.get("tests") or {})


def said(project: Project) -> list[tuple[str, dict[str, str], list[str]]]:
    """The lines the tests sidecar says now about an edit to SOURCE (the traceback spot and the
    import form), each with its re-check record and the tests it counts (here every failing test:
    all of them pass through SOURCE)."""
    summary = project.summary()
    if not summary.get("failing"):
        return []
    failing = {
        test: entry.get("c", "")
        for test, entry in project.table().items()
        if entry["o"] == "failed"
    }
    found = sidecar.after_edit(SOURCE, summary)
    found += sidecar.after_edit_imported(SOURCE, summary, sorted(failing), failing)
    return [(finding.message, finding.recheck or {}, sorted(failing)) for finding in found]


def check_delivered(project: Project, message: str, named: list[str]) -> None:
    summary, table = project.summary(), project.table()
    newest = (summary.get("run") or {}).get("finished")
    for test in named:
        assert table.get(test, {}).get("o") == "failed", (
            f"{message!r}: {test} did not fail in its newest run"
        )
    if (
        "in the last run (" in message
    ):  # the newest run's own status: only its failures may be counted
        assert all(table[test].get("s") == newest for test in named), f"{message!r} mixes runs"


def no_delivered_tests_line_claims_a_failure_its_newest_run_did_not_have_or_mixes_runs(
    steps: list[Step],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        project = Project(folder)
        project.run(None)  # every test fails at first
        pending: list[tuple[str, dict[str, str], list[str]]] = []
        for action, arg in steps:
            if action == "run":
                project.run(arg)
            elif action == "whole":
                project.run(None)
            elif action == "fix":
                project.broken.discard(arg)
            elif action == "break":
                project.broken.add(arg)
            elif action == "delete":
                os.remove(os.path.join(folder, arg)) if os.path.exists(
                    os.path.join(folder, arg)
                ) else None
            elif action == "say":
                pending.extend(said(project))
            else:
                for message, check, counted in pending:
                    if recheck.outcome(folder, check) not in (recheck.FIXED, recheck.MOOT):
                        check_delivered(project, message, counted)
                pending.clear()


@pytest.mark.parametrize("examples", depths(150, fast=30))
def test_no_delivered_tests_line_claims_a_failure_its_newest_run_did_not_have_or_mixes_runs(
    examples: int,
) -> None:
    settings(max_examples=examples, deadline=None)(
        given(steps=STEPS)(
            no_delivered_tests_line_claims_a_failure_its_newest_run_did_not_have_or_mixes_runs
        )
    )()


def test_a_line_about_an_earlier_run_says_so_and_gives_no_count_of_the_newest() -> None:
    """The example the property was written for: two of four failing tests fixed and re-run."""
    with tempfile.TemporaryDirectory() as folder:
        project = Project(folder)
        project.run(None)
        project.broken -= {"tests/test_a.py::test_0", "tests/test_a.py::test_1"}
        project.run(frozenset({"tests/test_a.py::test_0", "tests/test_a.py::test_1"}))
        assert [message for message, _, _ in said(project)] == [
            "6 tests that failed in an earlier run (not re-run since) pass through pkg/text.py; "
            "details: sidekit failures tests/test_a.py::test_2; re-run: sidekit test "
            "tests/test_a.py tests/test_b.py",
            "pkg/text.py is imported by 6 tests that failed in an earlier run (not re-run since); "
            "details: sidekit failures tests/test_a.py::test_2; re-run: sidekit test "
            "tests/test_a.py tests/test_b.py",
        ]
