"""Gitignore-style globs over project-relative paths (`**/` any folders, `*` within one name).

Used where sidekit measures or checks paths outside the hook; patterns without a `/` match a file
name in any folder, as in `.gitignore`.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=256)
def compile_glob(pattern: str) -> re.Pattern[str]:
    pattern = pattern.strip().lstrip("/") if "/" in pattern.strip().rstrip("/") else "**/" + pattern.strip()
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == len(pattern):
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def matches(pattern: str, path: str) -> bool:
    return compile_glob(pattern).match(path) is not None


def matches_any(patterns: list[str], path: str) -> bool:
    return any(matches(p, path) for p in patterns)
