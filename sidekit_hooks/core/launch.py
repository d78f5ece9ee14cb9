"""How sidekit starts a Python: never with the working directory (a repository) first on `sys.path`.

`python -m x` and `python -c ...` put the current folder first on `sys.path`; run in a project that
commits `sidekit_hooks/__init__.py`, `argparse.py` or `json.py`, they import the repository's code
instead of sidekit's or the standard library's. So:

- sidekit's own interpreter (Python >= 3.11, the package requires it) starts with `-P`
  (`safe_path`);
- a project's interpreter (any version; `-P` is unknown before 3.11) starts through `-c` code that
  first takes the working folder off the front of `sys.path` (`project_code`). `site` and
  `sitecustomize` are imported before that entry is added, so the folder's copies never load.

Standard library only: the hooks use it to start background workers.
"""

from __future__ import annotations

import sys

SAFE_PATH = "-P"  # Python 3.11+: no script folder / working folder on sys.path

# The first statement of every `-c` program sidekit gives a project's interpreter.
DROP_CWD = "import sys\nif sys.path and sys.path[0] in ('', '.'): del sys.path[0]\n"

# `python -m pytest` as the project runs it, minus the working folder in front of the standard
# library and sidekit: it joins at the end, so a test suite that imports its package from the root
# still does.
PYTEST_MAIN = (
    DROP_CWD + "import os, runpy\nsys.path.append(os.getcwd())\n"
    "runpy.run_module('pytest', run_name='__main__', alter_sys=True)\n"
)


def own_module(module: str, *args: str, isolated_site: bool = False) -> list[str]:
    """argv for `sidekit's python -P [-S] -m module args...`."""
    flags = [SAFE_PATH, "-S"] if isolated_site else [SAFE_PATH]
    return [sys.executable, *flags, "-m", module, *args]


def project_code(python: str, code: str, *args: str) -> list[str]:
    """argv for a project's interpreter running `code` without the working folder on sys.path."""
    return [python, "-c", DROP_CWD + code, *args]


def project_pytest(python: str, *args: str) -> list[str]:
    """argv for `python -m pytest args...` in the project's interpreter, the working folder last on
    the path."""
    return [python, "-c", PYTEST_MAIN, *args]
