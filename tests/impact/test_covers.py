"""The coverage digest `.sidekit/code/covers.json`: its encoding, and what a real `sidekit map`
writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.impact import covers
from testing import made_once
from testing.code import answer, write

# A helper that returns a wrong value (calc.half) raises nowhere: the failing tests' tracebacks end
# in fmt.py.
PROJECT = {
    "pytest.ini": "[pytest]\n",
    "pkg/__init__.py": "",
    "pkg/calc.py": "def half(n):\n    return n / 2\n",
    "pkg/fmt.py": "from pkg.calc import half\n\n\ndef show(n):\n    return "
    "'{:d}'.format(half(n))\n",
    "pkg/other.py": "def other():\n    return 1\n",
    "tests/__init__.py": "",
    "tests/test_calc.py": "from pkg.calc import half\n\n\ndef test_half_even():\n    assert "
    "half(4) == 2\n",
    "tests/test_fmt.py": (
        "import pytest\n\nfrom pkg.fmt import show\n\n\n"
        "@pytest.mark.parametrize('n', [2, 4, 6, 8])\ndef test_show(n):\n    assert show(n) == "
        "str(n // 2)\n"
    ),
    "tests/test_other.py": (
        "from pkg.other import other\n\n\ndef test_other_ok():\n    assert other() == 1\n\n\n"
        "def test_broken():\n    assert 1 == 2\n"
    ),
}
COVERS: dict[str, Any] = {
    "version": 1,
    "tests": [
        "tests/test_calc.py::test_half_even",
        "tests/test_fmt.py::test_show[2]",
        "tests/test_fmt.py::test_show[4]",
        "tests/test_fmt.py::test_show[6]",
        "tests/test_fmt.py::test_show[8]",
        "tests/test_other.py::test_other_ok",
    ],
    "files": {"pkg/calc.py": "0-4", "pkg/fmt.py": "1-4", "pkg/other.py": "5"},
}


@pytest.mark.parametrize(
    ("positions", "text"),
    [
        ([], ""),
        ([3], "3"),
        ([0, 1, 2, 3, 4, 7, 9, 10], "0-4,7,9-10"),
        ([10, 2, 3, 2], "2-3,10"),
    ],
)
def test_positions_encode_as_ranges_and_back(positions: list[int], text: str) -> None:
    assert covers.encode(positions) == text
    if positions:
        assert covers.decode(text) == sorted(set(positions))


@pytest.fixture(scope="module")
def mapped_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The project after a real `sidekit map`, and the map's answer: made once, read by the tests
    through copies (`mapped`)."""
    root = made_once.new_folder(tmp_path_factory, "mapped")
    write(root, PROJECT)
    with made_once.as_a_test_sees_it(tmp_path_factory):
        recorded, _ = answer(root, "map")
    return root, recorded


@pytest.fixture
def mapped(mapped_once: tuple[Path, dict[str, Any]], project: Path) -> tuple[Path, dict[str, Any]]:
    """This test's own copy of the mapped project, and the map's answer."""
    return made_once.copy_into(mapped_once[0], project), dict(mapped_once[1])


def test_map_writes_the_digest_next_to_the_map(mapped: tuple[Path, dict[str, Any]]) -> None:
    project, recorded = mapped
    assert recorded == {"tests": 7, "files": 6, "pytestExit": 1, "secs": recorded["secs"]}
    text = (project / ".sidekit" / "code" / "covers.json").read_text()
    assert text == json.dumps(COVERS, separators=(",", ":"))  # compact: one line, no spaces
    data = covers.read(str(project))
    assert covers.tests_covering(data, "pkg/calc.py") == COVERS["tests"][:5]
    assert covers.tests_covering(data, "pkg/other.py") == ["tests/test_other.py::test_other_ok"]
    assert (
        covers.tests_covering(data, "tests/test_fmt.py") == []
    )  # test modules are not in the digest
    assert covers.tests_covering(data, "pkg/unknown.py") == []


def test_ids_are_workspace_relative_when_pytest_runs_in_a_subfolder(project: Path) -> None:
    write(project, {f"svc/{path}": text for path, text in PROJECT.items()})
    answer(project, "map", "--", "svc")
    data = covers.read(str(project))
    assert data["tests"][0] == "svc/tests/test_calc.py::test_half_even"
    assert data["files"] == {f"svc/{path}": spans for path, spans in COVERS["files"].items()}


def test_a_new_map_replaces_the_digest(mapped: tuple[Path, dict[str, Any]]) -> None:
    project, _ = mapped
    write(project, {"tests/test_calc.py": "def test_nothing():\n    pass\n"})
    answer(project, "map", "--", "tests/test_calc.py")
    assert covers.read(str(project)) == {"version": 1, "tests": [], "files": {}}


@pytest.mark.parametrize(
    "text",
    [
        "{broken",
        "[]",
        '{"version": 2, "tests": [], "files": {}}',
        '{"version": 1, "tests": {}, "files": {}}',
        "\udcff",
    ],
)
def test_an_unusable_digest_reads_as_none(project: Path, text: str) -> None:
    path = project / ".sidekit" / "code" / "covers.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert covers.read(str(project)) == {}


@pytest.mark.parametrize("spans", ["0-x", "", 5, "0,9"])
def test_a_malformed_entry_names_only_tests_that_exist(spans: object) -> None:
    data = {"version": 1, "tests": ["t.py::a"], "files": {"a.py": spans}}
    assert covers.tests_covering(data, "a.py") == (["t.py::a"] if spans == "0,9" else [])


def test_covering_among_finds_candidates_by_binary_search() -> None:
    data = {
        "version": 1,
        "tests": ["a.py::t0", "a.py::t1", "b.py::t2", "b.py::t3", "c.py::t4"],
        "files": {"m.py": "0,2-3", "bad.py": "1-x"},
    }
    candidates = ["c.py::t4", "b.py::t3", "a.py::t0", "a.py::t1", "z.py::gone", "b.py::t2"]
    assert covers.covering_among(data, "m.py", candidates) == ["b.py::t3", "a.py::t0", "b.py::t2"]
    assert covers.covering_among(data, "bad.py", candidates) == []
    assert covers.covering_among(data, "other.py", candidates) == []
    assert covers.covering_among({}, "m.py", candidates) == []
