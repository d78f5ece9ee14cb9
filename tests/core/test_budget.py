"""core/budget: one part of a hook bounded in time, the outer deadline re-armed after it (#15)."""

from __future__ import annotations

import _signal
import time

import pytest

from sidekit_hooks.core import budget


def test_a_part_past_its_share_is_cut_off_and_the_outer_timer_survives() -> None:
    fired: list[str] = []
    previous = _signal.signal(_signal.SIGALRM, lambda *_: fired.append("outer"))
    _signal.setitimer(_signal.ITIMER_REAL, 0.5)
    try:
        budget.doing("detector slow")
        started = time.monotonic()
        with pytest.raises(budget.OutOfTime):
            budget.bounded(lambda: time.sleep(2), 0.05)
        assert time.monotonic() - started < 0.4
        assert budget.NOW[0] == "detector slow"
        assert (
            0 < _signal.getitimer(_signal.ITIMER_REAL)[0] <= 0.5
        )  # the hook's deadline is still armed
        assert budget.bounded(lambda: 42, 0.5) == 42
    finally:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.signal(_signal.SIGALRM, previous)
        budget.doing("")
