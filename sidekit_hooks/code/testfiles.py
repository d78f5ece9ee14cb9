"""Which files are tests, the way pytest finds them by default (`test_*.py`, `*_test.py`,
conftest)."""

from __future__ import annotations


def is_test_file(path: str) -> bool:
    """A module pytest collects tests from by default."""
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def is_conftest(path: str) -> bool:
    return path.rsplit("/", 1)[-1] == "conftest.py"


def is_test_path(path: str) -> bool:
    """Test code of any kind: test modules, conftest files, anything under a tests/ folder."""
    return (
        is_test_file(path)
        or is_conftest(path)
        or "/tests/" in f"/{path}".replace("/test/", "/tests/")
    )


def test_file_of(node_id: str) -> str:
    """`tests/test_a.py::TestX::test_y[1]` -> `tests/test_a.py`."""
    return node_id.split("::", 1)[0]
