"""TypeScript/JavaScript's import graph for `select` and `tests-for` (vitest, jest): which test
files reach a file through their imports, directly or not.

A specifier is resolved the way the bundlers and `tsc` do, within what the workspace holds:

- relative (`./parse`, `../lib/index.js`): the file with or without a suffix, `./x.js` meaning
  `x.ts` (TypeScript's ESM style), a folder meaning its `index` file;
- tsconfig `paths` (`"@/*": ["src/*"]`) and `baseUrl`, from the root tsconfig.json (and the
  tsconfig.json it `extends` inside the workspace);
- workspace packages (every package.json below the root outside node_modules) by `name`, through
  their `exports` (a string, subpaths, conditions), `source`, `module`, `main` or `index`; a target
  under dist/, lib/ or build/ that is not in the workspace is looked for under src/ (the build's
  source).

The index's import statements are read, and `require('x')`, `import('x')` and `vi.mock('x')` /
`jest.mock('x')` calls found in the files' text (the index keeps declarations only). A specifier
nothing resolves (a bare package from node_modules) leads nowhere. A changed file the graph cannot
see (package.json, a tsconfig, the runner's configuration, a lock file) selects every test file
(basis `all`).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections import defaultdict
from typing import Any

from sidekit_hooks.code.languages.importers import SCRIPT_SUFFIXES as SCRIPT_SUFFIXES
from sidekit_hooks.impact import by_graph

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.index import Index

SCRIPT_LANGUAGES = ("ts", "js")
SUITE_CONFIGS = (
    "vitest.config.", "vitest.workspace.", "vite.config.", "jest.config.", "jest.preset.", "babel.config.",
    ".babelrc", "tsconfig",
)  # fmt: skip
TEST_MARKS = (".test.", ".spec.")
BUILD_FOLDERS = ("dist/", "lib/", "build/", "esm/", "cjs/", "out/")
CALLED = re.compile(
    rb"""(?:\brequire|\bimport|\b(?:vi|jest)\.(?:mock|doMock|requireActual|importActual))\s*\(\s*['"]([^'"\n]+)['"]"""
)
MAX_SCAN_BYTES = 1024 * 1024
MAX_PACKAGES = 2000
SKIP_FOLDERS = frozenset(
    {"node_modules", ".git", ".sidekit", ".runtime", "dist", "build", "coverage"}
)
# Changed files that cannot change what a test does.
INERT_SUFFIXES = (".md", ".mdx", ".txt", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".d.ts")
INERT_NAMES = frozenset(
    {".gitignore", ".gitattributes", "LICENSE", "CHANGELOG", ".editorconfig", ".prettierrc"}
)


def is_script(path: str) -> bool:
    return path.endswith(SCRIPT_SUFFIXES) and not path.endswith(".d.ts")


def is_whole_suite(path: str) -> bool:
    """A script every test runs under without importing it: the runner's or bundler's configuration,
    a setup file (`setupFiles`, `setupFilesAfterEach`: named in a config the graph does not
    read)."""
    name = path.rsplit("/", 1)[-1]
    return name.startswith(SUITE_CONFIGS) or ("setup" in name.lower() and not is_test_file(path))


def is_test_file(path: str) -> bool:
    """A file vitest's or jest's default patterns collect: `*.test.ts`, `*.spec.js`,
    `__tests__/**`."""
    name = path.rsplit("/", 1)[-1]
    return is_script(path) and (
        any(mark in name for mark in TEST_MARKS) or "/__tests__/" in f"/{path}"
    )


def _stem(path: str) -> str:
    for suffix in SCRIPT_SUFFIXES:
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return path


def _json(project: str, path: str) -> dict[str, Any]:
    """A JSON file of the workspace (tsconfig's comments and trailing commas allowed); {} when
    unreadable."""
    from sidekit_hooks.core import safepath

    data = safepath.read_project_file(project, path, 1024 * 1024)
    if data is None:
        return {}
    text = data.decode("utf-8", "replace")
    for attempt in (text, _loose(text)):
        try:
            found = json.loads(attempt)
        except ValueError:
            continue
        return found if isinstance(found, dict) else {}
    return {}


def _loose(text: str) -> str:
    """JSONC as JSON: comments out (strings kept), trailing commas dropped."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


class ScriptGraph:
    """Every TS/JS file of the index, what each imports (resolved to files), and who imports
    what."""

    def __init__(self, project: str, files: set[str], specifiers: dict[str, set[str]]) -> None:
        self.project = project
        self.files = files
        self.aliases = _tsconfig_paths(project)
        self.packages = _workspace_packages(project)
        self.importers: dict[str, set[str]] = defaultdict(set)  # file -> files importing it
        for importer, specs in specifiers.items():
            for spec in specs:
                target = self.resolve(importer, spec)
                if target is not None and target != importer:
                    self.importers[target].add(importer)

    @classmethod
    def of(cls, index: Index) -> ScriptGraph:
        project = index.project
        files: set[str] = set()
        specifiers: dict[str, set[str]] = defaultdict(set)
        for language in SCRIPT_LANGUAGES:
            files |= set(index.modules(language))
            for importer, module, _ in index.imports(language):
                if module:
                    specifiers[importer].add(module)
        for path in files:
            specifiers[path] |= _called_specifiers(project, path)
        return cls(project, files, specifiers)

    # -- resolution --------------------------------------------------------------------------

    def _file(self, base: str) -> str | None:
        """The workspace file `base` names: itself, with a suffix, `.js` for `.ts`, or its folder's
        index."""
        base = posixpath.normpath(base)
        if base.startswith("../") or base == "..":
            return None
        if base in self.files:
            return base
        stem = _stem(base)
        for suffix in SCRIPT_SUFFIXES:
            if stem + suffix in self.files:
                return stem + suffix
        for suffix in SCRIPT_SUFFIXES:
            if f"{base}/index{suffix}" in self.files:
                return f"{base}/index{suffix}"
        return None

    def resolve(self, importer: str, spec: str) -> str | None:
        spec = spec.split("?", 1)[0]
        if spec.startswith("."):
            return self._file(posixpath.join(posixpath.dirname(importer), spec))
        if spec.startswith("/"):
            return None
        for pattern, targets in self.aliases:
            star = _star_match(pattern, spec)
            if star is None:
                continue
            for target in targets:
                found = self._file(target.replace("*", star, 1))
                if found is not None:
                    return found
        return self._package_file(spec)

    def _package_file(self, spec: str) -> str | None:
        parts = spec.split("/")
        name, rest = (
            ("/".join(parts[:2]), parts[2:]) if spec.startswith("@") else (parts[0], parts[1:])
        )
        package = self.packages.get(name)
        if package is None:
            return None
        folder, manifest = package
        subpath = "./" + "/".join(rest) if rest else "."
        for target in _export_targets(manifest, subpath):
            found = self._built_or_source(posixpath.join(folder, target))
            if found is not None:
                return found
        if rest:
            return self._built_or_source(posixpath.join(folder, *rest))
        return None

    def _built_or_source(self, path: str) -> str | None:
        found = self._file(path)
        if found is not None:
            return found
        slashed = "/" + path
        for built in BUILD_FOLDERS:  # `dist/index.js` is built from `src/index.ts`
            at = slashed.find("/" + built)
            if at >= 0:
                owner, rest = slashed[:at].lstrip("/"), slashed[at + 1 + len(built) :]
                found = self._file(posixpath.join(owner, "src", rest) if owner else "src/" + rest)
                if found is not None:
                    return found
        return None

    # -- answers -------------------------------------------------------------------------------

    def test_files(self) -> set[str]:
        return {path for path in self.files if is_test_file(path)}

    def tests_reaching(self, paths: set[str]) -> set[str]:
        return {path for path in by_graph.reaching(self.importers, paths) if is_test_file(path)}


def _called_specifiers(project: str, path: str) -> set[str]:
    from sidekit_hooks.core import safepath

    data = safepath.read_project_file(project, path, MAX_SCAN_BYTES)
    if data is None:
        return set()
    return {m.group(1).decode("utf-8", "replace") for m in CALLED.finditer(data)}


def _star_match(pattern: str, spec: str) -> str | None:
    """What `*` stands for when `spec` matches the tsconfig `paths` key (the whole spec if no
    `*`)."""
    if "*" not in pattern:
        return "" if spec == pattern else None
    head, _, tail = pattern.partition("*")
    if spec.startswith(head) and spec.endswith(tail) and len(spec) >= len(head) + len(tail):
        return spec[len(head) : len(spec) - len(tail)]
    return None


def _tsconfig_paths(project: str) -> list[tuple[str, list[str]]]:
    """(pattern, workspace-relative targets) from tsconfig.json's `paths` and `baseUrl`, longest
    first."""
    options: dict[str, Any] = {}
    config_path, seen = "tsconfig.json", set[str]()
    chain: list[tuple[str, dict[str, Any]]] = []
    while config_path and config_path not in seen and len(seen) < 5:
        seen.add(config_path)
        config = _json(project, config_path)
        chain.append((config_path, config))
        parent = config.get("extends")
        config_path = (
            posixpath.normpath(posixpath.join(posixpath.dirname(config_path), parent))
            if isinstance(parent, str) and parent.startswith(".")
            else ""
        )
        if config_path and not config_path.endswith(".json"):
            config_path += ".json"
    base_url, paths, paths_from = "", {}, ""
    for where, config in reversed(chain):  # the nearest config wins
        compiler = config.get("compilerOptions")
        if not isinstance(compiler, dict):
            continue
        options.update(compiler)
        if isinstance(compiler.get("baseUrl"), str):
            base_url = posixpath.normpath(
                posixpath.join(posixpath.dirname(where), compiler["baseUrl"])
            )
        if isinstance(compiler.get("paths"), dict):
            paths, paths_from = compiler["paths"], posixpath.dirname(where)
    root = base_url or paths_from or "."
    found: list[tuple[str, list[str]]] = []
    for pattern, targets in paths.items():
        if isinstance(pattern, str) and isinstance(targets, list):
            found.append(
                (pattern, [posixpath.join(root, t) for t in targets if isinstance(t, str)])
            )
    found.sort(key=lambda item: -len(item[0].partition("*")[0]))
    if base_url:
        found.append(("*", [posixpath.join(base_url, "*")]))  # bare names under baseUrl
    return found


def _workspace_packages(project: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """Package name -> (its folder, its package.json), for every package.json outside
    node_modules."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    count = 0
    for folder, dirs, names in os.walk(project):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_FOLDERS and not d.startswith("."))
        if "package.json" not in names:
            continue
        count += 1
        if count > MAX_PACKAGES:
            break
        rel = os.path.relpath(folder, project).replace(os.sep, "/")
        manifest = _json(project, "package.json" if rel == "." else f"{rel}/package.json")
        name = manifest.get("name")
        if isinstance(name, str) and name and name not in found:
            found[name] = ("" if rel == "." else rel, manifest)
    return found


def _export_targets(manifest: dict[str, Any], subpath: str) -> list[str]:
    """The files a package's `exports` (else `source`/`module`/`main`/index) give for `subpath`."""
    exports = manifest.get("exports")
    targets: list[str] = []
    if isinstance(exports, (str, list)) or (
        isinstance(exports, dict) and not any(k.startswith(".") for k in exports)
    ):
        exports = {".": exports}
    if isinstance(exports, dict):
        for key, value in exports.items():
            star = _star_match(key, subpath)
            if star is not None:
                targets += [t.replace("*", star) for t in _conditions(value)]
    if subpath == ".":
        targets += [
            v
            for k in ("source", "types", "module", "main")
            if isinstance(v := manifest.get(k), str)
        ]
        targets.append("index")
    return [t[2:] if t.startswith("./") else t for t in targets]


def _conditions(value: Any) -> list[str]:
    """Every file an exports entry can name, whatever the conditions (source first: the build's
    input)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for item in value for t in _conditions(item)]
    if isinstance(value, dict):
        order = sorted(
            value, key=lambda k: (k not in ("source", "development", "types"), list(value).index(k))
        )
        return [t for key in order for t in _conditions(value[key])]
    return []


# -- selection ----------------------------------------------------------------------------------


def _outside(path: str) -> bool:
    return (not is_script(path) or is_whole_suite(path)) and not by_graph.inert(
        path, INERT_NAMES, INERT_SUFFIXES
    )


def tests_for(project: str, index: Index, path: str, runner: str) -> dict[str, Any]:
    return by_graph.graph_tests_for(ScriptGraph.of(index), path, runner, is_test_file)


def selection(project: str, index: Index, changed: list[str], runner: str) -> dict[str, Any]:
    """The answer's head for these changed files: the test files to run, and the basis."""
    return by_graph.graph_selection(
        project,
        ScriptGraph.of(index),
        changed,
        runner,
        is_source=is_script,
        is_test=is_test_file,
        outside=_outside,
    )
