"""What one Python file defines, references and imports, read from its AST.

References come from names, attributes and import statements only: never comments or strings.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

SIGNATURE_CHARS = 60  # enough to recognise an overload; the file holds the rest


@dataclass(frozen=True)
class Definition:
    qualname: str  # `f`, `Class`, `Class.method`, `Outer.Inner.method`, `NAME`
    kind: str  # class | function | method | variable
    line: int
    signature: str = ""

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class Import:
    module: str  # absolute module, relative imports resolved against the file's package
    name: str  # the imported name for `from m import name`, "" for `import m`
    alias: str  # the local name it is bound to
    line: int


@dataclass
class FileFacts:
    definitions: list[Definition] = field(default_factory=list)
    references: list[tuple[str, int]] = field(default_factory=list)  # (name, line)
    imports: list[Import] = field(default_factory=list)


def module_name(path: str, packages: frozenset[str]) -> str:
    """`pkg/sub/mod.py` -> `pkg.sub.mod`, climbing only through folders that hold `__init__.py`.

    `packages` is the set of project-relative folders that have an `__init__.py`.
    """
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    folders = path.split("/")[:-1]
    start = len(folders)
    while start > 0 and "/".join(folders[:start]) in packages:
        start -= 1
    return ".".join(parts[start:]) or parts[-1] if parts else ""


def _resolve(module: str | None, level: int, own_module: str, is_package: bool) -> str:
    if not level:
        return module or ""
    package = own_module.split(".") if is_package else own_module.split(".")[:-1]
    if level > 1:
        package = package[: len(package) - (level - 1)]
    return ".".join(package + ([module] if module else []))


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    text = "(" + ast.unparse(node.args) + ")"
    return text if len(text) <= SIGNATURE_CHARS else text[: SIGNATURE_CHARS - 2] + "…)"


class _Collector(ast.NodeVisitor):
    def __init__(self, own_module: str, is_package: bool) -> None:
        self.facts = FileFacts()
        self.own_module = own_module
        self.is_package = is_package
        self.scope: list[tuple[str, str]] = []  # (name, "class" | "function")
        self.aliases: dict[str, str] = {}  # local alias -> original imported name

    # definitions
    def _define_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if all(kind == "class" for _, kind in self.scope):  # nested functions are not addressable
            qualname = ".".join([name for name, _ in self.scope] + [node.name])
            kind = "method" if self.scope else "function"
            self.facts.definitions.append(Definition(qualname, kind, node.lineno, _signature(node)))
        self.scope.append((node.name, "function"))
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = _define_function
    visit_AsyncFunctionDef = _define_function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if all(kind == "class" for _, kind in self.scope):
            qualname = ".".join([name for name, _ in self.scope] + [node.name])
            self.facts.definitions.append(Definition(qualname, "class", node.lineno))
        self.scope.append((node.name, "class"))
        self.generic_visit(node)
        self.scope.pop()

    def _module_level_targets(self, targets: list[ast.expr], line: int) -> None:
        if self.scope:
            return
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    self.facts.definitions.append(Definition(node.id, "variable", line))

    def visit_Assign(self, node: ast.Assign) -> None:
        self._module_level_targets(node.targets, node.lineno)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._module_level_targets([node.target], node.lineno)
        self.generic_visit(node)

    # references
    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Store):
            self.facts.references.append((self.aliases.get(node.id, node.id), node.lineno))

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.facts.references.append((node.attr, node.end_lineno or node.lineno))
        self.generic_visit(node)

    # imports
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            last = alias.name.rsplit(".", 1)[-1]
            bound = alias.asname or alias.name.split(".", 1)[0]
            self.facts.imports.append(Import(alias.name, "", bound, node.lineno))
            for part in alias.name.split("."):  # `import a.b` uses both `a` and `a.b`
                self.facts.references.append((part, node.lineno))
            if alias.asname:
                self.aliases[alias.asname] = last

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = _resolve(node.module, node.level, self.own_module, self.is_package)
        if node.module:
            self.facts.references.append((node.module.rsplit(".", 1)[-1], node.lineno))
        for alias in node.names:
            if alias.name == "*":
                self.facts.imports.append(Import(module, "*", "*", node.lineno))
                continue
            self.facts.imports.append(Import(module, alias.name, alias.asname or alias.name, node.lineno))
            self.facts.references.append((alias.name, node.lineno))
            if alias.asname:
                self.aliases[alias.asname] = alias.name


def facts_of(source: bytes, own_module: str = "", is_package: bool = False) -> FileFacts:
    """Definitions, references and imports of one file. Raises SyntaxError/ValueError when it does not parse."""
    tree = ast.parse(source)
    collector = _Collector(own_module, is_package)
    # Aliases first, so a name used above a late import still maps to what it imports.
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.asname:
                    collector.aliases[alias.asname] = alias.name.rsplit(".", 1)[-1]
    collector.visit(tree)
    return collector.facts
