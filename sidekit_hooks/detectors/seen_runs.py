"""Which test run the model has already read, per session: the tests sidecar's memory of the agent's
own runs.

A raw pytest run (or `sidekit test`) the agent starts through Bash hands its failures to the model
in the tool result: pytest's own output, or the compact answer. Right after it, the edit-time tests
line ("X is imported by 2 tests that failed in the last run ...") repeats exactly what the model
just read (#18: one noise nudge in every corpus session). So the Bash hook notes the run its command
made, and whether every failure the cache now holds was named in that output; the edit hook holds
its line back while that run is still the newest. A run the model did not see (another terminal, an
earlier session, a background run) or a failure its output did not name still speaks.

`.sidekit/state/<session>/tests-seen.json`: {"finished": the run's end time, "shown": bool,
"agent"}. Standard library only; a missing or broken file means "not seen".
"""

from __future__ import annotations

import os

from sidekit_hooks.core import fastjson, safepath, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SEEN_FILE = "tests-seen.json"


def seen_path(project: str, session: str) -> str:
    return os.path.join(
        workspace.state_dir(project), "state", workspace.safe_session_name(session), SEEN_FILE
    )


def failures_named(summary: dict[str, Any], output: str) -> bool:
    """Whether `output` (what the model read) names every failure the cache holds: each cluster by
    its id or one of its tests (full id, or the test's own name as a traceback header shows it), and
    no failure left out of the summary or carried over from an earlier run."""
    clusters = summary.get("clusters") or []
    counts = (summary.get("run") or {}).get("counts") or {}
    from_this_run = (
        int(counts.get("failed", 0))
        + int(counts.get("error", 0))
        + int(summary.get("collectErrors", 0))
    )
    if summary.get("moreClusters") or int(summary.get("failing", 0)) > from_this_run:
        return False
    return all(_cluster_named(cluster, output) for cluster in clusters)


def _cluster_named(cluster: dict[str, Any], output: str) -> bool:
    if str(cluster.get("id", "")) and str(cluster.get("id")) in output:
        return True
    for test in cluster.get("tests") or ():
        name = str(test).rsplit("::", 1)[-1].split("[", 1)[0]
        if str(test) in output or (name and name in output):
            return True
    return False


def note(project: str, session: str, agent: str, summary: dict[str, Any], output: str) -> None:
    """The agent's own command just made the cache's newest run and the model read `output`."""
    if not session:
        return
    run = summary.get("run") or {}
    record = {
        "finished": run.get("finished", 0),
        "shown": failures_named(summary, output),
        "agent": agent,
    }
    try:
        workspace.atomic_write(seen_path(project, session), fastjson.dumps(record))
    except (OSError, ValueError, workspace.UnsafeSessionName):
        pass  # a lost note only means one more line, never a wrong one


def model_read(project: str, session: str, agent: str, summary: dict[str, Any]) -> bool:
    """Whether the cache's newest run is one this agent's own command made and showed in full (a
    subagent's run is not what the main agent read, nor the other way round)."""
    if not session:
        return False
    try:
        record = fastjson.loads(
            safepath.read_bytes(seen_path(project, session), 4096).decode("utf-8", "replace")
        )
    except (OSError, ValueError, workspace.UnsafeSessionName):
        return False
    run = summary.get("run") or {}
    return (
        isinstance(record, dict)
        and record.get("shown") is True
        and record.get("agent", "") == agent
        and bool(run.get("finished"))
        and record.get("finished") == run.get("finished")
    )
