"""The per-file digest of the test-impact map, `.sidekit/code/covers.json`: which tests execute a
file.

    {"version": 1, "tests": ["tests/test_a.py::test_x", ...],      # sorted, workspace-relative ids
     "files": {"pkg/a.py": "0-4,7,9-12", ...}}                     # positions in "tests", as ranges

`sidekit map` writes it (atomically) next to `map.json`; the tests sidecar reads it in the hook when
an edited file is tied to no failing traceback, so this is the one module of `sidekit_hooks.code` on
the hook path: standard library only, `fastjson`, no `json`/`re`. Test modules themselves are left
out (the sidecar knows their failing tests from the status cache), and so are tests that cover
nothing else. Sorted ids make neighbouring tests neighbouring positions, so a file most tests run is
a few ranges.
"""

from __future__ import annotations

import os
from bisect import bisect_left, bisect_right

from sidekit_hooks.core import fastjson, safepath, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

COVERS_FILE = os.path.join("code", "covers.json")
VERSION = 1


def covers_path(root: str) -> str:
    return os.path.join(workspace.state_dir(root), COVERS_FILE)


def encode(positions: Iterable[int]) -> str:
    """[0, 1, 2, 3, 4, 7, 9] -> "0-4,7,9"."""
    parts: list[str] = []
    run_start = previous = -2
    for position in sorted(set(positions)):
        if position != previous + 1:
            if run_start >= 0:
                parts.append(_span(run_start, previous))
            run_start = position
        previous = position
    if run_start >= 0:
        parts.append(_span(run_start, previous))
    return ",".join(parts)


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def decode(text: str) -> list[int]:
    """ "0-4,7" -> [0, 1, 2, 3, 4, 7]; ValueError on anything else."""
    positions: list[int] = []
    for part in text.split(","):
        first, dash, last = part.partition("-")
        positions.extend(range(int(first), int(last) + 1) if dash else (int(first),))
    return positions


def digest(
    tests: list[str], hits_by_file: Mapping[str, Iterable[int]], prefix: str = ""
) -> dict[str, Any]:
    """The digest of a map: `tests` are its node ids, `hits_by_file` each file's positions in
    `tests`.

    `prefix` (the pytest rootdir relative to the workspace, "" or "sub/") makes the ids
    workspace-relative, as the status cache writes them.
    """
    test_modules = {prefix + test.split("::", 1)[0] for test in tests}
    covering: dict[str, set[str]] = {}
    for path, positions in hits_by_file.items():
        if path not in test_modules:
            ids = {prefix + tests[i] for i in positions}
            if ids:
                covering[path] = ids
    ordered = sorted(set[str]().union(*covering.values()))
    index = {test: i for i, test in enumerate(ordered)}
    files = {path: encode(index[test] for test in ids) for path, ids in sorted(covering.items())}
    return {"version": VERSION, "tests": ordered, "files": files}


def save(root: str, data: dict[str, Any]) -> None:
    workspace.atomic_write(covers_path(root), fastjson.dumps(data))


def read(root: str) -> dict[str, Any]:
    """The digest, or {} when there is none or it cannot be used (then the sidecar knows less, no
    more)."""
    try:
        data = fastjson.loads(
            safepath.read_bytes(safepath.check(covers_path(root)), safepath.MAX_STATE).decode()
        )
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return {}
    if not isinstance(data.get("tests"), list) or not isinstance(data.get("files"), dict):
        return {}
    return data


def covering_among(data: dict[str, Any], path: str, candidates: Iterable[str]) -> list[str]:
    """Those of `candidates` (e.g. the failing tests) that the digest says execute `path`, in their
    order.

    Binary searches in the sorted ids and the ranges: the cost follows the candidates, not the
    suite.
    """
    spans = data.get("files", {}).get(path) if data else None
    if not isinstance(spans, str) or not spans:
        return []
    starts: list[int] = []
    ends: list[int] = []
    try:
        for part in spans.split(","):
            first, dash, last = part.partition("-")
            starts.append(int(first))
            ends.append(int(last) if dash else int(first))
    except ValueError:
        return []
    tests = data["tests"]
    found = []
    for test in candidates:
        position = bisect_left(tests, test)
        if position < len(tests) and tests[position] == test:
            span = bisect_right(starts, position) - 1
            if span >= 0 and position <= ends[span]:
                found.append(test)
    return found


def tests_covering(data: dict[str, Any], path: str) -> list[str]:
    """The node ids the digest says execute `path` (workspace-relative); [] when unknown or
    malformed."""
    spans = data.get("files", {}).get(path) if data else None
    if not isinstance(spans, str) or not spans:
        return []
    tests = data["tests"]
    try:
        return [str(tests[i]) for i in decode(spans) if 0 <= i < len(tests)]
    except ValueError:
        return []
