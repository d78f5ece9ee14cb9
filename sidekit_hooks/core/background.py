"""Detached background work started from a hook, without ever making the hook wait.

A hook must print and exit within milliseconds; slow work (building the function index, asking an
external judge) runs in a separate process that outlives it. Standard library only (hook hot path):
`posix_spawn` instead of `subprocess`, which would cost the hook its import time.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

STALE_LOCK = 120.0  # seconds; a lock older than this belongs to a worker that died
# wall clock of any background worker (SIDEKIT_WORKER_SECONDS overrides, for tests)
WORKER_SECONDS = 300


def package_root() -> str:
    """The folder holding the `sidekit_hooks` package (what a `python -S` child needs on its
    path)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def spawn_module(
    module: str, args: Sequence[str], env: dict[str, str] | None = None, isolation: str = "-S"
) -> int:
    """Start `python -P -S -m module args...` detached: own session, stdio on /dev/null, never
    awaited.

    `-P`: the hook's working folder is the project; a repository's `sidekit_hooks/` or `json.py`
    must not shadow ours (core/launch.py).

    `isolation="-P"` keeps site-packages (a worker that needs an installed library, drops only
    `-S`); the working directory stays off the module path either way.

    The child must not hold the hook's stdout open: Claude Code reads the hook's output until EOF.
    Returns the child's pid; raises OSError when it cannot be started.
    """
    child_env = dict(os.environ if env is None else env)
    root = package_root()
    path = child_env.get("PYTHONPATH", "")
    child_env["PYTHONPATH"] = root + (os.pathsep + path if path else "")
    argv = [sys.executable, "-P", *(["-S"] if isolation != "-P" else []), "-m", module, *args]
    actions = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    # An ignored signal stays ignored across exec: a worker of the async fallback (which ignores
    # SIGTERM while the client exits) must still end on SIGTERM.
    from _signal import SIGTERM

    return os.posix_spawn(
        sys.executable, argv, child_env, file_actions=actions, setsid=True, setsigdef=(SIGTERM,)
    )


def wall_clock_cap() -> None:
    """End this worker after WORKER_SECONDS whatever it is doing (even blocked in a read): SIGALRM's
    default action. Every module `spawn_module` starts calls this first; nothing it does may outlive
    it."""
    import signal

    try:
        seconds = int(os.environ.get("SIDEKIT_WORKER_SECONDS", "") or WORKER_SECONDS)
    except ValueError:
        seconds = WORKER_SECONDS
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.alarm(max(1, seconds))


def take_lock(path: str, stale_after: float = STALE_LOCK) -> bool:
    """Create `path` exclusively (the holder's pid inside); break it when older than
    `stale_after`."""
    from sidekit_hooks.core import safepath

    safepath.makedirs(
        os.path.dirname(path) or ".", safepath.anchor_of(path)
    )  # no lock through a link out
    for _ in range(2):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if not lock_is_stale(path, stale_after):
                return False
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            continue
        try:
            os.write(fd, str(os.getpid()).encode())
        finally:
            os.close(fd)
        return True
    return False


def lock_is_stale(path: str, stale_after: float = STALE_LOCK) -> bool:
    try:
        return time.time() - os.stat(path).st_mtime > stale_after
    except FileNotFoundError:
        return True


def release_lock(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
