"""Bounded fuzz and stress, run in CI (#15, deliver 7); `bench/run.py --only hostile` runs them at
full scale."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import hostile_load  # noqa: E402 - bench/ is not a package

pytestmark = pytest.mark.skipif(
    hostile_load.REPO != str(Path(__file__).resolve().parents[2]),
    reason="runs this checkout's hook in process",
)


def test_2000_fuzzed_hook_payloads_never_crash_print_junk_overrun_or_touch_outside(
    tmp_path: Path,
) -> None:
    counts = hostile_load.fuzz(2_000, str(tmp_path), seed=15, subprocess_samples=8)
    assert counts == {
        "runs": 2_008,
        "crashes": 0,
        "nonJson": 0,
        "overDeadline": 0,
        "outsideTouched": 0,
    }
    decisions = (tmp_path / "proj" / ".sidekit" / "log" / "decisions.jsonl").read_text()
    assert '"decision":"fired"' in decisions  # the sidecars did real work on the fuzzed calls


def test_queue_stress_8_writers_4_drainers_2000_messages_with_gt_style_writes(
    tmp_path: Path,
) -> None:
    counts = hostile_load.stress(8, 4, 2_000, str(tmp_path))
    assert counts == {
        "sent": 2_000,
        "delivered": 2_000,
        "lost": 0,
        "duplicated": 0,
        "malformedDelivered": 0,
        "quarantined": 0,
        "writerFailures": 0,
    }
