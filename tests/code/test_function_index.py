"""The function index: extraction, normalization, incremental refresh, background build,
matching."""

from __future__ import annotations

import json
import os
import textwrap
import time
from pathlib import Path

import pytest
from labelled_functions import CASES

from sidekit_hooks.code import function_index, functions


def write(project: Path, rel: str, text: str) -> Path:
    path = project / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def node_of(source: str) -> functions.ast.FunctionDef:  # type: ignore[name-defined]
    node = functions.parse_function(textwrap.dedent(source).strip())
    assert node is not None
    return node


@pytest.mark.parametrize(
    ("existing", "added", "duplicate", "why"), CASES, ids=[c[3] for c in CASES]
)
def test_labelled_cases(existing: str, added: str, duplicate: bool, why: str) -> None:
    old = node_of(existing)
    sig = function_index.signature(old)
    tokens, outside = functions.analyze(old)
    index = {
        "files": {
            "lib/util.py": {"f": [[old.name, 3, sig, 6, " ".join(tokens), " ".join(outside)]]}
        }
    }
    new = node_of(added)
    new_tokens, new_outside = functions.analyze(new)
    match = functions.best_match(new.name, new_tokens, index, outside=new_outside)
    assert (match is not None) == duplicate, (why, match)
    if duplicate:
        assert match is not None and (match.path, match.line, match.name) == (
            "lib/util.py",
            3,
            old.name,
        )


def test_normalize_ignores_local_names_docstrings_and_formatting() -> None:
    one = node_of('''
        def total(items):
            """Sum of prices."""
            result = 0
            for item in items:
                result += item.price
            return result
    ''')
    two = node_of("""
        def add_up(rows):
            acc = 0
            for r in rows:  # every row
                acc  +=  r.price
            return acc
    """)
    assert functions.normalize(one) == functions.normalize(two)
    assert functions.normalize(one) == [
        "Assign",
        "v1",
        "0",
        "For",
        "v2",
        "v3",
        "AugAssign",
        "v1",
        "Add",
        "v2",
        ".price",
        "Return",
        "v1",
    ]


def test_tokens_never_hold_whitespace() -> None:
    node = node_of("def f(x):\n    return {'not found': 'a\\tb c', 'k': x}")
    assert functions.normalize(node) == ["Return", "Dict", "'not_found'", "'k'", "'a\\tb_c'", "v1"]


def test_signature_names_parameters_only() -> None:
    node = node_of("def f(a: int, /, b=2, *rest, key: str = 'x', **options) -> None:\n    pass")
    assert function_index.signature(node) == "f(a, b, *rest, key, **options)"
    assert function_index.signature(node_of("def g(*, only):\n    pass")) == "g(*, only)"


def test_extract_skips_tests_dunders_and_nested_functions() -> None:
    source = textwrap.dedent("""
        def helper(x):
            def inner():
                return x
            return inner

        def test_helper():
            assert helper(1)

        def __getattr__(name):
            raise AttributeError(name)

        class Thing:
            def method(self):
                return 1
    """)
    assert [entry[:4] for entry in function_index.extract(source)] == [
        ["helper", 2, "helper(x)", 4]
    ]
    assert (
        function_index.extract(
            "import json\n\ndef load(p):\n    return json.loads(open(p).read()) or load(p)\n"
        )[0][5]
        == "json"
    )
    assert function_index.extract("def broken(:\n") == []


def test_added_blocks_finds_functions_of_five_lines_or_more() -> None:
    added = textwrap.dedent("""
        import os

        def short(a):
            return a

        def longer(
            a,
            b,
        ):
            # a comment does not count
            c = a + b
            return c

        class K:
            async def method(self, x):
                y = x + 1
                z = y * 2
                w = z - 3
                return w
    """)
    blocks = functions.added_blocks(added)
    assert [name for name, _ in blocks] == ["longer", "method"]
    assert blocks[1][1].splitlines()[0] == "async def method(self, x):"
    assert functions.parse_function(blocks[1][1]) is not None


def test_build_reuses_unchanged_files_and_rereads_changed_ones(tmp_path: Path) -> None:
    write(tmp_path, "pkg/a.py", "def alpha(x):\n    return x\n")
    write(tmp_path, "pkg/b.py", "def beta(y):\n    return y\n")
    write(tmp_path, ".venv/lib/skip.py", "def vendored():\n    pass\n")
    write(tmp_path, "node_modules/x/skip.py", "def vendored():\n    pass\n")
    first = function_index.build(str(tmp_path))
    assert sorted(first["files"]) == ["pkg/a.py", "pkg/b.py"]
    first["files"]["pkg/a.py"]["f"][0][0] = "marker"  # proves the entry is reused, not re-parsed
    path = write(tmp_path, "pkg/b.py", "def beta(y):\n    return y + 1\n\ndef gamma():\n    pass\n")
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 5_000_000))
    second = function_index.build(str(tmp_path), first)
    assert second["files"]["pkg/a.py"]["f"][0][0] == "marker"
    assert [e[0] for e in second["files"]["pkg/b.py"]["f"]] == ["beta", "gamma"]


def test_refresh_writes_the_index_and_respects_the_lock(
    tmp_path: Path, sidekit_cache: Path
) -> None:
    write(tmp_path, "util.py", "def alpha(x):\n    return x\n")
    lock = Path(functions.lock_path(str(tmp_path)))
    assert lock.parent == sidekit_cache / "functions"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("999999")
    assert function_index.refresh(str(tmp_path)) is False
    assert functions.load(str(tmp_path)) is None
    old = time.time() - 600
    os.utime(lock, (old, old))  # a lock left by a dead worker is broken
    assert function_index.refresh(str(tmp_path)) is True
    index = functions.load(str(tmp_path))
    assert index is not None and index["files"]["util.py"]["f"][0][:3] == ["alpha", 1, "alpha(x)"]
    assert not lock.exists()
    assert (
        json.loads(Path(functions.index_path(str(tmp_path))).read_text())["version"]
        == functions.VERSION
    )
    assert not (
        tmp_path / ".sidekit"
    ).exists()  # the background refresh creates nothing in the project


def test_index_lives_in_the_project_only_when_its_folder_exists(
    tmp_path: Path, sidekit_cache: Path
) -> None:
    project = tmp_path / "my proj"
    write(project, "util.py", "def alpha(x):\n    return x\n")
    cached = Path(functions.index_path(str(project)))
    assert cached.parent == sidekit_cache / "functions" and cached.name.startswith("my_proj-")
    assert (
        function_index.main(["build", str(project)]) == 0
    )  # the foreground build makes .sidekit/index/
    assert (
        Path(functions.index_path(str(project)))
        == project / ".sidekit" / "index" / "functions.json"
    )
    assert function_index.refresh(str(project)) and functions.load(str(project)) is not None


def test_refresh_of_a_deleted_project_recreates_nothing(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    assert function_index.refresh(str(gone)) is False
    assert not gone.exists()


def test_prune_cache_drops_old_entries_and_those_of_deleted_projects(
    sidekit_cache: Path, tmp_path: Path
) -> None:
    folder = sidekit_cache / "functions"
    folder.mkdir(parents=True, exist_ok=True)
    live = tmp_path / "live"
    live.mkdir()
    entries = {
        "old": ({"project": str(live)}, functions.PRUNE_AFTER + 60),
        "orphan": ({"project": str(tmp_path / "deleted")}, functions.ORPHAN_AFTER + 60),
        "fresh-orphan": ({"project": str(tmp_path / "deleted")}, 10),
        "live": ({"project": str(live)}, functions.ORPHAN_AFTER + 60),
    }
    for name, (data, age) in entries.items():
        path = folder / f"{name}-00000000.json"
        path.write_text(json.dumps(data))
        os.utime(path, (time.time() - age, time.time() - age))
    assert function_index.prune_cache() == 2
    assert sorted(p.name for p in folder.glob("*-00000000.json")) == [
        "fresh-orphan-00000000.json",
        "live-00000000.json",
    ]


def test_load_rejects_corrupt_or_foreign_indexes(tmp_path: Path) -> None:
    path = Path(functions.index_path(str(tmp_path)))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    assert functions.load(str(tmp_path)) is None
    path.write_text('{"version": 0, "files": {}}')
    assert functions.load(str(tmp_path)) is None


def test_ensure_fresh_builds_in_the_background_without_waiting(
    tmp_path: Path, clean_env: dict[str, str]
) -> None:
    for i in range(200):
        write(tmp_path, f"pkg/m{i}.py", f"def f{i}(x):\n    y = x + {i}\n    return y\n")
    started = time.monotonic()
    assert functions.ensure_fresh(str(tmp_path), touched_python=False) is True
    spawned_in = time.monotonic() - started
    deadline = time.monotonic() + 30
    while functions.load(str(tmp_path)) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    index = functions.load(str(tmp_path))
    assert index is not None and len(index["files"]) == 200
    assert spawned_in < 0.2  # the caller only starts the worker
    # Fresh now: nothing is started for reads, or for a write soon after the build.
    assert functions.ensure_fresh(str(tmp_path), touched_python=False) is False
    assert functions.ensure_fresh(str(tmp_path), touched_python=True) is False


def test_still_defined_guards_against_a_stale_index(tmp_path: Path) -> None:
    write(tmp_path, "util.py", "def alpha(x):\n    return x\n")
    match = functions.Match("util.py", 1, "alpha(x)", "alpha", 1.0, 1.0)
    assert functions.still_defined(str(tmp_path), match)
    write(tmp_path, "util.py", "def beta(x):\n    return x\n")
    assert not functions.still_defined(str(tmp_path), match)


def test_defined_at_gives_the_line_the_helper_is_on_now(tmp_path: Path) -> None:
    write(tmp_path, "util.py", "def alpha(x):\n    return x\n")
    match = functions.Match("util.py", 1, "alpha(x)", "alpha", 1.0, 1.0)
    assert functions.defined_at(str(tmp_path), match) == 1
    write(
        tmp_path, "util.py", "def copy(x):\n    return x\n\n\ndef alpha(x):\n    return x\n"
    )  # added above it
    assert functions.defined_at(str(tmp_path), match) == 5
    write(tmp_path, "util.py", "class A:\n    async def alpha(self):\n        pass\n")
    assert functions.defined_at(str(tmp_path), match) == 2
    write(tmp_path, "util.py", "ALPHA = 'def alpha('\n")  # only in a string: not a definition
    assert functions.defined_at(str(tmp_path), match) is None


def test_name_words_split_styles_and_stem() -> None:
    assert functions.name_words("newSlug") == "new slug"
    assert functions.name_words("split_into_chunks") == "split into chunk"
    assert functions.name_words("slugify") == "slug"


def test_no_rapidfuzz_when_nothing_could_match(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = textwrap.dedent("""
        import sys
        from sidekit_hooks.code import functions
        old = functions.parse_function("def chunked(items, size):\\n    out = []\\n    for s in range(0, len(items), size):\\n        out.append(items[s:s + size])\\n    return out")
        index = {"files": {"u.py": {"f": [["chunked", 1, "chunked(items, size)", 5, " ".join(functions.normalize(old)), ""]]}}}
        new = functions.parse_function("def greet(name):\\n    text = 'hi ' + name\\n    text = text.title()\\n    print(text)\\n    return text")
        assert functions.best_match("greet", functions.normalize(new), index) is None
        print("rapidfuzz" in sys.modules)
    """)
    done = subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        cwd=str(Path(functions.__file__).parents[2]),
    )
    assert (done.returncode, done.stdout.strip()) == (0, "False"), done.stderr


def test_a_function_nested_too_deep_is_left_out_not_the_file() -> None:
    """Thousands of `+` in one expression: the tree builds, walking it would overflow the stack; the
    background build leaves that function out and indexes the rest, and a hook does not compare
    it."""
    from sidekit_hooks.code import function_index
    from sidekit_hooks.detectors.tools import reinvention

    plain = "def plain(a, b):\n    c = a + b\n    d = c * 2\n    e = d - 1\n    return e\n"
    deep = "def deep(x):\n    return " + " + ".join(["x"] * 2000) + "\n\n\n" + plain
    assert [entry[0] for entry in function_index.extract(deep)] == ["plain"]
    assert [node.name for node, *_rest in reinvention.added_functions(deep)] == ["plain"]
    too_deep = "def deeper(x):\n    return " + " + ".join(["x"] * 5000) + "\n"
    assert functions.parse(too_deep) is None and function_index.extract(too_deep) == []
