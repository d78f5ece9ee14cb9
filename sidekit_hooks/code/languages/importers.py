"""Which files import a non-Python file, from the import statements the index holds (for
`sidekit blast-radius FILE`). Read as each language's compiler would, within what one index knows:

- TypeScript/JavaScript: relative specifiers (`./parse`, `../lib/index.js`), resolved against the
  importing file, with or without a suffix, a folder meaning its `index` file;
- Go: the package's import path, from the module path in the project's `go.mod` (else any import
  path that ends with the package's folder);
- Rust: `use crate::a::b...` for `src/a/b.rs` or `src/a/b/mod.rs` (the crate's `src/` folder);
- Java: `import a.b.C` or `import a.b.*` for a file `.../a/b/C.java`.

Bare package specifiers (`react`), path aliases and workspace packages are not followed here.
"""

from __future__ import annotations

import os
import posixpath

from sidekit_hooks.code.languages import language_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.index import Index

SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def importers_of(index: Index, path: str) -> list[str]:
    """Project-relative files whose imports name `path` (sorted; `path` itself left out)."""
    language = language_of(path)
    matches = {"ts": _script, "js": _script, "go": _go, "rust": _rust, "java": _java}.get(language)
    if matches is None:
        return []
    wanted = matches(index.project, path)
    scripts = ("ts", "js")  # a TypeScript file imports JavaScript and the other way round
    found: set[str] = set()
    for read in scripts if language in scripts else (language,):
        for importer, module, _ in index.imports(read):
            if importer != path and wanted(importer, module):
                found.add(importer)
    return sorted(found)


def _stem(path: str) -> str:
    for suffix in SCRIPT_SUFFIXES:
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return path


def _script(project: str, path: str) -> Matcher:
    target = _stem(path)
    folder, _, name = target.rpartition("/")
    as_folder = folder if name == "index" else None  # `./utils` names `utils/index.ts`

    def wanted(importer: str, module: str) -> bool:
        if not module.startswith("."):
            return False
        resolved = _stem(posixpath.normpath(posixpath.join(posixpath.dirname(importer), module)))
        return resolved == target or (as_folder is not None and resolved == as_folder)

    return wanted


def _go(project: str, path: str) -> Matcher:
    folder = posixpath.dirname(path)
    module = _go_module(project)
    exact = (module + "/" + folder if folder else module) if module else None

    def wanted(importer: str, imported: str) -> bool:
        if exact is not None:
            return imported == exact
        return bool(folder) and (imported == folder or imported.endswith("/" + folder))

    return wanted


def _go_module(project: str) -> str:
    """The `module` line of the project's go.mod ("" without one)."""
    from sidekit_hooks.core import safepath

    data = safepath.read_project_file(project, "go.mod", 64 * 1024)
    for line in (data or b"").decode("utf-8", "replace").splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "module":
            return words[1].strip('"')
    return ""


def _rust(project: str, path: str) -> Matcher:
    parts = path[: -len(".rs")].split("/")
    if "src" not in parts:
        return lambda importer, module: False
    inside = parts[parts.index("src") + 1 :]
    if inside and inside[-1] == "mod":
        inside.pop()
    if inside in (["lib"], ["main"]) or not inside:
        return lambda importer, module: False  # the crate root: everything in it, not an import
    prefix = "crate::" + "::".join(inside)

    def wanted(importer: str, module: str) -> bool:
        return module == prefix or module.startswith(prefix + "::")

    return wanted


def _java(project: str, path: str) -> Matcher:
    stem = path[: -len(".java")]
    folder = os.path.dirname(stem)

    def wanted(importer: str, module: str) -> bool:
        dotted = module.removeprefix("static ").strip()
        as_path = dotted.replace(".", "/")
        if as_path.endswith("/*"):
            return bool(folder) and (folder == as_path[:-2] or folder.endswith("/" + as_path[:-2]))
        return stem == as_path or stem.endswith("/" + as_path) or _member_of(stem, as_path)

    return wanted


def _member_of(stem: str, as_path: str) -> bool:
    """`import static a.b.C.member` (or a nested class `a.b.C.Inner`) names the file of `a/b/C`."""
    owner = as_path.rpartition("/")[0]
    return bool(owner) and (stem == owner or stem.endswith("/" + owner))


if TYPE_CHECKING:
    from collections.abc import Callable

    Matcher = Callable[[str, str], bool]
