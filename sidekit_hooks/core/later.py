"""Hand-over of unfinished hook work to a detached worker: the job file and the worker's start.

A hook that could not finish some detectors (cut off by their budget, or asking for work no hook may
do) writes the event to `.sidekit/later/` and starts the worker its caller names (the pipeline's
`finish`: `python -S -m <worker> JOB`), which finishes them and queues their findings for the next
boundary. Standard library only (hook hot path).
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import background, fastjson, hooklog, workspace

LATER_FOLDER = "later"  # under .sidekit/
# jobs waiting at once; past this a hook drops the hand-over (logged) rather than pile up
MAX_WAITING = 16
MAX_PAYLOAD = (
    4 * 1024 * 1024
)  # characters of payload written for a worker; a bigger event is not handed over
STALE_JOB = 300.0  # seconds; a job no worker took by then is deleted by the next hand-over


SLOW_FOR = 600.0  # seconds a detector that overran a worker's budget too is not handed over again


def slow_marker(project: str, name: str) -> str:
    return os.path.join(workspace.state_dir(project), "log", f"later-slow-{name}")


def mark_slow(project: str, name: str) -> None:
    """A detector ran past a worker's budget too (a hostile pack, a huge file): stop handing it over
    for a while, so one bad input cannot keep a background process busy after every call."""
    workspace.atomic_write(slow_marker(project, name), str(time.time()))


def recently_slow(project: str, name: str) -> bool:
    try:
        return time.time() - os.stat(slow_marker(project, name)).st_mtime < SLOW_FOR
    except OSError:
        return False


def later_dir(project: str) -> str:
    return os.path.join(workspace.state_dir(project), LATER_FOLDER)


def hand_over(
    project: str, event_name: str, payload: object, names: list[str], why: str, worker: str
) -> str:
    """Write the job and start `worker` (a module run with `-m`) on it; the job's path, or "" when
    nothing was handed over."""
    if not names:
        return ""
    folder = later_dir(project)
    if waiting(folder) >= MAX_WAITING:
        hooklog.error(
            project,
            event_name,
            "later",
            f"{MAX_WAITING} jobs already waiting; {','.join(names)} not handed over",
        )
        return ""
    text = fastjson.dumps(
        {
            "hook": event_name,
            "project": project,
            "detectors": names,
            "why": why,
            "payload": payload,
            "at": time.time(),
        }
    )
    if len(text) > MAX_PAYLOAD:
        hooklog.error(
            project,
            event_name,
            "later",
            f"payload of {len(text)} characters is too big to hand over",
        )
        return ""
    path = os.path.join(
        folder, f"{int(time.time() * 1000)}-{os.getpid()}-{os.urandom(3).hex()}.json"
    )
    workspace.atomic_write(path, text)
    background.spawn_module(worker, [path])
    return path


def waiting(folder: str) -> int:
    """Jobs waiting or being finished; deletes those too old to matter (a worker that never started
    or died)."""
    try:
        entries = [entry for entry in os.scandir(folder) if not entry.name.startswith(".tmp-")]
    except OSError:
        return 0
    count = 0
    for entry in entries:
        try:
            if time.time() - entry.stat(follow_symlinks=False).st_mtime > STALE_JOB:
                os.unlink(entry.path)
                continue
        except OSError:
            continue
        count += 1
    return count


def take(path: str) -> tuple[str, dict[str, object] | None]:
    """Claim the job by renaming it (one worker only) and read it: (the claimed file, the job), the
    job None when another worker took it or it is unreadable. The worker deletes the claimed file
    once done (`done`), so an empty folder means nothing is pending (`pending`)."""
    from sidekit_hooks.core import safepath

    taken = f"{path}.taken-{os.getpid()}"
    try:
        os.rename(path, taken)
    except OSError:
        return "", None
    try:
        data = fastjson.loads(safepath.read_bytes(taken).decode("utf-8", "replace"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict):
        done(taken)
        return "", None
    return taken, data


def done(taken: str) -> None:
    try:
        os.unlink(taken)
    except OSError:
        pass


def pending(project: str) -> int:
    """Jobs waiting or being finished right now (stale ones aside)."""
    folder = later_dir(project)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    now = time.time()
    count = 0
    for entry in entries:
        try:
            count += now - entry.stat(follow_symlinks=False).st_mtime <= STALE_JOB
        except OSError:
            continue
    return count
