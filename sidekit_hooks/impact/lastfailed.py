"""Tests that failed last time, from sidekit's status cache and from pytest's own cache.

Both are read defensively: a missing, corrupt or foreign file gives nothing, never an error. Entries
whose test file no longer exists are dropped (a stale entry must not drag in the whole suite).
"""

from __future__ import annotations

import json
import os
from typing import Any

from sidekit_hooks.core import safepath, workspace

STATUS_FILES = ("status-tests.json", "status.json")  # the per-test table, then the summary
PYTEST_LASTFAILED = os.path.join(".pytest_cache", "v", "cache", "lastfailed")
from sidekit_hooks.status.vocabulary import FAILING


def _read(project: str, path: str) -> Any:
    """A JSON file inside the project (pytest's lastfailed, sidekit's status), never blocking,
    bounded."""
    data = safepath.read_project_file(project, path, safepath.MAX_STATE)
    try:
        return json.loads(data) if data is not None else None
    except ValueError:
        return None


def _outcome(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        for key in ("o", "outcome", "state", "status"):
            if isinstance(entry.get(key), str):
                return str(entry[key])
    return ""


def from_status(project: str) -> set[str]:
    """Failing node ids (and files that failed to collect) in `.sidekit/status-tests.json` /
    `status.json`."""
    failing: set[str] = set()
    for name in STATUS_FILES:
        data = _read(project, os.path.join(workspace.state_dir(project), name))
        if not isinstance(data, dict):
            continue
        tests = data.get("tests")
        if isinstance(tests, dict):
            failing |= {str(test) for test, entry in tests.items() if _outcome(entry) in FAILING}
        collect = data.get("collect")
        if isinstance(collect, dict):
            failing |= {str(path) for path in collect}
    return failing


def from_pytest_cache(project: str) -> set[str]:
    data = _read(project, PYTEST_LASTFAILED)
    return (
        {str(test) for test, failed in data.items() if failed} if isinstance(data, dict) else set()
    )


def last_failed(project: str) -> list[str]:
    """Node ids (or test files) that failed last time and still exist, sorted."""
    candidates = from_status(project) | from_pytest_cache(project)
    return sorted(
        t
        for t in candidates
        if t.split("::", 1)[0] and os.path.isfile(os.path.join(project, t.split("::", 1)[0]))
    )
