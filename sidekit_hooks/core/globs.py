"""gitignore-style globs over project-relative paths, without `re` (it costs the hook ~8 ms to
import).

One meaning everywhere: `sidekit scope set --allow/--deny` and a rule pack's `paths`/`exclude`.

- A glob with no `/` (other than a trailing one) matches a name at any depth: `*.py`, `build/`.
- Otherwise it is anchored at the project root (a leading `/` is dropped): `api/**/*.py`,
  `/setup.py`.
- `**` as a whole segment matches zero or more folders; `*`, `?` and `[...]` stay inside one
  segment; `\\` escapes the next character (paths are `/`-separated, so a backslash is never a
  separator).
- A glob that matches a folder matches everything inside it; a trailing `/` matches folders only;
  `dir/**` matches everything inside `dir` but not `dir` itself.
- In a list, `!glob` re-includes what an earlier glob matched: the last glob that matches decides.
- A glob that cannot match (`./x`, `a//b`, an unclosed `[`) matches nothing; `problem` says why.
"""

from __future__ import annotations

ESCAPABLE = frozenset(
    "*?[]!#\\ "
)  # what gitignore users escape; a backslash before anything else is a separator


def matches_any(globs: list[str], path: str, is_dir: bool = False) -> bool:
    """Whether `path` is selected by the list: the last glob that matches it decides (gitignore
    order)."""
    return bool(selected_by(globs, path, is_dir))


def selected_by(globs: list[str], path: str, is_dir: bool = False) -> str:
    """The glob that selects `path` in the list ("" when the list leaves it out)."""
    chosen = ""
    for glob in globs:
        negated = glob.startswith("!")
        if bool(chosen) != negated:
            continue  # this glob could not change the answer
        if matches(glob[1:] if negated else glob, path, is_dir):
            chosen = "" if negated else glob
    return chosen


def matches(glob: str, path: str, is_dir: bool = False) -> bool:
    """Whether one glob (without `!`) selects the project-relative `path` (`is_dir`: it is a
    folder)."""
    parts = _parts(path)
    # The match may end at any leading folder of the path, or at the path itself unless only folders
    # may match.
    limit = len(parts) - 1 if glob.endswith("/") and not is_dir else len(parts)
    return _match_parts(_segments(glob), 0, parts, 0, limit)


def covering(globs: list[str], directory: str) -> str:
    """The glob in the list that selects every path inside `directory` ("" when some may be left
    out)."""
    chosen = ""
    for glob in globs:
        if glob.startswith("!"):
            if chosen and could_contain(glob[1:], directory):
                chosen = ""  # it may re-include something in there
        elif not chosen and covers(glob, directory):
            chosen = glob
    return chosen


def covers(glob: str, directory: str) -> bool:
    """Whether one glob selects every path inside `directory`: `dir`, `dir/`, `dir/**`, `dir/*`,
    `*`."""
    if matches(glob, directory, is_dir=True):
        return True
    parts = _parts(directory)
    return not glob.endswith("/") and _match_parts(
        _segments(glob), 0, parts, 0, len(parts), open_end=True
    )


def could_contain(glob: str, directory: str) -> bool:
    """Could some path inside `directory` (or the directory itself) match one glob (without `!`)?"""
    return _compatible(_segments(glob), _parts(directory))


def problem(glob: str) -> str:
    """Why a glob can never match a project-relative path ("" when it can)."""
    body = glob[1:] if glob.startswith("!") else glob
    if not body.strip("/"):
        return "an empty glob matches nothing"
    if _separator_backslash(body):
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


def _separator_backslash(body: str) -> bool:
    """A backslash that escapes nothing special (`api\\v1`) was meant as a Windows separator."""
    index = body.find("\\")
    while index >= 0:
        if body[index + 1 : index + 2] not in ESCAPABLE:
            return True
        index = body.find("\\", index + 2)
    return False


def _segments(glob: str) -> list[str]:
    """`*.py` -> ["**", "*.py"] (any depth), `/api/x/` -> ["api", "x"] (anchored); `**/**` is one
    `**`."""
    body = glob.rstrip("/")
    if "/" not in body:
        return ["**", body]
    segments = body.lstrip("/").split(
        "/"
    )  # a leading or inner slash anchors the glob at the project root
    return [
        part
        for index, part in enumerate(segments)
        if part != "**" or index == 0 or segments[index - 1] != "**"
    ]


def normalise(glob: str) -> str:
    """The same glob with consecutive `**` segments collapsed into one (they match the same
    paths)."""
    negated = "!" if glob.startswith("!") else ""
    body = glob[len(negated) :]
    parts = body.split("/")
    kept = [
        part
        for index, part in enumerate(parts)
        if part != "**" or index == 0 or parts[index - 1] != "**"
    ]
    return negated + "/".join(kept)


MAX_SEGMENTS = 32  # `/`-separated parts of one glob; far deeper than any real path pattern
MAX_STARS = 8  # `**` segments in one glob


def budget_problem(glob: str) -> str:
    """Why a glob is too costly to match on every tool call ("" when it is fine)."""
    body = glob[1:] if glob.startswith("!") else glob
    parts = body.strip("/").split("/")
    if len(parts) > MAX_SEGMENTS:
        return f"{len(parts)} segments; a glob holds at most {MAX_SEGMENTS}"
    if normalise(body) != body:
        return f"consecutive ** segments; write {normalise(body)!r} (one ** matches any number of folders)"
    if parts.count("**") > MAX_STARS:
        return f"{parts.count('**')} ** segments; a glob holds at most {MAX_STARS}"
    return ""


def _parts(path: str) -> list[str]:
    return path.strip("/").split("/")


def _match_parts(
    pattern: list[str],
    pi: int,
    parts: list[str],
    si: int,
    limit: int,
    open_end: bool = False,
    failed: set[tuple[int, int]] | None = None,
) -> bool:
    """Does `pattern[pi:]` match `parts[si:end]` for some `end` <= `limit` (a leading run: a
    folder)?

    `open_end`: `parts` is a folder, and what is left of the pattern must match every path inside
    it. `failed` remembers the (pi, si) pairs already tried after a `**`: without it, n `**`
    segments on a deep path try every split, exponentially; with it, each pair is tried once.
    """
    if failed is None:
        failed = set()
    while pi < len(pattern):
        if open_end and si == len(parts):
            return _matches_every_name(pattern[pi:])
        segment = pattern[pi]
        if segment == "**":
            if pi == len(pattern) - 1:
                return si < limit  # a trailing /** needs something inside
            for k in range(si, limit + 1):
                if (pi + 1, k) in failed:
                    continue
                if _match_parts(pattern, pi + 1, parts, k, limit, open_end, failed):
                    return True
                failed.add((pi + 1, k))
            return False
        if si >= limit or not match_name(segment, parts[si]):
            return False
        pi += 1
        si += 1
    return si > 0


def _matches_every_name(rest: list[str]) -> bool:
    """Does `rest` match any one name (and so, as its folder, everything below)? `**`, `*`, `**/*`:
    yes; `*/*`: no."""
    names = [segment for segment in rest if segment != "**"]
    if not names:
        return True
    return len(names) == 1 and rest[-1] == names[0] and names[0].strip("*") == ""


def _compatible(pattern: list[str], parts: list[str]) -> bool:
    """Does some path that starts with `parts` have a chance against `pattern`? (prefix test)"""
    for pi, part in enumerate(parts):
        if pi == len(pattern) or pattern[pi] == "**":
            return True  # an ancestor already matched, or `**` can absorb the rest
        if not match_name(pattern[pi], part):
            return False
    return True


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
    """ "*", "?", an escaped literal ("\\x"), or (negated, ranges) for a class; None if a class is
    open."""
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
