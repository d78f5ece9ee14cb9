"""The hook process: read stdin, run one event under a deadline, print at most one JSON object, exit
0.

Entry scripts in `hooks/` call `main()`; so does `python -m sidekit_hooks.pipeline.hook <Event>`.
"""

from __future__ import annotations

# The C module under `signal`: the wrapper imports `enum`, a measurable part of a hook's start-up.
import _signal as signal
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.pipeline.runtime import Call

MAX_STDIN = 64 * 1024 * 1024  # a payload bigger than this is bad input: not read whole, not parsed


def _read_stdin() -> str | None:
    """The event as text (undecodable bytes replaced); None when it is over MAX_STDIN (the caller
    logs it)."""
    data = sys.stdin.buffer.read(MAX_STDIN + 1)
    return None if len(data) > MAX_STDIN else data.decode("utf-8", "replace")


def _bad_input(event_name: str, why: BaseException | str) -> int:
    """Log a malformed event as bad input (core/hookinput.py), never as a crash; the hook does
    nothing."""
    from sidekit_hooks.core import hookinput, workspace

    hookinput.log(workspace.project_dir(), event_name, why if isinstance(why, str) else str(why))
    return 0


def run_entry(event_name: str) -> None:
    """What every `hooks/<event>.py` does: run one event, then leave without the interpreter's
    teardown.

    A hook lives for milliseconds, so the cyclic collector only costs it; with the collector off the
    teardown would sweep every object (more work than the hook itself). stdout is flushed and every
    file sidekit writes is already closed.
    """
    import gc
    import os

    gc.disable()
    code = main(event_name)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


class DeadlineExceeded(BaseException):
    """Raised by the alarm; a BaseException so no detector's `except Exception` can swallow it."""


def _alarm(signum: int, frame: object) -> None:
    raise DeadlineExceeded()


def main(event_name: str = "", argv: list[str] | None = None) -> int:
    started = time.monotonic()
    args = sys.argv[1:] if argv is None else argv
    # `python -m sidekit_hooks.pipeline.hook EVENT [HANDLER]`; an entry script gets only [HANDLER]
    if not event_name:
        event_name, args = (args[0], args[1:]) if args else ("", [])
    call = outcome = None
    try:
        if event_name == "PreToolUse":
            return _pre_tool_use(args[0] if args else "")
        from sidekit_hooks.core import hook_table
        from sidekit_hooks.pipeline import runtime

        if runtime.env_disabled():
            return 0
        handler = args[0] if args else ""
        deferred = handler == hook_table.FALLBACK_HANDLER and event_name in hook_table.WARM_KEYS
        if deferred:
            # Claude Code 2.1.328 sends SIGTERM to its async hooks as it exits (`claude -p` after
            # the last request) and they die with it ~1.4 s later: a fallback that took the last
            # event over finishes its bounded work (the alarm below) instead of dropping it.
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGALRM, _alarm)
        # A claiming handler's wait for the warm answer (claim.settle, longer than the event's
        # deadline) is not the event's time: its deadline starts once it knows the event is its
        # own (below), so a warm server that hangs is taken over, never left unanswered.
        claiming = handler in hook_table.CLAIMING_HANDLERS and event_name in hook_table.WARM_KEYS
        wait = _settle_seconds() if claiming else 0.0
        signal.setitimer(signal.ITIMER_REAL, hook_table.deadline_of(event_name) + wait)
        stdin_text = _read_stdin()
        if stdin_text is None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            return _bad_input(event_name, f"the event is over {MAX_STDIN >> 20} MiB; not read")
        payload = runtime.parse(event_name, stdin_text)  # the one parse of the event
        if payload is None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            return 0
        if handler in hook_table.CLAIMING_HANDLERS and not _ours(event_name, payload):
            signal.setitimer(signal.ITIMER_REAL, 0)
            return 0  # the warm server said it (pipeline/claim.py)
        if claiming:
            started = time.monotonic()
            signal.setitimer(signal.ITIMER_REAL, hook_table.deadline_of(event_name))
        call = runtime.begin(event_name, payload, started, deferred=deferred)
        outcome = runtime.handle(call)
        signal.setitimer(signal.ITIMER_REAL, 0)
        _emit(outcome.output)
        from sidekit_hooks.nudges import queue

        queue.commit(outcome.claims)  # delete only once the delivery is out
        runtime.after_output(call, outcome.output)
    except BaseException as exc:  # noqa: BLE001 - a hook must exit 0 whatever happens
        signal.setitimer(signal.ITIMER_REAL, 0)
        _fail_open(event_name, exc, call, outcome)
    return 0


def _settle_seconds() -> float:
    from sidekit_hooks.pipeline import claim

    return claim.SETTLE_SECONDS


def _ours(event_name: str, payload: dict[str, object]) -> bool:
    """An event also wired to the warm server (handler `warm` or `fallback`): whether this hook
    answers it, having won its claim or taken it over from a warm server that did not answer (pipeline/claim.py)."""
    from sidekit_hooks.core import workspace
    from sidekit_hooks.pipeline import claim

    key = claim.event_key(event_name, payload)
    if not key:
        return True  # not an event the warm path answers
    cwd = payload.get("cwd")
    project = workspace.project_dir(cwd if isinstance(cwd, str) else "")
    try:
        return claim.claim(project, key, claim.COMMAND) or claim.settle(project, key)
    except OSError:  # no claim can be made here: the warm server cannot make one either
        return True


def _emit(output: str) -> None:
    if not output:
        return
    # Bytes, always UTF-8: a strict or non-UTF-8 locale must not turn a delivery into an error.
    data = output.encode("utf-8", "replace")
    out = getattr(sys.stdout, "buffer", None)
    if out is None:
        sys.stdout.write(data.decode("utf-8"))
    else:
        out.write(data)
    sys.stdout.flush()


def _pre_tool_use(handler: str = "") -> int:
    """PreToolUse (Bash): only the raw-run rewrite listens (pytest, go test, cargo test), so a call
    that never says "test" (pytest, go test, vitest...) or "jest" costs one read of stdin and no
    import of the runtime. Past the event's deadline the command runs as written.

    `handler`: which of the event's handlers this is (hook_events: one per word of
    `runners.trigger_words()`); the client starts every one whose `if` holds, and only one of them
    answers a command."""
    import os

    if os.environ.get("SIDEKIT_DISABLE", "") not in ("", "0"):
        return 0
    stdin_text = _read_stdin()
    if stdin_text is None:
        return _bad_input("PreToolUse", f"the event is over {MAX_STDIN >> 20} MiB; not read")
    from sidekit_hooks import runners

    if not runners.triggered(
        stdin_text
    ):  # the runners' trigger words: no adapter is imported for the rest
        return 0
    from sidekit_hooks.core import hook_table, hookinput

    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, hook_table.deadline_of("PreToolUse"))
    try:
        payload, mended = hookinput.parse(
            stdin_text
        )  # the one parse: the rewrite reads this payload
    except hookinput.BadInput as exc:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return _bad_input("PreToolUse", exc)
    if mended:
        _bad_input("PreToolUse", mended)
    if handler and not _answers(handler, stdin_text, payload):
        signal.setitimer(signal.ITIMER_REAL, 0)
        return 0
    from sidekit_hooks.runners import dispatch

    output = dispatch.pre_tool_use(payload)
    signal.setitimer(signal.ITIMER_REAL, 0)
    _emit(output)
    return 0


def _answers(handler: str, stdin_text: str, payload: dict[str, object]) -> bool:
    """Whether this PreToolUse handler is the one that answers the payload's command."""
    from sidekit_hooks.pipeline import hook_events

    names = tuple(name for name, _rule in hook_events.conditions(hook_events.EVENTS["PreToolUse"]))
    if handler not in names:
        return True
    if handler == names[0] and not any(name in stdin_text for name in names[1:]):
        return True  # no other handler's word anywhere in the payload: this one answers
    tool_input = payload.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    return isinstance(command, str) and hook_events.answers(names, handler, command)


def _fail_open(event_name: str, exc: BaseException, call: object, outcome: object) -> None:
    try:
        from sidekit_hooks.core import budget, hooklog, workspace
        from sidekit_hooks.nudges import queue
        from sidekit_hooks.pipeline import runtime

        where = "deadline" if isinstance(exc, DeadlineExceeded) else "hook"
        held = call.held if isinstance(call, runtime.Call) else []
        if where == "deadline" and isinstance(call, runtime.Call):
            runtime.finish_later(call)  # what the deadline cut short is finished later, not dropped
        if isinstance(outcome, runtime.Outcome):
            queue.release(
                outcome.claims, error=f"print failed: {type(exc).__name__}"
            )  # nothing was delivered
        elif (
            where == "deadline"
            and isinstance(call, runtime.Call)
            and held
            and event_name in runtime.DRAINING_HOOKS
        ):
            _deliver_held(event_name, call)  # drained first: what was queued still goes out
        else:
            queue.release(held)
        cause: BaseException | str = exc
        if where == "deadline":
            cause = f"hard deadline reached while running {budget.NOW[0] or 'the hook'}"
            hooklog.append(
                workspace.project_dir(),
                hooklog.ERRORS,
                {"hook": event_name, "where": "deadline", "culprit": budget.NOW[0], "error": cause},
            )
            return
        hooklog.error(workspace.project_dir(), event_name, where, cause)
    except BaseException:  # noqa: BLE001
        pass


def _deliver_held(event_name: str, call: Call) -> None:
    """What the call had claimed, printed as the drain would have (settled before the print, as
    there: `SessionQueue.hand_over`)."""
    from sidekit_hooks.nudges import delivery, queue

    claims = [claim for claim in call.held if isinstance(claim, queue.Claim)]
    text, delivered, left = delivery.plan(claims)
    ready = call.queue.hand_over(delivered, left, call.held)
    if len(ready) < len(delivered):  # a city's items that could not leave it wait in flight
        text, ready, rest = delivery.plan(ready, waiting=len(delivered) - len(ready) + len(left))
        queue.release(rest)
    if not ready:
        return
    delivered = ready
    try:
        _emit(delivery.hook_output(event_name, text))
    except BaseException as exc:  # noqa: BLE001
        queue.release(delivered, error=f"print failed: {type(exc).__name__}")
        raise
    queue.commit(delivered)


if __name__ == "__main__":
    sys.exit(main())
