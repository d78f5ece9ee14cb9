"""The tools sidecar's standard case: `utils/text.py` has slugify(), and an Edit writes new_slug(), a
near-copy of it, into `app/views.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SLUGIFY_FILE = '''\
import re
import unicodedata


def slugify(value):
    """Lower-case, ASCII, dash-separated."""
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    value = re.sub(r"[^\\w\\s-]", "", value).strip().lower()
    value = re.sub(r"[-\\s]+", "-", value)
    return value
'''
# slugify() renamed, without its docstring: the near-copy the sidecar must name.
NEW_SLUG = (
    SLUGIFY_FILE.split("\n\n\n", 1)[1]
    .replace('    """Lower-case, ASCII, dash-separated."""\n', "")
    .replace("slugify", "new_slug")
    .replace("value", "text")
)


VIEWS = "import re\nimport unicodedata\n"


def indexed_project(project: Path, views: str = VIEWS) -> Path:
    """`utils/text.py` with slugify() and `app/views.py` holding `views`, the function index built."""
    from sidekit_hooks.code import function_index

    (project / "utils").mkdir()
    (project / "utils" / "text.py").write_text(SLUGIFY_FILE)
    (project / "app").mkdir()
    (project / "app" / "views.py").write_text(views)
    assert function_index.main(["build", str(project)]) == 0
    return project


def new_slug_edit(project: Path) -> dict[str, Any]:
    """The PostToolUse payload of the Edit that writes new_slug() under the imports of `app/views.py`."""
    from testing.hooks import edited

    return edited(project, "app/views.py", "import unicodedata", "import unicodedata\n\n\n" + NEW_SLUG, VIEWS)
