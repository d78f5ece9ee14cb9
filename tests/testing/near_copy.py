"""A helper and a renamed copy of it, as an agent writes one: the pair the tools sidecar must name
("slugify(value) already does this; reuse it instead of new_slug()")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SLUGIFY = '''\
import re
import unicodedata


def slugify(value):
    """Lower-case, ASCII, dash-separated."""
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    value = re.sub(r"[^\\w\\s-]", "", value).strip().lower()
    value = re.sub(r"[-\\s]+", "-", value)
    return value
'''  # utils/text.py: slugify is at line 5

# slugify again under other names and without its docstring
NEW_SLUG = (
    SLUGIFY.split("\n\n\n")[1]
    .replace('    """Lower-case, ASCII, dash-separated."""\n', "")
    .replace("slugify(value)", "new_slug(value)")
    .replace("value", "text")
)
VIEWS = "import re\nimport unicodedata\n"  # app/views.py before the Edit


def indexed_project(project: Path, views: str = VIEWS) -> Path:
    """`utils/text.py` with slugify() and `app/views.py` holding `views`, the function index
    built."""
    from sidekit_hooks.code import function_index

    (project / "utils").mkdir()
    (project / "utils" / "text.py").write_text(SLUGIFY)
    (project / "app").mkdir()
    (project / "app" / "views.py").write_text(views)
    assert function_index.main(["build", str(project)]) == 0
    return project


def new_slug_edit(project: Path) -> dict[str, Any]:
    """The PostToolUse payload of the Edit that writes new_slug() under the imports of
    `app/views.py`."""
    from testing.hooks import edited

    return edited(
        project, "app/views.py", "import unicodedata", "import unicodedata\n\n\n" + NEW_SLUG, VIEWS
    )
