"""tests-for, blast-radius and map through the real command: budgets, errors, xdist."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from testing.code import answer, commit_all, env_for, sidekit, write

DEEP = "/".join(f"a_rather_long_folder_name_{level}" for level in range(5))


def many_long_tests(project: Path, count: int) -> None:
    files = {f"{DEEP}/core_module_with_a_long_name.py": "def shared_helper():\n    return 1\n"}
    for i in range(count):
        files[f"{DEEP}/tests/test_module_with_a_long_name_{i:02}.py"] = (
            f"from core_module_with_a_long_name import shared_helper\n\n"
            f"def test_{i}():\n    assert shared_helper() == 1\n"
        )
        files[f"{DEEP}/user_module_with_a_long_name_{i:02}.py"] = (
            "from core_module_with_a_long_name import shared_helper\n\nVALUE = shared_helper()\n"
        )
    write(project, files)


def test_tests_for_fits_100_bytes_with_many_long_test_paths(project: Path) -> None:
    many_long_tests(project, 30)
    found, size = answer(project, "tests-for", f"{DEEP}/core_module_with_a_long_name.py")
    assert size <= 100
    assert found["basis"] == "imports" and len(found["files"]) + found["more"] == 30


def test_blast_radius_fits_200_bytes_with_many_long_paths(project: Path) -> None:
    many_long_tests(project, 30)
    found, size = answer(
        project, "blast-radius", f"{DEEP}/core_module_with_a_long_name.py:shared_helper"
    )
    assert size <= 200
    assert found["callers"] == ["…/test_module_with_a_long_name_00.py"]
    assert found["callersMore"] == 59 and len(found["testFiles"]) + found["testFilesMore"] == 30


def test_map_under_xdist_merges_every_worker(project: Path) -> None:
    write(
        project,
        {
            "lib.py": "def one():\n    return 1\n\n\ndef two():\n    return 2\n",
            **{
                f"tests/test_{i}.py": f"from lib import one, two\n\ndef test_one_{i}():\n    "
                "assert one() == 1\n\n"
                f"def test_two_{i}():\n    assert two() == 2\n"
                for i in range(4)
            },
        },
    )
    recorded, _ = answer(project, "map", "--", "-p", "xdist", "-n", "2")
    assert (recorded["tests"], recorded["files"]) == (8, 5)
    data = json.loads((project / ".sidekit" / "code" / "map.json").read_text())
    hits = data["files"]["lib.py"]["hits"]
    assert sorted(data["tests"][i] for i in hits["two"]) == [
        f"tests/test_{i}.py::test_two_{i}" for i in range(4)
    ]
    assert answer(project, "blast-radius", "lib.py:one")[0] == {
        "tests": 4,
        "callers": ["tests/test_0.py", "tests/test_1.py", "tests/test_2.py", "tests/test_3.py"],
        "testFiles": ["tests/test_0.py", "tests/test_1.py"],
        "testFilesMore": 2,
        "basis": "map",
        "searched": 5,
    }


def test_map_without_coverage_says_how_to_install_it(project: Path, tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")], check=True
    )
    python = str(tmp_path / "bare" / "bin" / "python")
    write(project, {"tests/test_a.py": "def test_a():\n    pass\n"})
    done = sidekit(project, "map", "--python", python, check=False)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"sidekit: `sidekit map` needs coverage.py in {python}, and it is not installed\n"
        f"  fix: {python} -m pip install coverage  (or ./install.sh --dev in the sidekit "
        "checkout)\n"
    )
    assert not (project / ".sidekit" / "code" / "map.json").exists()


def test_map_reports_a_broken_run_and_keeps_the_old_map(project: Path) -> None:
    write(project, {"tests/test_a.py": "def test_a():\n    pass\n"})
    answer(project, "map")
    before = (project / ".sidekit" / "code" / "map.json").read_text()
    done = sidekit(project, "map", "--", "--no-such-option", check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("sidekit: pytest exited with 4; no map was recorded:\n")
    assert done.stderr.endswith("  fix: fix the run above, then: sidekit map [-- PYTEST_ARGS]\n")
    assert (project / ".sidekit" / "code" / "map.json").read_text() == before


def test_bad_targets_get_a_clear_error(project: Path) -> None:
    write(project, {"pkg/mod.py": "def real():\n    pass\n"})
    done = sidekit(project, "blast-radius", "pkg/mod.py:imaginary", check=False)
    assert (done.returncode, done.stderr) == (
        1,
        "sidekit: pkg/mod.py defines no imaginary (it defines real, ...)\n  fix: sidekit symbol "
        "imaginary\n",
    )
    done = sidekit(project, "tests-for", "pkg/missing.py", check=False)
    assert (done.returncode, done.stderr) == (
        1,
        "sidekit: pkg/missing.py does not exist\n"
        "  fix: check the path: sidekit symbol NAME finds a file by what it defines\n",
    )
    done = sidekit(project, "tests-for", "../elsewhere.py", check=False)
    assert done.returncode == 1 and "is not a Python file inside the workspace" in done.stderr


def test_select_outside_git_without_a_map_runs_everything_and_says_why(project: Path) -> None:
    write(
        project,
        {
            "tests/test_a.py": "def test_a():\n    pass\n",
            "tests/test_b.py": "def test_b():\n    pass\n",
        },
    )
    assert answer(project, "select")[0] == {
        "tests": 2,
        "files": ["tests/test_a.py", "tests/test_b.py"],
        "ofFiles": 2,
        "basis": "all",
        "why": "no git repository and no map: changes cannot be seen",
    }
    commit_all(project)
    assert answer(project, "select")[0] == {"tests": 0, "ofFiles": 2, "basis": "imports"}


def test_map_forces_a_settrace_core_even_when_sysmon_is_asked_for(project: Path) -> None:
    """Python 3.12+'s sys.monitoring core credits a shared line to the first test only
    (coveragepy#2200)."""
    write(
        project,
        {
            "lib.py": "def shared():\n    return 1\n",
            "tests/conftest.py": """
            def pytest_sessionfinish(session):
                recorder = session.config.pluginmanager.get_plugin("sidekit-map-recorder")
                with open("core.txt", "w") as handle:
                    handle.write(recorder.cov.config.core)
            """,
            "tests/test_a.py": "from lib import shared\n\ndef test_a():\n    assert shared() == "
            "1\n",
            "tests/test_b.py": "from lib import shared\n\ndef test_b():\n    assert shared() == "
            "1\n",
        },
    )
    done = subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", "map", "--project", str(project)],
        cwd=project,
        env={**env_for(project), "COVERAGE_CORE": "sysmon"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (project / "core.txt").read_text() in ("ctrace", "pytrace")
    data = json.loads((project / ".sidekit" / "code" / "map.json").read_text())
    assert sorted(data["tests"][i] for i in data["files"]["lib.py"]["hits"]["shared"]) == [
        "tests/test_a.py::test_a",
        "tests/test_b.py::test_b",
    ]
