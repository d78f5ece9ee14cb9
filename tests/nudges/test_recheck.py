"""nudges/recheck.py: fixed, still or moot for each kind of recheck record."""

from __future__ import annotations

from pathlib import Path

import pytest

from sidekit_hooks.nudges.recheck import ABSENT, FIXED, MOOT, STILL, line_digest, outcome, text_hash

BEFORE = "def f():\n    return 1\n"
DIGEST = line_digest("x = g(status_code=400)")


@pytest.mark.parametrize(("now", "record", "expected"), [
    ("    x = g(status_code=400)\n", {"kind": "match", "pattern": r"status_code=400", "digest": DIGEST}, STILL),
    ("x = g(status_code=422)\n", {"kind": "match", "pattern": r"status_code=400", "digest": DIGEST}, FIXED),
    ("y = 1  # status_code=400 elsewhere\n", {"kind": "match", "pattern": r"status_code=400", "digest": DIGEST}, FIXED),
    ("y = 1  # status_code=400 elsewhere\n", {"kind": "match", "pattern": r"status_code=400"}, STILL),
    ("class E:\n    schema_version: int\n", {"kind": "absent", "pattern": r"(?m)^\s+schema_version\s*:"}, FIXED),
    ("class E:\n    name: str\n", {"kind": "absent", "pattern": r"(?m)^\s+schema_version\s*:"}, STILL),
    ("def make_slug(v):\n    return v\n", {"kind": "def", "symbol": "make_slug"}, STILL),
    ("from util import slugify\n", {"kind": "def", "symbol": "make_slug"}, FIXED),
    (BEFORE, {"kind": "def", "symbol": "f", "before": text_hash(BEFORE.encode())}, MOOT),  # reverted
    (None, {"kind": "def", "symbol": "f"}, MOOT),  # deleted
    ("changed\n", {"kind": "scope", "before": ABSENT}, STILL),
    (None, {"kind": "scope", "before": ABSENT}, FIXED),  # a new out-of-scope file, removed again
    (BEFORE, {"kind": "scope", "before": text_hash(BEFORE.encode())}, FIXED),  # reverted
    ("def total(\n    items,\n) -> int:\n    return 0\n", {"kind": "hints", "symbol": "total"}, STILL),
    ("class C:\n    def total(\n        self,\n        items: list[int],\n    ) -> int:\n        return 0\n",
     {"kind": "hints", "symbol": "total"}, FIXED),
    ("def other() -> None:\n    pass\n", {"kind": "hints", "symbol": "total"}, MOOT),
    ("def total(:\n", {"kind": "hints", "symbol": "total"}, ""),
    ("x\n", {"kind": "unknown"}, ""),
    ("x\n", {"kind": "match", "pattern": "(unclosed"}, ""),
])
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
