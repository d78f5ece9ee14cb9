"""Go: the grammar wheel `tree-sitter-go`. A method is named by its receiver's type
(`Reader.Read`)."""

from __future__ import annotations

from sidekit_hooks.code.languages.spec import Spec

IDENTIFIERS = frozenset({"identifier", "field_identifier", "type_identifier", "package_identifier"})
BINDINGS = frozenset(
    {
        ("function_declaration", "name"),
        ("method_declaration", "name"),
        ("type_spec", "name"),
        ("type_alias", "name"),
        ("const_spec", "name"),
        ("var_spec", "name"),
        ("field_declaration", "name"),
        ("parameter_declaration", "name"),
        ("variadic_parameter_declaration", "name"),
        ("method_elem", "name"),
        ("method_spec", "name"),
        ("import_spec", "name"),
        ("type_parameter_declaration", "name"),
        ("package_clause", ""),
        ("short_var_declaration", "left"),
        ("range_clause", "left"),
        ("labeled_statement", "label"),
    }
)
DEFINITIONS = {
    "function_declaration": "function",
    "method_declaration": "method",
    "type_spec": "type",  # `struct` or `interface` by what it declares
    "type_alias": "type",
    "const_spec": "const",
    "var_spec": "variable",
    "method_elem": "method",
    "method_spec": "method",
}
SCOPES = frozenset({"type_spec"})
FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})
SKIPPED = frozenset({"comment", "interpreted_string_literal", "raw_string_literal", "rune_literal"})
IMPORTS = {"import_spec": "path"}


def method_receiver(node: object, source: bytes) -> str:
    """A method's receiver type; "" for a plain function."""
    kind: str = node.type  # type: ignore[attr-defined]
    return receiver_type(node, source) if kind == "method_declaration" else ""


def receiver_type(node: object, source: bytes) -> str:
    """`func (r *Reader) Read()` -> `Reader` (generic receivers `*List[T]` -> `List`)."""
    receiver = node.child_by_field_name("receiver")  # type: ignore[attr-defined]
    if receiver is None:
        return ""
    for parameter in receiver.named_children:
        kind = parameter.child_by_field_name("type")
        while kind is not None and kind.type in (
            "pointer_type",
            "generic_type",
            "parenthesized_type",
        ):
            inner = kind.child_by_field_name("type")
            kind = (
                inner
                if inner is not None
                else (kind.named_children[0] if kind.named_children else None)
            )
        if kind is not None:
            return bytes(source[kind.start_byte : kind.end_byte]).decode("utf-8", "replace")
    return ""


def grammar(path: str) -> object:
    import tree_sitter_go

    return tree_sitter_go.language()


SPEC = Spec(
    id="go",
    package="tree-sitter-go",
    grammar=grammar,
    identifiers=IDENTIFIERS,
    bindings=BINDINGS,
    definitions=DEFINITIONS,
    containers=SCOPES,
    functions=FUNCTIONS,
    skipped=SKIPPED,
    imports=IMPORTS,
    qualifier=lambda node, source: method_receiver(node, source),
)
