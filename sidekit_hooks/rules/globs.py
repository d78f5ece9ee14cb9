"""gitignore-style globs over project-relative paths, without `re` (it costs the hook ~8 ms to import).

- A glob with no `/` (other than a trailing one) matches a name at any depth: `*.py`, `build/`.
- Otherwise it is anchored at the project root (a leading `/` is dropped): `api/**/*.py`, `/setup.py`.
- `**` as a whole segment matches zero or more folders; `*`, `?` and `[...]` stay inside one segment.
- A glob that matches a folder matches everything inside it; a trailing `/` matches folders only.
- In a list, `!glob` re-includes what an earlier glob matched: the last glob that matches decides.
"""

from __future__ import annotations


def matches_any(globs: list[str], path: str) -> bool:
    """Whether `path` is selected by the list: the last glob that matches it decides (gitignore order)."""
    selected = False
    for glob in globs:
        negated = glob.startswith("!")
        if selected == (not negated):
            continue  # this glob could not change the answer
        if matches(glob[1:] if negated else glob, path):
            selected = not negated
    return selected


def matches(glob: str, path: str) -> bool:
    """Whether one glob (without `!`) selects the project-relative, `/`-separated `path`."""
    folders_only = glob.endswith("/")
    body = glob.rstrip("/")
    anchored = "/" in body  # a leading or inner slash anchors the glob at the project root
    body = body.lstrip("/")
    pattern = body.split("/") if anchored else ["**", body]
    parts = path.split("/")
    # Every leading folder of the path, and the path itself unless only folders may match.
    last = len(parts) - 1 if folders_only else len(parts)
    return any(_match_parts(pattern, 0, parts[:end], 0) for end in range(1, last + 1))


def problem(glob: str) -> str:
    """Why a glob can never match a project-relative path ("" when it can)."""
    body = glob[1:] if glob.startswith("!") else glob
    if not body.strip("/"):
        return "an empty glob matches nothing"
    if "\\" in body.replace("\\*", "").replace("\\?", "").replace("\\[", "").replace("\\!", ""):
        return "paths are /-separated; a backslash here never matches"
    segments = body.strip("/").split("/")
    if any(part in (".", "..") for part in segments):
        return "project-relative paths hold no . or .. segments"
    if any(part == "" for part in segments):
        return "an empty segment (//) never matches"
    for part in segments:
        if _tokens(part) is None:
            return f"the character class in {part!r} is not closed with ]"
    return ""


def _match_parts(pattern: list[str], pi: int, parts: list[str], si: int) -> bool:
    while pi < len(pattern):
        segment = pattern[pi]
        if segment == "**":
            if pi == len(pattern) - 1:
                return si < len(parts) or pi == 0  # a trailing /** needs something inside
            return any(_match_parts(pattern, pi + 1, parts, k) for k in range(si, len(parts) + 1))
        if si >= len(parts) or not match_name(segment, parts[si]):
            return False
        pi += 1
        si += 1
    return si == len(parts)


def match_name(pattern: str, name: str) -> bool:
    """fnmatch for one path segment (or a tool name): `*`, `?`, `[abc]`, `[!a-z]`, `\\` escapes."""
    if "*" not in pattern and "?" not in pattern and "[" not in pattern and "\\" not in pattern:
        return pattern == name
    tokens = _tokens(pattern)
    if tokens is None:
        return False
    # Iterative wildcard matching with a single backtrack point per star (linear in practice).
    ti = ni = 0
    star_ti, star_ni = -1, 0
    while ni < len(name):
        if ti < len(tokens) and tokens[ti] != "*" and _token_matches(tokens[ti], name[ni]):
            ti += 1
            ni += 1
        elif ti < len(tokens) and tokens[ti] == "*":
            star_ti, star_ni = ti, ni
            ti += 1
        elif star_ti >= 0:
            star_ni += 1
            ti, ni = star_ti + 1, star_ni
        else:
            return False
    while ti < len(tokens) and tokens[ti] == "*":
        ti += 1
    return ti == len(tokens)


def _tokens(pattern: str) -> list[str | tuple[bool, list[tuple[str, str]]]] | None:
    """"*", "?", an escaped literal ("\\x"), or (negated, ranges) for a class; None if a class is open."""
    tokens: list[str | tuple[bool, list[tuple[str, str]]]] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            tokens.append("\\" + pattern[i + 1])
            i += 2
            continue
        if char == "[":
            parsed = _char_class(pattern, i + 1)
            if parsed is None:
                return None
            token, i = parsed
            tokens.append(token)
            continue
        if char == "*" and tokens and tokens[-1] == "*":
            i += 1
            continue
        tokens.append(char if char in "*?" else "\\" + char)
        i += 1
    return tokens


def _char_class(pattern: str, i: int) -> tuple[tuple[bool, list[tuple[str, str]]], int] | None:
    negated = i < len(pattern) and pattern[i] in "!^"
    i += negated
    ranges: list[tuple[str, str]] = []
    first = True
    while i < len(pattern) and (pattern[i] != "]" or first):
        low = pattern[i]
        if low == "\\" and i + 1 < len(pattern):
            i += 1
            low = pattern[i]
        if i + 2 < len(pattern) and pattern[i + 1] == "-" and pattern[i + 2] != "]":
            ranges.append((low, pattern[i + 2]))
            i += 3
        else:
            ranges.append((low, low))
            i += 1
        first = False
    if i >= len(pattern):
        return None
    return (negated, ranges), i + 1


def _token_matches(token: str | tuple[bool, list[tuple[str, str]]], char: str) -> bool:
    if isinstance(token, tuple):
        negated, ranges = token
        inside = any(low <= char <= high for low, high in ranges)
        return inside != negated and char != "/"
    if token == "?":
        return char != "/"
    return token[1] == char
