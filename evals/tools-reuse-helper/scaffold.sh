#!/usr/bin/env bash
# utils/text.py already has slugify(); the task needs a slug.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../_lib/repo.sh"

put utils/__init__.py < /dev/null
put utils/text.py <<'PY'
"""Text helpers."""

import re


def slugify(value: str) -> str:
    value = value.strip().lower()
    value = re.sub(r"[^a-z0-9]+", "-", value)
    value = re.sub(r"-{2,}", "-", value)
    return value.strip("-")
PY
put shop/__init__.py < /dev/null
put shop/catalog.py <<'PY'
"""The product catalog."""

PRODUCTS = {"Blue Mug (large)": 1200, "Tea -- Earl Grey": 450}
PY
commit_all
