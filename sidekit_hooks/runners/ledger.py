"""What the test binaries of one raw run printed, and work a wrapper leaves for after its output.

Standard library only and light: each test binary of a `go test` / `cargo test` runs through a
wrapper, whose start-up is paid once per binary.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def printed_before(root: str, runner: str, size: int) -> int:
    """Bytes the other test binaries of the same `go test` / `cargo test` (our parent process) printed
    raw before this one, and count `size` more: one raw run's short output stays short in all."""
    import fcntl

    from sidekit_hooks.core import safepath

    folder = safepath.makedirs(os.path.join(root, ".sidekit", runner))  # never through a link out of the project
    parent = os.getppid()
    try:
        with open(f"/proc/{parent}/stat", encoding="ascii") as handle:
            born = handle.read().rpartition(")")[2].split()[19]  # the parent's start time: pids are reused
    except (OSError, IndexError):
        born = "0"
    path = os.path.join(folder, f"printed-{parent}-{born}")
    fd = os.open(safepath.check(path), os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with open(fd, "r+", encoding="ascii") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        handle.seek(0)
        before = int(handle.read().strip() or 0)
        handle.seek(0)
        handle.truncate()
        handle.write(str(before + size))
    _forget_old_ledgers(folder)
    return before


def _forget_old_ledgers(folder: str, age: float = 86_400.0) -> None:
    cutoff = time.time() - age
    for entry in os.scandir(folder):
        if entry.name.startswith("printed-"):
            try:
                if entry.stat().st_mtime < cutoff:
                    os.unlink(entry.path)
            except OSError:
                pass


def after_output(work: Callable[[], None]) -> None:
    """Run `work` once this process has said everything: in a detached child whose stdout and stderr
    are closed, so go or cargo see the binary's output end and go on while the cache is written."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError:
        work()
        return
    if pid:
        return
    try:
        os.setsid()
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        work()
    except BaseException:  # noqa: BLE001 - a detached child has no one to tell; the next run rewrites the cache
        pass
    finally:
        os._exit(0)
