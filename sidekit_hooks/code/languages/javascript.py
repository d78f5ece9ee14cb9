"""JavaScript (and JSX, ES modules, CommonJS): the grammar wheel `tree-sitter-javascript`."""

from __future__ import annotations

from sidekit_hooks.code.languages.spec import Spec

IDENTIFIERS = frozenset(
    {
        "identifier",
        "property_identifier",
        "shorthand_property_identifier",
        # `const { retry } = lib`: reads the property it binds
        "shorthand_property_identifier_pattern",
        "private_property_identifier",
        "type_identifier",  # (TypeScript's, shared through `typescript`)
    }
)
BINDINGS = frozenset(
    {
        ("function_declaration", "name"),
        ("generator_function_declaration", "name"),
        ("function_expression", "name"),
        ("class_declaration", "name"),
        ("class", "name"),
        ("method_definition", "name"),
        ("variable_declarator", "name"),
        ("field_definition", "property"),
        ("import_specifier", "alias"),
        ("export_specifier", "alias"),
        ("namespace_import", ""),
        ("formal_parameters", ""),
        ("arrow_function", "parameter"),
        ("catch_clause", "parameter"),
        ("assignment_pattern", "left"),
        ("rest_pattern", ""),
        ("array_pattern", ""),
        ("labeled_statement", "label"),
        ("for_in_statement", "left"),  # `for (const item of items)`: the loop variable, a local
    }
)
DEFINITIONS = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "class_declaration": "class",
    "method_definition": "method",
    "variable_declarator": "variable",  # `function` when its value is one (`const f = () => ...`)
}
SCOPES = frozenset({"class_declaration"})
FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
SKIPPED = frozenset({"comment", "html_comment", "string", "regex", "hash_bang_line"})
IMPORTS = {"import_statement": "source", "export_statement": "source"}


def grammar(path: str) -> object:
    import tree_sitter_javascript

    return tree_sitter_javascript.language()


SPEC = Spec(
    id="js",
    package="tree-sitter-javascript",
    grammar=grammar,
    identifiers=IDENTIFIERS,
    bindings=BINDINGS,
    definitions=DEFINITIONS,
    containers=SCOPES,
    functions=FUNCTIONS,
    skipped=SKIPPED,
    imports=IMPORTS,
)
