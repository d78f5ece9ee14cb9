"""A repository that plants code where sidekit might run it: modules named like sidekit's package or
the standard library's, at its root and under src/, each leaving a marker file when imported."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

# Names a Python started in the repository would import from its folder before the standard
# library's.
STANDARD_NAMES = (
    "argparse.py",
    "json.py",
    "site.py",
    "sitecustomize.py",
    "usercustomize.py",
    "pytest.py",
    "runpy.py",
)


def plant(project: Path, markers: Path, modules: Iterable[str]) -> None:
    """Each module, at the root and under src/, writes markers/<where>-<module> when imported."""
    for where in ("", "src/"):
        for module in modules:
            path = project / where / module
            path.parent.mkdir(parents=True, exist_ok=True)
            name = f"{where or 'root/'}{module}".replace("/", "-")
            path.write_text(f"open({str(markers / name)!r}, 'w').close()\n")
