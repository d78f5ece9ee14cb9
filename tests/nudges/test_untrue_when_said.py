"""A finding that was already not so when it was delivered is counted apart ("untrue"), never as
fixed.

The case from a real session (semver): a tests line named tests that had failed in an older run,
said while the newest run (the same cache generation as the finding's) had them passing. The
generation shortcut of the re-check judged it "still" at delivery and "fixed" at the end, so the
report credited the tests sidecar with a fix. Now the delivery judges it test by test and marks it;
Stop logs "untrue".
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sidekit_hooks.nudges import session_ledger
from sidekit_hooks.nudges.recheck import untrue_when_said
from sidekit_hooks.pipeline.runtime import delivered_fact
from testing.hooks import HookRunner, payload

NAMED = "tests/test_a.py::test_one\ntests/test_a.py::test_two"
TESTS_RECHECK = {"kind": "tests", "path": "src/a.py", "generation": "7", "tests": NAMED}


def cache(project: Path, generation: int, failing: list[str]) -> None:
    """The newest recorded run as the tests sidecar reads it (.sidekit/status.json)."""
    (project / ".sidekit").mkdir(exist_ok=True)
    summary = {
        "format": 1,
        "generation": generation,
        "failing": len(failing),
        "moreClusters": 0,
        "clusters": [{"id": "c1", "tests": failing}] if failing else [],
        "files": {},
    }
    (project / ".sidekit" / "status.json").write_text(json.dumps(summary))


@pytest.mark.parametrize(
    ("failing", "untrue"),
    [
        (
            ["tests/test_a.py::test_one", "tests/test_a.py::test_two"],
            False,
        ),  # every named test fails: true
        (["tests/test_a.py::test_one"], True),  # one of the two passes already: its count is wrong
        ([], True),  # the newest run is green: nothing it says holds
    ],
)
def test_a_tests_line_is_judged_test_by_test_at_delivery_even_in_its_own_generation(
    project: Path, failing: list[str], untrue: bool
) -> None:
    cache(project, 7, failing)  # the same generation the finding was made in
    assert untrue_when_said(str(project), TESTS_RECHECK) is untrue
    assert delivered_fact(str(project), "k1", TESTS_RECHECK) == (
        {"deliver": "k1", "untrue": 1} if untrue else {"deliver": "k1"}
    )


def test_control_what_cannot_be_judged_is_taken_as_true(project: Path) -> None:
    assert untrue_when_said(str(project), TESTS_RECHECK) is False  # no cache yet
    cache(project, 7, [])
    assert untrue_when_said(str(project), {**TESTS_RECHECK, "tests": ""}) is False  # names no test
    assert (
        untrue_when_said(str(project), {"kind": "match", "path": "src/a.py", "pattern": "x"})
        is False
    )
    assert delivered_fact(str(project), "k2", {"kind": "scope", "path": "a.py"}) == {
        "deliver": "k2"
    }


def admitted_tests_finding(project: Path, session: str, untrue: bool) -> None:
    """A session's ledger: a tests finding admitted and delivered (marked untrue, or not)."""
    record = {
        "admit": "tests:src/a.py",
        "sidecar": "tests",
        "rule": "tests.failing-importers",
        "severity": "medium",
        "path": "src/a.py",
        "text": "[sidecar:tests] src/a.py is imported by 2 tests that failed in the last run.",
        "recheck": TESTS_RECHECK,
    }
    deliver = {"deliver": "tests:src/a.py", **({"untrue": 1} if untrue else {})}
    session_ledger.append(str(project), session, [record, {"call": ""}, deliver])


@pytest.mark.parametrize(("untrue", "counted"), [(True, "untrue"), (False, "fixed")])
def test_stop_counts_a_line_untrue_when_said_apart_and_never_as_fixed(
    project: Path, run_hook: HookRunner, untrue: bool, counted: str
) -> None:
    admitted_tests_finding(project, "s1", untrue)
    cache(project, 8, [])  # a later green run: the files now say "fixed"
    done = run_hook("Stop", payload("Stop", project, session_id="s1", stop_hook_active=False))
    assert (done.returncode, done.stderr) == (0, "")
    report = subprocess.run(
        [
            sys.executable,
            "-m",
            "sidekit_hooks.cli",
            "report",
            "--project",
            str(project),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    [tests] = [row for row in json.loads(report.stdout)["sidecars"] if row["sidecar"] == "tests"]
    assert {key: tests.get(key, 0) for key in ("fixed", "ignored", "moot", "untrue")} == {
        "fixed": int(counted == "fixed"),
        "ignored": 0,
        "moot": 0,
        "untrue": int(counted == "untrue"),
    }
    assert tests.get("uptake") == (None if untrue else 1.0)  # an untrue line is out of uptake
