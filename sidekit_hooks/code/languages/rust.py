"""Rust: the grammar wheel `tree-sitter-rust`. A function in `impl Type` is `Type.function`."""

from __future__ import annotations

from sidekit_hooks.code.languages.spec import Spec

IDENTIFIERS = frozenset(
    {"identifier", "field_identifier", "type_identifier", "shorthand_field_identifier"}
)
BINDINGS = frozenset(
    {
        ("function_item", "name"),
        ("function_signature_item", "name"),
        ("struct_item", "name"),
        ("enum_item", "name"),
        ("union_item", "name"),
        ("trait_item", "name"),
        ("type_item", "name"),
        ("const_item", "name"),
        ("static_item", "name"),
        ("mod_item", "name"),
        ("macro_definition", "name"),
        ("enum_variant", "name"),
        ("field_declaration", "name"),
        ("let_declaration", "pattern"),
        ("parameter", "pattern"),
        ("closure_parameters", ""),
        ("use_as_clause", "alias"),
        ("type_parameter", "name"),
        ("type_parameters", ""),
        ("constrained_type_parameter", "left"),
        ("for_expression", "pattern"),
        ("associated_type", "name"),
    }
)
DEFINITIONS = {
    "function_item": "function",
    "function_signature_item": "function",
    "struct_item": "struct",
    "union_item": "struct",
    "enum_item": "enum",
    "trait_item": "trait",
    "type_item": "type",
    "const_item": "const",
    "static_item": "const",
    "mod_item": "module",
    "macro_definition": "macro",
    "impl_item": "impl",  # not a definition itself: the scope of its functions (see `build`)
}
SCOPES = frozenset({"impl_item", "trait_item", "mod_item"})
FUNCTIONS = frozenset({"function_item", "closure_expression"})
SKIPPED = frozenset(
    {"line_comment", "block_comment", "string_literal", "raw_string_literal", "char_literal"}
)
IMPORTS = {"use_declaration": "argument", "extern_crate_declaration": "name"}


def impl_type(node: object, source: bytes) -> str:
    """`impl<T> Trait for Stack<T>` -> `Stack`."""
    if node.type != "impl_item":  # type: ignore[attr-defined]
        return ""
    kind = node.child_by_field_name("type")  # type: ignore[attr-defined]
    while kind is not None and kind.type in (
        "generic_type",
        "reference_type",
        "scoped_type_identifier",
    ):
        inner = kind.child_by_field_name("type") or kind.child_by_field_name("name")
        if inner is None:
            break
        kind = inner
    return (
        ""
        if kind is None
        else bytes(source[kind.start_byte : kind.end_byte]).decode("utf-8", "replace")
    )


def grammar(path: str) -> object:
    import tree_sitter_rust

    return tree_sitter_rust.language()


SPEC = Spec(
    id="rust",
    package="tree-sitter-rust",
    grammar=grammar,
    identifiers=IDENTIFIERS,
    bindings=BINDINGS,
    definitions=DEFINITIONS,
    containers=SCOPES,
    functions=FUNCTIONS,
    skipped=SKIPPED,
    imports=IMPORTS,
    qualifier=impl_type,
)
