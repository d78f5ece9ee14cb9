"""The agent's own raw `mvn test` / `gradle test` through Bash, into the shared test cache; and what
a compacted `go test` printed of packages that failed to build (no test binary ran:
go.build_failures).

Maven and Gradle have no option that makes their console compact, so the PreToolUse rewrite leaves
their commands as written (junit.py). Their JUnit reports still feed the cache, as `sidekit test`
would feed it:

1. PreToolUse (`mark_started`): a plain Maven or Gradle command that runs the tests gets a marker,
   `.sidekit/junit-feed/<session>--<tool_use_id>.json` (temp file + rename). Nothing is listed or
   walked.
2. PostToolUse / PostToolUseFailure (`hand_over`): the marker is claimed by rename, the outcome (the
   exit code from `Exit code N`, the output the model read) is written beside it as a job, and a
   detached worker is started. The hook waits for nothing.
3. The worker (`python -P -S -m sidekit_hooks.pipeline.feed_worker JOB`): `feed` reads the reports
   this run wrote, runs them through the junit adapter's `collect` (a red run without a failing test
   is a build error with Maven's or Gradle's reason, never "0 failed") and saves the run as `sidekit
   test` does; the worker then queues the tests sidecar's line about it for the next boundary.

Which reports are this run's: those whose mtime is at or after the marker file's own mtime, and at
or before the mtime PostToolUse stamps on the claimed marker when the run has ended (a report "from
2035", as an archive or a checkout keeps a committed report's date, is from no run of this one). All
these times are stamped by the same filesystem clock (coarse kernel ticks, a network server's clock,
a FAT file system's 2 s), so no comparison mixes clocks: a report the run writes after the marker
can never look older than it, and a report rewritten with the same bytes still gets a new mtime. A
report that no run touched since (a module skipped after a compile error) is not this run's. What
the rule cannot tell apart: a report written by another build in the same clock tick as the marker,
or after it while this one ran (two builds of one project at once), and a clock stepped back.

Standard library only (hook hot path); the worker imports the adapter and the cache.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import fastjson, workspace
from sidekit_hooks.runners.junit.build import GRADLE_TASKS, MAVEN_GOALS, build_tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.runners import Result

FOLDER = "junit-feed"  # under .sidekit/
# Words of a Maven or Gradle call that never narrow which tests run: a green call made only of these
# ran every module's tests, so the cache drops every error it did not repeat (a stale `-Dtest=X` "No
# tests matching" error at pom.xml). Any other word (`-Dtest=`, `-pl`, `--tests`, `:sub:test`)
# narrows.
WHOLE_MAVEN = frozenset(
    {
        *MAVEN_GOALS,
        "clean",
        "validate",
        "compile",
        "test-compile",
        "-B",
        "--batch-mode",
        "-q",
        "--quiet",
        "-e",
        "--errors",
        "-X",
        "--debug",
        "-o",
        "--offline",
        "-U",
        "--update-snapshots",
        "-nsu",
        "-ntp",
        "--no-transfer-progress",
        "-fae",
        "--fail-at-end",
        "-V",
        "--show-version",
    }
)
WHOLE_GRADLE = frozenset(
    {
        *GRADLE_TASKS,
        "clean",
        "--console=plain",
        "--console=rich",
        "--console=auto",
        "-q",
        "--quiet",
        "-i",
        "--info",
        "-s",
        "--stacktrace",
        "--offline",
        "--no-daemon",
        "--daemon",
        "--parallel",
        "--build-cache",
        "--continue",
        "--warning-mode=all",
        "--rerun-tasks",
    }
)
# characters of the run's output kept for the worker (Claude Code cuts at 10,000)
MAX_OUTPUT = 200_000
STALE_MARKER = (
    6 * 3600.0
)  # seconds; a marker no PostToolUse claimed by then (a denied call) is deleted
ERROR_PREFIX = "Exit code "


def marker_path(root: str, session: str, tool_use_id: str) -> str:
    """The marker of one tool call: its name is made of plain characters only (no way out of the
    folder)."""
    plain = "".join(
        c if c.isalnum() or c in "-_" else "_" for c in f"{session[:100]}--{tool_use_id[:100]}"
    )
    return os.path.join(workspace.state_dir(root), FOLDER, f"{plain}.json")


def cache_root(cwd: str) -> str:
    """Where the cache (and the markers) of a payload's cwd live: the same folder at Pre and Post,
    even when the command's `cd` moved the shell's cwd into a module."""
    from sidekit_hooks.status import cache

    return cache.workspace_root(workspace.project_dir(cwd))


def mark_started(payload: dict[str, Any], words: list[str], tool: str = "") -> str:
    """PreToolUse: note that this tool call starts a test run (Maven/Gradle, or a compacted run
    named by `tool`: the name of a runner whose adapter has `feed_after`); the marker's path, or
    ''."""
    tool = tool or build_tool(words)
    session, call = payload.get("session_id"), payload.get("tool_use_id")
    if (
        not tool
        or not isinstance(session, str)
        or not isinstance(call, str)
        or not session
        or not call
    ):
        return ""
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else os.getcwd()
    root = cache_root(str(cwd))
    path = marker_path(root, session, call)
    record = {
        "tool": tool,
        "args": words[1:],
        "started": time.time(),
        "root": root,
        "session": session,
    }
    workspace.atomic_write(path, fastjson.dumps(record))
    return path


def outcome(event: Event) -> tuple[int | None, str]:
    """(the command's exit code, the output the model read); the code is None when the run has not
    ended (moved to the background, interrupted) or its status cannot be read."""
    raw = event.raw
    if event.event_name == "PostToolUseFailure":
        if raw.get("is_interrupt") is True:
            return None, event.error
        first, _, rest = event.error.partition("\n")
        if first.startswith(ERROR_PREFIX) and first[len(ERROR_PREFIX) :].strip().isdigit():
            return int(first[len(ERROR_PREFIX) :]), rest
        return None, event.error
    response = raw.get("tool_response")
    tool_input = raw.get("tool_input")
    if isinstance(response, dict) and (
        response.get("backgroundTaskId") or response.get("interrupted") is True
    ):
        return None, event.output
    if isinstance(tool_input, dict) and tool_input.get("run_in_background") is True:
        return None, event.output
    return 0, event.output


def hand_over(event: Event, worker: str) -> str:
    """PostToolUse(Failure): claim this call's marker, write the job, start `worker` (a module run
    with `-m`: the pipeline's feed worker, which queues the tests sidecar's word) on it; the job's
    path or '' (no marker: not a run that `mark_started` noted)."""
    root = cache_root(event.cwd)
    marker = marker_path(root, event.session_id, event.tool_use_id)
    claimed = f"{marker}.ended-{os.getpid()}"
    try:
        os.rename(marker, claimed)  # one hook only, even if the event came twice
    except OSError:
        return ""
    from sidekit_hooks.core import background, hooklog, safepath

    try:
        since_ns = os.lstat(claimed).st_mtime_ns  # the filesystem's own time of the run's start
        os.utime(claimed, follow_symlinks=False)  # and of its end, by the same clock
        until_ns = os.lstat(claimed).st_mtime_ns
        started = fastjson.loads(safepath.read_bytes(claimed, 64 * 1024).decode("utf-8", "replace"))
    except (OSError, ValueError):
        started = None
    finally:
        _unlink(claimed)
    if not isinstance(started, dict):
        return ""
    code, output = outcome(event)
    if (
        code is None
    ):  # its reports are not all written (or never will be): the cache keeps what it knew
        hooklog.append(
            root,
            hooklog.DECISIONS,
            {"hook": event.event_name, "decision": "junit-not-fed", "why": "not ended"},
        )
        return ""
    adapter = _fed_after(started.get("tool"))
    needs_feed = getattr(adapter, "needs_feed", None)
    if needs_feed is not None and not needs_feed(event.cwd, output, code, since_ns):
        return ""  # the run fed the cache itself (its wrapper, its reporter): no worker
    # The folder is this hook's own finding, never the marker's word (a file in the project could
    # say anything).
    job = dict(
        started,
        root=root,
        since_ns=since_ns,
        until_ns=until_ns,
        exit=code,
        output=output[-MAX_OUTPUT:],
        ended=time.time(),
    )
    job.update(
        hook=event.event_name,
        payload={k: v for k, v in event.raw.items() if k not in ("tool_response", "error")},
    )
    path = marker.removesuffix(".json") + ".job"
    workspace.atomic_write(path, fastjson.dumps(job))
    background.spawn_module(worker, [path])
    return path


def feed(job: dict[str, Any]) -> tuple[Result, dict[str, Any]] | None:
    """The worker's work: this run's reports into the cache, as `sidekit test` would; (the run, the
    summary as written), or None when there is nothing to record (a Gradle test task up to date)."""
    from sidekit_hooks.runners import store
    from sidekit_hooks.runners.junit import adapter as junit

    root, code = str(job["root"]), int(job["exit"])
    adapter = _fed_after(job.get("tool"))
    if adapter is not None:  # a compacted run: its own adapter reads what it printed (and left)
        fed = adapter.feed_after(job)
        return (fed, dict(store.save(root, fed)[0])) if fed is not None else None
    until_ns = (
        int(job["until_ns"]) if job.get("until_ns") is not None else None
    )  # None: now (an older hook's job)
    reports = junit.find_reports(root, 0.0, since_ns=int(job["since_ns"]), until_ns=until_ns)
    if not reports and code == 0 and job.get("tool") == "gradle":
        return None  # nothing ran: Gradle reused the last results, which the cache already holds
    raw = store.save_raw(
        root, junit.NAME, str(job.get("output", "")), f"agent-{job.get('tool', '')}"
    )
    result = junit.collect(root, float(job["started"]), code, raw, reports=reports)
    result.args = [str(word) for word in job.get("args") or []]
    if code == 0 and ran_at_root(job) and whole_run(str(job.get("tool", "")), result.args):
        result.args = []  # every module's tests ran: errors it did not repeat are gone
        if (
            job.get("tool") == "maven"
        ):  # and so did every JVM test (Surefire has no up-to-date skip)
            result.covered = jvm_paths(root)
    summary, _table = store.save(root, result)
    return result, dict(summary)


def _fed_after(tool: object) -> Any:
    """The adapter of a compacted run's marker (`tool` is its runner's name) when it feeds such a
    run after it ended (`feed_after`), else None (Maven, Gradle: this module's own reports)."""
    from sidekit_hooks import runners

    adapter = runners.load(tool) if isinstance(tool, str) else None
    return adapter if hasattr(adapter, "feed_after") else None


JVM_SOURCES = (".java", ".kt", ".scala", ".groovy")


def jvm_paths(root: str) -> set[str]:
    """The paths of the cached JVM tests (a source file, or a class name whose file was not found):
    what a whole green Maven run covers. Tests of other runners in the same cache are not among
    them."""
    from sidekit_hooks.status import cache, record

    tests = cache.read(cache.table_path(root)).data.get("tests") or {}
    paths = {test.split("::", 1)[0] for test in tests}
    return {path for path in paths if path.endswith(JVM_SOURCES) or record.is_class_name(path)}


def whole_run(tool: str, args: list[str]) -> bool:
    """Whether a Maven or Gradle call's words (after the program) run every test: all in WHOLE_*.
    Only a green call counts as whole (the feed's rule): a red one may have stopped at its first
    failing module, so the modules after it ran nothing and keep their errors."""
    whole = WHOLE_MAVEN if tool == "maven" else WHOLE_GRADLE if tool == "gradle" else frozenset()
    return bool(whole) and all(word in whole for word in args)


def ran_at_root(job: dict[str, Any]) -> bool:
    """Whether the call ran in the cache's root folder: its cwd is the root and the command has no
    `cd` (`cd a && mvn test` runs module a alone)."""
    payload = job.get("payload") or {}
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    if not isinstance(command, str) or not isinstance(cwd, str) or "&&" in command:
        return False
    try:
        return os.path.samefile(cwd, str(job["root"]))
    except OSError:
        return False


def sweep(folder: str, now: float) -> None:
    """Delete markers no PostToolUse ever claimed (a call the user denied) and jobs no worker
    took."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime > STALE_MARKER:
                os.unlink(entry.path)
        except OSError:
            continue


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
