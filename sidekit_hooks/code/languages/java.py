"""Java: the grammar wheel `tree-sitter-java`. Methods and fields are named within their class."""

from __future__ import annotations

from sidekit_hooks.code.languages.spec import Spec

IDENTIFIERS = frozenset({"identifier", "type_identifier"})
BINDINGS = frozenset(
    {
        ("class_declaration", "name"),
        ("interface_declaration", "name"),
        ("enum_declaration", "name"),
        ("record_declaration", "name"),
        ("annotation_type_declaration", "name"),
        ("annotation_type_element_declaration", "name"),
        ("method_declaration", "name"),
        ("constructor_declaration", "name"),
        ("compact_constructor_declaration", "name"),
        ("variable_declarator", "name"),
        ("formal_parameter", "name"),
        ("catch_formal_parameter", "name"),
        ("enhanced_for_statement", "name"),  # `for (String word : words)`: the loop variable
        ("enum_constant", "name"),
        ("type_parameter", ""),
        ("lambda_expression", "parameters"),
        ("inferred_parameters", ""),
        ("resource", "name"),
        ("labeled_statement", ""),
    }
)
DEFINITIONS = {
    "class_declaration": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "class",
    "annotation_type_declaration": "interface",
    "method_declaration": "method",
    "constructor_declaration": "method",
    # `String value() default "";` in an @interface
    "annotation_type_element_declaration": "method",
    "variable_declarator": "variable",
    "enum_constant": "const",
}
SCOPES = frozenset(
    {
        "class_declaration",
        "interface_declaration",
        "enum_declaration",
        "record_declaration",
        "annotation_type_declaration",
    }
)
FUNCTIONS = frozenset(
    {
        "method_declaration",
        "constructor_declaration",
        "compact_constructor_declaration",
        "lambda_expression",
    }
)
SKIPPED = frozenset(
    {"line_comment", "block_comment", "string_literal", "character_literal", "text_block"}
)
IMPORTS = {"import_declaration": ""}


def grammar(path: str) -> object:
    import tree_sitter_java

    return tree_sitter_java.language()


SPEC = Spec(
    id="java",
    package="tree-sitter-java",
    grammar=grammar,
    identifiers=IDENTIFIERS,
    bindings=BINDINGS,
    definitions=DEFINITIONS,
    containers=SCOPES,
    functions=FUNCTIONS,
    skipped=SKIPPED,
    members=frozenset({("field_access", "field"), ("method_invocation", "name")}),
    imports=IMPORTS,
)
