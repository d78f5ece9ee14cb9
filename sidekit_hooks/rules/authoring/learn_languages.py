"""Conventions of the Go, TypeScript, JavaScript, Rust and Java code in a repository, measured from
the code index (tree-sitter's definitions, `code/languages/`) and the files' text, as `learn.py`
does for Python.

Each rule carries its language: its `paths` select that language's files (the rule pack's selector)
and `[rules.metadata] language` names it. Go: MixedCaps function and type names, lower-case file
names, the test package (`package x_test` or the package itself), `%w` when `fmt.Errorf` wraps an
error. TypeScript and JavaScript: camelCase functions (`#private` ones too), PascalCase types or
classes, the file naming style (kebab-case or camelCase), `.test.` or `.spec.` test files, `await`
rather than `.then(` (counted in code, not in comments or strings). Rust: snake_case functions,
CamelCase types and traits, snake_case file names. Java: camelCase methods (constructors left out),
PascalCase types.

Every convention is one `Spec` in `SPECS` (what is counted, which cases follow it, the rule that
says so); `measured` turns a spec and a language's sources into its measure and rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from string import Template

from sidekit_hooks.core import safepath
from sidekit_hooks.rules.authoring.learn import (
    MIN_CASES,
    MIN_FILES,
    Measure,
    Rule,
    figures,
    rule_of,
    write_example,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.index import Index

MAX_FILE_BYTES = 1024 * 1024
LANGUAGES = ("go", "ts", "js", "rust", "java")  # the order their rules are learned and written in
GO_TEST_FUNCS = ("Test", "Benchmark", "Example", "Fuzz")
TS_SOURCES = ("**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts")
TS_NOT_CODE = ("**/*.d.ts", "**/node_modules/**")
TS_TEST_MARKS = (".test.", ".spec.")
JS_SOURCES = ("**/*.js", "**/*.jsx", "**/*.mjs", "**/*.cjs")
JS_NOT_CODE = ("**/node_modules/**", "**/*.min.js")
FUNCTION_KINDS = ("function", "method")
TYPE_KINDS = ("class", "interface", "struct", "type", "enum", "trait")
ANY_CONTENT = r"(?m)\S"  # for a rule on a file's name: the name is what breaks the convention


@dataclass
class Source:
    path: str
    text: str
    names: list[tuple[str, str]]  # (bare name, kind) of the file's definitions


Example = tuple[bool, str, str]  # a Write of (path, content) the rule fires on, or lets pass


@dataclass(frozen=True)
class Spec:
    """One convention of one language: the cases counted, which of them follow it, and the rule
    written when enough do."""

    language: str  # go | ts | js | rust | java: the index's language, the rule's id and metadata
    name: str  # the id's last part: conventions.<language>.<name>
    convention: str
    minimum: int  # MIN_CASES (names, uses) or MIN_FILES (file-level counts)
    cases: Callable[[list[Source]], list[str]]  # names, file names, package names, uses
    follows: Callable[[str], bool]
    message: str  # `$figures` stands for "12 of 13, 92%"
    added: str  # what a new file's content must match for the rule to fire
    paths: tuple[str, ...]
    examples: tuple[Example, ...]
    exclude: tuple[str, ...] = ()


def learn(project: str, index: Index) -> list[tuple[Measure, Rule | None]]:
    """Every Go, TypeScript, JavaScript, Rust and Java measure (none for a language the repo does
    not have), each language's in SPECS's order."""
    found: list[tuple[Measure, Rule | None]] = []
    for language in LANGUAGES:
        sources = _sources(project, index, language)
        if sources:
            found += [measured(spec, sources) for spec in SPECS if spec.language == language]
    return found


def measured(spec: Spec, sources: list[Source]) -> tuple[Measure, Rule]:
    """The spec's measure over a language's sources, and the rule it learns (kept or not)."""
    cases = spec.cases(sources)
    followed = sum(1 for case in cases if spec.follows(case))
    measure = Measure(
        f"conventions.{spec.language}.{spec.name}",
        spec.convention,
        followed,
        len(cases),
        spec.minimum,
    )
    rule = rule_of(
        measure,
        Template(spec.message).substitute(figures=figures(followed, len(cases))),
        added=spec.added,
        paths=list(spec.paths),
        exclude=list(spec.exclude),
        examples=[write_example(*example) for example in spec.examples],
    )
    rule.language = spec.language
    return measure, rule


def _sources(project: str, index: Index, language: str) -> list[Source]:
    found: list[Source] = []
    for path in sorted(index.modules(language)):
        if path.endswith(".d.ts"):  # TypeScript's declarations: no code written by hand
            continue
        data = safepath.read_project_file(project, path, MAX_FILE_BYTES)
        if data is None:
            continue
        names = [(s.qualname.rsplit(".", 1)[-1], s.kind) for s in index.definitions_in(path)]
        found.append(Source(path, data.decode("utf-8", "replace"), names))
    return found


def _pair(path: str, fires: str, quiet: str) -> tuple[Example, ...]:
    """A rule's usual two examples: a Write it fires on, then one it lets pass, at one path."""
    return ((True, path, fires), (False, path, quiet))


# -- What is counted ----------------------------------------------------------------------------


def _functions(sources: list[Source]) -> list[str]:
    return [name for s in sources for name, kind in s.names if kind in FUNCTION_KINDS]


def _types(sources: list[Source]) -> list[str]:
    return [name for s in sources for name, kind in s.names if kind in TYPE_KINDS]


def _classes(sources: list[Source]) -> list[str]:
    return [name for s in sources for name, kind in s.names if kind == "class"]


def _file_stems(suffix: str) -> Callable[[list[Source]], list[str]]:
    def stems(sources: list[Source]) -> list[str]:
        return [s.path.rsplit("/", 1)[-1][: -len(suffix)] for s in sources]

    return stems


# -- How a case is judged -----------------------------------------------------------------------


def _mixed_caps(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and "_" not in core


def _camel(name: str) -> bool:
    core = name.lstrip("_$#")  # `#private` members are named like the others
    return bool(core) and core[0].islower() and "_" not in core


def _pascal(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and core[0].isupper() and "_" not in core and not core.isupper()


def _snake(name: str) -> bool:
    core = name.lstrip("_")
    return bool(core) and core == core.lower()


def _lower_file(stem: str) -> bool:
    return stem == stem.lower() and "-" not in stem


# -- Go -----------------------------------------------------------------------------------------


def _go_test(path: str) -> bool:
    return path.endswith("_test.go")


def _go_functions(sources: list[Source]) -> list[str]:
    """Function names, but for the test functions `go test` runs by their prefix."""
    return [
        name
        for s in sources
        for name, kind in s.names
        if kind in FUNCTION_KINDS and not (_go_test(s.path) and name.startswith(GO_TEST_FUNCS))
    ]


PACKAGE_LINE = re.compile(r"(?m)^package[ \t]+(\w+)")


def _go_test_packages(sources: list[Source]) -> list[str]:
    return [m.group(1) for s in sources if _go_test(s.path) and (m := PACKAGE_LINE.search(s.text))]


def _external(package: str) -> bool:
    return package.endswith("_test")


def _internal(package: str) -> bool:
    return not package.endswith("_test")


ERRORF_WITH_ERR = re.compile(r"fmt\.Errorf\(\s*\"([^\"\n]*)\"[^\n]*\berr\w*\b")


def _error_formats(sources: list[Source]) -> list[str]:
    return [m.group(1) for s in sources for m in ERRORF_WITH_ERR.finditer(s.text)]


def _wraps(error_format: str) -> bool:
    return "%w" in error_format


GO = (
    Spec(
        language="go",
        name="function-names",
        convention="MixedCaps Go function names",
        minimum=MIN_CASES,
        cases=_go_functions,
        follows=_mixed_caps,
        message="Go functions here are MixedCaps ($figures); drop the underscore from the new "
        "func's name.",
        added=r"(?m)^func[ \t]+(?:\([^)\n]*\)[ \t]*)?_*[A-Za-z][A-Za-z0-9]*_\w*[ \t]*[(\[]",
        paths=("**/*.go",),
        examples=_pair(
            "internal/store/load.go",
            "package store\n\nfunc load_config() error { return nil }\n",
            "package store\n\nfunc loadConfig() error { return nil }\n",
        ),
        exclude=("**/*_test.go",),
    ),
    Spec(
        language="go",
        name="type-names",
        convention="MixedCaps Go type names",
        minimum=MIN_CASES,
        cases=_types,
        follows=_mixed_caps,
        message="Go types here are MixedCaps ($figures); drop the underscore from the new "
        "type's name.",
        added=r"(?m)^(?:type[ \t]+|[ \t]+)_*[A-Za-z][A-Za-z0-9]*_\w*[ \t]+(?:struct|interface)\b",
        paths=("**/*.go",),
        examples=_pair(
            "internal/store/types.go",
            "package store\n\ntype user_record struct{}\n",
            "package store\n\ntype userRecord struct{}\n",
        ),
    ),
    Spec(
        language="go",
        name="file-names",
        convention="lower-case Go file names",
        minimum=MIN_FILES,
        cases=_file_stems(".go"),
        follows=_lower_file,
        message="Go files here are named in lower case, words joined by _ ($figures); rename the "
        "new file (e.g. user_store.go).",
        added=r"(?m)^package[ \t]+\w+",
        paths=("**/*[A-Z]*.go", "**/*-*.go"),
        examples=(
            (True, "internal/store/userStore.go", "package store\n"),
            (False, "internal/store/user_store.go", "package store\n"),
        ),
    ),
    Spec(
        language="go",
        name="external-test-package",
        convention="Go tests in the external `_test` package",
        minimum=MIN_FILES,
        cases=_go_test_packages,
        follows=_external,
        message="Go tests here are in the external package ($figures files); write "
        "`package <name>_test` and test through the exported API.",
        added=r"(?m)^package[ \t]+\w*(?:[^t\s]|[^s\s]t|[^e\s]st|[^t\s]est|[^_\s]test)[ \t]*$",
        paths=("**/*_test.go",),
        examples=_pair("store/store_test.go", "package store\n", "package store_test\n"),
    ),
    Spec(
        language="go",
        name="internal-test-package",
        convention="Go tests in the package they test",
        minimum=MIN_FILES,
        cases=_go_test_packages,
        follows=_internal,
        message="Go tests here are in the package they test ($figures files); write "
        "`package <name>`, not `package <name>_test`.",
        added=r"(?m)^package[ \t]+\w+_test[ \t]*$",
        paths=("**/*_test.go",),
        examples=_pair("store/store_test.go", "package store_test\n", "package store\n"),
    ),
    Spec(
        language="go",
        name="error-wrapping",
        convention="fmt.Errorf wraps errors with %w",
        minimum=MIN_CASES,
        cases=_error_formats,
        follows=_wraps,
        message="Errors here are wrapped with %w ($figures); use %w in fmt.Errorf so callers can "
        "errors.Is/As it.",
        added=r"fmt\.Errorf\(\s*\"(?![^\"\n]*%w)[^\"\n]*%[vs][^\"\n]*\"[^\n]*\berr\w*\b",
        paths=("**/*.go",),
        examples=_pair(
            "store/load.go",
            'package store\n\nfunc f(err error) error { return fmt.Errorf("load: %v", err) }\n',
            'package store\n\nfunc f(err error) error { return fmt.Errorf("load: %w", err) }\n',
        ),
    ),
)


# -- TypeScript and JavaScript ------------------------------------------------------------------


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
    typed: str  # a parameter's type annotation in the examples ("" in JavaScript)


TS = Script(
    "ts", "TypeScript", "ts", TS_SOURCES, ("**/*.ts", "**/*.mts", "**/*.cts"), ".tsx",
    TS_NOT_CODE, ": string",
)  # fmt: skip
JS = Script(
    "js", "JavaScript", "js", JS_SOURCES, ("**/*.js", "**/*.mjs", "**/*.cjs"), ".jsx",
    JS_NOT_CODE, "",
)  # fmt: skip


def _ts_test(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return any(mark in name for mark in TS_TEST_MARKS) or "/__tests__/" in f"/{path}"


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    for mark in TS_TEST_MARKS:
        name = name.split(mark, 1)[0]
    return name.split(".", 1)[0]


def _script_functions(lang: Script) -> Callable[[list[Source]], list[str]]:
    def functions(sources: list[Source]) -> list[str]:
        return _functions([s for s in sources if not s.path.endswith(lang.component)])

    return functions


def _script_file_words(lang: Script) -> Callable[[list[Source]], list[str]]:
    """Among file names of more than one word (index.ts and utils.ts say nothing): kebab-case or
    camelCase."""

    def words(sources: list[Source]) -> list[str]:
        stems = [_stem(s.path) for s in sources if not s.path.endswith(lang.component)]
        return [
            stem
            for stem in stems
            if "-" in stem or "_" in stem or any(c.isupper() for c in stem[1:])
        ]

    return words


def _kebab_file(stem: str) -> bool:
    return stem == stem.lower() and "_" not in stem


def _camel_file(stem: str) -> bool:
    return stem[:1].islower() and "-" not in stem and "_" not in stem


def _test_file_names(sources: list[Source]) -> list[str]:
    names = [s.path.rsplit("/", 1)[-1] for s in sources]
    return [name for name in names if any(mark in name for mark in TS_TEST_MARKS)]


def _dot_test(name: str) -> bool:
    return ".test." in name


def _dot_spec(name: str) -> bool:  # a test file named `.spec.`, not `.test.`
    return ".test." not in name


AWAIT = re.compile(r"\bawait\b")
THEN = re.compile(r"\.then\(")
# Comments and string literals, in one left-to-right pass (so a `//` inside a string stays a
# string): a doc comment's `await source$.forEach(...)` example is no use of a promise (5 of the
# 12 uses rxjs counted were in comments).
NOT_CODE = re.compile(
    r"//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"|`(?:\\.|[^`\\])*`",
    re.DOTALL,
)


def code_only(text: str) -> str:
    """The text with its comments and string literals blanked (a template literal's `${...}` with
    them: rare where promises are used)."""
    return NOT_CODE.sub(" ", text)


def _promise_uses(sources: list[Source]) -> list[str]:
    """One `await` per await and one `.then(` per then, in the code of the files that are not
    tests."""
    code = [code_only(s.text) for s in sources if not _ts_test(s.path)]
    awaits = sum(len(AWAIT.findall(text)) for text in code)
    thens = sum(len(THEN.findall(text)) for text in code)
    return ["await"] * awaits + [".then("] * thens


def _awaited(use: str) -> bool:
    return use == "await"


def _script_specs(lang: Script, types: Spec) -> tuple[Spec, ...]:
    """The conventions TypeScript and JavaScript share, `types` second (their types or classes)."""
    ext, code = lang.ext, "export const a = 1\n"
    test = "test('parses', () => {})\n"
    tests = tuple(
        Spec(
            language=lang.id,
            name=f"{mark.strip('.')}-files",
            convention=f"{lang.label} tests in *{mark}{ext} files",
            minimum=MIN_FILES,
            cases=_test_file_names,
            follows=follows,
            message=f"Test files here are named *{mark}{ext} ($figures); rename the new "
            f"*{other}{ext} file.",
            added=r"(?m)\b(?:describe|it|test)\(",
            paths=(f"**/*{other}{ext}", f"**/*{other}{ext}x"),
            examples=(
                (True, f"src/parse{other}{ext}", test),
                (False, f"src/parse{mark}{ext}", test),
            ),
        )
        for mark, other, follows in (
            (".test.", ".spec.", _dot_test),
            (".spec.", ".test.", _dot_spec),
        )
    )
    return (
        Spec(
            language=lang.id,
            name="function-names",
            convention=f"camelCase {lang.label} function names",
            minimum=MIN_CASES,
            cases=_script_functions(lang),
            follows=_camel,
            message=f"{lang.label} functions here are camelCase ($figures); name the new "
            "function in camelCase.",
            added=r"(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:async[ \t]+)?function\*?[ \t]*"
            r"_*(?:[A-Z]|[a-z][A-Za-z0-9]*_)\w*[ \t]*[(<]",
            paths=lang.plain,
            examples=_pair(
                f"src/parse-url.{ext}",
                f"export function parse_url(input{lang.typed}) {{\n  return input\n}}\n",
                f"export function parseUrl(input{lang.typed}) {{\n  return input\n}}\n",
            ),
            exclude=lang.not_code,
        ),
        types,
        Spec(
            language=lang.id,
            name="kebab-file-names",
            convention=f"kebab-case {lang.label} file names",
            minimum=MIN_FILES,
            cases=_script_file_words(lang),
            follows=_kebab_file,
            message=f"{lang.label} files here are kebab-case ($figures); rename the new file "
            f"(e.g. parse-url.{ext}).",
            added=ANY_CONTENT,
            paths=(f"**/*[A-Z_]*.{ext}",),
            examples=((True, f"src/parseUrl.{ext}", code), (False, f"src/parse-url.{ext}", code)),
            exclude=lang.not_code,
        ),
        Spec(
            language=lang.id,
            name="camel-file-names",
            convention=f"camelCase {lang.label} file names",
            minimum=MIN_FILES,
            cases=_script_file_words(lang),
            follows=_camel_file,
            message=f"{lang.label} files here are camelCase ($figures); rename the new file "
            f"(e.g. parseUrl.{ext}).",
            added=ANY_CONTENT,
            paths=(f"**/*[-_]*.{ext}",),
            examples=((True, f"src/parse-url.{ext}", code), (False, f"src/parseUrl.{ext}", code)),
            exclude=lang.not_code,
        ),
        *tests,
        Spec(
            language=lang.id,
            name="async-await",
            convention="async/await rather than .then(",
            minimum=MIN_CASES,
            cases=_promise_uses,
            follows=_awaited,
            message="Promises here are awaited ($figures of the uses); write `await`, not "
            "`.then(`.",
            added=r"\.then\(",
            paths=lang.sources,
            examples=_pair(
                f"src/load.{ext}",
                "export function load() {\n  return fetch('/a').then((r) => r.json())\n}\n",
                "export async function load() {\n  return (await fetch('/a')).json()\n}\n",
            ),
            exclude=lang.not_code,
        ),
    )


TS_TYPES = Spec(
    language="ts",
    name="type-names",
    convention="PascalCase TypeScript types",
    minimum=MIN_CASES,
    cases=_types,
    follows=_pascal,
    message="TypeScript types here are PascalCase ($figures); name the new type in PascalCase.",
    added=r"(?m)^[ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(?:abstract[ \t]+)?"
    r"(?:class|interface|enum|type)[ \t]+(?:_*[a-z]\w*|_*[A-Z][A-Za-z0-9]*_\w*)[ \t]*[<={]",
    paths=TS_SOURCES,
    examples=_pair(
        "src/model.ts",
        "export interface user_record {\n  id: string\n}\n",
        "export interface UserRecord {\n  id: string\n}\n",
    ),
    exclude=TS_NOT_CODE,
)
JS_CLASSES = Spec(
    language="js",
    name="class-names",
    convention="PascalCase JavaScript classes",
    minimum=MIN_CASES,
    cases=_classes,
    follows=_pascal,
    message="JavaScript classes here are PascalCase ($figures); name the new class in PascalCase.",
    added=r"(?m)^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?class[ \t]+"
    r"(?:_*[a-z]\w*|_*[A-Z][A-Za-z0-9]*_\w*)[ \t]*(?:extends\b|\{)",
    paths=JS_SOURCES,
    examples=_pair(
        "src/model.js", "export class user_record {\n}\n", "export class UserRecord {\n}\n"
    ),
    exclude=JS_NOT_CODE,
)


# -- Rust ---------------------------------------------------------------------------------------


RUST = (
    Spec(
        language="rust",
        name="function-names",
        convention="snake_case Rust function names",
        minimum=MIN_CASES,
        cases=_functions,
        follows=_snake,
        message="Rust functions here are snake_case ($figures); name the new fn in snake_case.",
        added=r"(?m)^[ \t]*(?:pub(?:\([^)\n]*\))?[ \t]+)?(?:const[ \t]+)?(?:async[ \t]+)?"
        r"(?:unsafe[ \t]+)?fn[ \t]+_*[a-z0-9_]*[A-Z]\w*[ \t]*[(<]",
        paths=("**/*.rs",),
        examples=_pair(
            "src/parse.rs",
            "pub fn parseVersion(input: &str) -> &str {\n    input\n}\n",
            "pub fn parse_version(input: &str) -> &str {\n    input\n}\n",
        ),
    ),
    Spec(
        language="rust",
        name="type-names",
        convention="CamelCase Rust types and traits",
        minimum=MIN_CASES,
        cases=_types,
        follows=_pascal,
        message="Rust types and traits here are CamelCase ($figures); name the new one in "
        "CamelCase.",
        added=r"(?m)^[ \t]*(?:pub(?:\([^)\n]*\))?[ \t]+)?(?:struct|enum|trait|union)[ \t]+"
        r"(?:_*[a-z]\w*|_*[A-Z][A-Za-z0-9]*_\w*)\b",
        paths=("**/*.rs",),
        examples=_pair(
            "src/model.rs",
            "pub struct version_req {\n    major: u64,\n}\n",
            "pub struct VersionReq {\n    major: u64,\n}\n",
        ),
    ),
    Spec(
        language="rust",
        name="file-names",
        convention="snake_case Rust file names",
        minimum=MIN_FILES,
        cases=_file_stems(".rs"),
        follows=_lower_file,
        message="Rust files here are snake_case ($figures); rename the new file "
        "(e.g. version_req.rs).",
        added=ANY_CONTENT,
        paths=("**/*[A-Z]*.rs", "**/*-*.rs"),
        examples=(
            (True, "src/versionReq.rs", "pub struct VersionReq;\n"),
            (False, "src/version_req.rs", "pub struct VersionReq;\n"),
        ),
    ),
)


# -- Java ---------------------------------------------------------------------------------------


def _java_methods(sources: list[Source]) -> list[str]:
    """Method names; a constructor (kind method, named as its class) is not named by choice."""
    types = set(_types(sources))
    return [name for name in _functions(sources) if name not in types]


JAVA = (
    Spec(
        language="java",
        name="method-names",
        convention="camelCase Java method names",
        minimum=MIN_CASES,
        cases=_java_methods,
        follows=_camel,
        message="Java methods here are camelCase ($figures); name the new method in camelCase.",
        # `int parse_value(`, never a constructor (`Parser(`) nor `throw new Error(`/`return a_b(`
        added=r"(?m)^[ \t]+(?:(?:public|protected|private|static|final|synchronized|abstract)"
        r"[ \t]+)*(?!(?:return|throw|new|else|case|yield)\b)[\w<>\[\], ?]+[ \t]+"
        r"_*[a-z][A-Za-z0-9]*_\w*[ \t]*\(",
        paths=("**/*.java",),
        examples=_pair(
            "src/main/java/com/example/Parser.java",
            "class Parser {\n    static int parse_value(String s) { return 0; }\n}\n",
            "class Parser {\n    public Parser() {}\n\n    static int parseValue(String s) {\n"
            "        throw new IllegalStateException(s);\n    }\n}\n",
        ),
    ),
    Spec(
        language="java",
        name="type-names",
        convention="PascalCase Java types",
        minimum=MIN_CASES,
        cases=_types,
        follows=_pascal,
        message="Java types here are PascalCase ($figures); name the new type in PascalCase.",
        added=r"(?m)^[ \t]*(?:(?:public|protected|private|static|final|abstract|sealed)[ \t]+)*"
        r"(?:class|interface|enum|record|@interface)[ \t]+(?:_*[a-z]\w*|_*[A-Z][A-Za-z0-9]*_\w*)\b",
        paths=("**/*.java",),
        examples=_pair(
            "src/main/java/com/example/Model.java",
            "class user_record {\n}\n",
            "class UserRecord {\n}\n",
        ),
    ),
)

# Every convention, in the order each language's rules are written.
SPECS = (*GO, *_script_specs(TS, TS_TYPES), *_script_specs(JS, JS_CLASSES), *RUST, *JAVA)


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
