"""`sidekit conventions learn` in Go and TypeScript: fixture repos with known conventions -> exact
figures and rules whose own examples hold; a real Go project (fetched from the module proxy at test
time) learns rules, and the conventions sidecar says one through the real hook when a new file
breaks it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sidekit_hooks.rules.authoring import learn, learn_languages
from testing.code import commit_all, write
from testing.hooks import HookRunner, context_of
from testing.hooks import write as write_call
from testing.rules import example_mismatches

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "code"))
import realprojects  # noqa: E402  (tests/code's fetcher, shared with the index's real-project tests)


def go_repo(root: Path) -> Path:
    files = {"go.mod": "module example.com/shop\n\ngo 1.21\n"}
    for i in range(6):
        files[f"store/item_{i}.go"] = f"""
            package store

            import "fmt"

            type Item{i} struct{{ ID int }}

            func LoadItem{i}(id int) (*Item{i}, error) {{
            \tif err := check(id); err != nil {{
            \t\treturn nil, fmt.Errorf("load item {i}: %w", err)
            \t}}
            \treturn &Item{i}{{ID: id}}, nil
            }}

            func (it *Item{i}) saveAll() error {{ return nil }}
            """
        files[f"store/item_{i}_test.go"] = f"""
            package store

            import "testing"

            func Test_loadItem{i}(t *testing.T) {{ _, _ = LoadItem{i}({i}) }}
            """
    files["store/check.go"] = (
        "package store\n\nfunc check(id int) error { return nil }\n\nfunc legacy_check() {}\n"
    )
    write(root, files)
    commit_all(root)
    return root


def ts_repo(root: Path) -> Path:
    files: dict[str, str] = {}
    for i, name in enumerate(
        ["parse-url", "with-base", "trailing-slash", "join-path", "query-string", "clean-double"]
    ):
        files[f"src/{name}.ts"] = f"""
            export interface Options{i} {{ strict: boolean }}
            export type Result{i} = string
            export function fn{i}A(input: string, _o?: Options{i}): Result{i} {{ return input }}
            export async function fn{i}B(input: string): Promise<string> {{ return await Promise.resolve(input) }}
            """
        files[f"test/{name}.test.ts"] = (
            f"import {{ fn{i}A }} from '../src/{name}'\ntest('a', () => fn{i}A('x'))\n"
        )
    write(root, files)
    commit_all(root)
    return root


def js_repo(root: Path) -> Path:
    files: dict[str, str] = {}
    for i, name in enumerate(["buildUrl", "mergeConfig", "isAbsolute", "combineUrls", "toForm"]):
        files[f"lib/{name}.js"] = f"""
            export class Part{i}Error extends Error {{}}
            export class Part{i}Reader {{
              readAll() {{ return 1 }}
            }}
            export function {name}(input) {{ return input }}
            export const {name}Later = async (input) => await Promise.resolve(input)
            {"function read_raw() { return fetch('/a').then((r) => r.text()) }" if i == 0 else ""}
            """
    write(root, files)
    commit_all(root)
    return root


def rust_repo(root: Path) -> Path:
    files: dict[str, str] = {}
    for i, name in enumerate(["version", "version_req", "parse", "display", "eval", "impls"]):
        files[f"src/{name}.rs"] = f"""
            pub struct Part{i} {{
                major: u64,
            }}

            impl Part{i} {{
                pub fn new(major: u64) -> Self {{
                    Part{i} {{ major }}
                }}
                pub fn major_of(&self) -> u64 {{
                    self.major
                }}
            }}

            pub enum Kind{i} {{ A, B }}
            """
    files["src/legacyName.rs"] = "pub fn parseThing() {}\n"
    write(root, files)
    commit_all(root)
    return root


def java_repo(root: Path) -> Path:
    files: dict[str, str] = {}
    for i in range(6):
        files[f"src/main/java/com/example/Part{i}.java"] = f"""
            package com.example;

            public class Part{i} {{
                public Part{i}() {{}}
                public Part{i}(int a) {{}}
                public int sizeOf() {{ return 0; }}
                {"static int parse_legacy() { return 0; }" if i == 0 else ""}
                interface Visitor{i} {{ void visitPart(); }}
            }}
            """
    write(root, files)
    commit_all(root)
    return root


def figures(project: Path, prefix: str) -> dict[str, tuple[int, int, bool]]:
    _, measures = learn_languages.learn_all(str(project))
    return {m.id: (m.followed, m.total, m.kept) for m in measures if m.id.startswith(prefix)}


def test_go_conventions_are_measured_from_the_code(project: Path) -> None:
    assert figures(go_repo(project), "conventions.go.") == {
        # 6 LoadItem + 6 saveAll + check + legacy_check; Test_ functions of test files left out
        "conventions.go.function-names": (13, 14, True),
        "conventions.go.type-names": (6, 6, False),  # fewer than 10 cases
        "conventions.go.file-names": (13, 13, True),
        "conventions.go.external-test-package": (0, 6, False),
        "conventions.go.internal-test-package": (6, 6, True),
        "conventions.go.error-wrapping": (6, 6, False),  # fewer than 10 cases
    }


def test_typescript_conventions_are_measured_from_the_code(project: Path) -> None:
    assert figures(ts_repo(project), "conventions.ts.") == {
        "conventions.ts.function-names": (12, 12, True),
        "conventions.ts.type-names": (12, 12, True),
        "conventions.ts.kebab-file-names": (12, 12, True),  # the test files' stems too
        "conventions.ts.camel-file-names": (0, 12, False),
        "conventions.ts.test-files": (6, 6, True),
        "conventions.ts.spec-files": (0, 6, False),
        "conventions.ts.async-await": (6, 6, False),  # fewer than 10 cases
    }


def test_javascript_conventions_are_measured_from_the_code(project: Path) -> None:
    assert figures(js_repo(project), "conventions.js.") == {
        # per file: readAll, the exported function, the arrow const; read_raw in one
        "conventions.js.function-names": (15, 16, True),
        "conventions.js.class-names": (10, 10, True),
        "conventions.js.kebab-file-names": (0, 5, False),
        "conventions.js.camel-file-names": (5, 5, True),
        "conventions.js.test-files": (0, 0, False),
        "conventions.js.spec-files": (0, 0, False),
        "conventions.js.async-await": (5, 6, False),
    }


def test_rust_conventions_are_measured_from_the_code(project: Path) -> None:
    assert figures(rust_repo(project), "conventions.rust.") == {
        "conventions.rust.function-names": (12, 13, True),  # new + major_of per file, parseThing
        "conventions.rust.type-names": (12, 12, True),
        "conventions.rust.file-names": (6, 7, False),  # legacyName.rs: 86%
    }


def test_java_conventions_are_measured_from_the_code(project: Path) -> None:
    # constructors (named by their class) left out; an interface's method is a method
    assert figures(java_repo(project), "conventions.java.") == {
        "conventions.java.method-names": (12, 13, True),  # parse_legacy in one file
        "conventions.java.type-names": (12, 12, True),
    }


def test_typescript_private_members_are_named_like_the_others(project: Path) -> None:
    """`#fetch()` is a camelCase method (tanstack's query-core has 17 of them)."""
    files = {
        f"src/part{i}.ts": f"""
            export class Part{i} {{
              #fetchAll(): number {{ return {i} }}
              #load_raw(): number {{ return {i} }}
              readAll(): number {{ return this.#fetchAll() }}
            }}
            """
        for i in range(5)
    }
    write(project, files)
    commit_all(project)
    assert figures(project, "conventions.ts.function-names") == {
        "conventions.ts.function-names": (10, 15, False)
    }


def test_awaits_and_thens_are_counted_in_code_not_in_comments_or_strings(project: Path) -> None:
    """A doc comment's `await source$.forEach(...)` example is no use of a promise (rxjs: 6 of 12
    counted with its comments, 2 of 7 without)."""
    files = {
        f"src/load{i}.ts": f"""
            /**
             * const total = await load{i}()   (an example, in a comment)
             * getTotal().then((n) => n)
             */
            export async function load{i}(): Promise<number> {{
              const said = "await me .then(later)"  // await .then(
              const url = `/a/${{'await'}}`
              await Promise.resolve(said + url)
              return fetch('/b').then(() => {i})
            }}
            """
        for i in range(6)
    }
    write(project, files)
    commit_all(project)
    assert figures(project, "conventions.ts.async-await") == {
        "conventions.ts.async-await": (6, 12, False)
    }


@pytest.mark.parametrize("repo", [go_repo, ts_repo, js_repo, rust_repo, java_repo])
def test_learned_rules_carry_their_language_and_their_examples_hold(
    project: Path, repo: object
) -> None:
    assert callable(repo)
    rules, _ = learn_languages.learn_all(str(repo(project)))
    document = learn.pack(rules)
    language = {go_repo: "go", ts_repo: "ts", js_repo: "js", rust_repo: "rust"}.get(repo, "java")
    assert document["rules"] and {r["metadata"]["language"] for r in document["rules"]} == {
        language
    }
    assert example_mismatches(document) == []


def test_the_cli_writes_the_language_rules_to_conventions_toml(project: Path) -> None:
    go_repo(project)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sidekit_hooks.cli",
            "conventions",
            "learn",
            "--project",
            str(project),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["kept"] == [
        {"id": "conventions.go.function-names", "prevalence": 0.93, "of": 14},
        {"id": "conventions.go.file-names", "prevalence": 1.0, "of": 13},
        {"id": "conventions.go.internal-test-package", "prevalence": 1.0, "of": 6},
    ]
    written = tomllib.loads((project / "sidecar_rules" / "conventions.toml").read_text())
    assert [r["when"]["paths"] for r in written["rules"]] == [
        ["**/*.go"],
        ["**/*[A-Z]*.go", "**/*-*.go"],
        ["**/*_test.go"],
    ]
    # a test file's `func Test_loadItem0` is named for `go test`, not by the package's habit
    assert [r["when"].get("exclude") for r in written["rules"]] == [["**/*_test.go"], None, None]


# -- a real Go project
# ------------------------------------------------------------------------------

COBRA = next(p for p in realprojects.TUNING if p.coordinate.startswith("github.com/spf13/cobra@"))


@pytest.fixture
def cobra(project: Path) -> Path:
    if not shutil.which("go"):
        from testing import requires

        requires.missing("go is needed to fetch the Go project", "install Go from go.dev")
    shutil.copytree(
        realprojects.laid_out(COBRA),
        project,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns(".sidekit"),
    )
    return project


@pytest.mark.slow
def test_a_real_go_project_learns_its_conventions(cobra: Path) -> None:
    rules, measures = learn_languages.learn_all(str(cobra))
    kept = {r.id: (r.followed, r.total) for r in rules if r.language == "go"}
    assert kept == {
        "conventions.go.function-names": (296, 296),
        "conventions.go.type-names": (14, 14),
        "conventions.go.file-names": (34, 36),
        "conventions.go.internal-test-package": (16, 17),
    }
    assert example_mismatches(learn.pack(rules)) == []


@pytest.mark.slow
def test_the_conventions_sidecar_says_a_learned_go_rule_for_a_new_file(
    cobra: Path, run_hook: HookRunner
) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sidekit_hooks.cli",
            "conventions",
            "learn",
            "--project",
            str(cobra),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    breaking = "package cobra\n\nfunc flag_names(c *Command) []string { return nil }\n"
    said = run_hook("PostToolUse", write_call(cobra, "flag_names.go", breaking))
    assert (said.returncode, said.stderr) == (0, "")
    assert context_of(said.stdout) == (
        "[sidecar:conventions] Go functions here are MixedCaps (296 of 296, 100%); "
        "drop the underscore from the new func's name."
    )
    keeping = "package cobra\n\nfunc flagNames(c *Command) []string { return nil }\n"
    assert (
        run_hook(
            "PostToolUse", write_call(cobra, "flag_names2.go", keeping, session="sess-2")
        ).stdout
        == ""
    )
