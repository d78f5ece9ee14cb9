"""One pytest run in its own process group: streamed progress, and stopped whole when the caller
stops.

`sidekit test` and the MCP `test` tool both run pytest through `execute`. pytest starts in a new
session (process group), so an interrupted or cancelled caller can stop it together with everything
it spawned (xdist workers, subprocesses of tests): SIGINT first, so pytest can record what it ran,
then SIGKILL after a grace period. No stray pytest outlives its caller.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sidekit_hooks.core import safepath, workspace

LOCK_FILE = "test-run.lock"
GRACE = 3.0  # seconds between SIGINT and SIGKILL of the process group
PERCENT = re.compile(r"\[\s*(\d{1,3})%\]\s*$")  # pytest's progress column: `....  [ 40%]`

Progress = Callable[[int], None]


class Run:
    """A pytest process the caller may stop from another thread (`stop`), e.g. on MCP
    cancellation."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self.stopped = False

    def started(self, process: subprocess.Popen[str]) -> None:
        with self._lock:
            self.process = process
            stop = self.stopped
        if stop:
            self.stop()

    def stop(self) -> None:
        """Interrupt the whole process group, then kill what is left of it after GRACE seconds."""
        with self._lock:
            self.stopped = True
            process = self.process
        if process is None or process.poll() is not None:
            return
        _signal_group(process.pid, signal.SIGINT)
        try:
            process.wait(GRACE)
        except subprocess.TimeoutExpired:
            pass
        _signal_group(
            process.pid, signal.SIGKILL
        )  # the workers too, even when pytest itself is gone
        process.wait()


def execute(
    argv: list[str],
    cwd: str,
    env: dict[str, str],
    progress: Progress | None = None,
    run: Run | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `argv` to the end (or until stopped); stdout and stderr captured as text.

    With `progress`, pytest's percentage column is reported as it is printed (unbuffered output).
    """
    run = run or Run()
    if run.stopped:  # cancelled while waiting for its turn: no run at all
        return subprocess.CompletedProcess(argv, 130, "", "stopped before pytest started")
    if progress is not None:
        env = dict(env, PYTHONUNBUFFERED="1")
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errors:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            errors="replace",
            start_new_session=True,
        )
        run.started(process)
        lines: list[str] = []
        assert process.stdout is not None
        try:
            with process.stdout:
                for line in process.stdout:
                    lines.append(line)
                    if progress is not None:
                        found = PERCENT.search(line)
                        if found:
                            progress(min(100, int(found.group(1))))
            code = process.wait()
        except BaseException:  # Ctrl-C or a dying caller: never leave pytest running
            run.stop()
            raise
        errors.seek(0)
        return subprocess.CompletedProcess(argv, code, "".join(lines), errors.read())


@contextmanager
def one_at_a_time(root: str) -> Iterator[None]:
    """Hold the workspace's run lock: `sidekit test` runs (CLI or MCP, any number of clients) take
    turns.

    The cache keeps the last run's summary, and each caller answers from its own run; two runs that
    end together would otherwise leave one caller reading the other's summary.
    """
    import fcntl

    folder = workspace.state_dir(root)
    safepath.makedirs(folder)
    with open(
        safepath.open_append(os.path.join(folder, LOCK_FILE)), "a"
    ) as handle:  # no link, no FIFO
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield  # closing the file releases the lock


def _signal_group(pid: int, number: signal.Signals) -> None:
    try:
        os.killpg(pid, number)
    except (ProcessLookupError, PermissionError):
        pass
