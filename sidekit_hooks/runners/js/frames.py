"""JavaScript and TypeScript stack traces as the shared cache keeps failures: type, message, where,
frames.

V8 prints frames as `at fn (file:line:col)`, `at file:line:col`, `at async fn
(file:///url:line:col)` or `at new Promise (<anonymous>)`. Only frames in the project count as
"ours": not node_modules, not `node:` internals, not files outside the project. When the crash frame
points at a compiled file that carries a source map (`//# sourceMappingURL=` next to it), the frame
is mapped back to the source (vitest and jest map their own transforms already; this covers a
`dist/` build under test).

Pure functions over text; standard library only.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from sidekit_hooks.core import safepath, workspace

MESSAGE_CHARS = 300  # characters of the first message line kept
MAX_FRAMES = 6  # project frames kept per failure (outermost two, innermost four)
FOREIGN = ("/node_modules/", "/.pnpm/", "/.yarn/")

# `at name (location)` or `at location`; location = path:line:col (the column optional).
_FRAME = re.compile(r"^\s*at (?:(?P<name>.+?) \((?P<inner>.+)\)|(?P<bare>\S.*))\s*$")
_LOCATION = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<col>\d+))?$")
_ERROR_HEAD = re.compile(
    r"^(?P<type>(?:[A-Za-z_$][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Failure)|Error)"
    r"(?: \[[\w-]+\])?: ?(?P<message>.*)$"
)
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# A transform's parse error (babel's, which jest runs): `/abs/file.js: Unexpected token (1:23)`.
_PARSE_ERROR = re.compile(
    r"^(?P<path>/\S+?\.[cm]?[jt]sx?): (?P<message>.+?) \((?P<line>\d+):(?P<col>\d+)\)$"
)
# Where the runner says a file that did not load broke, above its error's frames: node's compile
# error header (`/abs/src/math.cjs:8`, then the source line and a caret; jest's message and
# vitest's stack of a `require`d file) and vite's transform error (`File: /abs/src/math.js:1:0`).
_LOAD_SPOT = re.compile(r"^(?:File: )?(?P<path>(?:/|file://)\S+?\.\w+):(?P<line>\d+)(?::\d+)?$")


@dataclass(frozen=True)
class Frame:
    """One stack frame: where it points and whether that is project code."""

    path: str  # project-relative for project files, else as printed (URL prefix dropped)
    line: int
    name: str
    ours: bool

    def text(self) -> str:
        return (
            f"{self.path}:{self.line} in {self.name}" if self.name else f"{self.path}:{self.line}"
        )

    def spot(self) -> str:
        return f"{self.path}:{self.line}"


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def parse_frame(line: str, root: str) -> Frame | None:
    """A frame from one stack line, or None when the line is not a frame with a file position."""
    found = _FRAME.match(line)
    if not found:
        return None
    name = (found.group("name") or "").removeprefix("async ").strip()
    location = found.group("inner") or found.group("bare") or ""
    if location.startswith("eval at ") or "<anonymous>" in location or location == "native":
        return None
    spot = _LOCATION.match(location.strip())
    if not spot:
        return None
    path, ours = where(spot.group("path"), root)
    return Frame(path, int(spot.group("line")), _short_name(name), ours)


def where(path: str, root: str) -> tuple[str, bool]:
    """(display path, inside the project): project-relative inside, as printed (no `file://`)
    outside."""
    if path.startswith("file://"):
        path = path[len("file://") :]
        if (
            "%" in path
        ):  # urllib.parse costs its importer ~15 ms (ipaddress): only when a URL is escaped
            from urllib.parse import unquote

            path = unquote(path)
    if path.startswith(("node:", "internal/")) or not path:
        return path, False
    if not os.path.isabs(path):  # jest's rendered text: relative to the root already
        path = os.path.join(root, path)
    path, inside = workspace.in_project(path, root, FOREIGN)
    if inside:
        return path, True
    index = path.rfind(
        "/node_modules/"
    )  # a dependency: named from its package, wherever it is installed
    return (path[index + 1 :], False) if index >= 0 else (path, False)


def _short_name(name: str) -> str:
    """`Object.compare [as lt]` -> `compare`; `Object.<anonymous>` -> ''."""
    name = name.partition(" [as ")[0].removeprefix("new ")
    if name.startswith("Object."):
        name = name[len("Object.") :]
    return "" if name in ("<anonymous>", "Object.<anonymous>") else name


def frames_of(stack: str, root: str) -> list[Frame]:
    """Every frame of a stack text, innermost first (V8's order)."""
    return [
        frame
        for frame in (parse_frame(line, root) for line in stack.splitlines())
        if frame is not None
    ]


def head_of(stack: str) -> tuple[str, str]:
    """(error type, first message line) of a stack text or failure message."""
    lines = [line for line in strip_ansi(stack).splitlines() if line.strip()]
    for line in lines:
        if line.lstrip().startswith("at "):
            break
        found = _ERROR_HEAD.match(line.strip())
        if found:
            kind = found.group("type").rpartition(".")[2]
            return kind, found.group("message").strip()[:MESSAGE_CHARS]
    first = lines[0].strip() if lines else ""
    return "Error", first[:MESSAGE_CHARS]


def describe(stack: str, root: str, maps: bool = True) -> dict[str, object]:
    """A failure as the cache keeps it: type, message, at (the crash), frame (innermost ours),
    frames."""
    text = strip_ansi(stack)
    kind, message = head_of(text)
    failure: dict[str, object] = {"type": kind, "message": message}
    frames = [source_mapped(frame, root) if maps else frame for frame in frames_of(text, root)]
    parsed = _parse_error_spot(message, root)
    if parsed is not None:  # the spot is in the source the parser read, not in the parser
        frames.insert(0, parsed[0])
        failure["message"] = parsed[1]
    else:
        loaded = load_spot(text, root)
        if loaded is not None:  # the file that did not load, not the import that read it
            frames.insert(0, loaded)
    if frames:
        failure["at"] = frames[0].spot()
    own = [frame for frame in frames if frame.ours]
    if own:
        failure["frame"] = own[0].spot()
        outermost_first = [frame.text() for frame in reversed(own)]
        kept = outermost_first
        if len(kept) > MAX_FRAMES:
            kept = kept[:2] + kept[2 - MAX_FRAMES :]
        failure["frames"] = kept
    cause = _cause(text)
    if cause:
        failure["cause"] = cause
    return failure


def _parse_error_spot(message: str, root: str) -> tuple[Frame, str] | None:
    """(the project file's spot, the message without its path) of a parse error in a project
    file."""
    found = _PARSE_ERROR.match(message)
    if not found:
        return None
    path, ours = where(found.group("path"), root)
    if not ours:
        return None
    said = f"{found.group('message')} ({found.group('line')}:{found.group('col')})"
    return Frame(path, int(found.group("line")), "", True), said


def load_spot(text: str, root: str) -> Frame | None:
    """The project file and line a load failure names above its frames (node's compile error
    header, vite's `File:` line), or None."""
    for line in text.splitlines():
        if line.lstrip().startswith("at "):
            return None
        found = _LOAD_SPOT.match(line.strip())
        if found:
            path, ours = where(found.group("path"), root)
            return Frame(path, int(found.group("line")), "", True) if ours else None
    return None


def _cause(text: str) -> str:
    """`[cause]: TypeError: x` (node's rendering of Error.cause) -> "TypeError: x"."""
    found = re.search(r"\[cause\]: ([A-Z]\w*(?:Error|Exception)): ?([^\n]*)", text)
    return (
        f"{found.group(1)}: {found.group(2).strip()}".rstrip(": ")[:MESSAGE_CHARS] if found else ""
    )


# Source maps: only a compiled project file's own map, read from disk, and only the crash frame's
# line is mapped (VLQ decoding of the `mappings` field, standard library only).
_B64 = {
    char: index
    for index, char in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
}
MAX_MAP_BYTES = 4_000_000


def source_mapped(frame: Frame, root: str) -> Frame:
    """The frame in its original source when the project file it points at has a source map."""
    if not frame.ours or not frame.path.endswith((".js", ".mjs", ".cjs")):
        return frame
    mapped = _map_line(root, os.path.join(root, frame.path), frame.line)
    if mapped is None:
        return frame
    source, line = mapped
    path, ours = where(os.path.join(os.path.dirname(os.path.join(root, frame.path)), source), root)
    return Frame(path, line, frame.name, ours) if ours else frame


def _map_line(root: str, compiled: str, line: int) -> tuple[str, int] | None:
    import json

    map_path = compiled + ".map"
    try:
        data = json.loads(
            safepath.read_inside(root, map_path, MAX_MAP_BYTES, follow_inside=True)
        )  # never a FIFO
    except (OSError, ValueError):
        return None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("mappings"), str)
        or not data.get("sources")
    ):
        return None
    sources = [str(s) for s in data["sources"]]
    prefix = str(data.get("sourceRoot") or "")
    found = decode_line(data["mappings"], line - 1)
    if found is None or not 0 <= found[0] < len(sources):
        return None
    return os.path.join(prefix, sources[found[0]]), found[1] + 1


def decode_line(mappings: str, wanted: int) -> tuple[int, int] | None:
    """(source index, 0-based source line) of the first segment on generated line `wanted`
    (0-based)."""
    source = original = 0
    for number, group in enumerate(mappings.split(";")):
        first: tuple[int, int] | None = None
        for segment in group.split(","):
            values = _vlq(segment)
            if len(values) >= 4:
                source += values[1]
                original += values[2]
                if first is None:
                    first = (source, original)
        if number == wanted:
            return first
    return None


def _vlq(segment: str) -> list[int]:
    values: list[int] = []
    value = shift = 0
    for char in segment:
        digit = _B64.get(char)
        if digit is None:
            return []
        value += (digit & 31) << shift
        if digit & 32:
            shift += 5
            continue
        values.append(-(value >> 1) if value & 1 else value >> 1)
        value = shift = 0
    return values
