"""Nothing lost to the clock: the detectors a hook could not finish, finished by a detached worker.

A detector cut off by its budget (`budget.OutOfTime`), skipped because the budget was spent, or asking
for work no hook may do (`budget.Later`: a walk of the tree, a graph build) is handed over here: the
hook writes the event to `.sidekit/later/` and starts `python -S -m sidekit_hooks.finish JOB`, which
runs those detectors again with time to spare and queues their findings through the policy, so the
next boundary (the next tool call, prompt or session start) delivers them. Standard library only.
"""

from __future__ import annotations

import os
import sys
import time

from sidekit_hooks.core import background, budget, fastjson, hooklog, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.nudges.events import Event

LATER_FOLDER = "later"  # under .sidekit/
WORKER_BUDGET = 8.0  # seconds for the worker's detectors together; a hostile pack cannot keep it forever
MAX_WAITING = 16  # jobs waiting at once; past this a hook drops the hand-over (logged) rather than pile up
MAX_PAYLOAD = 4 * 1024 * 1024  # characters of payload written for a worker; a bigger event is not handed over
STALE_JOB = 300.0  # seconds; a job no worker took by then is deleted by the next hand-over


def later_dir(project: str) -> str:
    return os.path.join(workspace.state_dir(project), LATER_FOLDER)


def hand_over(event: Event, project: str, names: list[str], why: str) -> str:
    """Write the job and start its worker; the job's path, or "" when nothing was handed over."""
    from sidekit_hooks import detectors

    names = [name for name in names if not detectors.REGISTRY.get(name, ("<object",))[0].startswith("<object")]
    if not names or not event.session_id or event.is_subagent:
        return ""
    folder = later_dir(project)
    if _waiting(folder) >= MAX_WAITING:
        hooklog.error(project, event.hook, "later", f"{MAX_WAITING} jobs already waiting; {','.join(names)} not handed over")
        return ""
    text = fastjson.dumps({"hook": event.hook, "project": project, "detectors": names, "why": why,
                           "payload": event.raw, "at": time.time()})
    if len(text) > MAX_PAYLOAD:
        hooklog.error(project, event.hook, "later", f"payload of {len(text)} characters is too big to hand over")
        return ""
    path = os.path.join(folder, f"{int(time.time() * 1000)}-{os.getpid()}-{os.urandom(3).hex()}.json")
    workspace.atomic_write(path, text)
    background.spawn_module("sidekit_hooks.finish", [path])
    return path


def _waiting(folder: str) -> int:
    """Jobs still waiting; deletes those too old to matter (a worker that never started)."""
    try:
        entries = [entry for entry in os.scandir(folder) if entry.name.endswith(".json")]
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


def take(path: str) -> dict[str, object] | None:
    """Claim the job by renaming it (one worker only) and read it; None when another took it or it is unreadable."""
    from sidekit_hooks.core import safepath

    taken = f"{path}.taken-{os.getpid()}"
    try:
        os.rename(path, taken)
    except OSError:
        return None
    try:
        data = fastjson.loads(safepath.read_bytes(taken).decode("utf-8", "replace"))
    except (OSError, ValueError):
        data = None
    finally:
        try:
            os.unlink(taken)
        except OSError:
            pass
    return data if isinstance(data, dict) else None


def finish(job: dict[str, object]) -> int:
    """Run the job's detectors with time to spare; queue what they find. Returns the number of findings."""
    from sidekit_hooks import detectors, runtime
    from sidekit_hooks.nudges.events import parse_event
    from sidekit_hooks.nudges.findings import Context

    hook, project = str(job.get("hook", "")), str(job.get("project", ""))
    names = [str(name) for name in job.get("detectors") or () if str(name) in detectors.REGISTRY]  # type: ignore[attr-defined]
    event = parse_event(hook, job.get("payload"), project)
    ctx = Context(project, event.session_id, time.monotonic() + WORKER_BUDGET)
    ctx.memo["background"] = True  # detectors may do here what a hook may not (budget.Later)
    ctx.read_snapshot = lambda: runtime.read_snapshot(event, ctx)
    found = []
    for name in names:
        left = ctx.deadline - time.monotonic()
        budget.doing(f"detector {name} (finished later)")
        try:
            found.extend(budget.bounded(budget.call_with(runtime._detect, name, event, ctx), left))
        except budget.OutOfTime:
            hooklog.error(project, hook, f"later:detector:{name}", f"ran past the worker's {WORKER_BUDGET} s too")
        except Exception as exc:  # noqa: BLE001 - one broken detector alone
            hooklog.error(project, hook, f"later:detector:{name}", exc)
    runtime.enqueue_findings(found, event, ctx)
    hooklog.append(project, hooklog.DECISIONS, {"session": event.session_id, "hook": hook, "decision": "finished-later",
                                                "detectors": names, "why": str(job.get("why", "")), "found": len(found)})
    return len(found)


def main(argv: list[str]) -> int:
    """`python -S -m sidekit_hooks.finish JOB`: the detached worker."""
    if len(argv) != 1:
        return 2
    job = take(argv[0])
    if job is None:
        return 0
    try:
        finish(job)
    except Exception as exc:  # noqa: BLE001 - nobody waits for a worker: it logs and exits
        hooklog.error(str(job.get("project", "")), str(job.get("hook", "")), "later", exc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
