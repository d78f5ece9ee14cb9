"""A helper and a renamed copy of it, as an agent writes one: the pair the tools sidecar must name
("slugify(value) already does this; reuse it instead of new_slug()")."""

from __future__ import annotations

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
