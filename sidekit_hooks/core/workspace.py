"""Where things live on disk: the project, `.sidekit/`, and the Gas Town queue root.

Standard library only (hook hot path).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

STATE_DIR = ".sidekit"
QUEUE_SUBDIR = os.path.join(".runtime", "nudge_queue")
MAX_SESSION_NAME = 200  # bytes; well under NAME_MAX once the queue adds nothing to it


class UnsafeSessionName(ValueError):
    """A session name that would leave the queue directory, or cannot be a directory name."""


def project_dir(payload_cwd: str = "") -> str:
    """`$CLAUDE_PROJECT_DIR`, else the payload's cwd, else the process's cwd."""
    return os.environ.get("CLAUDE_PROJECT_DIR") or payload_cwd or os.getcwd()


def queue_root(project: str) -> str:
    """`<root>/.runtime/nudge_queue` with root = $GT_TOWN_ROOT, else $GT_ROOT, else the project."""
    root = os.environ.get("GT_TOWN_ROOT") or os.environ.get("GT_ROOT") or project
    return os.path.join(root, QUEUE_SUBDIR)


def safe_session_name(session: str) -> str:
    """Gas Town's mapping ("/" -> "_"), refusing anything that could escape the queue directory."""
    if not session or "\x00" in session:
        raise UnsafeSessionName(f"session name {session[:40]!r} is empty or holds a NUL byte")
    safe = session.replace("/", "_").replace("\\", "_")
    if safe in (".", "..") or len(safe.encode("utf-8", "surrogatepass")) > MAX_SESSION_NAME:
        raise UnsafeSessionName(f"session name {session[:40]!r} cannot be a queue directory")
    return safe


def session_queue_dir(root: str, session: str) -> str:
    """The queue directory of one session, guaranteed to sit directly inside `root`."""
    path = os.path.join(root, safe_session_name(session))
    if os.path.dirname(os.path.normpath(path)) != os.path.normpath(root):
        raise UnsafeSessionName(f"session name {session[:40]!r} leaves the queue directory")
    return path


def state_dir(project: str) -> str:
    return os.path.join(project, STATE_DIR)


def log_dir(project: str) -> str:
    return os.path.join(project, STATE_DIR, "log")


def gastown_session() -> str:
    """Inside Gas Town (`$TMUX_PANE` set) the tmux session name, whose queue gt drains too."""
    pane = os.environ.get("TMUX_PANE")
    if not pane:
        return ""
    if os.environ.get("GT_SESSION"):  # gt sets it to the tmux session name at spawn; no subprocess
        return os.environ["GT_SESSION"]
    import subprocess

    try:
        done = subprocess.run(
            ["tmux", "display-message", "-t", pane, "-p", "#{session_name}"],
            capture_output=True,
            text=True,
            timeout=0.5,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def atomic_write(path: str, data: str) -> None:
    """Write via a temp file in the same folder, then rename: readers never see half a file."""
    from sidekit_hooks.core import safepath

    folder = os.path.dirname(path) or "."
    # Under `.sidekit`/`.runtime`/`.claude`, the folder must resolve inside the project (no link
    # out); the rename replaces a link at `path` itself, never writes through it.
    safepath.makedirs(folder, safepath.anchor_of(path))
    tmp = os.path.join(folder, f".tmp-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        with open(tmp, "x", encoding="utf-8") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def walk(root: str, descend: Callable[[str], bool]) -> Iterator[os.DirEntry[str]]:
    """Every entry below `root` (links not followed), going into the folders whose name `descend`
    accepts; an unreadable folder is passed over."""
    stack = [root]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and descend(entry.name):
                stack.append(entry.path)
            yield entry


def in_project(path: str, root: str, foreign: tuple[str, ...]) -> tuple[str, bool]:
    """(`path` relative to `root`, True) when it lies there outside every `foreign` folder
    (installed packages, environments); else (`path` normalised with `/`, False)."""
    path = os.path.normpath(path).replace(os.sep, "/")
    prefix = root.replace(os.sep, "/").rstrip("/") + "/"
    if path.startswith(prefix):
        rest = path[len(prefix) :]
        if not any(part in "/" + rest for part in foreign):
            return rest, True
    return path, False
