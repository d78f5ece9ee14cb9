"""The test-impact map in `.sidekit/code/map.json`: which tests executed which blocks of which file.

`record()` also writes the map's per-file digest `.sidekit/code/covers.json` (see `code.covers`),
small and quick to read, for the tests sidecar in the hook.

    {"version": 1, "python": "3.11.7", "tests": [node ids],
     "files": {"pkg/a.py": {"hash": "...", "blocks": {"f": crc, "<module>": crc},
                            "hits": {"f": [test positions], "<module>": [...]}}}}

`record()` runs pytest once with the map plugin and writes it atomically. The recorded checksums let
`select` see what changed since the map was made, with or without git.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from sidekit_hooks.code.blocks import MODULE, blocks_of
from sidekit_hooks.code.index import content_hash
from sidekit_hooks.core import launch, safepath, workspace
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.impact import covers

MAP_FILE = os.path.join("code", "map.json")
VERSION = 1
OUTPUT_TAIL = 12  # lines of pytest's output shown when the recording run itself breaks


@dataclass
class FileEntry:
    hash: str
    blocks: dict[str, int]
    hits: dict[str, list[int]]


@dataclass
class TestMap:
    tests: list[str]
    files: dict[str, FileEntry] = field(default_factory=dict)
    python: str = ""

    def tests_touching(self, path: str) -> set[str]:
        entry = self.files.get(path)
        if entry is None:
            return set()
        return {self.tests[i] for hits in entry.hits.values() for i in hits}

    def tests_in_blocks(self, path: str, blocks: set[str]) -> set[str]:
        """Tests that executed any of `blocks`; a change to `<module>` reaches every test that
        touched the file."""
        if MODULE in blocks:
            return self.tests_touching(path)
        entry = self.files.get(path)
        if entry is None:
            return set()
        return {self.tests[i] for name in blocks for i in entry.hits.get(name, [])}


def map_path(project: str) -> str:
    return os.path.join(workspace.state_dir(project), MAP_FILE)


def load(project: str) -> TestMap | None:
    """The recorded map, or None when there is none or it cannot be read (then selection says
    so)."""
    try:
        raw = json.loads(safepath.read_bytes(safepath.check(map_path(project)), safepath.MAX_STATE))
        if raw.get("version") != VERSION:
            return None
        files = {
            path: FileEntry(str(e["hash"]), dict(e["blocks"]), dict(e["hits"]))
            for path, e in raw["files"].items()
        }
        return TestMap(list(raw["tests"]), files, str(raw.get("python", "")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def merge(project: str, fragments: list[dict[str, Any]]) -> TestMap:
    """One map from the fragments of every pytest process, cut into blocks of the files as they are
    now."""
    tests: list[str] = []
    lines_by_file: dict[str, dict[int, set[int]]] = {}
    for fragment in fragments:
        offset = len(tests)
        tests.extend(fragment["tests"])
        for path, lines in fragment["files"].items():
            merged = lines_by_file.setdefault(path, {})
            for line, positions in lines.items():
                merged.setdefault(int(line), set()).update(offset + i for i in positions)
    result = TestMap(tests, python=platform.python_version())
    for path, lines in sorted(lines_by_file.items()):
        data = safepath.read_project_file(project, path)
        if data is None:
            continue
        try:
            blocks = blocks_of(data)
        except (SyntaxError, ValueError, RecursionError):
            continue
        hits: dict[str, set[int]] = {}
        for line, tests_at_line in lines.items():
            hits.setdefault(blocks.block_at(line), set()).update(tests_at_line)
        result.files[path] = FileEntry(
            content_hash(data),
            blocks.checksums,
            {name: sorted(ids) for name, ids in sorted(hits.items())},
        )
    return result


def save(project: str, test_map: TestMap) -> None:
    raw = {
        "version": VERSION,
        "python": test_map.python,
        "tests": test_map.tests,
        "files": {
            path: {"hash": e.hash, "blocks": e.blocks, "hits": e.hits}
            for path, e in test_map.files.items()
        },
    }
    workspace.atomic_write(map_path(project), json.dumps(raw, separators=(",", ":")))


def _check_coverage(python: str) -> None:
    fix = f"{python} -m pip install coverage  (or ./install.sh --dev in the sidekit checkout)"
    if os.path.abspath(python) == os.path.abspath(
        sys.executable
    ):  # not realpath: a venv links to its base
        from importlib.util import find_spec

        missing = find_spec("coverage") is None
    else:
        missing = (
            subprocess.run(
                launch.project_code(python, "import coverage"), capture_output=True
            ).returncode
            != 0
        )
    if missing:
        raise SidekitError(
            f"`sidekit map` needs coverage.py in {python}, and it is not installed", fix
        )


@dataclass(frozen=True)
class Recording:
    test_map: TestMap
    exit_code: int
    seconds: float


def record(project: str, pytest_args: list[str], python: str | None = None) -> Recording:
    """Run the suite once under the map plugin; write the map; pytest's own verdict is returned, not
    raised."""
    python = python or sys.executable
    _check_coverage(python)
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    fragments_dir = tempfile.mkdtemp(prefix="sidekit-map-")
    env = dict(os.environ, SIDEKIT_MAP_OUT=fragments_dir, SIDEKIT_MAP_ROOT=project)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH", "")) if p)
    started = time.monotonic()
    try:
        done = subprocess.run(
            launch.project_pytest(python, "-p", "sidekit_hooks.impact.map_plugin", *pytest_args),
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
        )
        seconds = time.monotonic() - started
        if done.returncode not in (0, 1):  # 0 passed, 1 some failed: both ran the tests
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-OUTPUT_TAIL:])
            raise SidekitError(
                f"pytest exited with {done.returncode}; no map was recorded:\n{tail}",
                "fix the run above, then: sidekit map [-- PYTEST_ARGS]",
            )
        fragments = []
        for name in sorted(os.listdir(fragments_dir)):
            if name.endswith(".json"):
                fragment = safepath.read_bytes(
                    safepath.check(os.path.join(fragments_dir, name)), safepath.MAX_STATE
                )
                fragments.append(json.loads(fragment))
    finally:
        shutil.rmtree(fragments_dir, ignore_errors=True)
    if not fragments:
        raise SidekitError(
            "pytest ran but the map plugin recorded nothing (was it disabled with -p no:...?)",
            "sidekit map -- PYTEST_ARGS without disabling plugins",
        )
    test_map = merge(project, fragments)
    save(project, test_map)
    save_covers(project, test_map, str(fragments[0].get("prefix", "")))
    return Recording(test_map, done.returncode, seconds)


def save_covers(project: str, test_map: TestMap, prefix: str = "") -> None:
    """The digest the tests sidecar reads: file -> the tests that execute it, written after the
    map."""
    hits = {
        path: [i for positions in entry.hits.values() for i in positions]
        for path, entry in test_map.files.items()
    }
    covers.save(project, covers.digest(test_map.tests, hits, prefix))
