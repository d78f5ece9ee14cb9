"""What the tree-sitter languages read from one file: definitions, references (never comments,
strings or binding names), imports and normalised function bodies. In process, exact outputs."""

from __future__ import annotations

import textwrap

from sidekit_hooks.code.languages import build, language_of, module_name
from sidekit_hooks.code.parse import FileFacts


def facts(language: str, source: str, path: str = "x") -> FileFacts:
    return build.facts_of(language, path, textwrap.dedent(source).lstrip("\n").encode())


def definitions(found: FileFacts) -> list[tuple[str, str, int]]:
    return [(d.qualname, d.kind, d.line) for d in found.definitions]


def used(found: FileFacts, name: str) -> list[int]:
    return sorted({line for used_name, line in found.references if used_name == name})


TYPESCRIPT = """
    import { parseURL as parse, withBase } from "./parse";
    import * as path from "node:path";

    // parseURL in a comment, withBase too
    export function joinURL(base: string, input?: string): string {
      const label = "withBase parseURL";
      return withBase(parse(input ?? ""), base) + `${path.sep}`;
    }

    export const trimmed = (value: string) => value.trim();

    export class Router<T> implements Handler {
      private routes: T[] = [];
      add(route: T): Router<T> {
        this.routes.push(route);
        return this;
      }
    }

    interface Handler { handle(url: string): void }
    export type Route = { path: string };
    enum Method { Get, Post }
    namespace Internal { export function helper() {} }
    """


def test_typescript_definitions_references_and_imports() -> None:
    found = facts("ts", TYPESCRIPT, "src/join.ts")
    assert definitions(found) == [
        ("joinURL", "function", 5),
        ("trimmed", "function", 10),
        ("Router", "class", 12),
        ("Router.add", "method", 14),
        ("Handler", "interface", 20),
        ("Handler.handle", "method", 20),
        ("Route", "type", 21),
        ("Method", "enum", 22),
        ("Internal", "namespace", 23),
        ("Internal.helper", "function", 23),
    ]
    assert [(d.qualname, d.signature) for d in found.definitions[:2]] == [
        ("joinURL", "(base: string, input?: string)"),
        ("trimmed", "(value: string)"),
    ]
    # The import names it (1) and the call uses it (7); not the comment (4), the string (6) or the
    # alias.
    assert used(found, "withBase") == [1, 7]
    assert used(found, "parseURL") == [1]
    assert used(found, "parse") == [7]  # the alias as used; its binding on line 1 is not a use
    assert used(found, "path") == [7]
    assert used(found, "Handler") == [12]
    assert used(found, "routes") == [15]  # the member used, not the field declared on line 13
    assert used(found, "label") == []  # declared, never read
    assert [(i.module, i.line) for i in found.imports] == [("./parse", 1), ("node:path", 2)]


def test_tsx_and_jsx_read_their_own_grammar() -> None:
    source = "export function Card({ title }: Props) {\n  return <Panel heading={title}>{format(title)}</Panel>;\n}\n"
    found = facts("ts", source, "ui/Card.tsx")
    assert definitions(found) == [("Card", "function", 1)]
    assert (
        used(found, "Panel") == [2] and used(found, "format") == [2] and used(found, "Props") == [1]
    )
    found = facts("js", source.replace(": Props", ""), "ui/Card.jsx")
    assert used(found, "Panel") == [2] and used(found, "format") == [2]


def test_javascript_commonjs_and_classes() -> None:
    found = facts(
        "js",
        """
        const { retry } = require("./retry");
        /* sleep is mentioned here */
        async function poll(check, delay = 100) {
          while (!(await check())) await sleep(delay, 'sleep');
          return retry(check);
        }
        class Queue extends Base {
          #items = [];
          push(item) { this.#items.push(item); }
        }
        module.exports = { poll, Queue };
        """,
    )
    assert definitions(found) == [
        ("poll", "function", 3),
        ("Queue", "class", 7),
        ("Queue.push", "method", 9),
    ]
    assert used(found, "sleep") == [4]
    assert used(found, "retry") == [1, 5]  # the destructuring on line 1 reads it from the module
    assert used(found, "poll") == [11] and used(found, "Queue") == [11]
    assert used(found, "#items") == [9]


GO = """
    package cast

    import (
        "fmt"
        str "strings"
    )

    // trimDecimal is said in this comment
    const Precision, Base = 2, 10

    type Reader struct{ buf []byte }

    type Caster interface {
        Cast(v any) (string, error)
    }

    func (r *Reader) Cast(v any) (string, error) {
        text := fmt.Sprint(v)
        return trimDecimal(text), nil
    }

    func trimDecimal(s string) string {
        if i := str.Index(s, "trimDecimal"); i > Precision {
            return s[:i]
        }
        return s
    }
    """


def test_go_definitions_methods_by_receiver_and_references() -> None:
    found = facts("go", GO, "cast.go")
    assert definitions(found) == [
        ("Precision", "const", 9),
        ("Base", "const", 9),
        ("Reader", "struct", 11),
        ("Caster", "interface", 13),
        ("Caster.Cast", "method", 14),
        ("Reader.Cast", "method", 17),
        ("trimDecimal", "function", 22),
    ]
    assert used(found, "trimDecimal") == [
        19
    ]  # not the comment (8), the string (23) or the declaration
    assert used(found, "Reader") == [17] and used(found, "Precision") == [23]
    assert used(found, "text") == [19]  # `text :=` binds it on line 18
    assert used(found, "Sprint") == [18] and used(found, "str") == [23]
    assert [(i.module, i.line) for i in found.imports] == [("fmt", 4), ("strings", 5)]


RUST = """
    use std::collections::HashMap;
    use crate::cache::{Cache, Entry as CacheEntry};

    /// new_cache in a doc comment
    pub struct Store { items: HashMap<String, CacheEntry> }

    pub trait Lookup { fn lookup(&self, key: &str) -> Option<&CacheEntry>; }

    impl Lookup for Store {
        fn lookup(&self, key: &str) -> Option<&CacheEntry> { self.items.get(key) }
    }

    impl Store {
        pub fn new_cache() -> Self {
            let mut items = HashMap::new();
            println!("{}", "new_cache");
            Store { items }
        }
    }

    const LIMIT: usize = 8;
    macro_rules! store { () => { Store::new_cache() } }
    fn main() { let s = Store::new_cache(); assert!(s.items.len() < LIMIT); }
    """


def test_rust_items_impl_methods_and_macro_arguments() -> None:
    found = facts("rust", RUST, "src/store.rs")
    assert definitions(found) == [
        ("Store", "struct", 5),
        ("Lookup", "trait", 7),
        ("Lookup.lookup", "method", 7),
        ("Store.lookup", "method", 10),
        ("Store.new_cache", "method", 14),
        ("LIMIT", "const", 21),
        ("store", "macro", 22),
        ("main", "function", 23),
    ]
    # Not the doc comment (4), the string (16) or the declaration (14); the macro's body (22)
    # counts.
    assert used(found, "new_cache") == [22, 23]
    assert used(found, "LIMIT") == [23]  # inside assert!(...) too
    assert used(found, "items") == [
        10,
        17,
        23,
    ]  # the field declared on 5 and bound on 15 are not uses
    assert used(found, "CacheEntry") == [5, 7, 10]
    assert [(i.module, i.line) for i in found.imports] == [
        ("std::collections::HashMap", 1),
        ("crate::cache::{Cache, Entry as CacheEntry}", 2),
    ]


JAVA = """
    package com.example.text;

    import java.util.List;
    import static java.util.Objects.requireNonNull;

    /** Splitter splits; the word split here is a comment. */
    public class Splitter<T> {
        public static final int LIMIT = 16;
        private final String separator;

        public Splitter(String separator) { this.separator = requireNonNull(separator); }

        public List<String> split(CharSequence text) {
            String sep = "split";
            return List.of(text.toString().split(separator, LIMIT));
        }

        enum Mode { STRICT, LENIENT; boolean strict() { return this == STRICT; } }
    }
    """


def test_java_classes_members_and_references() -> None:
    found = facts("java", JAVA, "src/main/java/com/example/text/Splitter.java")
    assert definitions(found) == [
        ("Splitter", "class", 7),
        ("Splitter.LIMIT", "variable", 8),
        ("Splitter.separator", "variable", 9),
        ("Splitter.Splitter", "method", 11),
        ("Splitter.split", "method", 13),
        ("Splitter.Mode", "enum", 18),
        ("Splitter.Mode.STRICT", "const", 18),
        ("Splitter.Mode.LENIENT", "const", 18),
        ("Splitter.Mode.strict", "method", 18),
    ]
    assert used(found, "split") == [
        15
    ]  # not the javadoc (6), the string (14) or the declaration (13)
    assert used(found, "LIMIT") == [15] and used(found, "STRICT") == [18]
    assert used(found, "separator") == [
        11,
        15,
    ]  # this.separator and the parameter read; not declarations
    assert used(found, "requireNonNull") == [4, 11]
    assert [(i.module, i.line) for i in found.imports] == [
        ("java.util.List", 3),
        ("java.util.Objects.requireNonNull", 4),
    ]


def test_a_renamed_reformatted_copy_has_the_same_normalised_body() -> None:
    original = facts(
        "ts",
        """
        export async function waitFor(check: () => boolean, timeout: number) {
          const started = Date.now();
          while (!check()) {
            if (Date.now() - started > timeout) throw new Error("timed out");
            await sleep(50);
          }
        }
        """,
    ).functions
    copy = facts(
        "ts",
        """
        export async function pollUntil(predicate: () => boolean,
                                        limit: number) {
          const t0 = Date.now();
          while (!predicate()) { if (Date.now() - t0 > limit) throw new Error("timed out"); await sleep(50); }
        }
        """,
    ).functions
    assert [(f.qualname, f.line, f.end) for f in original] == [("waitFor", 1, 7)]
    assert original[0].tokens == copy[0].tokens
    assert original[0].outside == copy[0].outside == "Date Error sleep"
    other = facts(
        "go", "package p\nfunc Wait(d int) {\n\tfor !ready() {\n\t\ttime.Sleep(d)\n\t}\n}\n"
    ).functions
    assert other[0].tokens.split()[:6] == ["func", "<self>", "(", "v1", "int", ")"]
    assert other[0].outside == "int ready time"


def test_suffixes_pick_the_language_and_module_names_follow_paths() -> None:
    assert [
        language_of(p)
        for p in ("a/b.ts", "a/b.tsx", "b.mjs", "x.go", "lib.rs", "A.java", "m.py", "README")
    ] == [
        "ts",
        "ts",
        "js",
        "go",
        "rust",
        "java",
        "py",
        "",
    ]
    assert language_of("dir.ts/README") == ""
    assert [
        module_name(p) for p in ("src/parse.ts", "src/utils/index.ts", "src/lib.rs", "src/a/mod.rs")
    ] == [
        "src.parse",
        "src.utils",
        "src.lib",
        "src.a",
    ]


def test_files_of_every_language_in_one_process_each_read_with_their_own_grammar() -> None:
    """A parser is kept per language: read in turn (as one index build does), each stays right."""
    expected = {
        "ts": ("joinURL", TYPESCRIPT),
        "go": ("trimDecimal", GO),
        "rust": ("main", RUST),
        "java": ("Splitter", JAVA),
    }
    for _ in range(3):
        for language, (name, source) in expected.items():
            for path in ("a.tsx", "b.ts") if language == "ts" else ("x",):
                assert name in {d.qualname for d in facts(language, source, path).definitions}, (
                    language,
                    path,
                )
