"""The languages the code index reads besides Python, one module each (`typescript`, `go`, ...).

A language module is plain data: its id, file suffixes, the grammar wheel that parses it and which
syntax nodes are definitions, references, bindings and imports (see `spec.Spec`). `build` turns any
of them into the index's facts with tree-sitter. This package and the language modules import
nothing beyond the standard library; tree-sitter and the grammars are imported by `build` only,
which runs in the index builder (a background worker or a CLI query), never in a hook. Adding a
language is adding its module to `MODULES`.
"""

from __future__ import annotations

# of what the extractors read: a change rebuilds every index (code.index.SCHEMA_VERSION)
VERSION = 6
PYTHON = "py"  # read by `code.parse` (the standard library's own parser), not by tree-sitter
MODULES = ("typescript", "javascript", "go", "rust", "java")

# suffix -> language id; kept here as data so that listing files never imports a language module.
SUFFIXES: dict[str, str] = {
    ".py": PYTHON,
    ".ts": "ts",
    ".mts": "ts",
    ".cts": "ts",
    ".tsx": "ts",
    ".js": "js",
    ".mjs": "js",
    ".cjs": "js",
    ".jsx": "js",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
}
INDEXED = tuple(SUFFIXES)  # for str.endswith
# language id -> the module its grammar wheel installs (found without loading it: `code.index`)
GRAMMAR_MODULES = {
    "ts": "tree_sitter_typescript",
    "js": "tree_sitter_javascript",
    "go": "tree_sitter_go",
    "rust": "tree_sitter_rust",
    "java": "tree_sitter_java",
}
MODULE_OF = {"ts": "typescript", "js": "javascript", "go": "go", "rust": "rust", "java": "java"}


def language_of(path: str) -> str:
    """The language id of a path by its suffix ("" for a file the index does not read)."""
    dot = path.rfind(".")
    return SUFFIXES.get(path[dot:], "") if dot > path.rfind("/") else ""


def module_name(path: str) -> str:
    """A non-Python file's module as the index names it: its path without the suffix, dotted
    (`src/parse.ts` -> `src.parse`); an `index` or `mod` file names its folder, as `__init__`
    does."""
    stem = path[: path.rfind(".")]
    parts = stem.split("/")
    if len(parts) > 1 and parts[-1] in ("index", "mod"):
        parts.pop()
    return ".".join(parts)
