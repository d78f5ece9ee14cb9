"""The function of the code under test that a run's assertion failures share, found after the run.

runners/pytest/subject.py places a failing assert at the project function its test called
(`unidecode_expect_ascii`); two public functions over one broken helper are still two clusters
(Unidecode 1.3.8's planted bug in `_get_repl_str`: 20 failures at `unidecode_expect_ascii`, 10 at
`unidecode_expect_nonascii`). Once the run has ended, a static call graph of the project's Python
files (`ast`: nothing of the repository runs) says what each test reaches: a failure placed at a
function, from that function; a failure left in test code, from the calls of its test function up
to the failing line; a passing test, from its whole body. runners/suspects.py then names the
function the failing tests share and few passing ones reach, and each failure that reaches it is
placed there, `checks` saying how (`"_unidecode through unidecode_expect_ascii, asserted at …"`).

The sources are read once the run has ended, within MAX_TOTAL_BYTES and MAX_SECONDS (past them,
and for a run with one such failure, nothing moves). Calls are resolved by name: a function of the module or one it imports from the project, a class
(its `__init__`), `module.f` for an imported project module, `self.f` for the class's own method;
an attribute of anything else, to every project function of that name; of an imported module from
outside the project (`os.path.join`), to nothing.
"""

from __future__ import annotations

import ast

from sidekit_hooks.status.clusters import in_test_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 6
MAX_FILES = 3000
MAX_FILE_BYTES = 1 << 20
# the run's own process reads the sources after its last test: past these, the failures stay where
# the subject placed them (a large repository would make every red run that much slower). The time
# is a safety net; the bytes decide (measured: Unidecode's 0.8 MB in 0.26 s; this repository's
# 4.3 MB in 3.8 s, on 2 cores at a load of about 15).
MAX_SECONDS = 3.0
MAX_TOTAL_BYTES = 8 << 20
SKIP = frozenset(
    {"node_modules", "site-packages", "build", "dist", "__pycache__", "venv", "env", ".tox"}
)

Node = tuple[str, str]  # (project file, qualified name: `f`, `Class.method`)


class Function:
    """One `def`: where it is, and the calls in its body as (statement line, owner, name)."""

    __slots__ = ("path", "qualname", "line", "calls")

    def __init__(self, path: str, qualname: str, line: int) -> None:
        self.path, self.qualname, self.line = path, qualname, line
        self.calls: list[tuple[int, str, str]] = []


class Module:
    """One file's functions and what its imports bind: name -> (module, attribute or '')."""

    def __init__(self, path: str, name: str) -> None:
        self.path, self.name = path, name
        self.functions: dict[str, Function] = {}
        self.imports: dict[str, tuple[str, str]] = {}
        self.classes: set[str] = set()


def read_module(path: str, name: str, source: str) -> Module:
    """The functions of one file with their calls, and its imports (a file that does not parse: no
    functions)."""
    module = Module(path, name)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return module
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    for statement in ast.walk(tree):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                bound = alias.asname or alias.name.split(".")[0]
                module.imports[bound] = (alias.name if alias.asname else bound, "")
        elif isinstance(statement, ast.ImportFrom):
            base = _absolute_module(statement, package)
            for alias in statement.names:
                module.imports[alias.asname or alias.name] = (base, alias.name)
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
            _add(module, top, top.name)
        elif isinstance(top, ast.ClassDef):
            module.classes.add(top.name)
            for item in top.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    _add(module, item, f"{top.name}.{item.name}")
    return module


def _absolute_module(statement: ast.ImportFrom, package: str) -> str:
    if not statement.level:
        return statement.module or ""
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (statement.level - 1)] if statement.level > 1 else parts
    return ".".join([*base, *([statement.module] if statement.module else [])])


def _add(module: Module, definition: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str) -> None:
    function = Function(module.path, qualname, definition.lineno)
    for statement in ast.walk(definition):
        if not isinstance(statement, ast.stmt) or statement is definition:
            continue
        for node in ast.iter_child_nodes(statement):
            if isinstance(node, ast.stmt):
                continue  # a nested statement is walked on its own
            for call in ast.walk(node):
                if isinstance(call, ast.Call):
                    owner, name = _callee(call.func)
                    if name:
                        function.calls.append((statement.lineno, owner, name))
    module.functions[qualname] = function


def _callee(func: ast.expr) -> tuple[str, str]:
    """(owner, name) of `f(` ('' and f), `a.f(` (a and f), `a.b.f(` (a.b and f)."""
    if isinstance(func, ast.Name):
        return "", func.id
    if isinstance(func, ast.Attribute):
        parts = [func.attr]
        value = func.value
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        owner = ".".join([value.id, *reversed(parts[1:])]) if isinstance(value, ast.Name) else "?"
        return owner, func.attr
    return "", ""


class Graph:
    """The project's Python functions, by node, with what each call may reach."""

    def __init__(self, modules: list[Module]) -> None:
        self.modules = {m.name: m for m in modules}
        self.by_path = {m.path: m for m in modules}
        self.by_name: dict[str, list[Node]] = {}
        self.functions: dict[Node, Function] = {}
        for module in modules:
            for qualname, function in module.functions.items():
                node = (module.path, qualname)
                self.functions[node] = function
                self.by_name.setdefault(qualname.rpartition(".")[2], []).append(node)
        self._callees: dict[Node, set[Node]] = {}

    def resolve(self, module: Module, owner: str, name: str, cls: str = "") -> list[Node]:
        if not owner:
            return self._named(module, name)
        if owner in ("self", "cls") and cls and (module.path, f"{cls}.{name}") in self.functions:
            return [(module.path, f"{cls}.{name}")]
        head = owner.split(".")[0]
        if head in module.imports:
            target, attribute = module.imports[head]
            dotted = ".".join(filter(None, [target, attribute, *owner.split(".")[1:]]))
            if dotted in self.modules:
                return self._named(self.modules[dotted], name)
            if target.split(".")[0] not in self._roots():
                return []  # a library's module (`os.path.join`)
        return list(self.by_name.get(name, ()))

    def _roots(self) -> set[str]:
        return {name.split(".")[0] for name in self.modules}

    def _named(self, module: Module, name: str, seen: int = 0) -> list[Node]:
        """`name` as `module` binds it: its own function or class, or one it imports."""
        if name in module.functions:
            return [(module.path, name)]
        if name in module.classes:
            init = (module.path, f"{name}.__init__")
            return [init] if init in self.functions else []
        if name in module.imports and seen < 3:
            target, attribute = module.imports[name]
            if attribute and target in self.modules:
                return self._named(self.modules[target], attribute, seen + 1)
        return []

    def callees(self, node: Node) -> set[Node]:
        if node not in self._callees:
            function = self.functions[node]
            module = self.by_path[node[0]]
            cls = node[1].rpartition(".")[0]
            self._callees[node] = {
                target
                for _, owner, name in function.calls
                for target in self.resolve(module, owner, name, cls)
                if target != node
            }
        return self._callees[node]

    def starts(self, node: Node, upto: int | None = None) -> list[Node]:
        function = self.functions[node]
        module = self.by_path[node[0]]
        cls = node[1].rpartition(".")[0]
        return [
            target
            for line, owner, name in function.calls
            if upto is None or line <= upto
            for target in self.resolve(module, owner, name, cls)
        ]

    def reach(self, start: list[Node]) -> dict[Node, int]:
        """Each function of the code under test reachable from `start`, with its distance."""
        from sidekit_hooks.runners import suspects

        seen = suspects.reach(start, self.callees, MAX_DEPTH)
        return {node: depth for node, depth in seen.items() if not in_test_code(node[0])}

    def defined_at(self, at: str) -> Node | None:
        """The function whose `def` is at `path:line`."""
        path, _, line = at.rpartition(":")
        module = self.by_path.get(path)
        if module is None or not line.isdigit():
            return None
        return next(
            ((path, q) for q, f in module.functions.items() if f.line == int(line)),
            None,
        )


def project_graph(root: str) -> Graph | None:
    """The graph of the project's Python files (regular files, no links, MAX_FILES of them), or
    None when they are over MAX_TOTAL_BYTES or reading them takes over MAX_SECONDS."""
    import time

    from sidekit_hooks.runners import suspects

    deadline = time.monotonic() + MAX_SECONDS
    limits = (MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES)
    sources = suspects.read_sources(root, ".py", SKIP, deadline, limits)
    if sources is None:
        return None
    modules: list[Module] = []
    for rel, text in sources:
        if time.monotonic() > deadline:  # parsing is most of the time (4.3 MB: 3.8 s here)
            return None
        name = rel[: -len(".py")].replace("/", ".").removesuffix(".__init__")
        modules.append(read_module(rel, name, text))
    return Graph(modules)


def test_node(graph: Graph, test: str) -> Node | None:
    """The test function of a node id (`tests/test_x.py::TestY::test_z[1]`)."""
    path, _, rest = test.partition("::")
    names = [part.split("[", 1)[0] for part in rest.split("::") if part]
    if not names:
        return None
    node = (path, ".".join(names[-2:]) if len(names) > 1 else names[0])
    if node in graph.functions:
        return node
    # a test inherited from a base class in the same file: `TestY::test_z` defined on the base
    return next(
        (n for n in graph.functions if n[0] == path and n[1].endswith("." + names[-1])), None
    )


def place(tests: dict[str, dict[str, Any]], root: str) -> None:
    """Place, in place, the failures of this run that stopped in test code or at a function a test
    called, at the function of the code under test that the failing tests share."""
    from sidekit_hooks.runners import suspects

    candidates = {
        test: entry["f"]
        for test, entry in tests.items()
        if entry.get("o") in ("failed", "error")
        and entry.get("p", "call") == "call"
        and isinstance(entry.get("f"), dict)
        and (entry["f"].get("checks") or in_test_code(str(entry["f"].get("at", ""))))
    }
    if len(candidates) < 2:
        return  # one failure has nothing to share
    graph = project_graph(root)
    if graph is None:
        return
    failing: dict[str, dict[Node, int]] = {}
    passing: list[dict[Node, int]] = []
    for test, entry in tests.items():
        node = test_node(graph, test)
        if test in candidates:
            failure = candidates[test]
            placed = graph.defined_at(str(failure.get("at", ""))) if failure.get("checks") else None
            if placed is not None:
                failing[test] = graph.reach([placed])
            elif node is not None:
                failing[test] = graph.reach(graph.starts(node, _line_in(failure, node)))
        elif entry.get("o") == "passed" and node is not None:
            passing.append(graph.reach(graph.starts(node)))
    total = sum(1 for e in tests.values() if e.get("o") in ("failed", "error"))
    for test, found in suspects.assign(failing, passing, total).items():
        failure = candidates[test]
        function = graph.functions[found]
        at = f"{function.path}:{function.line}"
        if at == failure.get("at"):
            continue
        name = function.qualname
        checks = str(failure.get("checks", ""))
        failure["checks"] = (
            f"{name} through {checks}"
            if checks
            else f"{name}, exercised by {test.rpartition('::')[2]}, asserted at {failure.get('at')}"
        )
        failure["at"] = failure["frame"] = at


def _line_in(failure: dict[str, Any], node: Node) -> int | None:
    """The failing line in the test function: its own frame's (`path:line in name`), else `at`'s."""
    for frame in failure.get("frames") or ():
        where, _, name = str(frame).partition(" in ")
        path, _, line = where.rpartition(":")
        if path == node[0] and name == node[1].rpartition(".")[2] and line.isdigit():
            return int(line)
    line = str(failure.get("at", "")).rpartition(":")[2]
    return int(line) if line.isdigit() else None
