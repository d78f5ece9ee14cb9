"""Watch a run from outside it: the run goes on in a forked child, this process waits and speaks
last.

A compacted pytest run holds its output back until the end, so a run that dies (`os._exit` in a
test, a segfault, a timeout plugin's dump, a signal) would otherwise leave the model nothing. At
`pytest_configure` the process forks once: the child is the pytest run, with the signal handlers,
signal mask and environment of the raw run (no handler of ours in it, so `multiprocessing` workers
it forks inherit nothing of sidekit); the parent blocks every signal it watches, forwards the
stopping ones to the child, waits for it and learns the real exit status. The child sends its answer
(a few hundred bytes of JSON) through a pipe when it finished normally; without one, the run did not
finish and the parent says so. Then the parent ends the way the child did: the same exit code, or
the same signal.

No fork (and the caller keeps the run in-process) when the process already runs other threads (a
fork keeps only the caller's) or cannot fork.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable

FORWARDED = (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)
# ^C from a terminal reaches the whole process group, the child included: the parent lets it pass.
IGNORED = (signal.SIGINT,)
MESSAGE_LIMIT = 1 << 16  # a pipe's buffer: the child's message always fits, so it never blocks
PR_SET_PDEATHSIG = 1

Finish = Callable[
    [int, int, bytes | None], None
]  # (exit code or 0, signal or 0, child's message) -> writes


def fork_run(finish: Finish) -> int | None:
    """In the child: the write end of the message pipe. None when no fork happened (run in-process).

    The parent never returns: it waits for the child, calls `finish`, and ends as the child did.
    """
    if (
        not hasattr(os, "fork")
        or threading.active_count() > 1
        or not hasattr(signal, "sigwaitinfo")
    ):
        return None
    watched = {signal.SIGCHLD, *FORWARDED, *IGNORED}
    for stream_flush in _flushers():
        stream_flush()
    read_end, write_end = os.pipe()
    previous = signal.pthread_sigmask(
        signal.SIG_BLOCK, watched
    )  # before the fork: no signal is lost
    parent = os.getpid()
    try:
        child = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        os.close(read_end)
        os.close(write_end)
        return None
    if child == 0:
        os.close(read_end)
        _die_with_parent(parent)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        return write_end
    os.close(write_end)
    _supervise(child, read_end, watched, finish)
    raise AssertionError("unreachable")  # pragma: no cover


def _supervise(child: int, read_end: int, watched: set[signal.Signals], finish: Finish) -> None:
    status: int | None = None
    try:
        status = wait_for(child, watched)
        message = _drain(read_end)
        code = os.waitstatus_to_exitcode(status)
        finish(max(code, 0), max(-code, 0), message)
    except BaseException:  # noqa: BLE001 - the parent must end as the child did, whatever happens
        if status is None:
            status = _last_resort_wait(child)
    _end_like(status)


def _last_resort_wait(child: int) -> int:
    while True:
        try:
            return os.waitpid(child, 0)[1]
        except ChildProcessError:
            return 1 << 8  # gone without a status we can read: never claim a pass
        except BaseException:  # noqa: BLE001 - e.g. an interrupted wait: wait again
            continue


def wait_for(child: int, watched: set[signal.Signals]) -> int:
    """The child's wait status; stopping signals sent to this process are passed on to it."""
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            return status
        info = signal.sigwaitinfo(watched)
        if info.si_signo in FORWARDED:
            try:
                os.kill(child, info.si_signo)
            except ProcessLookupError:
                pass


def _drain(read_end: int) -> bytes | None:
    """What the child sent (None: it ended without a word). Grandchildren may hold the pipe: no
    waiting."""
    os.set_blocking(read_end, False)
    chunks: list[bytes] = []
    try:
        while True:
            chunk = os.read(read_end, MESSAGE_LIMIT)
            if not chunk:
                break
            chunks.append(chunk)
    except BlockingIOError:
        pass
    finally:
        os.close(read_end)
    return b"".join(chunks) or None


def _end_like(status: int) -> None:
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        signum = -code
        try:
            signal.signal(signum, signal.SIG_DFL)
        except (OSError, ValueError):  # SIGKILL, SIGSTOP: no handler to reset
            pass
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
            os.kill(os.getpid(), signum)
        except (OSError, ValueError):
            pass
        os._exit(128 + signum)
    os._exit(code)


def _die_with_parent(parent: int) -> None:
    """The child goes when the parent is killed outright (SIGKILL), as the raw run would have."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # killed before the request took effect
        os._exit(128 + int(signal.SIGKILL))


def _flushers() -> list[Callable[[], None]]:
    import sys

    return [
        stream.flush
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)
        if stream is not None
    ]
