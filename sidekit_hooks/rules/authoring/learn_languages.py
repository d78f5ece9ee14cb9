"""Conventions of the Go, TypeScript, JavaScript, Rust and Java code in a repository, measured from
the code index (tree-sitter's definitions, `code/languages/`) and the files' text, as `learn.py` does
for Python.

Each rule carries its language: its `paths` select that language's files (the rule pack's selector)
and `[rules.metadata] language` names it. Go: MixedCaps function and type names, lower-case file
names, the test package (`package x_test` or the package itself), `%w` when `fmt.Errorf` wraps an
error. TypeScript and JavaScript: camelCase functions (`#private` ones too), PascalCase types or
classes, the file naming style (kebab-case or camelCase), `.test.` or `.spec.` test files, `await`
rather than `.then(` (counted in code, not in comments or strings). Rust: snake_case functions,
CamelCase types and traits, snake_case file names. Java: camelCase methods (constructors left out),
PascalCase types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sidekit_hooks.core import safepath
from sidekit_hooks.rules.authoring.learn import (
    MIN_CASES,
    MIN_FILES,
    Learned,
    Measure,
    Rule,
    figures,
    fires_then_not,
    rule_of,
    write_example,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.index import Index

MAX_FILE_BYTES = 1024 * 1024
GO_TEST_FUNCS = ("Test", "Benchmark", "Example", "Fuzz")
TS_SOURCES = ("**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts")
TS_NOT_CODE = ["**/*.d.ts", "**/node_modules/**"]
TS_TEST_MARKS = (".test.", ".spec.")
JS_SOURCES = ("**/*.js", "**/*.jsx", "**/*.mjs", "**/*.cjs")
JS_NOT_CODE = ["**/node_modules/**", "**/*.min.js"]
FUNCTION_KINDS = ("function", "method")
TYPE_KINDS = ("class", "interface", "struct", "type", "enum", "trait")


@dataclass
class Source:
    path: str
    text: str
    names: list[tuple[str, str]]  # (bare name, kind) of the file's definitions


def learn(project: str, index: Index) -> list[tuple[Measure, Rule | None]]:
    """Every Go, TypeScript, JavaScript, Rust and Java measure (none for a language the repo does not have)."""
    found: list[tuple[Measure, Rule | None]] = []
    go = _sources(project, index, "go")
    if go:
        for learner in (
            go_function_names,
            go_type_names,
            go_file_names,
            go_test_package,
            go_error_wrapping,
        ):
            found += learner(go)
    ts = [s for s in _sources(project, index, "ts") if not s.path.endswith(".d.ts")]
    if ts:
        for ts_learner in (
            ts_function_names,
            ts_type_names,
            ts_file_names,
            ts_test_naming,
            ts_await,
        ):
            found += ts_learner(ts)
    js = _sources(project, index, "js")
    if js:
        found += js_learned(js)
    rust = _sources(project, index, "rust")
    if rust:
        found += rust_function_names(rust) + rust_type_names(rust) + rust_file_names(rust)
    java = _sources(project, index, "java")
    if java:
        found += java_method_names(java) + java_type_names(java)
    return found


def _sources(project: str, index: Index, language: str) -> list[Source]:
    found: list[Source] = []
    for path in sorted(index.modules(language)):
        data = safepath.read_project_file(project, path, MAX_FILE_BYTES)
        if data is None:
            continue
        names = [(s.qualname.rsplit(".", 1)[-1], s.kind) for s in index.definitions_in(path)]
        found.append(Source(path, data.decode("utf-8", "replace"), names))
    return found


def _tagged(rule: Rule, language: str) -> Rule:
    rule.language = language
    return rule


def _measure(name: str, convention: str, followed: int, total: int, minimum: int) -> Measure:
    return Measure(name, convention, followed, total, minimum)


# -- Go ---------------------------------------------------------------------------------------


def _go_test(path: str) -> bool:
    return path.endswith("_test.go")


def _mixed_caps(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and "_" not in core


def go_function_names(sources: list[Source]) -> Learned:
    names = [
        name
        for s in sources
        for name, kind in s.names
        if kind in FUNCTION_KINDS and not (_go_test(s.path) and name.startswith(GO_TEST_FUNCS))
    ]
    followed = sum(1 for n in names if _mixed_caps(n))
    measure = _measure(
        "conventions.go.function-names",
        "MixedCaps Go function names",
        followed,
        len(names),
        MIN_CASES,
    )
    rule = rule_of(
        measure,
        f"Go functions here are MixedCaps ({figures(followed, len(names))}); drop the underscore "
        "from the new func's name.",
        added=r"(?m)^func[ \t]+(?:\([^)\n]*\)[ \t]*)?_*[A-Za-z][A-Za-z0-9]*_\w*[ \t]*[(\[]",
        paths=["**/*.go"],
        exclude=["**/*_test.go"],
        examples=fires_then_not(
            "internal/store/load.go",
            "package store\n\nfunc load_config() error { return nil }\n",
            "package store\n\nfunc loadConfig() error { return nil }\n",
        ),
    )
    return [(measure, _tagged(rule, "go"))]


def go_type_names(sources: list[Source]) -> Learned:
    names = [name for s in sources for name, kind in s.names if kind in TYPE_KINDS]
    followed = sum(1 for n in names if _mixed_caps(n))
    measure = _measure(
        "conventions.go.type-names", "MixedCaps Go type names", followed, len(names), MIN_CASES
    )
    rule = rule_of(
        measure,
        f"Go types here are MixedCaps ({figures(followed, len(names))}); drop the underscore from "
        "the new type's name.",
        added=r"(?m)^(?:type[ \t]+|[ \t]+)_*[A-Za-z][A-Za-z0-9]*_\w*[ \t]+(?:struct|interface)\b",
        paths=["**/*.go"],
        examples=fires_then_not(
            "internal/store/types.go",
            "package store\n\ntype user_record struct{}\n",
            "package store\n\ntype userRecord struct{}\n",
        ),
    )
    return [(measure, _tagged(rule, "go"))]


def go_file_names(sources: list[Source]) -> Learned:
    stems = [s.path.rsplit("/", 1)[-1][: -len(".go")] for s in sources]
    followed = sum(1 for stem in stems if stem == stem.lower() and "-" not in stem)
    measure = _measure(
        "conventions.go.file-names", "lower-case Go file names", followed, len(stems), MIN_FILES
    )
    rule = rule_of(
        measure,
        "Go files here are named in lower case, words joined by _ "
        f"({figures(followed, len(stems))}); "
        "rename the new file (e.g. user_store.go).",
        added=r"(?m)^package[ \t]+\w+",
        paths=["**/*[A-Z]*.go", "**/*-*.go"],
        examples=[
            write_example(True, "internal/store/userStore.go", "package store\n"),
            write_example(False, "internal/store/user_store.go", "package store\n"),
        ],
    )
    return [(measure, _tagged(rule, "go"))]


PACKAGE_LINE = re.compile(r"(?m)^package[ \t]+(\w+)")


def go_test_package(sources: list[Source]) -> Learned:
    packages = [
        m.group(1) for s in sources if _go_test(s.path) and (m := PACKAGE_LINE.search(s.text))
    ]
    external = sum(1 for name in packages if name.endswith("_test"))
    outside = _measure(
        "conventions.go.external-test-package", "Go tests in the external `_test` "
                                                "package", external,
        len(packages), MIN_FILES,
    )  # fmt: skip
    inside = _measure(
        "conventions.go.internal-test-package", "Go tests in the package they "
                                                "test", len(packages) - external,
        len(packages), MIN_FILES,
    )  # fmt: skip
    outside_rule = rule_of(
        outside,
        f"Go tests here are in the external package ({figures(external, len(packages))} files); "
        "write `package <name>_test` and test through the exported API.",
        added=r"(?m)^package[ \t]+\w*(?:[^t\s]|[^s\s]t|[^e\s]st|[^t\s]est|[^_\s]test)[ \t]*$",
        paths=["**/*_test.go"],
        examples=fires_then_not("store/store_test.go", "package store\n", "package store_test\n"),
    )
    inside_rule = rule_of(
        inside,
        "Go tests here are in the package they test "
        f"({figures(len(packages) - external, len(packages))} files); "
        "write `package <name>`, not `package <name>_test`.",
        added=r"(?m)^package[ \t]+\w+_test[ \t]*$",
        paths=["**/*_test.go"],
        examples=fires_then_not("store/store_test.go", "package store_test\n", "package store\n"),
    )
    return [(outside, _tagged(outside_rule, "go")), (inside, _tagged(inside_rule, "go"))]


ERRORF_WITH_ERR = re.compile(r"fmt\.Errorf\(\s*\"([^\"\n]*)\"[^\n]*\berr\w*\b")


def go_error_wrapping(sources: list[Source]) -> Learned:
    formats = [m.group(1) for s in sources for m in ERRORF_WITH_ERR.finditer(s.text)]
    followed = sum(1 for f in formats if "%w" in f)
    measure = _measure(
        "conventions.go.error-wrapping",
        "fmt.Errorf wraps errors with %w",
        followed,
        len(formats),
        MIN_CASES,
    )
    rule = rule_of(
        measure,
        f"Errors here are wrapped with %w ({figures(followed, len(formats))}); "
        "use %w in fmt.Errorf so callers can errors.Is/As it.",
        added=r"fmt\.Errorf\(\s*\"(?![^\"\n]*%w)[^\"\n]*%[vs][^\"\n]*\"[^\n]*\berr\w*\b",
        paths=["**/*.go"],
        examples=fires_then_not(
            "store/load.go",
            'package store\n\nfunc f(err error) error { return fmt.Errorf("load: %v", err) }\n',
            'package store\n\nfunc f(err error) error { return fmt.Errorf("load: %w", err) }\n',
        ),
    )
    return [(measure, _tagged(rule, "go"))]


# -- TypeScript and JavaScript -----------------------------------------------------------------


@dataclass(frozen=True)
class Script:
    """TypeScript or JavaScript: the same conventions, each with its own files and words."""

    id: str  # ts | js
    label: str  # TypeScript | JavaScript
    ext: str  # the suffix the examples and messages use (ts, js)
    sources: tuple[str, ...]  # every source file's glob
    plain: tuple[str, ...]  # the sources that are not components (.tsx / .jsx left out)
    component: str  # React components are PascalCase functions by design: .tsx, .jsx
    not_code: tuple[str, ...]


TS = Script(
    "ts", "TypeScript", "ts", TS_SOURCES, ("**/*.ts", "**/*.mts", "**/*.cts"), ".tsx",
    tuple(TS_NOT_CODE),
)  # fmt: skip
JS = Script(
    "js", "JavaScript", "js", JS_SOURCES, ("**/*.js", "**/*.mjs", "**/*.cjs"), ".jsx",
    tuple(JS_NOT_CODE),
)  # fmt: skip


def _ts_test(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return any(mark in name for mark in TS_TEST_MARKS) or "/__tests__/" in f"/{path}"


def _camel(name: str) -> bool:
    core = name.lstrip("_$#")  # `#private` members are named like the others
    return bool(core) and core[0].islower() and "_" not in core


def _pascal(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and core[0].isupper() and "_" not in core and not core.isupper()


def _snake(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and core == core.lower()


def script_function_names(sources: list[Source], lang: Script = TS) -> Learned:
    names = [
        name
        for s in sources
        if not s.path.endswith(lang.component)
        for name, kind in s.names
        if kind in FUNCTION_KINDS
    ]
    followed = sum(1 for n in names if _camel(n))
    measure = _measure(
        f"conventions.{lang.id}.function-names",
        f"camelCase {lang.label} function names",
        followed,
        len(names),
        MIN_CASES,
    )
    rule = rule_of(
        measure,
        f"{lang.label} functions here are camelCase ({figures(followed, len(names))}); name the "
        "new function in camelCase.",
        added=r"(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?function\*?[ "
        r"\t]*_*(?:[A-Z]|[a-z][A-Za-z0-9]*_)\w*[ \t]*[(<]",
        paths=list(lang.plain),
        exclude=list(lang.not_code),
        examples=fires_then_not(
            f"src/parse-url.{lang.ext}",
            f"export function parse_url(input{_typed(lang)}) {{\n  return input\n}}\n",
            f"export function parseUrl(input{_typed(lang)}) {{\n  return input\n}}\n",
        ),
    )
    return [(measure, _tagged(rule, lang.id))]


def _typed(lang: Script) -> str:
    return ": string" if lang is TS else ""


def ts_function_names(sources: list[Source]) -> Learned:
    return script_function_names(sources, TS)


def ts_type_names(sources: list[Source]) -> Learned:
    names = [name for s in sources for name, kind in s.names if kind in TYPE_KINDS]
    followed = sum(1 for n in names if _pascal(n))
    measure = _measure(
        "conventions.ts.type-names", "PascalCase TypeScript types", followed, len(names), MIN_CASES
    )
    rule = rule_of(
        measure,
        f"TypeScript types here are PascalCase ({figures(followed, len(names))}); name the new "
        "type in PascalCase.",
        added=(
            r"(?m)^[ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(?:abstract[ "
            r"\t]+)?(?:class|interface|enum|type)"
            r"[ \t]+(?:_*[a-z]\w*|_*[A-Z][A-Za-z0-9]*_\w*)[ \t]*[<={]"
        ),
        paths=list(TS_SOURCES),
        exclude=TS_NOT_CODE,
        examples=fires_then_not(
            "src/model.ts",
            "export interface user_record {\n  id: string\n}\n",
            "export interface UserRecord {\n  id: string\n}\n",
        ),
    )
    return [(measure, _tagged(rule, "ts"))]


def js_class_names(sources: list[Source]) -> Learned:
    names = [name for s in sources for name, kind in s.names if kind == "class"]
    followed = sum(1 for n in names if _pascal(n))
    measure = _measure(
        "conventions.js.class-names", "PascalCase JavaScript classes", followed, len(names),
        MIN_CASES,
    )  # fmt: skip
    rule = rule_of(
        measure,
        f"JavaScript classes here are PascalCase ({figures(followed, len(names))}); name the new "
        "class in PascalCase.",
        added=r"(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?class[ \t]+"
        r"(?:_*[a-z]\w*|_*[A-Z][A-Za-z0-9]*_\w*)[ \t]*(?:extends\b|\{)",
        paths=list(JS_SOURCES),
        exclude=JS_NOT_CODE,
        examples=fires_then_not(
            "src/model.js",
            "export class user_record {\n}\n",
            "export class UserRecord {\n}\n",
        ),
    )
    return [(measure, _tagged(rule, "js"))]


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    for mark in TS_TEST_MARKS:
        name = name.split(mark, 1)[0]
    return name.split(".", 1)[0]


def script_file_names(sources: list[Source], lang: Script = TS) -> Learned:
    """Among file names of more than one word (index.ts and utils.ts say nothing): kebab-case or
    camelCase."""
    stems = [_stem(s.path) for s in sources if not s.path.endswith(lang.component)]
    words = [
        stem for stem in stems if "-" in stem or "_" in stem or any(c.isupper() for c in stem[1:])
    ]
    kebab = sum(1 for stem in words if stem == stem.lower() and "_" not in stem)
    camel = sum(1 for stem in words if stem[:1].islower() and "-" not in stem and "_" not in stem)
    kebab_measure = _measure(
        f"conventions.{lang.id}.kebab-file-names",
        f"kebab-case {lang.label} file names",
        kebab,
        len(words),
        MIN_FILES,
    )
    camel_measure = _measure(
        f"conventions.{lang.id}.camel-file-names",
        f"camelCase {lang.label} file names",
        camel,
        len(words),
        MIN_FILES,
    )
    added = r"(?m)\S"  # any content: the name is what breaks the convention
    ext = lang.ext
    kebab_rule = rule_of(
        kebab_measure,
        f"{lang.label} files here are kebab-case ({figures(kebab, len(words))}); rename the new "
        f"file (e.g. parse-url.{ext}).",
        added=added,
        paths=[f"**/*[A-Z_]*.{ext}"],
        exclude=list(lang.not_code),
        examples=[
            write_example(True, f"src/parseUrl.{ext}", "export const a = 1\n"),
            write_example(False, f"src/parse-url.{ext}", "export const a = 1\n"),
        ],
    )
    camel_rule = rule_of(
        camel_measure,
        f"{lang.label} files here are camelCase ({figures(camel, len(words))}); rename the new "
        f"file (e.g. parseUrl.{ext}).",
        added=added,
        paths=[f"**/*[-_]*.{ext}"],
        exclude=list(lang.not_code),
        examples=[
            write_example(True, f"src/parse-url.{ext}", "export const a = 1\n"),
            write_example(False, f"src/parseUrl.{ext}", "export const a = 1\n"),
        ],
    )
    return [
        (kebab_measure, _tagged(kebab_rule, lang.id)),
        (camel_measure, _tagged(camel_rule, lang.id)),
    ]


def ts_file_names(sources: list[Source]) -> Learned:
    return script_file_names(sources, TS)


def script_test_naming(sources: list[Source], lang: Script = TS) -> Learned:
    names = [
        s.path.rsplit("/", 1)[-1]
        for s in sources
        if any(m in s.path.rsplit("/", 1)[-1] for m in TS_TEST_MARKS)
    ]
    dot_test = sum(1 for n in names if ".test." in n)
    found: Learned = []
    ext = lang.ext
    for mark, other, followed in (
        (".test.", ".spec.", dot_test),
        (".spec.", ".test.", len(names) - dot_test),
    ):
        word = mark.strip(".")
        measure = _measure(
            f"conventions.{lang.id}.{word}-files",
            f"{lang.label} tests in *{mark}{ext} files",
            followed,
            len(names),
            MIN_FILES,
        )
        rule = rule_of(
            measure,
            f"Test files here are named *{mark}{ext} ({figures(followed, len(names))}); rename "
            f"the new *{other}{ext} file.",
            added=r"(?m)\b(?:describe|it|test)\(",
            paths=[f"**/*{other}{ext}", f"**/*{other}{ext}x"],
            examples=[
                write_example(True, f"src/parse{other}{ext}", "test('parses', () => {})\n"),
                write_example(False, f"src/parse{mark}{ext}", "test('parses', () => {})\n"),
            ],
        )
        found.append((measure, _tagged(rule, lang.id)))
    return found


def ts_test_naming(sources: list[Source]) -> Learned:
    return script_test_naming(sources, TS)


AWAIT = re.compile(r"\bawait\b")
THEN = re.compile(r"\.then\(")
# Comments and string literals, in one left-to-right pass (so a `//` inside a string stays a string):
# a doc comment's `await source$.forEach(...)` example is no use of a promise (5 of the 12 uses rxjs
# counted were in comments).
NOT_CODE = re.compile(
    r"//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"|`(?:\\.|[^`\\])*`",
    re.DOTALL,
)


def code_only(text: str) -> str:
    """The text with its comments and string literals blanked (a template literal's `${...}` with
    them: rare where promises are used)."""
    return NOT_CODE.sub(" ", text)


def script_await(sources: list[Source], lang: Script = TS) -> Learned:
    code = [code_only(s.text) for s in sources if not _ts_test(s.path)]
    awaits = sum(len(AWAIT.findall(text)) for text in code)
    thens = sum(len(THEN.findall(text)) for text in code)
    measure = _measure(
        f"conventions.{lang.id}.async-await",
        "async/await rather than .then(",
        awaits,
        awaits + thens,
        MIN_CASES,
    )
    rule = rule_of(
        measure,
        f"Promises here are awaited ({figures(awaits, awaits + thens)} of the uses); write "
        "`await`, not `.then(`.",
        added=r"\.then\(",
        paths=list(lang.sources),
        exclude=list(lang.not_code),
        examples=fires_then_not(
            f"src/load.{lang.ext}",
            "export function load() {\n  return fetch('/a').then((r) => r.json())\n}\n",
            "export async function load() {\n  return (await fetch('/a')).json()\n}\n",
        ),
    )
    return [(measure, _tagged(rule, lang.id))]


def ts_await(sources: list[Source]) -> Learned:
    return script_await(sources, TS)


def js_learned(sources: list[Source]) -> Learned:
    return [
        *script_function_names(sources, JS),
        *js_class_names(sources),
        *script_file_names(sources, JS),
        *script_test_naming(sources, JS),
        *script_await(sources, JS),
    ]


# -- Rust -------------------------------------------------------------------------------------


def rust_function_names(sources: list[Source]) -> Learned:
    names = [name for s in sources for name, kind in s.names if kind in FUNCTION_KINDS]
    followed = sum(1 for n in names if _snake(n))
    measure = _measure(
        "conventions.rust.function-names", "snake_case Rust function names", followed,
        len(names), MIN_CASES,
    )  # fmt: skip
    rule = rule_of(
        measure,
        f"Rust functions here are snake_case ({figures(followed, len(names))}); name the new fn "
        "in snake_case.",
        added=r"(?m)^[ \t]*(?:pub(?:\([^)\n]*\))?[ \t]+)?(?:const[ \t]+)?(?:async[ \t]+)?"
        r"(?:unsafe[ \t]+)?fn[ \t]+_*[a-z0-9_]*[A-Z]\w*[ \t]*[(<]",
        paths=["**/*.rs"],
        examples=fires_then_not(
            "src/parse.rs",
            "pub fn parseVersion(input: &str) -> &str {\n    input\n}\n",
            "pub fn parse_version(input: &str) -> &str {\n    input\n}\n",
        ),
    )
    return [(measure, _tagged(rule, "rust"))]


def rust_type_names(sources: list[Source]) -> Learned:
    names = [name for s in sources for name, kind in s.names if kind in TYPE_KINDS]
    followed = sum(1 for n in names if _pascal(n))
    measure = _measure(
        "conventions.rust.type-names", "CamelCase Rust types and traits", followed, len(names),
        MIN_CASES,
    )  # fmt: skip
    rule = rule_of(
        measure,
        f"Rust types and traits here are CamelCase ({figures(followed, len(names))}); name the "
        "new one in CamelCase.",
        added=r"(?m)^[ \t]*(?:pub(?:\([^)\n]*\))?[ \t]+)?(?:struct|enum|trait|union)[ \t]+"
        r"(?:_*[a-z]\w*|_*[A-Z][A-Za-z0-9]*_\w*)\b",
        paths=["**/*.rs"],
        examples=fires_then_not(
            "src/model.rs",
            "pub struct version_req {\n    major: u64,\n}\n",
            "pub struct VersionReq {\n    major: u64,\n}\n",
        ),
    )
    return [(measure, _tagged(rule, "rust"))]


def rust_file_names(sources: list[Source]) -> Learned:
    stems = [s.path.rsplit("/", 1)[-1][: -len(".rs")] for s in sources]
    followed = sum(1 for stem in stems if stem == stem.lower() and "-" not in stem)
    measure = _measure(
        "conventions.rust.file-names", "snake_case Rust file names", followed, len(stems),
        MIN_FILES,
    )  # fmt: skip
    rule = rule_of(
        measure,
        f"Rust files here are snake_case ({figures(followed, len(stems))}); rename the new file "
        "(e.g. version_req.rs).",
        added=r"(?m)\S",  # any content: the name is what breaks the convention
        paths=["**/*[A-Z]*.rs", "**/*-*.rs"],
        examples=[
            write_example(True, "src/versionReq.rs", "pub struct VersionReq;\n"),
            write_example(False, "src/version_req.rs", "pub struct VersionReq;\n"),
        ],
    )
    return [(measure, _tagged(rule, "rust"))]


# -- Java -------------------------------------------------------------------------------------


def _java_methods(sources: list[Source]) -> list[str]:
    """Method names; a constructor (kind method, named as its class) is not named by choice."""
    types = {name for s in sources for name, kind in s.names if kind in TYPE_KINDS}
    return [
        name
        for s in sources
        for name, kind in s.names
        if kind in FUNCTION_KINDS and name not in types
    ]


def java_method_names(sources: list[Source]) -> Learned:
    names = _java_methods(sources)
    followed = sum(1 for n in names if _camel(n))
    measure = _measure(
        "conventions.java.method-names", "camelCase Java method names", followed, len(names),
        MIN_CASES,
    )  # fmt: skip
    rule = rule_of(
        measure,
        f"Java methods here are camelCase ({figures(followed, len(names))}); name the new method "
        "in camelCase.",
        # `int parse_value(`, never a constructor (`Parser(`) nor `throw new Error(`/`return a_b(`
        added=r"(?m)^[ \t]+(?:(?:public|protected|private|static|final|synchronized|abstract)"
        r"[ \t]+)*(?!(?:return|throw|new|else|case|yield)\b)[\w<>\[\], ?]+[ \t]+"
        r"_*[a-z][A-Za-z0-9]*_\w*[ \t]*\(",
        paths=["**/*.java"],
        examples=fires_then_not(
            "src/main/java/com/example/Parser.java",
            "class Parser {\n    static int parse_value(String s) { return 0; }\n}\n",
            "class Parser {\n    public Parser() {}\n\n    static int parseValue(String s) {\n"
            "        throw new IllegalStateException(s);\n    }\n}\n",
        ),
    )
    return [(measure, _tagged(rule, "java"))]


def java_type_names(sources: list[Source]) -> Learned:
    names = [name for s in sources for name, kind in s.names if kind in TYPE_KINDS]
    followed = sum(1 for n in names if _pascal(n))
    measure = _measure(
        "conventions.java.type-names", "PascalCase Java types", followed, len(names), MIN_CASES
    )
    rule = rule_of(
        measure,
        f"Java types here are PascalCase ({figures(followed, len(names))}); name the new type in "
        "PascalCase.",
        added=r"(?m)^[ \t]*(?:(?:public|protected|private|static|final|abstract|sealed)[ \t]+)*"
        r"(?:class|interface|enum|record|@interface)[ \t]+(?:_*[a-z]\w*|_*[A-Z][A-Za-z0-9]*_\w*)\b",
        paths=["**/*.java"],
        examples=fires_then_not(
            "src/main/java/com/example/Model.java",
            "class user_record {\n}\n",
            "class UserRecord {\n}\n",
        ),
    )
    return [(measure, _tagged(rule, "java"))]


def learn_all(project: str) -> tuple[list[Rule], list[Measure]]:
    """Python's conventions (learn.learn), then Go's and TypeScript's, from the code index (built
    here when it is not yet): what `sidekit conventions learn` writes."""
    from sidekit_hooks.code.index import Index
    from sidekit_hooks.rules.authoring import learn as python

    rules, measures = python.learn(project)
    with Index.open(project) as index:
        for measure, rule in learn(project, index):
            measures.append(measure)
            if measure.kept and rule is not None:
                rules.append(rule)
    return rules, measures
