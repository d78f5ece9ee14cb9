"""Nothing lost to the clock: the detectors a hook could not finish, finished by a detached worker.

A detector cut off by its budget (`budget.OutOfTime`), skipped because the budget was spent, or
asking for work no hook may do (`budget.Later`: a walk of the tree, a graph build) is handed over by
the runtime (`core/later.py` writes the event to `.sidekit/later/`); `python -S -m
sidekit_hooks.pipeline.finish JOB` runs those detectors again with time to spare and queues their
findings through the policy, so the next boundary (the next tool call, prompt or session start)
delivers them. Standard library only.
"""

from __future__ import annotations

import os
import sys
import time

from sidekit_hooks import detectors
from sidekit_hooks.core import background, budget, fastjson, hooklog, later, workspace
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.findings import Context, Finding
from sidekit_hooks.pipeline import runtime

# seconds for the worker's detectors together; a hostile pack cannot keep it forever
WORKER_BUDGET = 8.0


def finish(job: dict[str, object]) -> int:
    """Run the job's detectors with time to spare; queue what they find. Returns the number of
    findings."""
    event_name, project = str(job.get("hook", "")), str(job.get("project", ""))
    listed = job.get("detectors")
    names = (
        [str(name) for name in listed if str(name) in detectors.REGISTRY]
        if isinstance(listed, list)
        else []
    )
    event = parse_event(event_name, job.get("payload"), project)
    ctx = Context(
        project,
        event.session_id,
        time.monotonic() + WORKER_BUDGET,
        read_snapshot=lambda ctx: runtime.read_snapshot(event, ctx),
    )
    ctx.memo["background"] = True  # detectors may do here what a hook may not (budget.Later)
    found: list[Finding] = []
    waiting: list[str] = []  # detectors that need the packages of an environment still building
    for name in names:
        budget.doing(f"detector {name} (finished later)")
        try:
            found.extend(
                budget.bounded(
                    budget.call_with(runtime._detect, name, event, ctx),
                    ctx.deadline - time.monotonic(),
                )
            )
            if budget.wants_later(
                ctx.memo, name
            ):  # here only for what needs packages still being installed
                waiting.append(name)
        except budget.Later:
            waiting.append(name)
        except budget.OutOfTime:
            hooklog.error(
                project,
                event_name,
                f"later:detector:{name}",
                f"ran past the worker's {WORKER_BUDGET} s too",
            )
            later.mark_slow(project, name)
        except Exception as exc:  # noqa: BLE001 - one broken detector alone
            hooklog.error(project, event_name, f"later:detector:{name}", exc)
    if waiting:
        await_environment(dict(job, detectors=waiting))
    runtime.enqueue_findings(found, runtime.Call(event, ctx))  # a worker's call: no hook's deadline
    hooklog.append(
        project,
        hooklog.DECISIONS,
        {
            "session": event.session_id,
            "hook": event_name,
            "decision": "finished-later",
            "detectors": names,
            "why": str(job.get("why", "")),
            "found": len(found),
        },
    )
    return len(found)


AWAITING_VENV = "SIDEKIT_AWAITING_VENV"  # hooks/run: the plugin environment being built meanwhile
ENVIRONMENT_WAIT = 600.0  # seconds a worker waits for that environment before it gives up (logged)


def await_environment(job: dict[str, object], wait: float = ENVIRONMENT_WAIT) -> bool:
    """Hand `job` to a worker of the environment being built, once it is ready; False when there is
    none (logged: these detectors had what they need, so the rest of the job goes on without
    them)."""
    project, event_name = str(job.get("project", "")), str(job.get("hook", ""))
    venv = os.environ.get(AWAITING_VENV, "")
    if not venv:
        hooklog.error(
            project,
            event_name,
            "later",
            f"{job.get('detectors')}: a package they need is not installed",
        )
        return False
    pid = os.fork()
    if pid:
        return True  # the parent queues what it found now; the child waits for the environment
    os.setsid()
    from _signal import SIG_DFL, SIGTERM, signal

    signal(SIGTERM, SIG_DFL)  # an async fallback's SIGTERM ignored is not this worker's
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # hold no pipe of whoever started the worker
        os.dup2(null, fd)
    ready, python = os.path.join(venv, ".sidekit-ready"), os.path.join(venv, "bin", "python")
    deadline = time.monotonic() + wait
    while not os.path.exists(ready) and time.monotonic() < deadline:
        time.sleep(1.0)
    if not os.path.exists(ready):
        hooklog.error(
            project,
            event_name,
            "later",
            f"{job.get('detectors')}: the environment {venv} never became ready",
        )
        os._exit(0)
    path = os.path.join(later.later_dir(project), f"env-{os.getpid()}-{os.urandom(3).hex()}.json")
    workspace.atomic_write(path, fastjson.dumps(job))
    env = {k: v for k, v in os.environ.items() if k != AWAITING_VENV}
    env["PYTHONPATH"] = background.package_root() + (
        os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else ""
    )
    os.execve(python, [python, "-S", "-m", "sidekit_hooks.pipeline.finish", path], env)
    return True  # not reached


def main(argv: list[str]) -> int:
    """`python -S -m sidekit_hooks.pipeline.finish JOB`: the detached worker."""
    if len(argv) != 1:
        return 2
    taken, job = later.take(argv[0])
    if job is None:
        return 0
    try:
        finish(job)
    except Exception as exc:  # noqa: BLE001 - nobody waits for a worker: it logs and exits
        hooklog.error(str(job.get("project", "")), str(job.get("hook", "")), "later", exc)
    finally:
        later.done(taken)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
