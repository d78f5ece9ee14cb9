"""Test impact on a fixture repo with planted bugs: the selection catches every failure the full
suite shows (recall 100%) and is smaller than the suite, with the map and with imports only."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.impact.selection import selection
from testing.code import answer, answer_in_process, commit_all, env_for, git, sidekit, write

REPO_FILES = {
    "pkg/__init__.py": "",
    "pkg/calc.py": """
        def add(a, b):
            return a + b


        def mul(a, b):
            return a * b
        """,
    "pkg/config.py": "RATE = 0.25\n",
    "scripts/tool.py": "def main():\n    return 0\n",
    "pkg/tax.py": """
        from pkg import config


        def tax(amount):
            return amount * config.RATE
        """,
    "pkg/shapes.py": """
        class Square:
            def __init__(self, side):
                self.side = side

            def area(self):
                return self.side * self.side

            def perimeter(self):
                return 4 * self.side
        """,
    "tests/test_calc.py": """
        import pytest
        from pkg.calc import add, mul


        @pytest.mark.parametrize("a, b, total", [(1, 2, 3), (0, 0, 0), (-1, 1, 0)])
        def test_add(a, b, total):
            assert add(a, b) == total


        @pytest.mark.parametrize("a, b, product", [(2, 3, 6), (0, 5, 0), (-1, 4, -4)])
        def test_mul(a, b, product):
            assert mul(a, b) == product
        """,
    "tests/test_tax.py": """
        from pkg.tax import tax


        def test_tax_hundred():
            assert tax(100) == 25.0


        def test_tax_zero():
            assert tax(0) == 0


        def test_tax_four():
            assert tax(4) == 1.0
        """,
    "tests/test_shapes.py": """
        from pkg.shapes import Square


        def test_area_two():
            assert Square(2).area() == 4


        def test_area_three():
            assert Square(3).area() == 9


        def test_perimeter_two():
            assert Square(2).perimeter() == 8


        def test_perimeter_three():
            assert Square(3).perimeter() == 12
        """,
    "tests/db/conftest.py": """
        import pytest


        @pytest.fixture
        def store():
            return {"k": 1}
        """,
    "tests/db/test_store.py": """
        def test_has_key(store):
            assert "k" in store


        def test_value(store):
            assert store["k"] == 1


        def test_size(store):
            assert len(store) == 1
        """,
    "tests/test_misc.py": """
        def test_upper():
            assert "a".upper() == "A"


        def test_join():
            assert "-".join("ab") == "a-b"
        """,
}

# name -> (file, old text, new text): each breaks some tests and leaves the rest passing.
PLANTED = {
    "function body": ("pkg/calc.py", "return a + b", "return a - b"),
    "module constant": ("pkg/config.py", "RATE = 0.25", "RATE = 0.3"),
    "method body": ("pkg/shapes.py", "return 4 * self.side", "return 3 * self.side"),
    "fixture body": ("tests/db/conftest.py", 'return {"k": 1}', 'return {"k": 2}'),
    "test file": ("tests/test_misc.py", '== "a-b"', '== "a+b"'),
    "renamed function": ("pkg/calc.py", "def mul(a, b):", "def multiply(a, b):"),
}
SUITE_SIZE = 18


def pytest_run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:randomly", *args],
        cwd=root,
        env=env_for(root),
        capture_output=True,
        text=True,
        timeout=120,
    )


def full_run(root: Path) -> tuple[set[str], set[str]]:
    """(every test that ran, those that failed or errored: node ids, or files for collection
    errors)."""
    done = pytest_run(root, "-rA")
    outcomes = re.findall(r"^(PASSED|FAILED|ERROR) (\S+)", done.stdout, re.MULTILINE)
    return {test for _, test in outcomes if "::" in test}, {
        test for word, test in outcomes if word != "PASSED"
    }


def failing(root: Path) -> set[str]:
    return full_run(root)[1]


def covers(selected: list[str], test: str) -> bool:
    return any(
        test == entry or test.startswith(entry + "::") or test.split("::")[0] == entry
        for entry in selected
    )


@pytest.fixture(scope="module")
def mapped_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("impact") / "repo"
    root.mkdir()
    write(root, REPO_FILES)
    commit_all(root)
    recorded, _ = answer(root, "map")
    # Files where some test executed a line: pkg/config.py runs only at import, so it is not one of
    # them.
    assert recorded == {"tests": SUITE_SIZE, "files": 9, "secs": recorded["secs"]}
    return root


def copy_of(root: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(root, copy, symlinks=True)
    return copy


def test_map_records_which_test_runs_which_block(
    mapped_repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def ask(*args: str) -> dict[str, Any]:
        """The map's content by the CLI's main in this process (`answer` below is the real entry
        point, once)."""
        return answer_in_process(monkeypatch, capsys, mapped_repo, *args)[0]

    assert answer(mapped_repo, "tests-for", "pkg/shapes.py")[0] == {
        "tests": 4,
        "files": ["tests/test_shapes.py"],
        "basis": "map",
    }
    assert ask("blast-radius", "pkg/shapes.py:Square.perimeter") == {
        "tests": 2,
        "callers": ["tests/test_shapes.py"],
        "testFiles": ["tests/test_shapes.py"],
        "basis": "map",
        "searched": 12,
    }
    assert ask("blast-radius", "pkg/calc.py:add") == {
        "tests": 3,
        "callers": ["tests/test_calc.py"],
        "testFiles": ["tests/test_calc.py"],
        "basis": "map",
        "searched": 12,
    }
    assert ask("blast-radius", "pkg/config.py") == {
        "importers": ["pkg/tax.py"],
        "testFiles": ["tests/test_tax.py"],
        "basis": "map",
        "searched": 12,
    }
    # No test executes config.py (it runs at import), but tax.py reads its constant: the import
    # graph knows.
    assert ask("tests-for", "pkg/config.py") == {
        "files": ["tests/test_tax.py"],
        "basis": "map",
    }
    assert ask("tests-for", "pkg/__init__.py") == {
        "files": ["tests/test_calc.py", "tests/test_shapes.py", "tests/test_tax.py"],
        "basis": "map",
    }
    assert ask("tests-for", "scripts/tool.py") == {
        "files": 0,
        "basis": "map",
    }
    assert ask("select") == {
        "tests": 0,
        "ofFiles": 5,
        "basis": "map",
    }


@pytest.mark.parametrize("bug", sorted(PLANTED))
def test_selection_catches_every_failure_of_a_planted_bug(
    bug: str, mapped_repo: Path, tmp_path: Path
) -> None:
    root = copy_of(mapped_repo, tmp_path)
    path, old, new = PLANTED[bug]
    source = root / path
    assert old in source.read_text()
    source.write_text(source.read_text().replace(old, new))
    suite, broken = full_run(root)
    assert broken, "the planted bug must break something"
    for basis in ("map", "imports"):
        if basis == "imports":
            (root / ".sidekit" / "code" / "map.json").unlink()
        chosen = selection(str(root), None)
        assert chosen.basis == basis
        assert chosen.changed == [path]
        missed = [test for test in broken if not covers(chosen.tests, test)]
        assert missed == [], f"{basis} selection {chosen.tests} misses {missed}"
        # A whole file counts as its tests, or as one when it no longer collects (the renamed
        # import).
        size = sum(
            1 if "::" in entry else max(1, sum(t.startswith(entry + "::") for t in suite))
            for entry in chosen.tests
        )
        assert 0 < size < SUITE_SIZE, (
            f"{basis} selection {chosen.tests} is not smaller than the suite"
        )


def test_last_failed_tests_are_selected_after_the_fix(mapped_repo: Path, tmp_path: Path) -> None:
    root = copy_of(mapped_repo, tmp_path)
    source = root / "pkg" / "calc.py"
    source.write_text(source.read_text().replace("return a + b", "return a - b"))
    assert failing(root) == {
        "tests/test_calc.py::test_add[1-2-3]",
        "tests/test_calc.py::test_add[-1-1-0]",
    }
    git(root, "checkout", "--", "pkg/calc.py")
    chosen = selection(str(root), None)
    assert chosen.tests == [
        "tests/test_calc.py::test_add[-1-1-0]",
        "tests/test_calc.py::test_add[1-2-3]",
    ]
    assert (chosen.basis, chosen.last_failed, chosen.changed) == ("map", 2, [])
    assert answer(root, "select")[0] == {
        "tests": 2,
        "files": ["tests/test_calc.py"],
        "ofFiles": 5,
        "basis": "map",
        "lastFailed": 2,
    }


def test_changes_since_a_base_revision(mapped_repo: Path, tmp_path: Path) -> None:
    root = copy_of(mapped_repo, tmp_path)
    (root / ".sidekit" / "code" / "map.json").unlink()
    source = root / "pkg" / "shapes.py"
    source.write_text(source.read_text().replace("4 * self.side", "self.side * 4"))
    git(root, "commit", "-qam", "perimeter")
    assert selection(str(root), None).tests == []  # the working tree is clean
    assert selection(str(root), "HEAD~1").tests == ["tests/test_shapes.py"]
    assert answer(root, "select", "--base", "HEAD~1")[0] == {
        "tests": 1,
        "files": ["tests/test_shapes.py"],
        "ofFiles": 5,
        "basis": "imports",
        "changed": 1,
    }
    done = sidekit(root, "select", "--base", "no-such-rev", check=False)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "sidekit: --base no-such-rev is not a commit of a git repository here\n  fix: git log "
        "--oneline -5\n"
    )


def test_commits_since_the_map_count_without_git_diff(mapped_repo: Path, tmp_path: Path) -> None:
    root = copy_of(mapped_repo, tmp_path)
    source = root / "pkg" / "shapes.py"
    source.write_text(source.read_text().replace("self.side * self.side", "self.side ** 2"))
    git(root, "commit", "-qam", "area")  # committed: git sees no change against HEAD, the map does
    chosen = selection(str(root), None)
    assert chosen.tests == [
        "tests/test_shapes.py::test_area_three",
        "tests/test_shapes.py::test_area_two",
    ]


def test_a_changed_config_file_selects_the_whole_suite_and_says_why(
    mapped_repo: Path, tmp_path: Path
) -> None:
    root = copy_of(mapped_repo, tmp_path)
    (root / "pytest.ini").write_text("[pytest]\naddopts = -x\n")
    (root / "NOTES.md").write_text("docs never select anything\n")
    assert answer(root, "select")[0] == {
        "tests": 5,
        "files": ["tests/db/test_store.py", "tests/test_calc.py"],
        "moreFiles": 3,
        "ofFiles": 5,
        "basis": "all",
        "why": "pytest.ini changed",
        "changed": 1,
    }


def test_select_right_after_install_ignores_the_files_sidekit_wrote(
    mapped_repo: Path, tmp_path: Path
) -> None:
    root = copy_of(mapped_repo, tmp_path)
    sidekit(
        root, "install", "--project", str(root), "--claude-md"
    )  # .claude/settings.json, .gitignore, CLAUDE.md
    (root / ".mcp.json").write_text("{}\n")
    assert (root / ".claude" / "settings.json").exists()
    assert answer(root, "select")[0] == {"tests": 0, "ofFiles": 5, "basis": "map"}


def test_select_answer_fits_150_bytes_with_many_long_test_paths(project: Path) -> None:
    deep = "/".join(f"a_rather_long_test_folder_{level}" for level in range(5))
    write(
        project,
        {
            f"{deep}/test_module_with_a_long_name_{i}.py": "def test_x():\n    pass\n"
            for i in range(40)
        },
    )
    commit_all(project)
    for i in range(40):
        (project / deep / f"test_module_with_a_long_name_{i}.py").write_text(
            "def test_x():\n    assert 1\n"
        )
    (project / "setup.cfg").write_text("[tool:pytest]\n")
    found, size = answer(project, "select")
    assert size <= 150
    assert found["tests"] == 40 and len(found["files"]) + found["moreFiles"] == 40


def test_a_moved_module_selects_the_tests_of_its_old_importers(
    mapped_repo: Path, tmp_path: Path
) -> None:
    root = copy_of(mapped_repo, tmp_path)
    (root / ".sidekit" / "code" / "map.json").unlink()  # git alone must see the old path
    git(root, "mv", "pkg/shapes.py", "pkg/geometry.py")
    suite, broken = full_run(root)
    assert broken == {"tests/test_shapes.py"}  # it no longer imports
    chosen = selection(str(root), None)
    assert chosen.changed == ["pkg/geometry.py", "pkg/shapes.py"]
    assert chosen.tests == ["tests/test_shapes.py"]
