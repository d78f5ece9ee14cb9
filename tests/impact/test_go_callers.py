"""`sidekit tests-for FILE.go`: the package graph's test files, those that call a function the file
defines first (the budget keeps the likeliest), the others still listed or counted."""

from __future__ import annotations

import shutil
from pathlib import Path

from testing import requires
from testing.code import answer, commit_all, write

PACKAGE = {
    "go.mod": "module example.com/m\n\ngo 1.21\n",
    "p/x.go": "package p\n\nfunc X() int { return 1 }\n",
    "p/y.go": "package p\n\ntype T struct{}\n\nfunc (T) Size() int { return 2 }\n\nfunc Y() int { "
    "return X() }\n",
    "p/a_test.go": 'package p\n\nimport "testing"\n\nfunc TestA(t *testing.T) { _ = X() }\n',
    "p/b_test.go": 'package p\n\nimport "testing"\n\nfunc TestB(t *testing.T) { _ = T{}.Size() }\n',
    "p/c_test.go": 'package p\n\nimport "testing"\n\nfunc TestC(t *testing.T) { _ = Y() }\n',
}


def test_tests_for_lists_the_test_files_calling_the_file_first(project: Path) -> None:
    if not shutil.which("go"):
        requires.missing("go is needed for the Go package graph", "install Go from go.dev")
    write(project, PACKAGE)
    commit_all(project)
    found, size = answer(project, "tests-for", "p/y.go")
    assert found == {
        "runner": "go",
        "packages": 1,
        "files": ["p/b_test.go", "p/c_test.go", "p/a_test.go"],
        "basis": "imports",
    }
    assert size <= 100
    assert answer(project, "tests-for", "p/x.go")[0]["files"] == [
        "p/a_test.go",
        "p/b_test.go",
        "p/c_test.go",
    ]
