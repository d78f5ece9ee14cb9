from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sidekit_hooks.code.index import INDEX_FILE, Coverage, Index
from testing.code import write


def make(project: Path) -> None:
    write(
        project,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "def alpha():\n    return 1\n",
            "pkg/b.py": "from pkg.a import alpha\n\ndef beta():\n    return alpha()\n",
            "broken.py": "def nope(:\n",
            ".venv/lib/site.py": "def alpha():\n    pass\n",
            "node_modules/x.py": "alpha = 1\n",
        },
    )


def test_indexes_workspace_code_and_counts_unparsable_files(project: Path) -> None:
    make(project)
    with Index.open(str(project)) as index:
        assert index.coverage == Coverage(files=4, unparsable=1)
        assert [(s.path, s.qualname, s.line) for s in index.definitions("alpha")] == [
            ("pkg/a.py", "alpha", 1)
        ]
        assert index.references("alpha") == [("pkg/b.py", 1), ("pkg/b.py", 4)]
        assert index.modules()["pkg/b.py"] == "pkg.b"


def test_refresh_rereads_only_what_changed(project: Path) -> None:
    make(project)
    Index.open(str(project)).close()
    b = project / "pkg" / "b.py"
    b.write_text("from pkg.a import alpha\n\n\ndef beta():\n    return alpha() + alpha()\n")
    os.utime(project / "pkg" / "a.py")  # touched, same content: kept without a re-parse
    with Index.open(str(project)) as index:
        assert index.references("alpha") == [("pkg/b.py", 1), ("pkg/b.py", 5)]
        rows = index.db.execute(
            "SELECT count(*) FROM defs JOIN files ON files.id = defs.file WHERE path = 'pkg/a.py'"
        ).fetchone()
        assert rows == (1,)
    (project / "pkg" / "b.py").unlink()
    with Index.open(str(project)) as index:
        assert index.references("alpha") == []
        assert index.coverage == Coverage(files=3, unparsable=1)


def test_new_package_layout_renames_modules(project: Path) -> None:
    write(project, {"lib/mod.py": "X = 1\n"})
    with Index.open(str(project)) as index:
        assert index.modules() == {"lib/mod.py": "mod"}
    write(project, {"lib/__init__.py": ""})
    with Index.open(str(project)) as index:
        assert index.modules() == {"lib/__init__.py": "lib", "lib/mod.py": "lib.mod"}


def test_a_corrupt_index_is_rebuilt(project: Path) -> None:
    make(project)
    Index.open(str(project)).close()
    path = project / ".sidekit" / INDEX_FILE
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    path.write_bytes(b"this is not a database" * 100)
    with Index.open(str(project)) as index:
        assert index.coverage == Coverage(files=4, unparsable=1)
        assert len(index.definitions("beta")) == 1
    sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()


def test_unchanged_size_and_mtime_mean_no_read(project: Path) -> None:
    make(project)
    a = project / "pkg" / "a.py"
    then = (
        a.stat().st_mtime - 10
    )  # older than the racy window (a recent mtime is read again: test_fresh.py)
    os.utime(a, (then, then))
    Index.open(str(project)).close()
    before = a.stat()
    a.write_text("def alphx():\n    return 1\n")  # same size; mtime put back below
    os.utime(a, ns=(before.st_atime_ns, before.st_mtime_ns))
    with Index.open(str(project)) as index:
        assert len(index.definitions("alpha")) == 1  # not re-read: the stat said nothing moved


def test_concurrent_first_queries_agree_and_duplicate_nothing(project: Path) -> None:
    import subprocess
    import sys

    from testing.code import env_for

    write(
        project,
        {
            f"mod_{i}.py": f"from mod_{(i + 1) % 40} import f\n\ndef f():\n    return f()\n"
            for i in range(40)
        },
    )
    argv = [sys.executable, "-m", "sidekit_hooks.cli", "usages", "f", "--project", str(project)]
    running = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env_for(project))
        for _ in range(4)
    ]
    results = [
        (p.wait(timeout=60), p.stdout.read(), p.stderr.read())
        for p in running
        if p.stdout and p.stderr
    ]
    assert {(code, err) for code, _, err in results} == {(0, b"")}
    assert len({out for _, out, _ in results}) == 1
    with Index.open(str(project)) as index:
        assert len(index.references("f")) == 80  # each file: the import and the call, once
        assert index.db.execute("SELECT count(*) FROM files").fetchone() == (40,)
