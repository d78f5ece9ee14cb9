"""The project function a jest or vitest failure is about, when the failure stops in the test file.

An `expect` diff (or an assertion library's throw) has no frame in the code under test: its
innermost project frame is the assertion line in the test file. A text scan finds what the test
exercised: the nearest call, at or before that line (up to LOOK_BACK lines up, so a call in the
enclosing `describe` counts), of a name that one of the test file's relative modules
(`require('../x')`, `import ... from './x'`) defines or exports. The failure is then placed at that
definition, so failures of one broken function cluster together, and `checks` keeps the test's spot
("diff, asserted at test/tests.js:53").

Only files inside the project are read (no links out, regular files, at most MAX_BYTES each), once
per process run. Nothing found: the failure is left as it was.
"""

from __future__ import annotations

import os
import re

from sidekit_hooks.core import safepath
from sidekit_hooks.status.clusters import in_test_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LOOK_BACK = 40
# The runner's own machinery: an error it raises (`Tests cannot be nested`) is about the test file,
# not about what the test exercised.
RUNNER_MACHINERY = ("jest-circus/", "jest-jasmine2/", "@vitest/runner/")
MAX_BYTES = 1 << 20
SUFFIXES = (
    "",
    ".js",
    ".cjs",
    ".mjs",
    ".ts",
    ".tsx",
    ".jsx",
    "/index.js",
    "/index.ts",
    "/index.cjs",
    "/index.mjs",
)
_RELATIVE = re.compile(r"""(?:require\(\s*|\bfrom\s+|\bimport\s+)['"](\.{1,2}(?:/[^'"]*)?)['"]""")
# `const bytes = require('..')`, `import bytes from '../index.js'`: a name bound to a module's
# default export
_BINDING = re.compile(
    r"""(?:\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(\s*|\bimport\s+([A-Za-z_$][\w$]*)\s+from\s+)"""
    r"""['"](\.{1,2}(?:/[^'"]*)?)['"]"""
)
_DEFAULT_EXPORT = re.compile(
    r"(?:\bmodule\.exports\s*=|\bexport\s+default)\s*(?:function\s*\*?\s*)?([A-Za-z_$][\w$]*)?"
)
_TEST_START = re.compile(r"(?<![\w$.])(?:it|test)(?:\.[\w$]+)*\s*\(")
_CALL = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*\(")
KEYWORDS = frozenset(
    "function if for while switch catch return typeof new await yield super import require "
    "describe it test expect".split()
)  # words before a `(` that call nothing of the project's
_DEFINITIONS = (
    r"\bfunction\s*\*?\s*{name}\s*\(",  # function name(
    # name = function / arrow
    r"\b{name}\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)",
    r"^\s*(?:async\s+)?{name}\s*\([^)]*\)\s*\{{",  # a method: name(a, b) {
    r"(?<![\w$.])['\"]?{name}['\"]?\s*:",  # an exported property: { name: ... }
    r"\bexports\.{name}\s*=",  # exports.name =
)

MAX_MODULES = 20  # relative modules of one test file looked into
_LINES: dict[str, list[str]] = {}
_DEFINED: dict[tuple[str, str], str] = {}
_SUBJECTS: dict[tuple[str, int], tuple[str, str] | None] = {}


def resolve(failure: dict[str, Any], root: str) -> dict[str, Any]:
    """`failure` placed at the project function its test exercised, when its innermost project frame
    is in test code and it broke there or outside the project; else unchanged."""
    frame = str(failure.get("frame", ""))
    at = str(failure.get("at", ""))
    path, _, number = frame.rpartition(":")
    if (
        not path
        or not number.isdigit()
        or not in_test_code(frame)
        or (at != frame and _ours(at, root))
    ):
        return failure
    if any(part in at for part in RUNNER_MACHINERY):
        return failure
    key = (os.path.join(root, path), int(number))
    if key not in _SUBJECTS:  # a table of tests fails many times at one line: scanned once
        _SUBJECTS[key] = _scan(root, path, int(number))
    found = _SUBJECTS[key]
    if found is None:
        return failure
    name, where = found
    return dict(failure, at=where, frame=where, checks=f"{name}, asserted at {frame}")


def _ours(at: str, root: str) -> bool:
    """`at` is a project file (not a library's, which frames name as they were printed)."""
    path = at.rpartition(":")[0]
    return bool(path) and not os.path.isabs(path) and "node_modules/" not in path


def _scan(root: str, test_file: str, line: int) -> tuple[str, str] | None:
    lines = _read(root, test_file)
    if not lines or line > len(lines):
        return None
    folder = os.path.dirname(test_file)
    specs = list(dict.fromkeys(_relative_specs(lines)))[:MAX_MODULES]
    modules = [m for m in (_module(root, folder, spec) for spec in specs) if m]
    if not modules:
        return None
    bound = _bindings(root, folder, lines)
    for text in _exercised(lines, line):
        for name in reversed(
            [n for n in _CALL.findall(text) if n not in KEYWORDS]
        ):  # innermost last
            if name in bound:  # the module itself, called: its default export
                spot = _default_export(root, bound[name])
                if spot:
                    return name, spot
            for module in modules:
                spot = _definition(root, module, name)
                if spot:
                    return name, spot
    return None


def _bindings(root: str, folder: str, lines: list[str]) -> dict[str, str]:
    """Names the test file binds to a relative module's default export -> that module."""
    found: dict[str, str] = {}
    for text in lines:
        for required, imported, spec in _BINDING.findall(text):
            module = _module(root, folder, spec)
            if module and len(found) < MAX_MODULES:
                found[required or imported] = module
    return found


def _default_export(root: str, module: str) -> str:
    """`module:NN` of the function its default export names (`module.exports = bytes`), else of the
    export."""
    for number, text in enumerate(_read(root, module), 1):
        found = _DEFAULT_EXPORT.search(text)
        if found:
            named = _definition(root, module, found.group(1)) if found.group(1) else ""
            return named or f"{module}:{number}"
    return ""


def _exercised(lines: list[str], line: int) -> list[str]:
    """The lines that can hold what the test at `line` exercised, nearest first: its own body up to
    its `it(`/`test(` line, then the lines of the enclosing blocks above it (as indented as that
    line or less), never another test's body."""
    window = range(line - 1, max(-1, line - 1 - LOOK_BACK), -1)
    found: list[str] = []
    indent = -1
    for index in window:
        text = lines[index]
        depth = len(text) - len(text.lstrip())
        if indent < 0:
            found.append(text)
            if _TEST_START.search(text):
                indent = depth
        elif text.strip() and depth <= indent and not _TEST_START.search(text):
            found.append(text)
    return found


def _relative_specs(lines: list[str]) -> list[str]:
    return [spec for text in lines for spec in _RELATIVE.findall(text)]


def _module(root: str, folder: str, spec: str) -> str:
    """The project file a relative module specifier names (`../` is the package's index), or ''."""
    base = os.path.normpath(os.path.join(folder, spec))
    if base.startswith(".."):
        return ""
    candidates = [base + suffix for suffix in SUFFIXES]
    if spec.rstrip("/") in (".", ".."):  # the package itself: its manifest's main, else index.js
        candidates.insert(0, os.path.normpath(os.path.join(base, _main(root, base))))
    for candidate in candidates:
        if os.path.isfile(os.path.join(root, candidate)) and not os.path.islink(
            os.path.join(root, candidate)
        ):
            return candidate.replace(os.sep, "/")
    return ""


def _main(root: str, package: str) -> str:
    import json

    try:
        manifest = json.loads(
            safepath.read_inside(root, os.path.join(package, "package.json"), MAX_BYTES)
        )
    except (OSError, ValueError):
        return "index.js"
    main = manifest.get("main") if isinstance(manifest, dict) else None
    return main if isinstance(main, str) and main else "index.js"


def _definition(root: str, module: str, name: str) -> str:
    """`module:NN` of the first place that defines or exports `name`, by the most telling form
    first."""
    key = (module, name)
    if key not in _DEFINED:  # each name is looked up once per module and run
        _DEFINED[key] = _first_definition(_read(root, module), module, name)
    return _DEFINED[key]


def _first_definition(lines: list[str], module: str, name: str) -> str:
    if not any(name in text for text in lines):
        return ""
    for form in _DEFINITIONS:
        pattern = re.compile(form.format(name=re.escape(name)))
        for number, text in enumerate(lines, 1):
            if name in text and pattern.search(text):
                return f"{module}:{number}"
    return ""


def _read(root: str, path: str) -> list[str]:
    if path not in _LINES:
        try:
            _LINES[path] = (
                safepath.read_inside(root, path, MAX_BYTES).decode("utf-8", "replace").splitlines()
            )
        except (OSError, ValueError):
            _LINES[path] = []
    return _LINES[path]


def forget() -> None:
    """Drop what was read: each run reads the sources as they are then."""
    _LINES.clear()
    _SUBJECTS.clear()
    _DEFINED.clear()
