"""Gitignore-style globs on project-relative paths, without `re` (hook hot path: stdlib, cheap).

`*` and `?` stay inside one path segment, `[abc]`/`[a-z]`/`[!x]` are character classes, `**` spans any
number of segments. As in gitignore: a pattern with no `/` (other than a trailing one) matches at any
depth, a leading `/` anchors it to the project root, and a pattern that matches a directory matches
everything under it.
"""

from __future__ import annotations

WILDCARDS = frozenset("*?[")


def split(pattern: str) -> list[str]:
    """A glob as normalized segments: `*.py` -> `**/*.py`, `/api/` -> `api`."""
    pattern = pattern.strip().replace("\\", "/")
    anchored = pattern.startswith("/")
    pattern = pattern.strip("/")
    parts = [part for part in pattern.split("/") if part not in ("", ".")]
    if not anchored and len(parts) == 1 and parts[0] != "**":
        parts = ["**", parts[0]]
    return parts


def path_parts(path: str) -> list[str]:
    return [part for part in path.replace("\\", "/").split("/") if part not in ("", ".")]


def matches(pattern: str, path: str) -> bool:
    """Does `pattern` match `path` or one of its parent directories?"""
    return _match_prefix(split(pattern), path_parts(path))


def could_contain(pattern: str, directory: str) -> bool:
    """Could some path inside `directory` (or the directory itself) match `pattern`?"""
    return _compatible(split(pattern), path_parts(directory))


def has_wildcard(segment: str) -> bool:
    return any(char in WILDCARDS for char in segment)


def _match_prefix(pats: list[str], parts: list[str]) -> bool:
    """True when `pats` matches the whole of `parts` or of a leading run of it (an ancestor)."""
    if not pats:
        return True
    if pats[0] == "**":
        rest = pats[1:]
        return any(_match_prefix(rest, parts[start:]) for start in range(len(parts) + 1)) if rest else True
    return bool(parts) and segment_matches(pats[0], parts[0]) and _match_prefix(pats[1:], parts[1:])


def _compatible(pats: list[str], parts: list[str]) -> bool:
    if not pats or not parts or pats[0] == "**":
        return True
    return segment_matches(pats[0], parts[0]) and _compatible(pats[1:], parts[1:])


def segment_matches(pat: str, name: str) -> bool:
    """fnmatch for one path segment (case-sensitive), with backtracking over the last `*`."""
    p = s = 0
    star_p, star_s = -1, 0
    while s < len(name):
        if p < len(pat):
            char = pat[p]
            if char == "*":
                star_p, star_s = p, s
                p += 1
                continue
            if char == "?":
                p += 1
                s += 1
                continue
            if char == "[":
                end, hit = _char_class(pat, p, name[s])
                if end < 0 and name[s] == "[":  # no closing bracket: a literal "["
                    p += 1
                    s += 1
                    continue
                if end > 0 and hit:
                    p = end
                    s += 1
                    continue
            elif char == "\\" and p + 1 < len(pat):
                if pat[p + 1] == name[s]:
                    p += 2
                    s += 1
                    continue
            elif char == name[s]:
                p += 1
                s += 1
                continue
        if star_p < 0:
            return False
        p = star_p + 1
        star_s += 1
        s = star_s
    while p < len(pat) and pat[p] == "*":
        p += 1
    return p == len(pat)


def _char_class(pat: str, start: int, char: str) -> tuple[int, bool]:
    """(index after the closing "]", whether `char` is in the class); (-1, False) when unclosed."""
    index = start + 1
    negate = index < len(pat) and pat[index] in "!^"
    if negate:
        index += 1
    hit = False
    first = True
    while index < len(pat) and (first or pat[index] != "]"):
        first = False
        low = pat[index]
        if index + 2 < len(pat) and pat[index + 1] == "-" and pat[index + 2] != "]":
            hit = hit or low <= char <= pat[index + 2]
            index += 3
        else:
            hit = hit or low == char
            index += 1
    if index >= len(pat):
        return -1, False
    return index + 1, hit != negate
