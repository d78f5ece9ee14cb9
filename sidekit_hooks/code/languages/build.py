"""Facts of one non-Python file from its tree-sitter syntax tree: definitions, references, imports
and normalised function bodies. The index builder's only user of tree-sitter (never imported by a
hook).

One walk over the tree with a cursor, in source order. An identifier is a reference unless it sits
in a binding position of its language (`spec.Spec`); comments and plain strings hold no identifiers
and are not entered, so neither is ever counted. Definitions are collected outside function bodies
only (what is inside a function cannot be addressed from outside), named within their scopes
(`Class.method`).
"""

from __future__ import annotations

import importlib
from typing import Any

from sidekit_hooks.code.languages import MODULE_OF
from sidekit_hooks.code.languages.spec import Spec
from sidekit_hooks.code.parse import Definition, FileFacts, Function, Import

SIGNATURE_CHARS = 60  # as for Python (`code.parse`)
MAX_STRING = 24  # a literal is cut here in a normalised body (as `code.functions`)
MIN_FUNCTION_LINES = 2  # shorter functions are never compared (`code.functions.SHORT_LINES`)
# Nodes that only group their children: an identifier inside one binds or not as the group does
# (`a, b := f()` in Go, `let mut x` and `let (a, b)` in Rust).
TRANSPARENT = frozenset(
    {"expression_list", "mut_pattern", "tuple_pattern", "or_pattern", "ref_pattern"}
)
# Identifier kinds that name a member (`.field`): never a local, never an outside name.
MEMBERS = frozenset({"property_identifier", "field_identifier", "shorthand_field_identifier"})
KIND_OF_TYPE = {
    "struct_type": "struct",
    "interface_type": "interface",
}  # Go's `type X struct {...}`
NOT_METHOD_SCOPES = frozenset({"module", "namespace"})

_specs: dict[str, Spec] = {}
_parsers: dict[tuple[str, str], Any] = {}


class GrammarMissing(Exception):
    """tree-sitter or the language's grammar wheel is not installed (or does not load)."""


def spec_of(language: str) -> Spec:
    spec = _specs.get(language)
    if spec is None:
        module = importlib.import_module(f"sidekit_hooks.code.languages.{MODULE_OF[language]}")
        spec = _specs[language] = module.SPEC
    return spec


def parser_for(spec: Spec, path: str) -> Any:
    """A tree-sitter parser for this file's grammar (kept: one per grammar per process)."""
    try:
        import tree_sitter
    except Exception as exc:  # noqa: BLE001 - the bindings themselves are missing or broken
        raise GrammarMissing(f"tree-sitter: {exc}") from exc
    try:
        # (Keyed by language and suffix, never by the grammar object: a capsule's id is reused once
        # it is freed, and another language's parser would read this file as garbage.)
        key = (spec.id, path[path.rfind(".") :])
        parser = _parsers.get(key)
        if parser is None:
            parser = _parsers[key] = tree_sitter.Parser(tree_sitter.Language(spec.grammar(path)))
        return parser
    # missing, broken, or built for another ABI: not indexed, said why
    except Exception as exc:  # noqa: BLE001
        raise GrammarMissing(f"{spec.package}: {exc}") from exc


def available(language: str) -> str:
    """ "" when the language's grammar loads here, else why not (for `notIndexed` and `sidekit
    doctor`)."""
    spec = spec_of(language)
    try:
        parser_for(spec, "probe")
    except GrammarMissing as exc:
        return str(exc)
    return ""


def facts_of(language: str, path: str, source: bytes) -> FileFacts:
    """The facts of one file. Raises GrammarMissing when its grammar is not installed."""
    spec = spec_of(language)
    tree = parser_for(spec, path).parse(source)
    return _Walk(spec, source).run(tree)


class _Frame:
    __slots__ = ("kind", "field", "scope", "function", "collect")

    def __init__(self, kind: str, field: str) -> None:
        self.kind = kind
        self.field = field
        self.scope = False  # this node opened a scope (a class, an impl)
        self.function = False  # this node is a function: no definitions below it
        self.collect: _Body | None = None  # the function body whose tokens end with this node


class _Body:
    """A function's normalised tokens, gathered as the walk passes through it."""

    __slots__ = ("qualname", "line", "signature", "tokens", "local", "outside")

    def __init__(self, qualname: str, line: int, signature: str) -> None:
        self.qualname = qualname
        self.line = line
        self.signature = signature
        self.tokens: list[str] = []
        self.local: dict[str, str] = {}
        self.outside: set[str] = set()


class _Walk:
    def __init__(self, spec: Spec, source: bytes) -> None:
        self.spec = spec
        self.source = source
        self.facts = FileFacts()
        self.scopes: list[tuple[str, str]] = []  # (name, kind) of the open scopes
        self.in_function = 0
        self.body: _Body | None = None

    def text(self, node: Any) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def run(self, tree: Any) -> FileFacts:
        spec, facts = self.spec, self.facts
        identifiers, skipped, bindings = spec.identifiers, spec.skipped, spec.bindings
        watched = spec.definitions.keys() | spec.containers | spec.functions | spec.imports.keys()
        references = facts.references
        cursor = tree.walk()
        # One entry per node the walk is inside: (kind, field, state). The field is read only where
        # it is used (an identifier's, a transparent group's) and a _Frame is made only for a node
        # that can open or close something: a cold build visits millions of nodes, most of them
        # leaves.
        frames: list[tuple[str, str, _Frame | None]] = []
        push, pop = frames.append, frames.pop
        first_child, next_sibling, up = (
            cursor.goto_first_child,
            cursor.goto_next_sibling,
            cursor.goto_parent,
        )
        source = self.source
        while True:
            node = cursor.node
            kind = node.type
            if kind in identifiers:
                field = cursor.field_name or ""
                name = source[node.start_byte : node.end_byte].decode("utf-8", "replace")
                if frames:
                    parent_kind, parent_field, _ = frames[-1]
                    if parent_kind in TRANSPARENT and len(frames) > 1:
                        position = (frames[-2][0], parent_field)
                    else:
                        position = (parent_kind, field)
                else:
                    position = ("", "")
                bound = position in bindings
                if not bound:
                    references.append((name, node.start_point[0] + 1))
                if self.body is not None:
                    self._token_name(
                        name, "property_identifier" if position in spec.members else kind, bound
                    )
                state = None
            elif kind in skipped:
                if self.body is not None and "comment" not in kind:
                    self._token_literal(self.text(node))
                state = None
            else:
                state = None
                if kind in watched:
                    state = _Frame(kind, "")
                    self._enter(node, kind, state)
                field = cursor.field_name or "" if kind in TRANSPARENT else ""
                if first_child():
                    push((kind, field, state))
                    continue
                if self.body is not None and node.child_count == 0:
                    self._token_leaf(node, kind)
            if state is not None and (state.collect is not None or state.scope or state.function):
                self._leave(state, node)
            while not next_sibling():
                if not up():
                    facts.imports.sort(key=lambda item: item.line)
                    return facts
                done = pop()[2]
                if done is not None and (done.collect is not None or done.scope or done.function):
                    self._leave(done, cursor.node)

    # definitions, scopes, imports
    def _enter(self, node: Any, kind: str, frame: _Frame) -> None:
        spec = self.spec
        if kind in spec.imports:
            field = spec.imports[kind]
            if field:
                target = node.child_by_field_name(field)
                module = self.text(target).strip("\"'`") if target is not None else ""
            # Java: `import static a.b.C.member;`, `import a.b.*;` -> what follows `import`, whole
            else:
                words = self.text(node).removesuffix(";").split()
                module = "".join(word for word in words[1:] if word != "static")
            if module:
                self.facts.imports.append(Import(module, "", "", node.start_point[0] + 1))
        defined = spec.definitions.get(kind)
        if defined is not None and not self.in_function:
            self._define(node, kind, defined, frame)
        if kind in spec.functions:
            frame.function = True
            self.in_function += 1

    def _define(self, node: Any, kind: str, defined: str, frame: _Frame) -> None:
        spec = self.spec
        qualifier = spec.qualifier(node, self.source) if spec.qualifier else ""
        if defined == "impl":  # a scope only
            if qualifier:
                self.scopes.append((qualifier, "class"))
                frame.scope = True
            return
        names = [n for n in node.children_by_field_name("name") if n.type in spec.identifiers]
        if not names:
            return  # (`export default class {}`, a destructuring `const {a, b} = ...`)
        name = self.text(names[0])
        scope = [qualifier] if qualifier else [s for s, _ in self.scopes]
        qualname = ".".join([*scope, name])
        value = node.child_by_field_name("value")
        if defined == "variable" and value is not None and value.type in spec.functions:
            defined = "function"
            function_node: Any = value
        else:
            function_node = node
        if defined == "type":
            declared = node.child_by_field_name("type")
            defined = KIND_OF_TYPE.get(declared.type, "type") if declared is not None else "type"
        if (
            defined == "function"
            and scope
            and (qualifier or self.scopes[-1][1] not in NOT_METHOD_SCOPES)
        ):
            defined = "method"
        line = (
            names[0].start_point[0] + 1
        )  # the name's line, as Python's `def` line (not an annotation's above)
        signature = ""
        if defined in ("function", "method"):
            parameters = function_node.child_by_field_name(
                "parameters"
            ) or function_node.child_by_field_name("parameter")
            if parameters is not None:
                signature = " ".join(self.text(parameters).split())
                if len(signature) > SIGNATURE_CHARS:
                    signature = signature[: SIGNATURE_CHARS - 2] + "…)"
            end = node.end_point[0] + 1
            if self.body is None and end - line + 1 >= MIN_FUNCTION_LINES:
                self.body = frame.collect = _Body(qualname, line, signature)
        self.facts.definitions.append(Definition(qualname, defined, line, signature))
        for extra in names[1:]:  # Go's `const A, B = 1, 2`: one definition each
            self.facts.definitions.append(
                Definition(".".join([*scope, self.text(extra)]), defined, line)
            )
        if kind in spec.containers:
            self.scopes.append((name, defined))
            frame.scope = True

    def _leave(self, frame: _Frame, node: Any) -> None:
        if frame.function:
            self.in_function -= 1
        if frame.scope:
            self.scopes.pop()
        body = frame.collect
        if body is not None:
            self.body = None
            self.facts.functions.append(
                Function(
                    body.qualname,
                    body.line,
                    node.end_point[0] + 1,
                    body.signature,
                    " ".join(body.tokens),
                    " ".join(sorted(body.outside)),
                )
            )

    # normalised bodies
    def _token_name(self, name: str, kind: str, bound: bool) -> None:
        body = self.body
        assert body is not None
        if kind in MEMBERS:
            body.tokens.append("." + name)
            return
        if name == body.qualname.rsplit(".", 1)[-1]:
            body.tokens.append(
                "<self>"
            )  # its own name, declared or called: a copy under another name matches
            return
        if bound and name not in body.local:
            body.local[name] = f"v{len(body.local) + 1}"
        local = body.local.get(name)
        if local is None:
            body.outside.add(name)
            body.tokens.append(name)
        else:
            body.tokens.append(local)

    def _token_literal(self, text: str) -> None:
        assert self.body is not None
        self.body.tokens.append("_".join(text[:MAX_STRING].split()) or "''")

    def _token_leaf(self, node: Any, kind: str) -> None:
        """A keyword or punctuation is its kind; a named leaf (a number, `true`, `this`) its
        text."""
        if "comment" in kind or self.body is None:
            return
        if node.is_named:
            self._token_literal(self.text(node))
        else:
            self.body.tokens.append(kind)
