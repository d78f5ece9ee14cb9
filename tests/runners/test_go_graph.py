"""Go's package graph: `tests-for`, `select` and `test --select` pick the packages whose tests link
a file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from realproj import env_for, git_init, need, sidekit

pytestmark = pytest.mark.slow

FILES = {
    "go.mod": "module example.com/m\n\ngo 1.21\n",
    "a/a.go": "package a\n\nfunc A() int { return 1 }\n",
    "a/a_test.go": 'package a\n\nimport "testing"\n\nfunc TestA(t *testing.T) { _ = A() }\n',
    "b/b.go": 'package b\n\nimport "example.com/m/a"\n\nfunc B() int { return a.A() + 1 }\n',
    "b/b_test.go": 'package b\n\nimport "testing"\n\nfunc TestB(t *testing.T) { _ = B() }\n',
    "c/c.go": "package c\n\nfunc C() int { return 3 }\n",
    "c/c_test.go": 'package c\n\nimport "testing"\n\nfunc TestC(t *testing.T) { _ = C() }\n',
}


@pytest.fixture
def module(tmp_path: Path) -> Path:
    need("go")
    root = tmp_path / "m"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git_init(root)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(
        [
            "git",
            "-C",
            str(root),
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "init",
        ],
        check=True,
    )
    return root


def test_tests_for_a_file_are_the_packages_whose_tests_link_it(module: Path) -> None:
    env = env_for(module)
    assert sidekit(module, env, "tests-for", "a/a.go")[0] == {
        "runner": "go",
        "packages": 2,
        "basis": "imports",
        "files": ["a/a_test.go", "b/b_test.go"],
    }
    assert sidekit(module, env, "tests-for", "c/c_test.go")[0] == {
        "runner": "go",
        "packages": 1,
        "basis": "imports",
        "files": ["c/c_test.go"],
    }


def test_select_and_test_select_follow_the_change(module: Path) -> None:
    env = env_for(module, GOFLAGS="-count=1")
    (module / "a" / "a.go").write_text("package a\n\nfunc A() int { return 2 }\n")
    assert sidekit(module, env, "select")[0] == {
        "runner": "go",
        "changed": 1,
        "packages": 2,
        "basis": "imports",
        "files": ["./a", "./b"],
    }
    found, code = sidekit(module, env, "test", "--select")
    assert (code, found["runner"], found["selected"], found["basis"], found["passed"]) == (
        0,
        "go",
        2,
        "imports",
        2,
    )
    (module / "go.mod").write_text(FILES["go.mod"] + "\n")
    assert json.dumps(sidekit(module, env, "select")[0]) == json.dumps(
        {
            "runner": "go",
            "changed": 2,
            "basis": "all",
            "why": "go.mod or go.sum changed: every package",
        }
    )
