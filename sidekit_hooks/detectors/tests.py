"""The `tests` sidecar: what the shared test cache knows, at the moment it matters.

(a) After an Edit/Write to a file that failing tests of the last run live in or pass through (their
test file or an in-project frame of their traceback); when no traceback names the file (a function
that returns a wrong value raises nowhere) and `sidekit map` has recorded its digest, the failing
tests that execute the file ("covered by"); without a map, the failing tests whose test file imports
the file's module, directly or through the project's modules (basis `imports`, the graph `sidekit
select` uses). (b) After a raw pytest run through Bash that left failures (the plugin has just
rewritten the cache): the clustered status, which raw output buries. Only about that very run: the
cache's run must have started after the command did (the payload's `duration_ms`), so an older
cache never speaks for a run that did not record; and not when the run already reached the model as
the compact answer. A green run says nothing: pytest's last line already did. (a) is held back while
the newest run is one the agent's own command made and its output named every failure (`seen_runs`).
Standard library only; the cache summary is one small JSON file, and the coverage digest or the
import index is read only when an edit to a source file meets a red cache.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks import runners
from sidekit_hooks.core import hooklog
from sidekit_hooks.core.hook_table import judged_by
from sidekit_hooks.detectors import rank_of, seen_runs
from sidekit_hooks.nudges.findings import Finding
from sidekit_hooks.status import cache
from sidekit_hooks.status.line import stale_tests, status_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context

SIDECAR = "tests"
RANK = rank_of(SIDECAR)  # its findings' place among sidecars (detectors.RANKS)
SLACK = 1.0  # seconds of clock granularity between the payload's duration and the cache's run times
# seconds: without `duration_ms`, only a run that finished this recently can be the command's
NO_DURATION = 10.0
MAX_ID = 110  # a longer test id is named by its cluster id instead
MAX_MESSAGE = 300  # characters of a nudge (docs/policy.md), "[sidecar:tests] " included
PREFIX = "[sidecar:tests] "
# test files named in a re-run command; more and `sidekit test --select` picks them
MAX_RERUN_FILES = 3
# The per-test table is read for the failing tests the summary leaves out only up to this size
# (about 2,500 tests; the detector measured 3.7 ms at 220 KB); past it the summary's own tests are
# named, as "at least N".
TABLE_READ_LIMIT = 256 * 1024


class TestsDetector:
    name = SIDECAR
    hooks = judged_by("tests")

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if event.kind == "write" and event.path:
            summary = _summary(ctx)
            if not summary or (
                summary.get("failing")
                and seen_runs.model_read(ctx.project, event.session_id, event.agent_id, summary)
            ):
                return []  # the model has just read these very failures in its own run's output
            found = after_edit(event.path, summary)
            if found or not summary.get("failing") or time.monotonic() > ctx.deadline:
                return found
            return _covered_edit(event.path, summary, ctx)
        if event.kind == "shell" and (
            runners.says_a_plugin_runner(event.command) or "sidekit test" in event.command
        ):
            ran_pytest = runs_pytest(event.command)
            if not ran_pytest and "sidekit test" not in event.command:
                return []
            summary = _summary(ctx)
            if summary.get("failing"):  # the first edit after this red run reads its import answer
                warm(cache.workspace_root(ctx.project), refresh=False)
            now, duration = time.time(), _duration(event.raw)
            if summary and is_this_run(summary.get("run") or {}, now, duration):
                seen_runs.note(
                    ctx.project,
                    event.session_id,
                    event.agent_id,
                    summary,
                    f"{event.output}\n{event.error}",
                )
            return after_run(summary, now, duration) if summary and ran_pytest else []
        return []


DETECTOR = TestsDetector()


def after_edit(path: str, summary: dict[str, Any]) -> list[Finding]:
    spot = (summary.get("files") or {}).get(path)
    if not spot:
        return []
    count, cluster, first = int(spot[0]), str(spot[1]), str(spot[2])
    handle = first if first and len(first) <= MAX_ID else cluster
    stale = int(((summary.get("stale") or {}).get("files") or {}).get(path, 0))
    where = f"{_tests_count(count)} that failed {when_failed(count, stale)}"
    relation = "live in" if first.split("::")[0] == path else "pass through"
    if count == 1:  # "1 test ... passes through", not "pass through"
        relation = {"live in": "lives in", "pass through": "passes through"}[relation]
    head = f"{where} {relation} {path}{_run_status(summary, stale)}; details: sidekit failures {handle}"
    message = head + rerun_clause(path, spot, first, summary, len(head))
    generation = summary.get("generation", 0)
    return [
        Finding(
            SIDECAR,
            message,
            key=f"tests:edit:{path}:{generation}",
            path=path,
            subject=path,
            recheck=dict(still_failing(summary, path, [first], newest=stale == 0), spot=str(count)),
            rank=RANK,
        )
    ]


def when_failed(count: int | None, stale: int | None) -> str:
    """When `count` failing tests failed, `stale` of them in an earlier run the newest did not
    re-run (None: not known). A line speaks of one run: the newest run's counts go only with its own
    failures."""
    if stale == 0:
        return "in the last run"
    if count is not None and stale is not None and stale >= count:
        return "in an earlier run (not re-run since)"
    if count is None or stale is None:
        return "when last run"
    return f"when last run ({count - stale} in the newest run, {stale} in an earlier one, not re-run since)"


def _run_status(summary: dict[str, Any], stale: int | None) -> str:
    """ " (the newest run's status)" beside failures all from that run, else nothing (it would mix
    runs)."""
    return f" ({status_line(summary)})" if stale == 0 else ""


def stale_among(summary: dict[str, Any], tests: list[str]) -> int | None:
    """How many of `tests` failed in an earlier run, not re-run by the newest (None: the summary
    lists too few of those to tell)."""
    listed = stale_tests(summary)
    return None if listed is None else sum(1 for test in tests if test in listed)


def rerun_clause(path: str, spot: list[Any], first: str, summary: dict[str, Any], used: int) -> str:
    """ "; re-run: sidekit test FILES" naming every test file failing through the spot, doctests
    included (#18: re-running the first test's file alone left the doctest out), or `--select` when
    they are many."""
    if len(spot) > 3 and isinstance(spot[3], list):
        files = [str(f) for f in spot[3]] or [path]  # [] when the spot is the test file itself
    elif first:
        files = [first.split("::")[0]]  # a short spot: the first test's file is the whole re-run
    else:
        return ""
    rerun = "sidekit test " + " ".join(files)
    args = (summary.get("run") or {}).get("args") or ()
    if (
        len(spot) > 4 and spot[4] and "--doctest-modules" in args
    ):  # else the project's config collects them
        rerun += " -- --doctest-modules"
    if (
        len(files) > MAX_RERUN_FILES
        or len(PREFIX) + used + len("; re-run: ") + len(rerun) > MAX_MESSAGE
    ):
        rerun = "sidekit test --select"
    return "; re-run: " + rerun


def after_edit_covered(
    path: str,
    summary: dict[str, Any],
    covering: list[str],
    failing: dict[str, str],
    every_failure: bool = True,
) -> list[Finding]:
    """An edit to a file the map says failing tests execute, though no traceback of theirs passes
    through it.

    `covering`: tests the coverage digest ties to `path`; `failing`: failing test -> cluster id, all
    of them when `every_failure`, else some (then the count is "at least"). Only tests that failed
    in the last run are named; a stale digest is still a fair hint.
    """
    hit = [t for t in set(covering) if t in failing]
    return _failing_tests_finding(
        path, summary, hit, failing, every_failure, "covered by", subject=path
    )


def after_run(summary: dict[str, Any], now: float, duration: float | None = None) -> list[Finding]:
    """The clustered status of the run a Bash command just made (`duration`: the command's
    seconds)."""
    run = summary.get("run") or {}
    counts = run.get("counts") or {}
    if not is_this_run(run, now, duration) or run.get("compact"):
        return []
    if not (counts.get("failed") or counts.get("error") or summary.get("collectErrors")):
        return []
    earlier = set(
        (summary.get("stale") or {}).get("causes") or ()
    )  # not this run's: not its biggest
    clusters = [
        cluster for cluster in summary.get("clusters") or [] if cluster.get("id") not in earlier
    ]
    top = ""
    if clusters:
        biggest = clusters[0]
        handle = (
            biggest["tests"][0]
            if biggest.get("affected", 1) == 1 and len(biggest["tests"][0]) <= MAX_ID
            else biggest["id"]
        )
        where = str(biggest.get("at") or "")  # a JUnit report's failure may name no line
        top = (
            f"; biggest: {biggest.get('type', 'Error')}{f' at {where}' if where else ''} "
            f"({_tests_count(int(biggest.get('affected', 1)))}): sidekit failures {handle}"
        )
    from sidekit_hooks.status.vocabulary import UNNAMED_RUNNER

    runner = str(summary.get("runner") or UNNAMED_RUNNER)
    message = (
        f"{runner}: {status_line(summary)}{top}. Next time `sidekit test` answers in one JSON line"
    )
    return [
        Finding(
            SIDECAR,
            message,
            key=f"tests:run:{summary.get('generation', 0)}:{run.get('finished', 0)}",
            recheck=still_failing(summary, "", [], newest=True),
            rank=RANK,
        )
    ]


MAX_NAMED = 50  # failing tests a finding's re-check follows (the first ones it counts)


def still_failing(
    summary: dict[str, Any], path: str, tests: list[str], newest: bool = False
) -> dict[str, str]:
    """How delivery (and Stop) tell the finding still holds (nudges/recheck.py): the cache
    generation it was read from, and the tests it counts, which must all still fail (a count that
    shrank is no longer true). `newest`: the line states the newest run's status and that its tests
    failed there, so a later run must say the same status and have failed them too. Without tests,
    it reports one run and holds only while that run is the newest."""
    record = {
        "kind": "tests",
        "path": path,
        "generation": str(summary.get("generation", 0)),
        "tests": "\n".join(test for test in tests[:MAX_NAMED] if test),
    }
    if newest:
        record["status"] = status_line(summary)
    return record


def _tests_count(count: int) -> str:
    return f"{count} test{'s' if count != 1 else ''}"


def is_this_run(run: dict[str, Any], now: float, duration: float | None) -> bool:
    """Whether the cache's last run is the one the command that just ended made (#14: no claim the
    run did not make). A cache written before the command started is an older run's."""
    try:
        started, finished = float(run.get("started", 0)), float(run.get("finished", 0))
    except (TypeError, ValueError):
        return False
    if finished > now + SLACK:
        return False
    if duration is None:
        return now - finished <= NO_DURATION
    return started >= now - duration - SLACK


def _duration(raw: dict[str, Any]) -> float | None:
    value = raw.get("duration_ms")
    return (
        float(value) / 1000
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
        else None
    )


def runs_pytest(command: str) -> bool:
    """Whether a shell command runs a test runner itself (pytest, `go test`...; not `sidekit test`,
    not a grep for the word): a run that writes the test cache itself (runners.runs_itself)."""
    if not runners.triggered(command):
        return False
    from sidekit_hooks.core.shell import core_words, segments

    return any(
        runners.runs_itself(words)
        for words in (core_words(s.texts) for s in segments(command))
        if words
    )


def _summary(ctx: Context) -> dict[str, Any]:
    if "tests:summary" not in ctx.memo:
        loaded = cache.read(cache.summary_path(cache.workspace_root(ctx.project)))
        if (
            loaded.note
        ):  # the sidecar knows less; `sidekit doctor` reads this log and says how to mend it
            hooklog.error(ctx.project, "PostToolUse", "detector:tests", loaded.note)
        ctx.memo["tests:summary"] = loaded.data
    summary: dict[str, Any] = ctx.memo["tests:summary"]
    return summary


def _covered_edit(path: str, summary: dict[str, Any], ctx: Context) -> list[Finding]:
    """The coverage digest's view of an edit to a source file while tests fail (imported only for
    it)."""
    from sidekit_hooks.code.testfiles import is_test_path
    from sidekit_hooks.impact import covers

    if is_test_path(path):  # a test file's own failures are the status cache's to name
        return []
    if "tests:covers" not in ctx.memo:
        ctx.memo["tests:covers"] = covers.read(cache.workspace_root(ctx.project))
    digest = ctx.memo["tests:covers"]
    if not (digest.get("files") or {}).get(path):
        return _imported_edit(path, summary, ctx)  # no map, or one that never saw this file
    failing, every_failure = _failing(ctx, summary)
    covering = covers.covering_among(digest, path, failing)
    return after_edit_covered(path, summary, covering, failing, every_failure) if covering else []


def _imported_edit(path: str, summary: dict[str, Any], ctx: Context) -> list[Finding]:
    """Without a map: failing tests whose test file imports `path`'s module, directly or through the
    project's modules (the import graph of `sidekit select`). A hook reads only the answer kept for
    this run (generation); without one it asks for the background (`budget.Later`): a worker builds
    the index and the answer, and the finding comes at the next boundary (#23: no walk in a
    hook)."""
    root = cache.workspace_root(ctx.project)
    reach = read_reach(root, summary.get("generation", 0))
    if reach is None:
        if not ctx.memo.get("background"):
            from sidekit_hooks.core import budget

            raise budget.Later("tests: the import graph's answer for this run is not there yet")
        reach = build_reach(root, summary)
    reached = set(reach.get(path, ()))
    if not reached:
        return []
    failing, every_failure = _failing(ctx, summary)
    hit = [test for test in failing if test.split("::", 1)[0] in reached]
    return after_edit_imported(path, summary, hit, failing, every_failure)


# under .sidekit/code/: {generation, reach: {source: [failing test files]}}
REACH_FILE = "tests-reaching.json"


def reach_path(root: str) -> str:
    from sidekit_hooks.core import workspace

    return os.path.join(workspace.state_dir(root), "code", REACH_FILE)


def read_reach(root: str, generation: object) -> dict[str, list[str]] | None:
    """The import graph's answer kept for this run: source file -> failing test files that import it
    (directly or not); None when it was not computed for `generation`. One small JSON file."""
    from sidekit_hooks.core import fastjson, safepath

    try:
        data = fastjson.loads(safepath.read_bytes(reach_path(root)).decode("utf-8", "replace"))
    except (OSError, ValueError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("generation") != generation
        or not isinstance(data.get("reach"), dict)
    ):
        return None
    return {str(k): [str(t) for t in v] for k, v in data["reach"].items() if isinstance(v, list)}


def build_reach(root: str, summary: dict[str, Any]) -> dict[str, list[str]]:
    """Background only (a walk of the tree, the graph): which source files each failing test file of
    this run reaches, inverted, and kept under .sidekit/code/ for the hooks to read."""
    from sidekit_hooks.code.graph import ImportGraph
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.core import fastjson, safepath, workspace

    failing_files = sorted({test.split("::", 1)[0] for test in _all_failing(root, summary)})
    with Index.open(root) as index:
        reach = ImportGraph.of(index).reached_by(failing_files)
    path = reach_path(root)
    safepath.makedirs(os.path.dirname(path), root)
    workspace.atomic_write(
        path, fastjson.dumps({"generation": summary.get("generation", 0), "reach": reach})
    )
    return reach


def _all_failing(root: str, summary: dict[str, Any]) -> list[str]:
    """Every failing test of the last run (the per-test table, whatever its size: background
    only)."""
    listed = [str(t) for c in summary.get("clusters") or () for t in c.get("tests") or ()]
    table = cache.read(cache.table_path(root)).data.get("tests")
    if not isinstance(table, dict):
        return listed
    from sidekit_hooks.status.vocabulary import FAILING

    return listed + [
        str(t) for t, e in table.items() if isinstance(e, dict) and e.get("o") in FAILING
    ]


def after_edit_imported(
    path: str,
    summary: dict[str, Any],
    hit: list[str],
    failing: dict[str, str],
    every_failure: bool = True,
) -> list[Finding]:
    """An edit to a module that failing tests import, though no traceback of theirs passes through
    it."""
    return _failing_tests_finding(path, summary, hit, failing, every_failure, "imported by")


def _failing_tests_finding(
    path: str,
    summary: dict[str, Any],
    hit: list[str],
    failing: dict[str, str],
    every_failure: bool,
    how: str,
    subject: str = "",
) -> list[Finding]:
    """`path is <how> N tests that failed in the last run`, the first one's details and a re-run of
    their files (`--select` when they are too many to list)."""
    if not hit:
        return []
    rank = {str(c.get("id")): i for i, c in enumerate(summary.get("clusters") or ())}
    hit = sorted(set(hit), key=lambda t: (rank.get(failing.get(t, ""), len(rank)), t))
    first = hit[0]
    handle = first if len(first) <= MAX_ID else (failing.get(first) or first)
    count = (
        f"{len(hit)} test{'s' if len(hit) > 1 else ''}"
        if every_failure
        else f"at least {len(hit)} tests"
    )
    stale = stale_among(summary, hit)
    when = when_failed(len(hit) if every_failure else None, stale)
    head = f"{path} is {how} {count} that failed {when}{_run_status(summary, stale)}; details: sidekit failures {handle}; re-run: "
    test_files = list(dict.fromkeys(t.split("::", 1)[0] for t in hit))
    rerun = "sidekit test " + " ".join(test_files)
    if len(test_files) > MAX_RERUN_FILES or len(PREFIX) + len(head) + len(rerun) > MAX_MESSAGE:
        rerun = "sidekit test --select"  # the tests the change needs, which these are among
    generation = summary.get("generation", 0)
    return [
        Finding(
            SIDECAR,
            head + rerun,
            key=f"tests:edit:{path}:{generation}",
            path=path,
            subject=subject,
            recheck=still_failing(summary, path, hit, newest=stale == 0),
            rank=RANK,
        )
    ]


def warm(root: str, refresh: bool) -> bool:
    """SessionStart and a red run: start the background worker that (re)builds the import index and,
    while tests fail, this run's answer, unless that is there already. True when a worker was
    started."""
    from sidekit_hooks.code import INDEX_FILE
    from sidekit_hooks.core import background, workspace

    summary = cache.read(cache.summary_path(root)).data
    red = bool(summary.get("failing"))
    has_index = os.path.exists(os.path.join(workspace.state_dir(root), INDEX_FILE))
    if (
        has_index
        and not refresh
        and (not red or read_reach(root, summary.get("generation", 0)) is not None)
    ):
        return False
    lock = os.path.join(workspace.state_dir(root), "code", "index-build.lock")
    if not background.lock_is_stale(lock, 300):
        return False
    try:
        background.spawn_module("sidekit_hooks.detectors.tests", ["build-index", root])
    except OSError:
        return False
    return True


def _main(argv: list[str]) -> int:
    """`python -m sidekit_hooks.detectors.tests build-index ROOT`: the background index build (and,
    while the last run is red, its import answer)."""
    if argv[:1] != ["build-index"] or len(argv) != 2:
        return 2
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.core import background, workspace

    root = argv[1]
    lock = os.path.join(workspace.state_dir(root), "code", "index-build.lock")
    if not background.take_lock(lock, 300):
        return 0
    try:
        summary = cache.read(cache.summary_path(root)).data
        if summary.get("failing"):
            build_reach(root, summary)
        else:
            Index.open(root).close()
    # a background worker logs and exits; nobody waits for it
    except Exception as exc:  # noqa: BLE001
        hooklog.error(root, "background", "tests:index", exc)
    finally:
        background.release_lock(lock)
    return 0


def _failing(ctx: Context, summary: dict[str, Any]) -> tuple[dict[str, str], bool]:
    """(failing test -> its cluster id, whether that is all of them).

    From the summary when its clusters list every failing test; else from the per-test table, unless
    that is too big to read in a hook: then the summary's tests, which are some of them.
    """
    listed = {
        str(t): str(c.get("id", ""))
        for c in summary.get("clusters") or ()
        for t in c.get("tests") or ()
    }
    if len(listed) >= int(summary.get("failing", 0)) and not summary.get("moreClusters"):
        return listed, True
    path = cache.table_path(cache.workspace_root(ctx.project))
    try:
        if os.path.getsize(path) > TABLE_READ_LIMIT:
            return listed, False
    except OSError:
        return listed, False
    table = cache.read(path).data.get("tests")
    if not isinstance(table, dict):
        return listed, False
    from sidekit_hooks.status.vocabulary import FAILING  # only once a table is read

    failing = {
        str(t): str(e.get("c", ""))
        for t, e in table.items()
        if isinstance(e, dict) and e.get("o") in FAILING
    }
    return failing, True


if __name__ == "__main__":
    import sys

    from sidekit_hooks.core import background

    background.wall_clock_cap()
    sys.exit(_main(sys.argv[1:]))
