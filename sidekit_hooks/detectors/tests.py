"""The `tests` sidecar: what the shared test cache knows, at the moment it matters.

(a) After an Edit/Write to a file that failing tests of the last run live in or pass through (their
test file or an in-project frame of their traceback); when no traceback names the file (a function
that returns a wrong value raises nowhere) and `sidekit map` has recorded its digest, the failing
tests that execute the file ("covered by"). (b) After a raw pytest run through Bash that left
failures (the plugin has just rewritten the cache): the clustered status, which raw output buries.
A green run says nothing: pytest's last line already did. Standard library only; the cache summary
is one small JSON file, and the coverage digest is read only when an edit to a source file meets a
red cache.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import hooklog
from sidekit_hooks.nudges.findings import Finding
from sidekit_hooks.status import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context

RECENT = 900  # seconds: a Bash call lasts at most 10 minutes, plus slack
MAX_ID = 110  # a longer test id is named by its cluster id instead
COUNT_WORDS = (("failed", "failed"), ("error", "errors"), ("passed", "passed"), ("skipped", "skipped"))
MAX_MESSAGE = 300  # characters of a nudge (CONTRACT section 2), "[sidecar:tests] " included
PREFIX = "[sidecar:tests] "
MAX_RERUN_FILES = 3  # test files named in a re-run command; more and `sidekit test --select` picks them
# The per-test table is read for the failing tests the summary leaves out only up to this size (about
# 2,500 tests; the detector measured 3.7 ms at 220 KB); past it the summary's own tests are named, as "at least N".
TABLE_READ_LIMIT = 256 * 1024


class TestsSidecar:
    name = "tests"
    hooks = frozenset({"PostToolUse", "PostToolUseFailure"})

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if event.kind == "write" and event.path:
            summary = _summary(ctx)
            if not summary:
                return []
            found = after_edit(event.path, summary)
            if found or not summary.get("failing") or time.monotonic() > ctx.deadline:
                return found
            return _covered_edit(event.path, summary, ctx)
        if event.kind == "shell" and runs_pytest(event.command):
            summary = _summary(ctx)
            return after_run(summary, time.time()) if summary else []
        return []


DETECTOR = TestsSidecar()


def after_edit(path: str, summary: dict[str, Any]) -> list[Finding]:
    spot = (summary.get("files") or {}).get(path)
    if not spot:
        return []
    count, cluster, first = int(spot[0]), str(spot[1]), str(spot[2])
    handle = first if first and len(first) <= MAX_ID else cluster
    where = f"{count} test{'s' if count > 1 else ''} that failed in the last run"
    relation = "live in" if first.split("::")[0] == path else "pass through"
    if count == 1:  # "1 test ... passes through", not "pass through"
        relation = {"live in": "lives in", "pass through": "passes through"}[relation]
    rerun = f"; re-run: sidekit test {first.split('::')[0]}" if first else ""
    message = f"{where} {relation} {path} ({status_line(summary)}); details: sidekit failures {handle}{rerun}"
    generation = summary.get("generation", 0)
    return [Finding("tests", message, key=f"tests:edit:{path}:{generation}", path=path)]


def after_edit_covered(path: str, summary: dict[str, Any], covering: list[str], failing: dict[str, str],
                       every_failure: bool = True) -> list[Finding]:
    """An edit to a file the map says failing tests execute, though no traceback of theirs passes through it.

    `covering`: tests the coverage digest ties to `path`; `failing`: failing test -> cluster id, all of
    them when `every_failure`, else some (then the count is "at least"). Only tests that failed in the
    last run are named; a stale digest is still a fair hint.
    """
    rank = {str(c.get("id")): i for i, c in enumerate(summary.get("clusters") or ())}
    hit = sorted((t for t in set(covering) if t in failing), key=lambda t: (rank.get(failing[t], len(rank)), t))
    if not hit:
        return []
    first = hit[0]
    handle = first if len(first) <= MAX_ID else (failing[first] or first)
    count = f"{len(hit)} test{'s' if len(hit) > 1 else ''}" if every_failure else f"at least {len(hit)} tests"
    head = (f"{path} is covered by {count} that failed in the last run "
            f"({status_line(summary)}); details: sidekit failures {handle}; re-run: ")
    test_files = list(dict.fromkeys(t.split("::", 1)[0] for t in hit))
    rerun = "sidekit test " + " ".join(test_files)
    if len(test_files) > MAX_RERUN_FILES or len(PREFIX) + len(head) + len(rerun) > MAX_MESSAGE:
        rerun = "sidekit test --select"  # the tests the change needs, which these are among
    generation = summary.get("generation", 0)
    return [Finding("tests", head + rerun, key=f"tests:edit:{path}:{generation}", path=path)]


def after_run(summary: dict[str, Any], now: float) -> list[Finding]:
    run = summary.get("run") or {}
    counts = run.get("counts") or {}
    if now - float(run.get("finished", 0)) > RECENT or not (counts.get("failed") or counts.get("error")
                                                           or summary.get("collectErrors")):
        return []
    clusters = summary.get("clusters") or []
    top = ""
    if clusters:
        biggest = clusters[0]
        handle = biggest["tests"][0] if biggest.get("affected", 1) == 1 and len(biggest["tests"][0]) <= MAX_ID \
            else biggest["id"]
        top = (f"; biggest: {biggest.get('type', 'Error')} at {biggest.get('at', '?')} "
               f"({biggest.get('affected', 1)} tests): sidekit failures {handle}")
    message = f"pytest: {status_line(summary)}{top}. Next time `sidekit test` answers in one JSON line"
    return [Finding("tests", message, key=f"tests:run:{summary.get('generation', 0)}:{run.get('finished', 0)}")]


def status_line(summary: dict[str, Any]) -> str:
    """e.g. "6 failed, 3 errors, 1 passed; 5 root causes" for the last run."""
    counts = (summary.get("run") or {}).get("counts") or {}
    parts = [f"{counts[key]} {word}" for key, word in COUNT_WORDS if counts.get(key)]
    if summary.get("collectErrors"):
        errors = int(summary["collectErrors"])
        parts.append(f"{errors} collection error{'s' if errors > 1 else ''}")
    causes = len(summary.get("clusters") or ()) + int(summary.get("moreClusters", 0))
    text = ", ".join(parts) or "no tests ran"
    if causes:
        text += f"; {causes} root cause{'s' if causes > 1 else ''}"
    return text


def runs_pytest(command: str) -> bool:
    """Whether a shell command runs pytest itself (not `sidekit test`, not a grep for the word)."""
    if "pytest" not in command and "py.test" not in command:
        return False
    from sidekit_hooks.core.shell import core_words, segments

    for segment in segments(command):
        words = core_words(segment.texts)
        if words and words[0] in ("pytest", "py.test"):
            return True
        if words and words[0].startswith("python") and words[1:3] == ["-m", "pytest"]:
            return True
    return False


def _summary(ctx: Context) -> dict[str, Any]:
    if "tests:summary" not in ctx.memo:
        loaded = cache.read(cache.summary_path(cache.workspace_root(ctx.project)))
        if loaded.note:  # the sidecar knows less; `sidekit doctor` reads this log and says how to mend it
            hooklog.error(ctx.project, "PostToolUse", "detector:tests", loaded.note)
        ctx.memo["tests:summary"] = loaded.data
    summary: dict[str, Any] = ctx.memo["tests:summary"]
    return summary


def _covered_edit(path: str, summary: dict[str, Any], ctx: Context) -> list[Finding]:
    """The coverage digest's view of an edit to a source file while tests fail (imported only for it)."""
    from sidekit_hooks.code.testfiles import is_test_path
    from sidekit_hooks.impact import covers

    if is_test_path(path):  # a test file's own failures are the status cache's to name
        return []
    if "tests:covers" not in ctx.memo:
        ctx.memo["tests:covers"] = covers.read(cache.workspace_root(ctx.project))
    digest = ctx.memo["tests:covers"]
    if not (digest.get("files") or {}).get(path):
        return []
    failing, every_failure = _failing(ctx, summary)
    covering = covers.covering_among(digest, path, failing)
    return after_edit_covered(path, summary, covering, failing, every_failure) if covering else []


def _failing(ctx: Context, summary: dict[str, Any]) -> tuple[dict[str, str], bool]:
    """(failing test -> its cluster id, whether that is all of them).

    From the summary when its clusters list every failing test; else from the per-test table, unless
    that is too big to read in a hook: then the summary's tests, which are some of them.
    """
    listed = {str(t): str(c.get("id", "")) for c in summary.get("clusters") or () for t in c.get("tests") or ()}
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

    failing = {str(t): str(e.get("c", "")) for t, e in table.items() if isinstance(e, dict) and e.get("o") in FAILING}
    return failing, True
