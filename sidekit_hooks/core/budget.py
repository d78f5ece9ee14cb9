"""Time shares inside one hook: what is running now, and a bound on one part of the work.

`doing("pack x.toml rule r1")` names the work in progress, so a part that runs out of time is logged
with the pack, rule or scope responsible (and `sidekit doctor` can say which). `bounded(call, s)`
runs `call` for at most `s` seconds on the process's one ITIMER_REAL, re-arming whatever outer timer
(the hook's hard deadline) was running. Standard library only.
"""

from __future__ import annotations

import _signal
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

NOW = [""]  # what the hook is doing at this moment, for the timeout message
_armed = [False]


class OutOfTime(BaseException):
    """A part ran past its share. A BaseException: a part's own `except Exception` must not eat
    it."""


class Later(Exception):  # noqa: N818 - a request, not an error
    """A detector's answer needs work no hook may do (a walk of the tree, a graph build): the
    runtime hands the event to a detached worker (`sidekit_hooks.pipeline.finish`), which answers
    for the next boundary."""


# in a Context's memo: detectors that answered in part and want the rest finished later
LATER_KEY = "finish-later"


def want_later(memo: dict[str, Any], name: str) -> None:
    """A detector says what it could and asks for the rest in the background (what `Later` does for
    all of it): its other findings still go out now."""
    memo.setdefault(LATER_KEY, set()).add(name)


def wants_later(memo: dict[str, Any], name: str) -> bool:
    return name in memo.get(LATER_KEY, ())


def doing(what: str) -> None:
    NOW[0] = what


def _on_alarm(signum: int, frame: object) -> None:
    if _armed[0]:
        raise OutOfTime()


def bounded(call: Callable[[], T], seconds: float) -> T:
    """`call()`, or OutOfTime once `seconds` pass. Outside the main thread it runs unbounded."""
    if seconds <= 0:
        raise OutOfTime()
    try:
        outer_handler = _signal.getsignal(_signal.SIGALRM)
        outer_left = _signal.getitimer(_signal.ITIMER_REAL)[0]
        _signal.signal(_signal.SIGALRM, _on_alarm)
    except ValueError:
        return call()
    started = time.monotonic()
    mine = min(seconds, outer_left) if outer_left > 0 else seconds
    _armed[0] = True
    _signal.setitimer(_signal.ITIMER_REAL, mine)
    try:
        return call()
    finally:
        _armed[0] = False
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.signal(_signal.SIGALRM, outer_handler)
        if outer_left > 0:
            _signal.setitimer(
                _signal.ITIMER_REAL, max(outer_left - (time.monotonic() - started), 1e-6)
            )


def call_with(call: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    return lambda: call(*args)
