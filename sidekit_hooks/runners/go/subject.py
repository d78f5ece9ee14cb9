"""The project function a Go test failure is about, when the failure carries no stack.

`t.Errorf` and `t.Fail()` print no stack: the failure's only spot is in a `_test.go` file (the
assertion line, or for a bare `t.Fail()` the test function's line). A text scan finds the function
the assertion checks: in the enclosing function of the test file, the last call (the outermost on
its line), at or before the failing line (to the function's end when there is no line), of a
package-level function defined in the package's own non-test files (`Name(`, or `pkg.Name(` from an
external `pkg_test` package). Calls handed the test's `t` (assertion helpers) and method calls are
not the subject. The failure is then placed at that function's definition, so failures of one
broken function cluster together, and the test line stays in `checks` ("ToSnake, asserted at
strcase_test.go:26").

Only files of the package's folder are read (regular files, no links, at most MAX_FILES of each
kind), once per folder and run (`forget` at each run's start). Nothing found: the failure is left as
it was.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import textscan

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_FILES = 200
TESTING = " *testing."

_FOLDERS: dict[str, tuple[str, dict[str, str], dict[str, list[str]]]] = {}
_SUBJECTS: dict[tuple[str, str, int], tuple[str, str] | None] = {}
_CALLEES: dict[
    str, dict[str, list[str]]
] = {}  # folder -> function -> package functions its body calls


def resolve(failure: dict[str, Any], folder: str, prefix: str) -> dict[str, Any]:
    """`failure` (at `prefix + file_test.go:NN`) placed at the function it checks, or unchanged."""
    at = str(failure.get("at", ""))
    path, _, number = at.rpartition(":")
    name = path[len(prefix) :] if path.startswith(prefix) else ""
    if (
        not name.endswith("_test.go")
        or "/" in name
        or not number.isdigit()
        or failure.get("frames")
    ):
        return failure
    found = subject(folder, name, int(number))
    if not found:
        return failure
    function, where = found
    return dict(failure, at=prefix + where, checks=f"{function}, asserted at {at}")


def subject(folder: str, test_file: str, line: int) -> tuple[str, str] | None:
    """(function name, `file.go:NN` of its definition) checked around `test_file:line`, or None."""
    key = (folder, test_file, line)
    if key not in _SUBJECTS:  # a table-driven test fails many times at one line: scanned once
        _SUBJECTS[key] = _scan_test(folder, test_file, line)
    return _SUBJECTS[key]


def _scan_test(folder: str, test_file: str, line: int) -> tuple[str, str] | None:
    package, defined, tests = _folder(folder)
    lines = tests.get(test_file)
    if not lines or not 0 < line <= len(lines):
        return None
    start = next((i for i in range(line - 1, -1, -1) if _starts_function(lines[i])), -1)
    if start < 0:
        return None
    end = (
        line if start != line - 1 else _end_of(lines, start)
    )  # a bare t.Fail(): the whole function
    params = {
        name for text in lines[start:end] if "*testing." in text for name in testing_params(text)
    }
    chosen: tuple[str, str] | None = None
    for text in lines[start + 1 : end] if end > start + 1 else []:
        if "(" not in text:  # most lines of a table-driven test's table: no call to look for
            continue
        calls = _calls(without_literals(text), params)
        # the last line with such a call; on it the leftmost, the outermost: `got :=
        # ToSnake(Trim(in))`
        ours = [
            name
            for qualifier, name in calls
            if (not qualifier or qualifier == package) and name in defined
        ]
        if ours:
            chosen = (ours[0], defined[ours[0]])
    return chosen


def _calls(code: str, params: set[str]) -> list[tuple[str, str]]:
    """(qualifier, name) of each call on one line, without those that are handed the test's `t`."""
    found: list[tuple[str, str]] = []
    for qualifier, name, end in calls(code):
        first = code[end:].lstrip().split(",", 1)[0].split(")", 1)[0].strip()
        if first in params:
            continue
        found.append((qualifier, name))
    return found


def _starts_function(line: str) -> bool:
    r"""`^func\b`."""
    return line.startswith("func") and not textscan.is_word(line[4:5] or " ")


def defined_function(line: str) -> str:
    r"""The name a package-level `func Name(` or `func Name[T any](` defines (a method has `func (r
    T)`), else '': the group of `^func ([A-Za-z_]\w*)\s*[\[(]`."""
    if not line.startswith("func ") or line[5:6] not in textscan.IDENT_START:
        return ""
    end = textscan.word_end(line, 6)
    return line[5:end] if line[end:].lstrip()[:1] in ("(", "[") else ""


def testing_params(text: str) -> list[str]:
    r"""The names of a function's testing parameters (`t *testing.T`): `\b(\w+)
    \*testing\.[TBF]\b`."""
    found: list[str] = []
    done = 0  # the end of the last match: matches do not overlap
    index = text.find(TESTING)
    while index >= 0:
        start = index
        while start and textscan.is_word(text[start - 1]):
            start -= 1
        kind = index + len(TESTING)
        if (
            done <= start < index
            and text[kind : kind + 1] in ("T", "B", "F")
            and not textscan.is_word(text[kind + 1 : kind + 2] or " ")
        ):
            found.append(text[start:index])
            done = kind + 1
        index = text.find(TESTING, index + 1)
    return found


def calls(code: str) -> list[tuple[str, str, int]]:
    r"""(qualifier or '', name, end) of each call on a line, where the end is just after its `(`:
    the matches of `(?<![\w.])(?:([A-Za-z_]\w*)\.)?([A-Za-z_]\w*)\s*\(`, left to right."""
    found: list[tuple[str, str, int]] = []
    index = 0
    while index < len(code):
        if code[index] not in textscan.IDENT_START or (
            index and (code[index - 1] == "." or textscan.is_word(code[index - 1]))
        ):
            index += 1
            continue
        first = textscan.word_end(code, index + 1)
        if code[first : first + 1] == "." and code[first + 1 : first + 2] in textscan.IDENT_START:
            second = textscan.word_end(code, first + 2)
            opened = _opening_paren(code, second)
            if opened:
                found.append((code[index:first], code[first + 1 : second], opened))
                index = opened
                continue
        opened = _opening_paren(code, first)
        if opened:
            found.append(("", code[index:first], opened))
        index = opened or first
    return found


def _opening_paren(code: str, start: int) -> int:
    r"""Just after the `(` that follows `start` past white space (`\s*\(`), or 0."""
    rest = code[start:].lstrip()
    return len(code) - len(rest) + 1 if rest[:1] == "(" else 0


def without_literals(text: str) -> str:
    r"""One line with its strings, raw strings, runes and `//` comment each replaced by `""` (what
    `"(?:[^"\\]|\\.)*"|`[^`]*`|'(?:[^'\\]|\\.)*'|//.*$` replaced): their `(` are no calls."""
    parts: list[str] = []
    kept = index = 0
    while index < len(text):
        char = text[index]
        end = -1
        if char in ('"', "'"):
            end = textscan.quoted_end(text, index, newline_ends=False)
        elif char == "`":
            end = text.find("`", index + 1) + 1 or -1
        elif char == "/" and text.startswith("//", index):
            rest = textscan.line_rest(text[index + 2 :])
            end = -1 if rest is None else index + 2 + len(rest)
        if end > 0:
            parts += (text[kept:index], '""')
            kept = index = end
        else:
            index += 1
    return "".join(parts) + text[kept:]


def _end_of(lines: list[str], start: int) -> int:
    return next((i for i in range(start + 1, len(lines)) if lines[i].startswith("}")), len(lines))


JOIN_AT_LEAST = 2  # failures at a function before a test that calls it anywhere joins them


def _join_exercised(
    failure: dict[str, Any], folder: str, prefix: str, counts: dict[str, int]
) -> None:
    """A failure left at its test's line (no checked function before it: a closure, a helper) joins
    the function most of the run's failures are placed at when its test function calls it
    anywhere."""
    at = str(failure.get("at", ""))
    path, _, number = at.rpartition(":")
    name = path[len(prefix) :] if path.startswith(prefix) else ""
    package, defined, tests = _FOLDERS[folder]
    lines = tests.get(name)
    if not lines or not number.isdigit() or not 0 < int(number) <= len(lines):
        return
    start = next((i for i in range(int(number) - 1, -1, -1) if _starts_function(lines[i])), -1)
    if start < 0:
        return
    called = {
        n
        for text in lines[start + 1 : _end_of(lines, start)]
        if "(" in text
        for q, n, _ in calls(without_literals(text))
        if (not q or q == package) and n in defined
    }
    size, function = max(((counts.get(prefix + defined[n], 0), n) for n in called), default=(0, ""))
    if size >= JOIN_AT_LEAST:
        test = lines[start][len("func ") :].split("(", 1)[0]
        failure["at"] = prefix + defined[function]
        failure["checks"] = f"{function}, called by {test}, asserted at {at}"


def forget() -> None:
    """Drop what was read: each run reads the sources as they are then (a long-lived MCP server runs
    many)."""
    _FOLDERS.clear()
    _SUBJECTS.clear()
    _CALLEES.clear()


def test_files(folder: str) -> dict[str, list[str]]:
    """The lines of the package's `_test.go` files (the first MAX_FILES by name), read once."""
    return _folder(folder)[2]


def _folder(folder: str) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    """(package name, function -> `file.go:NN` in non-test files, test file -> its lines),
    cached."""
    if folder not in _FOLDERS:
        _FOLDERS[folder] = _scan(folder)
    return _FOLDERS[folder]


def _scan(folder: str) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    from sidekit_hooks.core import safepath

    package = ""
    defined: dict[str, str] = {}
    tests: dict[str, list[str]] = {}
    callees: dict[str, list[str]] = {}
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".go"))
    except OSError:
        return package, defined, tests
    tested = [n for n in names if n.endswith("_test.go")][:MAX_FILES]
    for name in tested + [n for n in names if not n.endswith("_test.go")][:MAX_FILES]:
        try:  # regular files only: never blocking on a FIFO a repository planted there
            lines = (
                safepath.read_bytes(os.path.join(folder, name))
                .decode("utf-8", "replace")
                .splitlines()
            )
        except OSError:
            continue
        if name.endswith("_test.go"):
            tests[name] = lines
            continue
        current: list[str] | None = None  # the calls of the package-level function being read
        for number, text in enumerate(lines, 1):
            if not package and text.startswith("package "):
                package = text.split()[1] if len(text.split()) > 1 else ""
            function = defined_function(text) if text.startswith("func ") else ""
            if function:
                defined.setdefault(function, f"{name}:{number}")
                current = callees.setdefault(function, [])
            elif _starts_function(text):
                current = None  # a method: what it calls is not followed
            if current is not None and "(" in text:
                current.extend(
                    n for q, n, _ in calls(without_literals(text)) if not q and n != function
                )
    _CALLEES[folder] = callees
    return package, defined, tests


def join_callers(failures: list[dict[str, Any]], folder: str, prefix: str) -> None:
    """Failures placed at a function F whose body calls a function G where more of this run's
    failures are placed join G's (in place): the tests that check F broke in G (`RequireFromString`
    calls the broken `NewFromString`). One call deep; `checks` keeps the function the test
    checked."""
    counts: dict[str, int] = {}
    for failure in failures:
        if failure.get("checks"):
            counts[str(failure["at"])] = counts.get(str(failure["at"]), 0) + 1
    if not counts:
        return
    _folder(folder)
    defined, callees = _FOLDERS[folder][1], _CALLEES.get(folder, {})
    for failure in failures:
        if not failure.get("checks") and not failure.get("frames"):
            _join_exercised(failure, folder, prefix, counts)
            continue
        checks = str(failure.get("checks", ""))
        function = checks.split(",", 1)[0]
        here = counts.get(str(failure.get("at", "")), 0)
        best = max(
            (
                (counts.get(prefix + defined[g], 0), g)
                for g in callees.get(function, ())
                if g in defined
            ),
            default=(0, ""),
        )
        if best[0] > here:
            failure["at"] = prefix + defined[best[1]]
            failure["checks"] = f"{best[1]} through {checks}"
