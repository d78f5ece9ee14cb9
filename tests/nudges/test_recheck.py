"""nudges/recheck.py: fixed, still or moot for each kind of recheck record."""

from __future__ import annotations

from pathlib import Path

import pytest

from sidekit_hooks.nudges.recheck import (
    ABSENT,
    FIXED,
    MOOT,
    STILL,
    again,
    line_digest,
    outcome,
    text_hash,
)

BEFORE = "def f():\n    return 1\n"
DIGEST = line_digest("x = g(status_code=400)")


@pytest.mark.parametrize(
    ("now", "record", "expected"),
    [
        (
            "    x = g(status_code=400)\n",
            {"kind": "match", "pattern": r"status_code=400", "digest": DIGEST},
            STILL,
        ),
        (
            "x = g(status_code=422)\n",
            {"kind": "match", "pattern": r"status_code=400", "digest": DIGEST},
            FIXED,
        ),
        (
            "y = 1  # status_code=400 elsewhere\n",
            {"kind": "match", "pattern": r"status_code=400", "digest": DIGEST},
            FIXED,
        ),
        (
            "y = 1  # status_code=400 elsewhere\n",
            {"kind": "match", "pattern": r"status_code=400"},
            STILL,
        ),
        (
            "class E:\n    schema_version: int\n",
            {"kind": "absent", "pattern": r"(?m)^\s+schema_version\s*:"},
            FIXED,
        ),
        (
            "class E:\n    name: str\n",
            {"kind": "absent", "pattern": r"(?m)^\s+schema_version\s*:"},
            STILL,
        ),
        ("def make_slug(v):\n    return v\n", {"kind": "def", "symbol": "make_slug"}, STILL),
        ("from util import slugify\n", {"kind": "def", "symbol": "make_slug"}, FIXED),
        (
            BEFORE,
            {"kind": "def", "symbol": "f", "before": text_hash(BEFORE.encode())},
            MOOT,
        ),  # reverted
        (None, {"kind": "def", "symbol": "f"}, MOOT),  # deleted
        ("changed\n", {"kind": "scope", "before": ABSENT}, STILL),
        (
            None,
            {"kind": "scope", "before": ABSENT},
            FIXED,
        ),  # a new out-of-scope file, removed again
        (BEFORE, {"kind": "scope", "before": text_hash(BEFORE.encode())}, FIXED),  # reverted
        (
            "def total(\n    items,\n) -> int:\n    return 0\n",
            {"kind": "hints", "symbol": "total"},
            STILL,
        ),
        (
            "class C:\n    def total(\n        self,\n        items: list[int],\n    ) -> int:\n  "
            "      return 0\n",
            {"kind": "hints", "symbol": "total"},
            FIXED,
        ),
        ("def other() -> None:\n    pass\n", {"kind": "hints", "symbol": "total"}, MOOT),
        ("def total(:\n", {"kind": "hints", "symbol": "total"}, ""),
        ("x\n", {"kind": "unknown"}, ""),
        ("x\n", {"kind": "match", "pattern": "(unclosed"}, ""),
    ],
)
def test_outcome(tmp_path: Path, now: str | None, record: dict[str, str], expected: str) -> None:
    if now is not None:
        (tmp_path / "a.py").write_text(now)
    assert outcome(str(tmp_path), {"path": "a.py", **record}) == expected


def test_a_path_that_leaves_the_project_is_never_read(tmp_path: Path) -> None:
    (tmp_path / "outside.py").write_text("def f():\n    pass\n")
    project = tmp_path / "proj"
    project.mkdir()
    (project / "link.py").symlink_to(tmp_path / "outside.py")
    assert outcome(str(project), {"kind": "def", "path": "../outside.py", "symbol": "f"}) == MOOT
    assert outcome(str(project), {"kind": "def", "path": "link.py", "symbol": "f"}) == MOOT


def test_a_helper_copy_is_moot_once_the_helper_it_copies_is_gone(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def make_slug(v):\n    return v\n")
    (tmp_path / "util.py").write_text("def slugify(v):\n    return v\n")
    record = {
        "kind": "def",
        "path": "a.py",
        "symbol": "make_slug",
        "other": "util.py",
        "other_symbol": "slugify",
    }
    assert outcome(str(tmp_path), record) == STILL
    (tmp_path / "util.py").write_text("def renamed(v):\n    return v\n")
    assert outcome(str(tmp_path), record) == MOOT
    (tmp_path / "util.py").unlink()
    assert outcome(str(tmp_path), record) == MOOT


def summary(generation: int, failing: list[str], more: int = 0) -> dict[str, object]:
    return {
        "format": 1,
        "generation": generation,
        "failing": len(failing) + more,
        "moreClusters": 0,
        "clusters": [{"id": "c1", "tests": failing}] if failing else [],
        "files": {},
    }


@pytest.mark.parametrize(
    ("now", "record", "expected"),
    [
        (summary(3, ["t.py::a"]), {"generation": "3", "tests": "t.py::a"}, STILL),  # the same run
        (
            summary(4, ["t.py::a", "t.py::b"]),
            {"generation": "3", "tests": "t.py::a"},
            STILL,
        ),  # still fails
        (summary(4, []), {"generation": "3", "tests": "t.py::a"}, FIXED),  # a green run since
        (
            summary(4, ["t.py::b"]),
            {"generation": "3", "tests": "t.py::a\nt.py::b"},
            MOOT,
        ),  # half of it
        (
            summary(4, ["t.py::a"]),
            {"generation": "3", "tests": ""},
            MOOT,
        ),  # a report of an older run
        (summary(3, ["t.py::a"]), {"generation": "3", "tests": ""}, STILL),
        (None, {"generation": "3", "tests": "t.py::a"}, ""),  # no cache: nothing to judge by
    ],
)
def test_a_tests_finding_is_judged_against_the_newest_run(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    now: dict[str, object] | None,
    record: dict[str, str],
    expected: str,
) -> None:
    import json

    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    if now is not None:
        (tmp_path / ".sidekit").mkdir()
        (tmp_path / ".sidekit" / "status.json").write_text(json.dumps(now))
    assert outcome(str(tmp_path), {"kind": "tests", "path": "src/a.py", **record}) == expected


def test_a_big_suite_reads_the_per_test_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(tmp_path))
    (tmp_path / ".sidekit").mkdir()
    (tmp_path / ".sidekit" / "status.json").write_text(json.dumps(summary(5, ["t.py::x"], more=1)))
    table = {
        "format": 1,
        "tests": {
            "t.py::a": {"o": "passed"},
            "t.py::x": {"o": "failed"},
            "t.py::y": {"o": "failed"},
        },
    }
    (tmp_path / ".sidekit" / "status-tests.json").write_text(json.dumps(table))
    assert outcome(str(tmp_path), {"kind": "tests", "generation": "4", "tests": "t.py::y"}) == STILL
    assert outcome(str(tmp_path), {"kind": "tests", "generation": "4", "tests": "t.py::a"}) == FIXED


COPY = {
    "kind": "def",
    "path": "a.py",
    "symbol": "make_slug",
    "other": "util.py",
    "other_symbol": "slugify",
    "other_line": "1",
    "at": "util.py",
    "again": "make_slug() copies slugify()",
}


@pytest.mark.parametrize(
    ("copy", "expected"),
    [
        ("def make_slug(v):\n    v = v.lower()\n    return v.strip()\n", STILL),
        ("def make_slug(v):\n    return slugify(v)\n", FIXED),  # replaced by a call to the helper
        (
            "def make_slug(\n    v,\n) -> str:\n    return util.slugify(v)\n",
            FIXED,
        ),  # a long signature, a module call
        (
            "def make_slug(v):\n    return v  # not slugify(v)\n\n\ndef other(v):\n    return "
            "slugify(v)\n",
            STILL,
        ),
        (
            "def make_slug(v):\n    return my_slugify(v)\n",
            STILL,
        ),  # another function's name ends the same
        ("def other(v):\n    return v\n", FIXED),  # the copy is gone
    ],
)
def test_a_helper_copy_is_fixed_once_it_calls_the_helper_or_is_gone(
    tmp_path: Path, copy: str, expected: str
) -> None:
    (tmp_path / "a.py").write_text(copy)
    (tmp_path / "util.py").write_text("def slugify(v):\n    return v\n")
    assert outcome(str(tmp_path), COPY) == expected


def test_a_copy_named_as_its_helper_is_fixed_only_by_a_qualified_call(tmp_path: Path) -> None:
    record = {**COPY, "symbol": "slugify"}
    (tmp_path / "util.py").write_text("def slugify(v):\n    return v\n")
    (tmp_path / "a.py").write_text(
        "def slugify(v):\n    return slugify(v[1:]) if v else v\n"
    )  # recursion
    assert outcome(str(tmp_path), record) == STILL
    (tmp_path / "a.py").write_text("def slugify(v):\n    return util.slugify(v)\n")
    assert outcome(str(tmp_path), record) == FIXED


def test_a_copy_reminder_names_the_line_the_helper_is_on_now(tmp_path: Path) -> None:
    (tmp_path / "util.py").write_text("def slugify(v):\n    return v\n")
    assert again(str(tmp_path), COPY) == "make_slug() copies slugify() (util.py:1)."
    (tmp_path / "util.py").write_text("import re\n\n\ndef slugify(v):\n    return v\n")
    assert again(str(tmp_path), COPY) == "make_slug() copies slugify() (util.py:4)."
    (tmp_path / "util.py").write_text("def renamed(v):\n    return v\n")
    assert again(str(tmp_path), COPY) == ""  # the helper is gone: nothing to remind of
    scope = {
        "kind": "scope",
        "path": "README.md",
        "again": "README.md, outside X-1's scope; tell the user.",
    }
    assert again(str(tmp_path), scope) == scope["again"]
