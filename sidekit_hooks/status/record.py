"""Session end: merge one pytest run into the per-test table, cluster, and write the cache.

Runs once per session in the controller. Under `.sidekit/status.lock` so concurrent runs merge
instead of overwriting each other. `generation` rises only when what the cache says changes.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from sidekit_hooks.status import cache, clusters
from sidekit_hooks.status.clip import clip
from sidekit_hooks.status.vocabulary import EXIT_NAMES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sidekit_hooks.status.vocabulary import Summary, Table

SUMMARY_CLUSTERS = 30  # clusters kept in the summary (all of them stay derivable from the table)
SUMMARY_TESTS = 3  # test ids kept per cluster in the summary
SUMMARY_FILES = 300  # failing files indexed for the tests sidecar
# characters of a message, cause or variant kept in the summary (the table has more)
SUMMARY_TEXT = 160
# test files kept per spot (one more than a re-run command names: more means `--select`)
RERUN_FILES = 4
LONG_ID = 110  # a longer test id is not indexed by file; the cluster id names it
# failing tests from earlier runs named in the summary (the tests sidecar's lines name them)
STALE_LISTED = 60


class Capture:
    """What one pytest session saw, handed over by the plugin at session end.

    A plain class, not a dataclass: a compacted go or cargo run imports this module in every Python
    start of its wrapper, and `dataclasses` costs more than the rest of the module."""

    __slots__ = (
        "root",
        "rootdir",
        "started",
        "tests",
        "collect_errors",
        "selected",
        "deselected",
        "whole_files",
        "interrupted",
        "args",
        "plugins",
        "compact",
    )

    def __init__(
        self,
        *,
        root: str,
        rootdir: str,
        started: float,
        tests: dict[str, dict[str, Any]],
        collect_errors: dict[str, dict[str, Any]],
        selected: list[str] | None,
        deselected: list[str],
        whole_files: bool,
        interrupted: bool,
        args: list[str],
        plugins: list[str],
        # the PreToolUse rewrite asked for the compact answer (the model sees it)
        compact: bool = False,
    ) -> None:
        self.root = root
        self.rootdir = rootdir
        self.started = started
        self.tests = tests
        self.collect_errors = collect_errors
        self.selected = selected
        self.deselected = deselected
        self.whole_files = whole_files
        self.interrupted = interrupted
        self.args = args
        self.plugins = plugins
        self.compact = compact


def save(recorder: Capture, exit_status: int) -> tuple[Summary, Table]:
    """Merge, cluster and write; returns (summary, table) as written."""
    root = recorder.root
    prefix = _prefix(recorder.rootdir, root)
    tests = {prefix + nodeid: entry for nodeid, entry in recorder.tests.items() if "o" in entry}
    errors = {
        prefix + path if path != "." else (prefix.rstrip("/") or "."): f
        for path, f in recorder.collect_errors.items()
    }
    known = None
    if recorder.selected is not None and recorder.whole_files:
        known = {prefix + nodeid for nodeid in recorder.selected + recorder.deselected}
    run: dict[str, Any] = {
        "id": os.environ.get("SIDEKIT_RUN_ID", ""),
        "started": round(recorder.started, 3),
        "finished": cache.now(),
        "exit": exit_status,
        "args": recorder.args,
        "selected": len(recorder.selected or ()) if recorder.selected is not None else len(tests),
        "ran": len(tests),
        "interrupted": recorder.interrupted,
    }
    if recorder.compact:
        run["compact"] = True
    run["complete"] = not recorder.interrupted and not errors and run["ran"] >= run["selected"]
    with cache.locked(root):
        summary, table = merge(root, run, tests, errors, known)
        summary["runner"], summary["pytest"] = "pytest", _pytest_version()
        summary["python"], summary["plugins"] = (
            "{}.{}.{}".format(*sys.version_info[:3]),
            recorder.plugins,
        )
        cache.write(cache.table_path(root), table)
        cache.write(cache.summary_path(root), summary)
    return summary, table


def run_clusters(summary: Mapping[str, Any], table: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Clusters of the last run's failures only (the table also holds earlier runs' results)."""
    finished = (summary.get("run") or {}).get("finished")
    members = [
        clusters.Member(t, e.get("f") or {}, e.get("p", "call"), bool(e.get("new")))
        for t, e in (table.get("tests") or {}).items()
        if e.get("s") == finished and e.get("o") in clusters.FAILING
    ]
    members += [
        clusters.Member(p, f, "collect", bool(f.get("new")))
        for p, f in (table.get("collect") or {}).items()
        if f.get("s") == finished
    ]
    return clusters.build(members)


def failing_before(table: Mapping[str, Any]) -> set[str]:
    """The tests and collect errors failing in a cache table (its `data`) before a run is merged
    in."""
    tests = table.get("tests") or {}
    return {t for t, e in tests.items() if e.get("o") in clusters.FAILING} | set(
        table.get("collect") or {}
    )


def marked_new(
    tests: dict[str, dict[str, Any]],
    errors: dict[str, dict[str, Any]],
    before: set[str],
    finished: float,
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """A run's entries as the table keeps them: seen at `finished`, durations rounded, a failure
    that was not failing `before` marked new."""
    entries: dict[str, dict[str, Any]] = {}
    for test, entry in tests.items():
        entry = dict(entry, s=finished, d=round(entry.get("d", 0.0), 4))
        if entry["o"] in clusters.FAILING and test not in before:
            entry["new"] = True
        entries[test] = entry
    failures = {
        path: dict(failure, s=finished, new=path not in before) for path, failure in errors.items()
    }
    return entries, failures


def merge(
    root: str,
    run: dict[str, Any],
    tests: dict[str, dict[str, Any]],
    errors: dict[str, dict[str, Any]],
    known: set[str] | None,
    covered: set[str] | frozenset[str] = frozenset(),
) -> tuple[Summary, Table]:
    """(new summary, new table) from the cache on disk and one run's results.

    `known`: every test id the run collected (pytest); `covered`: paths whose every test the run ran
    and reported (a go package run whole). Either way, a cached test of such a path the run lacks is
    gone."""
    old_summary = cache.read(cache.summary_path(root))
    old_table = cache.read(cache.table_path(root))
    note = old_summary.note or old_table.note
    table: dict[str, dict[str, Any]] = dict(old_table.data.get("tests") or {}) if not note else {}
    old_errors: dict[str, dict[str, Any]] = (
        dict(old_table.data.get("collect") or {}) if not note else {}
    )
    before = failing_before(old_table.data) if not note else set()

    touched_files = {_file(t) for t in (known or ())} | {_file(t) for t in tests} | set(errors)
    present: dict[str, bool] = {}
    for test in list(table):
        path = _file(test)
        if path not in present:
            present[path] = os.path.exists(os.path.join(root, path)) or is_class_name(path)
        gone = (known is not None and path in touched_files and test not in known) or (
            path in covered and test not in tests
        )
        if gone or path in errors or not present[path]:
            del table[test]
        else:
            table[test].pop("new", None)  # "new" speaks of the latest run only
    for path in list(old_errors):
        # a crash (a test binary that died) stays through a filtered run that ran that file without
        # it: the test that crashed it may just not have run
        kept = bool(run["args"]) and old_errors[path].get("type") == "crash" and path not in errors
        if not os.path.exists(os.path.join(root, path)) or (
            not kept and (path in touched_files or not run["args"])
        ):
            del old_errors[path]
    tests, errors = marked_new(tests, errors, before, run["finished"])
    table.update(tests)
    old_errors.update(errors)

    found = clusters.of_table(table, old_errors)
    for cluster in found:
        for test in cluster["tests"]:
            if test in table:
                table[test]["c"] = cluster["id"]
            else:
                old_errors[test]["c"] = cluster["id"]
    digest = _digest(table, old_errors)
    generation = max(
        int(old_summary.data.get("generation", 0)), int(old_table.data.get("generation", 0))
    )
    if digest != old_summary.data.get("digest") or not generation:
        generation += 1
    summary = _summary(generation, digest, run, table, old_errors, found)
    if note:
        summary["note"] = note
    return summary, {"generation": generation, "tests": table, "collect": old_errors}  # type: ignore[typeddict-item]


def outcome_counts(entries: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """How many of `entries` (cache records) have each outcome."""
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry["o"]] = counts.get(entry["o"], 0) + 1
    return counts


def _summary(
    generation: int,
    digest: str,
    run: dict[str, Any],
    table: dict[str, dict[str, Any]],
    errors: dict[str, dict[str, Any]],
    found: list[dict[str, Any]],
) -> Summary:
    counts = outcome_counts(table.values())
    run["counts"] = outcome_counts(
        entry for entry in table.values() if entry.get("s") == run["finished"]
    )
    run["state"] = "interrupted" if run["interrupted"] else EXIT_NAMES.get(run["exit"], "error")
    files: dict[str, list[Any]] = {}
    stale: list[str] = []  # failing, but from an earlier run than this one (it did not re-run them)
    stale_files: dict[str, int] = {}
    stale_causes: list[str] = []  # clusters with no failure from this run
    for cluster in found:
        fresh = False
        for test in cluster["tests"]:
            entry = table.get(test) or errors.get(test) or {}
            failure = entry.get("f") or errors.get(test) or {}
            is_stale = entry.get("s") != run["finished"]
            fresh = fresh or not is_stale
            if is_stale:
                stale.append(test)
            spots = [_file(test)] + [str(f).partition(":")[0] for f in failure.get("frames", ())]
            for path in dict.fromkeys(spots):
                if path in files:
                    files[path][0] += 1
                elif len(files) < SUMMARY_FILES:
                    files[path] = [1, cluster["id"], test if len(test) <= LONG_ID else "", [], 0]
                else:
                    continue
                if is_stale:
                    stale_files[path] = stale_files.get(path, 0) + 1
                _add_rerun_target(files[path], _file(test), bool(failure.get("doctest")))
        if not fresh:
            stale_causes.append(str(cluster["id"]))
    for path, spot in files.items():  # kept small in the usual cases: hooks read this file
        if not spot[4] and spot[2] and spot[3] == [_file(spot[2])]:
            del spot[3:]  # the first test's file is the whole re-run
        elif not spot[4] and spot[3] == [path]:
            spot[3] = []  # the spot is the test file itself
    briefs = [_brief(c) for c in found[:SUMMARY_CLUSTERS]]
    summary: Summary = {
        "generation": generation,
        "digest": digest,
        "run": run,  # type: ignore[typeddict-item]  # built as a plain dict above
        "counts": counts,
        "collectErrors": len(errors),
        "older": sum(1 for e in table.values() if e.get("s") != run["finished"]),
        "newFailures": sum(c["new"] for c in found),
        "failing": sum(c["affected"] for c in found),
        "clusters": briefs,  # type: ignore[typeddict-item]
        "moreClusters": max(0, len(found) - SUMMARY_CLUSTERS),
        "files": files,
    }
    if stale:
        tests = sorted(stale, key=clusters.natural)[:STALE_LISTED]
        summary["stale"] = {
            "count": len(stale),
            "tests": tests,
            "causes": stale_causes,
            "files": stale_files,
        }
    return summary


def _add_rerun_target(spot: list[Any], test_file: str, doctest: bool) -> None:
    """Spot [count, cluster, first test, test files to re-run, doctest among them]: a re-run of the
    first test's file alone would leave out a doctest or another file failing through the same
    spot."""
    targets: list[str] = spot[3]
    if test_file not in targets and len(targets) < RERUN_FILES:
        targets.append(test_file)
    spot[4] = spot[4] or int(doctest)


def _brief(cluster: dict[str, Any]) -> dict[str, Any]:
    """A cluster as the summary keeps it: bounded, so hooks read a small file whatever the run
    was."""
    return dict(
        cluster,
        tests=cluster["tests"][:SUMMARY_TESTS],
        message=clip(cluster["message"], SUMMARY_TEXT),
        cause=clip(cluster["cause"], SUMMARY_TEXT),
        variants=[[clip(text, SUMMARY_TEXT), count] for text, count in cluster.get("variants", ())],
    )


def _digest(table: dict[str, dict[str, Any]], errors: dict[str, dict[str, Any]]) -> str:
    """What the cache says: each test's outcome and failure identity; not timings, not run times."""
    parts = []
    for test in sorted(table):
        entry = table[test]
        failure = entry.get("f")
        message = clusters.normalize(str(failure.get("message", ""))) if failure else ""
        parts.append(f"{test}\x1f{entry['o']}\x1f{entry.get('c', '')}\x1f{message}")
    for path in sorted(errors):
        parts.append(
            f"{path}\x1fcollect\x1f{errors[path].get('c', '')}\x1f{errors[path].get('message', '')}"
        )
    return clusters.sha1_hex("\n".join(parts).encode("utf-8", "surrogatepass"))[:16]


def is_class_name(path: str) -> bool:
    """A JUnit id's class (`com.acme.CalcTest`, `Outer$Inner`) whose source file was not found: not
    a path, so its existence cannot be checked (its tests stay until a run says otherwise)."""
    last = path.rpartition(".")[2]
    return "/" not in path and "." in path and (last[:1].isupper() or "$" in last)


def _file(test: str) -> str:
    return test.split("::", 1)[0]


def _prefix(rootdir: str, root: str) -> str:
    relative = os.path.relpath(rootdir, root).replace(os.sep, "/")
    return "" if relative == "." else relative + "/"


def _pytest_version() -> str:
    import pytest

    return str(pytest.__version__)
