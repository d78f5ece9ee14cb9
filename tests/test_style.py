"""House style that a formatter cannot enforce alone: long lines stay rare (ruff formats; a long
string stays whole)."""

from __future__ import annotations

from pathlib import Path

from testing.hooks import REPO

LIMIT = 100  # characters, as [tool.ruff] line-length
# At most this share of the package's lines may run longer (a URL, a message kept whole).
SHARE = 0.004


def long_lines(root: Path) -> tuple[list[str], int]:
    found, total = [], 0
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            total += 1
            if len(line) > LIMIT:
                found.append(f"{path.relative_to(root.parent)}:{number}")
    return found, total


def test_few_package_lines_run_over_the_limit() -> None:
    found, total = long_lines(REPO / "sidekit_hooks")
    assert total > 1000 and len(found) <= SHARE * total, found


def test_the_check_counts_a_long_line(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("x = 1\n" + "y = '" + "z" * LIMIT + "'\n")
    assert long_lines(package) == (["pkg/a.py:2"], 2)
