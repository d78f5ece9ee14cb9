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
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_FILES = 200
FUNC_DEF = re.compile(r"^func ([A-Za-z_]\w*)\s*[\[(]")  # package-level only: a method has `func (r T) ...`
FUNC_START = re.compile(r"^func\b")
TEST_PARAM = re.compile(r"\b(\w+) \*testing\.[TBF]\b")
CALL = re.compile(r"(?<![\w.])(?:([A-Za-z_]\w*)\.)?([A-Za-z_]\w*)\s*\(")
STRING_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|`[^`]*`|\'(?:[^\'\\]|\\.)*\'|//.*$')

_FOLDERS: dict[str, tuple[str, dict[str, str], dict[str, list[str]]]] = {}
_SUBJECTS: dict[tuple[str, str, int], tuple[str, str] | None] = {}


def resolve(failure: dict[str, Any], folder: str, prefix: str) -> dict[str, Any]:
    """`failure` (at `prefix + file_test.go:NN`) placed at the function it checks, or unchanged."""
    at = str(failure.get("at", ""))
    path, _, number = at.rpartition(":")
    name = path[len(prefix) :] if path.startswith(prefix) else ""
    if not name.endswith("_test.go") or "/" in name or not number.isdigit() or failure.get("frames"):
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
    start = next((i for i in range(line - 1, -1, -1) if FUNC_START.match(lines[i])), -1)
    if start < 0:
        return None
    end = line if start != line - 1 else _end_of(lines, start)  # a bare t.Fail(): the whole function
    params = {name for text in lines[start:end] if "*testing." in text for name in TEST_PARAM.findall(text)}
    chosen: tuple[str, str] | None = None
    for text in lines[start + 1 : end] if end > start + 1 else []:
        if "(" not in text:  # most lines of a table-driven test's table: no call to look for
            continue
        calls = _calls(STRING_OR_COMMENT.sub('""', text), params)
        # the last line with such a call; on it the leftmost, the outermost: `got := ToSnake(Trim(in))`
        ours = [name for qualifier, name in calls if (not qualifier or qualifier == package) and name in defined]
        if ours:
            chosen = (ours[0], defined[ours[0]])
    return chosen


def _calls(code: str, params: set[str]) -> list[tuple[str, str]]:
    """(qualifier, name) of each call on one line, without those that are handed the test's `t`."""
    found: list[tuple[str, str]] = []
    for match in CALL.finditer(code):
        first = code[match.end() :].lstrip().split(",", 1)[0].split(")", 1)[0].strip()
        if first in params:
            continue
        found.append((match.group(1) or "", match.group(2)))
    return found


def _end_of(lines: list[str], start: int) -> int:
    return next((i for i in range(start + 1, len(lines)) if lines[i].startswith("}")), len(lines))


def forget() -> None:
    """Drop what was read: each run reads the sources as they are then (a long-lived MCP server runs many)."""
    _FOLDERS.clear()
    _SUBJECTS.clear()


def test_files(folder: str) -> dict[str, list[str]]:
    """The lines of the package's `_test.go` files (the first MAX_FILES by name), read once."""
    return _folder(folder)[2]


def _folder(folder: str) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    """(package name, function -> `file.go:NN` in non-test files, test file -> its lines), cached."""
    if folder not in _FOLDERS:
        _FOLDERS[folder] = _scan(folder)
    return _FOLDERS[folder]


def _scan(folder: str) -> tuple[str, dict[str, str], dict[str, list[str]]]:
    from sidekit_hooks.core import safepath

    package = ""
    defined: dict[str, str] = {}
    tests: dict[str, list[str]] = {}
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".go"))
    except OSError:
        return package, defined, tests
    tested = [n for n in names if n.endswith("_test.go")][:MAX_FILES]
    for name in tested + [n for n in names if not n.endswith("_test.go")][:MAX_FILES]:
        try:  # regular files only: never blocking on a FIFO a repository planted there
            lines = safepath.read_bytes(os.path.join(folder, name)).decode("utf-8", "replace").splitlines()
        except OSError:
            continue
        if name.endswith("_test.go"):
            tests[name] = lines
            continue
        for number, text in enumerate(lines, 1):
            if not package and text.startswith("package "):
                package = text.split()[1] if len(text.split()) > 1 else ""
            found = FUNC_DEF.match(text) if text.startswith("func ") else None
            if found:
                defined.setdefault(found.group(1), f"{name}:{number}")
    return package, defined, tests
