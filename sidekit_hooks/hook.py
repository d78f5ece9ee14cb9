"""The hook process: read stdin, run one event under a deadline, print at most one JSON object, exit 0.

Entry scripts in `hooks/` call `main()`; so does `python -m sidekit_hooks.hook <Event>`.
"""

from __future__ import annotations

# The C module under `signal`: the wrapper imports `enum`, a measurable part of a hook's start-up.
import _signal as signal
import sys
import time

MAX_STDIN = 64 * 1024 * 1024  # a payload bigger than this is not read whole (and not parsed)


class DeadlineExceeded(BaseException):
    """Raised by the alarm; a BaseException so no detector's `except Exception` can swallow it."""


def _alarm(signum: int, frame: object) -> None:
    raise DeadlineExceeded()


def main(hook: str = "", argv: list[str] | None = None) -> int:
    started = time.monotonic()
    args = sys.argv[1:] if argv is None else argv
    hook = hook or (args[0] if args else "")
    outcome = None
    try:
        if hook == "PreToolUse":
            return _pre_tool_use()
        from sidekit_hooks import runtime

        if runtime.env_disabled():
            return 0
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, runtime.HARD_DEADLINE)
        stdin_text = sys.stdin.buffer.read(MAX_STDIN).decode("utf-8", "replace")
        outcome = runtime.run(hook, stdin_text, started)
        signal.setitimer(signal.ITIMER_REAL, 0)
        if outcome.output:
            sys.stdout.write(outcome.output)
            sys.stdout.flush()
        from sidekit_hooks.nudges import queue

        queue.commit(outcome.claims)  # delete only once the delivery is out
    except BaseException as exc:  # noqa: BLE001 - a hook must exit 0 whatever happens
        signal.setitimer(signal.ITIMER_REAL, 0)
        _fail_open(hook, exc, outcome)
    return 0


PRE_TOOL_DEADLINE = 0.8  # seconds, as runtime.HARD_DEADLINE; past it the command runs as written


def _pre_tool_use() -> int:
    """PreToolUse (Bash): only the raw-pytest rewrite listens, so a call that never says pytest costs
    one read of stdin and no import of the runtime."""
    import os

    if os.environ.get("SIDEKIT_DISABLE", "") not in ("", "0"):
        return 0
    stdin_text = sys.stdin.buffer.read(MAX_STDIN).decode("utf-8", "replace")
    if "pytest" not in stdin_text and "py.test" not in stdin_text:
        return 0
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, PRE_TOOL_DEADLINE)
    from sidekit_hooks.status import rewrite

    output = rewrite.handle(stdin_text)
    signal.setitimer(signal.ITIMER_REAL, 0)
    if output:
        sys.stdout.write(output)
        sys.stdout.flush()
    return 0


def _fail_open(hook: str, exc: BaseException, outcome: object) -> None:
    try:
        from sidekit_hooks import runtime
        from sidekit_hooks.core import hooklog, workspace
        from sidekit_hooks.nudges import queue

        queue.release(outcome.claims if isinstance(outcome, runtime.Outcome) else runtime.HELD)
        where = "deadline" if isinstance(exc, DeadlineExceeded) else "hook"
        cause: BaseException | str = "hard deadline reached" if where == "deadline" else exc
        hooklog.error(workspace.project_dir(), hook, where, cause)
    except BaseException:  # noqa: BLE001
        pass


if __name__ == "__main__":
    sys.exit(main())
