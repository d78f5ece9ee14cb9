from __future__ import annotations

import json
from pathlib import Path

from sidekit_hooks.impact.lastfailed import last_failed
from testing.code import write


def test_reads_the_status_table_and_pytest_cache_and_drops_what_is_gone(project: Path) -> None:
    write(project, {"tests/test_a.py": "", "tests/test_b.py": "", "tests/test_c.py": ""})
    (project / ".sidekit").mkdir()
    (project / ".sidekit" / "status-tests.json").write_text(
        json.dumps(
            {
                "format": 1,
                "tests": {
                    "tests/test_a.py::test_one": {"o": "failed", "d": 0.1},
                    "tests/test_a.py::test_two": {"o": "passed", "d": 0.1},
                    "tests/test_a.py::test_three": {"o": "error", "d": 0.1},
                    "tests/test_gone.py::test_x": {"o": "failed"},
                },
                "collect": {"tests/test_c.py": {"type": "ImportError"}},
            }
        )
    )
    cache = project / ".pytest_cache" / "v" / "cache"
    cache.mkdir(parents=True)
    (cache / "lastfailed").write_text(
        json.dumps({"tests/test_b.py::test_z": True, "tests/test_a.py::test_one": True})
    )
    assert last_failed(str(project)) == [
        "tests/test_a.py::test_one",
        "tests/test_a.py::test_three",
        "tests/test_b.py::test_z",
        "tests/test_c.py",
    ]


def test_corrupt_or_foreign_caches_give_nothing(project: Path) -> None:
    write(project, {"tests/test_a.py": ""})
    (project / ".sidekit").mkdir()
    (project / ".sidekit" / "status-tests.json").write_text("{not json")
    (project / ".sidekit" / "status.json").write_text(json.dumps({"tests": ["a", "list"]}))
    cache = project / ".pytest_cache" / "v" / "cache"
    cache.mkdir(parents=True)
    (cache / "lastfailed").write_text("[1, 2]")
    assert last_failed(str(project)) == []
