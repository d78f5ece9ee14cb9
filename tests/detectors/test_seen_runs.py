"""Which run the model has read (detectors/seen_runs.py): the note the Bash hook leaves, and what it
holds back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sidekit_hooks.detectors import seen_runs

CLUSTERS = [
    {"id": "ecb8e450", "tests": ["test/test_internal.py::test_markdown_rule"]},
    {"id": "5aa338ee", "tests": ["test/test_internal.py::test_rule_matches[pipe]"]},
]


def summary(
    failing: int = 2, failed: int = 2, finished: float = 100.0, **fields: Any
) -> dict[str, Any]:
    return {
        "failing": failing,
        "run": {"finished": finished, "counts": {"failed": failed, "passed": 280}},
        "clusters": CLUSTERS,
        **fields,
    }


RAW = "FAILED test/test_internal.py::test_markdown_rule - Ass...\n___ test_rule_matches[pipe] ___\n2 failed, 280 passed"


def test_an_output_naming_every_failure_shows_them() -> None:
    assert seen_runs.failures_named(summary(), RAW) is True
    # the compact answer names clusters by id
    by_id = '{"clusters":[{"id":"ecb8e450"},{"id":"5aa338ee"}]}'
    assert seen_runs.failures_named(summary(), by_id) is True


def test_a_failure_the_output_left_out_is_not_shown() -> None:
    assert (
        seen_runs.failures_named(summary(), "FAILED test/test_internal.py::test_markdown_rule")
        is False
    )
    assert (
        seen_runs.failures_named(summary(moreClusters=1), RAW) is False
    )  # the summary itself was capped


def test_a_failure_carried_from_an_earlier_run_is_not_shown() -> None:
    # 3 failing in the cache, 2 from this run: the third is an older run's, which this output never
    # named
    assert seen_runs.failures_named(summary(failing=3), RAW) is False


def test_the_note_holds_for_that_run_in_that_session_and_agent_only(tmp_path: Path) -> None:
    project = str(tmp_path)
    seen_runs.note(project, "sess-1", "", summary(), RAW)
    assert seen_runs.model_read(project, "sess-1", "", summary()) is True
    assert (
        seen_runs.model_read(project, "sess-2", "", summary()) is False
    )  # another session never read it
    assert seen_runs.model_read(project, "sess-1", "agent-7", summary()) is False  # nor a subagent
    assert (
        seen_runs.model_read(project, "sess-1", "", summary(finished=101.0)) is False
    )  # a newer run


def test_a_run_whose_output_named_too_little_is_not_read(tmp_path: Path) -> None:
    project = str(tmp_path)
    seen_runs.note(project, "sess-1", "", summary(), "Exit code 1\n2 failed")
    assert seen_runs.model_read(project, "sess-1", "", summary()) is False


def test_no_note_a_broken_one_or_no_session_means_not_read(tmp_path: Path) -> None:
    project = str(tmp_path)
    assert seen_runs.model_read(project, "sess-1", "", summary()) is False
    seen_runs.note(project, "", "", summary(), RAW)
    assert seen_runs.model_read(project, "", "", summary()) is False
    path = Path(seen_runs.seen_path(project, "sess-1"))
    path.parent.mkdir(parents=True)
    path.write_text("{broken")
    assert seen_runs.model_read(project, "sess-1", "", summary()) is False
    assert (
        seen_runs.model_read(project, "a\x00b", "", summary()) is False
    )  # a session name no folder can hold
