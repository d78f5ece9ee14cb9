""".NET stack frames and test classes mapped to project files.

A frame is `at Namespace.Class.Method(Int32 a) in /path/File.cs:line 27` (the `in ...:line N` part
only when the build has its symbols). Its path is mapped to a project file: inside the workspace it
is made relative; a path from another machine or a deterministic build
(`C:\\agent\\_work\\1\\s\\src\\Calc.cs`, `/_/src/Calc.cs`) is matched by its longest tail that names
exactly one project source file. A test class is found by its file name (`CalculatorTests.cs` for
`Acme.Tests.CalculatorTests`), the folders that match its namespace breaking a tie.
"""

from __future__ import annotations

import os
import re

SUFFIXES = (".cs", ".fs", ".vb")
PROJECT_FILES = (".csproj", ".fsproj", ".vbproj")  # indexed too: restore errors name them
SKIP = frozenset({"bin", "obj", "node_modules", "TestResults", "packages", "artifacts"})
LIMIT = 20_000  # files looked at
FRAME = re.compile(
    r"^\s*at (?P<method>[^(]+?)\((?P<args>[^)]*)\)(?: in (?P<file>.+?):line (?P<line>\d+))?\s*$"
)
MAX_FRAMES = 6


class SourceIndex:
    """The project's C#, F# and VB files (and project files), by every tail of their path (a tail
    two files share names none)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.by_tail: dict[str, str] = {}
        self.by_name: dict[str, list[str]] = {}
        self._walk()

    def _walk(self) -> None:
        from sidekit_hooks.core import workspace

        def descend(name: str) -> bool:
            return name not in SKIP and not name.startswith(".")

        for seen, entry in enumerate(workspace.walk(self.root, descend)):
            if seen >= LIMIT:
                break
            if entry.name.endswith((*SUFFIXES, *PROJECT_FILES)) and entry.is_file(
                follow_symlinks=False
            ):
                relative = os.path.relpath(entry.path, self.root).replace(os.sep, "/")
                parts = relative.lower().split("/")
                for start in range(len(parts)):
                    tail = "/".join(parts[start:])
                    self.by_tail[tail] = (
                        "" if self.by_tail.get(tail, relative) != relative else relative
                    )
                self.by_name.setdefault(entry.name.lower(), []).append(relative)

    def file_of_path(self, path: str) -> str:
        """The project file a frame's path names, or ''."""
        absolute = path.replace("\\", "/")
        root = self.root.rstrip("/") + "/"
        if absolute.startswith(root):
            return absolute[len(root) :]
        parts = [part for part in absolute.lower().split("/") if part]
        for start in range(len(parts)):
            found = self.by_tail.get("/".join(parts[start:]))
            if found:
                return found
        return ""

    def file_of_class(self, class_name: str) -> str:
        """The project file of a test class (`Ns.Outer+Inner` in `Outer.cs`), or ''."""
        namespace, _, simple = class_name.split("+", 1)[0].rpartition(".")
        candidates = [p for s in SUFFIXES for p in self.by_name.get((simple + s).lower(), [])]
        if len(candidates) <= 1:
            return candidates[0] if candidates else ""
        words = [w.lower() for w in namespace.split(".") if w]
        return max(sorted(candidates), key=lambda p: sum(w in p.lower().split("/") for w in words))


def frames(trace: str, index: SourceIndex) -> list[str]:
    """The stack's frames in project files, innermost first: `path:line in Method`."""
    found: list[str] = []
    for line in trace.splitlines():
        frame = FRAME.match(line)
        if not frame or not frame.group("file"):
            continue
        path = index.file_of_path(frame.group("file").strip())
        if path:
            method = frame.group("method").rsplit(".", 1)[-1]
            found.append(f"{path}:{frame.group('line')} in {method}")
    return found
