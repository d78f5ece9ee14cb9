"""The detached worker of a raw `mvn test` / `gradle test` (runners/junit/feed.py): the reports the
run wrote into the shared test cache, then the tests sidecar's word on it, as after a raw pytest
run. For a compacted run, what its adapter's `feed_after` reads (a package that failed to build, a
run that stopped before sidekit's reporter loaded); no word after a run whose compacted output the
model has read.

`python -P -S -m sidekit_hooks.pipeline.feed_worker JOB`, started by the PostToolUse(Failure) hook
that claimed the call's marker. Standard library only, bounded by `background.wall_clock_cap`.
"""

from __future__ import annotations

import os
import sys
import time

from sidekit_hooks.core import background, hooklog, later
from sidekit_hooks.detectors import seen_runs, tests
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.findings import Context
from sidekit_hooks.pipeline import runtime
from sidekit_hooks.runners.junit import feed as junit_feed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

QUEUE_SECONDS = 2.0  # the policy's and the queue's time for the one line


def tell(job: dict[str, Any], summary: dict[str, Any]) -> None:
    """The tests sidecar's word on the run, as after a raw pytest run: noted as read by the model
    when its output named every failure, and the clustered status queued for the next boundary."""
    root = str(job["root"])
    event = parse_event(str(job.get("hook", "")), job.get("payload"), root)
    seen_runs.note(root, event.session_id, event.agent_id, summary, str(job.get("output", "")))
    if _told_by_its_run(job.get("tool")):  # compacted: the model has just read the runner's words
        return
    found = tests.after_run(summary, time.time())
    if (
        found
    ):  # through the policy, as a finding of the hook itself (its caps, its layers' settings)
        ctx = Context(
            root,
            event.session_id,
            time.monotonic() + QUEUE_SECONDS,
            lambda ctx: runtime.read_snapshot(event, ctx),
        )
        runtime.enqueue_findings(found, runtime.Call(event, ctx))


def _told_by_its_run(tool: object) -> bool:
    """Whether the marker's runner showed the model its failures in its compacted output (its
    adapter's FEED is a "wrapper", a "reporter" or a "writer", runners/__init__.py; a cargo run
    reaches this worker only when it did not compile, and the model has read rustc's words on it):
    then the feed queues no word after it."""
    from sidekit_hooks import runners

    adapter = runners.load(tool) if isinstance(tool, str) else None
    return adapter is not None and runners.feeds(adapter) in ("wrapper", "reporter", "writer")


def main(argv: list[str]) -> int:
    """`python -P -S -m sidekit_hooks.pipeline.feed_worker JOB`."""
    background.wall_clock_cap()
    if len(argv) != 1:
        return 2
    taken, job = later.take(argv[0])
    if job is None:
        return 0
    root = str(job.get("root", ""))
    try:
        fed = junit_feed.feed(job)
        result = fed[0] if fed else None
        if fed:
            tell(job, fed[1])
        hooklog.append(
            root,
            hooklog.DECISIONS,
            {
                "session": str(job.get("session", "")),
                "hook": str(job.get("hook", "")),
                "decision": "junit-fed" if result else "junit-nothing-ran",
                "exit": job.get("exit"),
                "tests": len(result.tests) if result else 0,
                "errors": len(result.errors) if result else 0,
            },
        )
    except Exception as exc:  # noqa: BLE001 - nobody waits for a worker: it logs and exits
        hooklog.error(root, str(job.get("hook", "")), "junit-feed", exc)
    finally:
        later.done(taken)
        junit_feed.sweep(os.path.dirname(argv[0]), time.time())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
