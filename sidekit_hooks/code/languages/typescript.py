"""TypeScript and TSX: the grammar wheel `tree-sitter-typescript` (two grammars, chosen by suffix).
What JavaScript has, TypeScript has too; the rest is types: interfaces, aliases, enums,
namespaces."""

from __future__ import annotations

from sidekit_hooks.code.languages import javascript
from sidekit_hooks.code.languages.spec import Spec

BINDINGS = javascript.BINDINGS | {
    ("required_parameter", "pattern"),
    ("optional_parameter", "pattern"),
    ("public_field_definition", "name"),
    ("abstract_class_declaration", "name"),
    ("interface_declaration", "name"),
    ("type_alias_declaration", "name"),
    ("enum_declaration", "name"),
    ("enum_body", "name"),
    ("enum_assignment", "name"),
    ("method_signature", "name"),
    ("abstract_method_signature", "name"),
    ("property_signature", "name"),
    ("function_signature", "name"),
    ("internal_module", "name"),
    ("module", "name"),
    ("type_parameter", "name"),
}
DEFINITIONS = javascript.DEFINITIONS | {
    "abstract_class_declaration": "class",
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
    "function_signature": "function",
    "method_signature": "method",
    "abstract_method_signature": "method",
    "internal_module": "namespace",
}
SCOPES = javascript.SCOPES | {
    "abstract_class_declaration",
    "interface_declaration",
    "internal_module",
}
SKIPPED = javascript.SKIPPED


def grammar(path: str) -> object:
    import tree_sitter_typescript

    return (
        tree_sitter_typescript.language_tsx()
        if path.endswith(".tsx")
        else tree_sitter_typescript.language_typescript()
    )


SPEC = Spec(
    id="ts",
    package="tree-sitter-typescript",
    grammar=grammar,
    identifiers=javascript.IDENTIFIERS,
    bindings=frozenset(BINDINGS),
    definitions=DEFINITIONS,
    containers=frozenset(SCOPES),
    functions=javascript.FUNCTIONS,
    skipped=SKIPPED,
    imports=javascript.IMPORTS,
)
