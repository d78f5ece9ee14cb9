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


@dataclass(frozen=True)
class Function:
    """A function's normalised body, for the tools sidecar's "this repeats a helper" (see
    `code.functions`): the tokens in source order with its locals renamed v1, v2... by first
    binding, and the outside names it reads. Filled by the tree-sitter languages
    (`code.languages.build`); Python keeps its own index."""

    qualname: str
    line: int
    end: int
    signature: str
    tokens: str  # space-separated
    outside: str  # space-separated, sorted


@dataclass
class FileFacts:
    definitions: list[Definition] = field(default_factory=list)
    references: list[tuple[str, int]] = field(default_factory=list)  # (name, line)
    imports: list[Import] = field(default_factory=list)
    functions: list[Function] = field(default_factory=list)


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


_SCOPES = (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While)


def _definitions(body: list[ast.stmt], scope: list[str], found: list[Definition]) -> None:
    """Classes, functions, methods and module-level names, in document order. Nested functions and
    what is inside them are not addressable from outside, so they are not visited."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            qualname = ".".join([*scope, node.name])
            found.append(
                Definition(
                    qualname, "method" if scope else "function", node.lineno, _signature(node)
                )
            )
        elif isinstance(node, ast.ClassDef):
            found.append(Definition(".".join([*scope, node.name]), "class", node.lineno))
            _definitions(node.body, [*scope, node.name], found)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and not scope:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                        found.append(Definition(name.id, "variable", node.lineno))
        elif isinstance(
            node, _SCOPES
        ):  # `if TYPE_CHECKING:`, `try: import x`, `with suppress(...)`
            for branch in ("body", "orelse", "finalbody"):
                _definitions(getattr(node, branch, []), scope, found)
            for handler in getattr(node, "handlers", []):
                _definitions(handler.body, scope, found)


# Fields that never hold a node worth visiting: names and numbers, expression contexts, operators.
_LEAF_FIELDS = frozenset(
    {
        "ctx",
        "op",
        "id",
        "attr",
        "name",
        "module",
        "level",
        "arg",
        "kind",
        "type_comment",
        "asname",
        "conversion",
        "is_async",
        "simple",
        "lineno",
        "col_offset",
        "end_lineno",
        "end_col_offset",
        "tag",
    }
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        fields = _CHILD_FIELDS[cls] = tuple(
            f for f in getattr(cls, "_fields", ()) if f not in _LEAF_FIELDS
        )
    return fields


def facts_of(source: bytes, own_module: str = "", is_package: bool = False) -> FileFacts:
    """Definitions, references and imports of one file. Raises SyntaxError/ValueError when it does
    not parse.

    One walk over the tree, by hand (the index parses whole workspaces: `ast.walk` visits every
    context and operator node through two generators per node, and cost twice as much).
    """
    tree = ast.parse(source)
    facts = FileFacts()
    aliases: dict[
        str, tuple[int, str]
    ] = {}  # local alias -> (line, the name it imports): the last one wins
    used: list[tuple[str, int]] = []  # names and attributes, before aliases are resolved
    name_type, attribute_type, store_type = ast.Name, ast.Attribute, ast.Store
    import_type, import_from_type, constant_type = ast.Import, ast.ImportFrom, ast.Constant
    stack: list[object] = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        cls = node.__class__
        if cls is name_type:
            if node.ctx.__class__ is not store_type:  # type: ignore[attr-defined]
                used.append((node.id, node.lineno))  # type: ignore[attr-defined]
            continue
        if cls is attribute_type:
            used.append((node.attr, node.end_lineno or node.lineno))  # type: ignore[attr-defined]
            push(node.value)  # type: ignore[attr-defined]
            continue
        if cls is constant_type:
            continue
        if cls is import_type:
            _import(node, facts, aliases)  # type: ignore[arg-type]
            continue
        if cls is import_from_type:
            _import_from(node, facts, aliases, own_module, is_package)  # type: ignore[arg-type]
            continue
        for child in _CHILD_FIELDS.get(cls) or _child_fields(cls):
            value = getattr(node, child, None)
            if value.__class__ is list:
                extend(value)
            elif value is not None:
                push(value)
    imported = {alias: name for alias, (_, name) in aliases.items()}
    facts.references.extend((imported.get(name, name), line) for name, line in used)
    facts.imports.sort(key=lambda item: item.line)
    _definitions(tree.body, [], facts.definitions)
    return facts


def _alias(aliases: dict[str, tuple[int, str]], alias: str, name: str, line: int) -> None:
    """`try: from a import x as y / except: from b import z as y`: the later statement names `y`."""
    if line >= aliases.get(alias, (0, ""))[0]:
        aliases[alias] = (line, name)


def _import(node: ast.Import, facts: FileFacts, aliases: dict[str, tuple[int, str]]) -> None:
    for alias in node.names:
        bound = alias.asname or alias.name.split(".", 1)[0]
        facts.imports.append(Import(alias.name, "", bound, node.lineno))
        for part in alias.name.split("."):  # `import a.b` uses both `a` and `a.b`
            facts.references.append((part, node.lineno))
        if alias.asname:
            _alias(aliases, alias.asname, alias.name.rsplit(".", 1)[-1], node.lineno)


def _import_from(
    node: ast.ImportFrom,
    facts: FileFacts,
    aliases: dict[str, tuple[int, str]],
    own_module: str,
    is_package: bool,
) -> None:
    module = _resolve(node.module, node.level, own_module, is_package)
    if node.module:
        facts.references.append((node.module.rsplit(".", 1)[-1], node.lineno))
    for alias in node.names:
        if alias.name == "*":
            facts.imports.append(Import(module, "*", "*", node.lineno))
            continue
        facts.imports.append(Import(module, alias.name, alias.asname or alias.name, node.lineno))
        facts.references.append((alias.name, node.lineno))
        if alias.asname:
            _alias(aliases, alias.asname, alias.name, node.lineno)
