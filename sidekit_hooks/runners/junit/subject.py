"""The method under test that a stackless JVM test failure is about.

A plain `assertEquals` mismatch has no frame in the code under test: its trace ends in the test
method (or a test helper), so `at` would be the assertion line and every failing assert line its
own cluster (commons-csv's one bug: 123 clusters). Such a failure is placed at the method of the
project's main code (`src/main/java`, not test code, not a library) that the failing tests exercise:

- A text scan of the project's Java files (comments and literals blanked) finds each method's
  declaration (`path:line`, a class's overloads are one method) and the calls in its body, resolved
  by name: to the calling class's own method, to a class named as the qualifier (`CSVFormat.x(`,
  `new CSVPrinter(`; a type the project does not define, `String.format(`, is a library's),
  else to every class that defines the name.
- A failing test exercises the methods its test method calls up to the failing line, and what they
  call in turn (in test helpers and main code, MAX_DEPTH calls deep); a passing test, what its whole
  body reaches.
- The method most suspicious by the run's own verdicts takes every failure that reaches it
  (runners/suspects.py: Ochiai, of equals the nearest to the tests), then the next.

The failure keeps its test's spot in `checks` ("CSVFormat.print, exercised by testX, asserted at
CSVPrinterTest.java:1102"). A failure whose trace reaches main code keeps that frame; one whose test
reaches no main method is left at its test line.
"""

from __future__ import annotations

import os
import re

from sidekit_hooks.status.clusters import in_test_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 6  # calls followed from a test's own calls
MAX_FILE_BYTES = 1 << 20
MAX_FILES = 3000
MAX_TOTAL_BYTES = 32 << 20  # what one placement reads at most
KEYWORDS = frozenset(
    "if for while switch catch return new throw else do try synchronized super this assert case "
    "class interface enum record instanceof yield".split()
)
MODIFIERS = "public|protected|private|static|final|synchronized|abstract|default|native|strictfp"
DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^()]*\))?\s+)*(?:(?:" + MODIFIERS + r")\s+)*"
    r"(?:<[^;{}()]*>\s+)?(?:([\w$.]+(?:<[^;{}()]*>)?(?:\[\])*)\s+)?([A-Za-z_$][\w$]*)\s*\("
)
CALL = re.compile(r"(?:(\bnew\s+)|([\w$]+)\s*\.\s*)?\b([A-Za-z_$][\w$]*)\s*\(")
TYPE_DECLARATION = re.compile(r"\b(?:class|interface|enum|record)\s+([A-Za-z_$][\w$]*)")
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')

Node = tuple[str, str]  # (project file, method name): a class's overloads are one node


class Method:
    """A method's (or constructor's) declaration and the calls in its body."""

    __slots__ = ("path", "cls", "name", "line", "end", "calls")

    def __init__(self, path: str, cls: str, name: str, line: int) -> None:
        self.path, self.cls, self.name, self.line = path, cls, name, line
        self.end = line
        # (the line its statement starts on, qualifier or "new" or "", name)
        self.calls: list[tuple[int, str, str]] = []


def blanked(lines: list[str]) -> list[str]:
    """The lines with comments, string and char literals (text blocks too) blanked out: their
    `(` and `{` are no code."""
    out: list[str] = []
    in_comment = in_block = False
    for raw in lines:
        text = raw
        if in_block:  # a text block `"""` ... `"""`
            end = text.find('"""')
            if end < 0:
                out.append("")
                continue
            text, in_block = '""' + text[end + 3 :], False
        kept: list[str] = []
        index = 0
        while index < len(text):
            if in_comment:
                end = text.find("*/", index)
                if end < 0:
                    index = len(text)
                    break
                in_comment, index = False, end + 2
                continue
            if text.startswith("/*", index):
                in_comment, index = True, index + 2
                continue
            if text.startswith("//", index):
                break
            if text.startswith('"""', index):
                end = text.find('"""', index + 3)
                if end < 0:
                    in_block = True
                    kept.append('""')
                    break
                kept.append('""')
                index = end + 3
                continue
            found = LITERAL.match(text, index) if text[index] in "\"'" else None
            if found:
                kept.append('""')
                index = found.end()
                continue
            kept.append(text[index])
            index += 1
        out.append("".join(kept))
    return out


def methods_of(path: str, lines: list[str]) -> list[Method]:
    """The methods declared in one Java file, each with the calls in its body (lambdas and
    anonymous classes inside a body count as the body's)."""
    found: list[Method] = []
    # the open blocks: ("class", name) / ("method", Method) / ("block", "")
    stack: list[tuple[str, Any]] = []
    pending_class = ""
    pending_method: Method | None = None
    statement = 1  # the line the statement being read started on
    for number, text in enumerate(blanked(lines), 1):
        if not text.strip():
            continue
        top = stack[-1][0] if stack else "file"
        in_method = next((m for kind, m in reversed(stack) if kind == "method"), None)
        declared = TYPE_DECLARATION.search(text)
        if declared and top in ("file", "class"):
            pending_class = declared.group(1)
        elif top == "class" and pending_method is None:
            match = DECLARATION.match(text)
            if match and match.group(2) not in KEYWORDS and match.group(1) not in KEYWORDS:
                owner = next(m for kind, m in reversed(stack) if kind == "class")
                pending_method = Method(path, owner, match.group(2), number)
        current = in_method or pending_method
        boundaries = [i for i, char in enumerate(text) if char in ";{}"]
        if current is not None:
            for call in CALL.finditer(text):
                name = call.group(3)
                if name in KEYWORDS or (number == current.line and name == current.name):
                    continue  # the declaration's own name
                qualifier = "new" if call.group(1) else (call.group(2) or "")
                began = number if any(b < call.start() for b in boundaries) else statement
                current.calls.append((began, qualifier, name))
        if boundaries:
            statement = number + 1 if not text[boundaries[-1] + 1 :].strip() else number
        for char in text:
            if char == "{":
                if pending_class:
                    stack.append(("class", pending_class))
                    pending_class = ""
                elif pending_method is not None:
                    stack.append(("method", pending_method))
                    found.append(pending_method)
                    pending_method = None
                else:
                    stack.append(("block", ""))
            elif char == "}" and stack:
                kind, item = stack.pop()
                if kind == "method":
                    item.end = number
            elif char == ";" and pending_method is not None and not in_method:
                pending_method = None  # abstract or interface: no body
    return found


class Graph:
    """Every Java method of the project, by node, with what each calls (resolved by name)."""

    def __init__(self, methods: list[Method]) -> None:
        self.methods: dict[Node, list[Method]] = {}
        self.by_name: dict[str, list[Node]] = {}
        self.classes: dict[str, list[str]] = {}  # simple class name -> files
        for method in methods:
            node = (method.path, method.name)
            if node not in self.methods:
                self.by_name.setdefault(method.name, []).append(node)
            self.methods.setdefault(node, []).append(method)
            files = self.classes.setdefault(method.cls, [])
            if method.path not in files:
                files.append(method.path)
        self._callees: dict[Node, set[Node]] = {}

    def resolve(self, path: str, qualifier: str, name: str) -> list[Node]:
        """The nodes a call `qualifier.name(` in `path` may reach."""
        if qualifier == "new":
            return [(f, name) for f in self.classes.get(name, ()) if (f, name) in self.methods]
        if qualifier in ("", "this") and (path, name) in self.methods:
            return [(path, name)]
        if qualifier[:1].isupper() and not qualifier.isupper():  # a type, not a CONSTANT
            # the project's class (static or inherited), else a library's (`String.format(`)
            return [(f, name) for f in self.classes.get(qualifier, ()) if (f, name) in self.methods]
        return list(self.by_name.get(name, ()))

    def callees(self, node: Node) -> set[Node]:
        if node not in self._callees:
            self._callees[node] = {
                target
                for method in self.methods.get(node, ())
                for _, qualifier, name in method.calls
                for target in self.resolve(node[0], qualifier, name)
                if target != node
            }
        return self._callees[node]

    def reach(self, start: list[Node]) -> dict[Node, int]:
        """Each node reachable from `start` (breadth first, MAX_DEPTH calls), with its distance."""
        seen = {node: 0 for node in start}
        frontier = list(dict.fromkeys(start))
        for depth in range(1, MAX_DEPTH + 1):
            following: list[Node] = []
            for node in frontier:
                for target in self.callees(node):
                    if target not in seen:
                        seen[target] = depth
                        following.append(target)
            frontier = following
        return seen

    def test_method(self, path: str, name: str) -> Method | None:
        """The test method `name` (`testX(Predefined)[1]` is testX) declared in `path`."""
        bare = re.split(r"[(\[{ ]", name, maxsplit=1)[0]
        return next(iter(self.methods.get((path, bare), ())), None)

    def starts(self, method: Method, upto: int | None = None) -> list[Node]:
        """The nodes the calls of `method` (those up to line `upto`) reach first."""
        return [
            target
            for line, qualifier, name in method.calls
            if upto is None or line <= upto
            for target in self.resolve(method.path, qualifier, name)
        ]


def project_graph(index: Any) -> Graph:
    """The graph of the project's Java files that `index` (frames.SourceIndex) found."""
    from sidekit_hooks.core import safepath

    methods: list[Method] = []
    files = sorted({p for p in index.by_tail.values() if p.endswith(".java")})[:MAX_FILES]
    budget = MAX_TOTAL_BYTES
    for path in files:
        try:
            data = safepath.read_inside(index.root, os.path.join(index.root, path), MAX_FILE_BYTES)
        except (OSError, ValueError):
            continue
        budget -= len(data)
        if budget < 0:
            break
        methods += methods_of(path, data.decode("utf-8", "replace").splitlines())
    return Graph(methods)


def place(tests: dict[str, dict[str, Any]], index: Any) -> None:
    """Place, in place, each failing test whose failure has no frame in main code at the main
    method the run's failing tests exercise (see the module's docstring)."""
    stackless = {
        test: entry
        for test, entry in tests.items()
        if entry.get("o") in ("failed", "error")
        and entry.get("f", {}).get("at")
        and in_test_code(str(entry["f"]["at"]))
    }
    if not stackless:
        return
    graph = project_graph(index)
    failing: dict[str, dict[Node, int]] = {}
    spots: dict[str, str] = {}
    passing: list[dict[Node, int]] = []
    for test, entry in tests.items():
        path, _, name = test.rpartition("::")
        method = graph.test_method(path, name)
        if method is None:
            continue
        if test in stackless:
            line = _line_in(entry["f"], path, method)
            if line:
                failing[test] = _main_only(graph.reach(graph.starts(method, line)))
                spots[test] = f"{os.path.basename(path)}:{line}"
        elif entry.get("o") == "passed":
            passing.append(_main_only(graph.reach(graph.starts(method))))
    from sidekit_hooks.runners import suspects

    total = sum(1 for e in tests.values() if e.get("o") in ("failed", "error"))
    for test, node in suspects.assign(failing, passing, total).items():
        method = graph.methods[node][0]
        failure = tests[test]["f"]
        test_name = test.rpartition("::")[2].split("(", 1)[0]
        failure["checks"] = (
            f"{method.cls}.{method.name}, exercised by {test_name}, asserted at {spots[test]}"
        )
        failure["at"] = f"{method.path}:{method.line}"


def _line_in(failure: dict[str, Any], path: str, method: Method) -> int:
    """The failing line inside the test method: its own frame's, else the failure's `at`."""
    for frame in failure.get("frames") or [failure.get("at", "")]:
        where = str(frame).partition(" in ")[0]
        file, _, line = where.rpartition(":")
        if file == path and line.isdigit() and method.line <= int(line) <= method.end:
            return int(line)
    return 0


def _main_only(reached: dict[Node, int]) -> dict[Node, int]:
    return {node: depth for node, depth in reached.items() if not in_test_code(node[0])}
