"""`symbol`, `usages`, `blast-radius` (CLI and MCP) in TypeScript, JavaScript, Go, Rust and Java,
within the budgets of docs/usage.md on worst-case inputs; a language whose grammar is missing says
`notIndexed`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from testing.code import answer, commit_all, env_for, settle, write
from testing.mcp import connect, text_of

MIXED = {
    "web/src/parse.ts": """
        export function parseURL(input: string): URL {
          // parseURL in a comment
          return new URL(input);
        }
        """,
    "web/src/index.ts": """
        import { parseURL } from "./parse";
        export const home = parseURL("/");
        export const label = "parseURL";
        """,
    "web/app.jsx": "import { parseURL } from './src/parse';\nexport const App = () => <a "
    "href={parseURL('/')} />;\n",
    "cast/cast.go": """
        package cast

        func trimDecimal(s string) string { return s }

        func ToString(v any) string { return trimDecimal(v.(string)) }
        """,
    "cast/cast_test.go": """
        package cast

        import "testing"

        func TestTrim(t *testing.T) { _ = trimDecimal("1.0") }
        """,
    "store/src/lib.rs": "pub struct Store;\nimpl Store {\n    pub fn open() -> Store { Store "
    "}\n}\nfn main() { Store::open(); }\n",
    "java/src/main/java/a/Splitter.java": "package a;\npublic class Splitter {\n  static int "
    "split(String s) { return s.length(); }\n  int twice(String s) { return split(s) * 2; }\n}\n",
}


def test_symbol_usages_and_blast_radius_answer_in_every_language(project: Path) -> None:
    write(project, MIXED)
    commit_all(project)
    assert answer(project, "symbol", "parseURL")[0] == {
        "matches": [{"kind": "function", "at": "web/src/parse.ts:1", "sig": "(input: string)"}],
        "searched": 7,
    }
    assert answer(project, "usages", "parseURL")[0] == {
        "uses": 4,
        "at": ["web/app.jsx:1", "web/app.jsx:2", "web/src/index.ts:1", "web/src/index.ts:2"],
        "searched": 7,
    }
    assert answer(project, "symbol", "trimDecimal")[0] == {
        "matches": [{"kind": "function", "at": "cast/cast.go:3", "sig": "(s string)"}],
        "searched": 7,
    }
    assert answer(project, "usages", "trimDecimal")[0] == {
        "uses": 2,
        "at": ["cast/cast.go:5", "cast/cast_test.go:5"],
        "searched": 7,
    }
    assert answer(project, "symbol", "Store.open")[0] == {
        "matches": [{"kind": "method", "at": "store/src/lib.rs:3", "sig": "()"}],
        "searched": 7,
    }
    assert answer(project, "symbol", "Splitter.split")[0] == {
        "matches": [
            {"kind": "method", "at": "java/src/main/java/a/Splitter.java:3", "sig": "(String s)"}
        ],
        "searched": 7,
    }
    assert answer(project, "usages", "split")[0] == {
        "uses": 1,
        "at": ["java/src/main/java/a/Splitter.java:4"],
        "searched": 7,
    }
    assert answer(project, "blast-radius", "cast/cast.go:trimDecimal")[0] == {
        "callers": ["cast/cast.go", "cast/cast_test.go"],
        "basis": "imports",
        "searched": 7,
    }
    # Callers are files of the same language: the TypeScript file and the JSX one are different
    # grammars.
    assert answer(project, "blast-radius", "web/src/parse.ts:parseURL")[0]["callers"] == [
        "web/src/index.ts"
    ]


def test_mcp_tools_answer_other_languages_as_the_cli_does(project: Path) -> None:
    write(project, MIXED)
    commit_all(project)
    calls = [
        ("symbol", {"name": "trimDecimal"}, ("symbol", "trimDecimal")),
        ("usages", {"name": "parseURL"}, ("usages", "parseURL")),
        (
            "blast_radius",
            {"target": "store/src/lib.rs:Store"},
            ("blast-radius", "store/src/lib.rs:Store"),
        ),
    ]

    async def run() -> list[str]:
        async with connect(project) as session:
            return [
                text_of(await session.call_tool(name, arguments)) for name, arguments, _ in calls
            ]

    through_mcp = anyio.run(run)
    through_cli = [
        json.dumps(answer(project, *args)[0], separators=(",", ":")) for _, _, args in calls
    ]
    assert through_mcp == through_cli
    assert json.loads(through_mcp[2]) == {
        "callers": ["store/src/lib.rs"],
        "basis": "imports",
        "searched": 7,
    }


def long_dir(depth: int, tag: str) -> str:
    return "/".join(f"a_rather_long_folder_name_{tag}_{level}" for level in range(depth))


# One function per language with a dozen long parameters, for the one-match budget.
LONG_PARAMETERS = ", ".join(f"argument_number_{i}" for i in range(12))
ONE_FUNCTION = {
    "ts": (
        "module_with_a_long_name.ts",
        f"export function one_unique_function_name({LONG_PARAMETERS}) {{}}\n",
    ),
    "js": (
        "module_with_a_long_name.js",
        f"export function one_unique_function_name({LONG_PARAMETERS}) {{}}\n",
    ),
    "go": (
        "module_with_a_long_name.go",
        f"package p\n\nfunc one_unique_function_name({LONG_PARAMETERS} int) {{}}\n",
    ),
    "rust": (
        "module_with_a_long_name.rs",
        "fn one_unique_function_name("
        + ", ".join(f"argument_number_{i}: i32" for i in range(12))
        + ") {}\n",
    ),
    "java": (
        "ModuleWithALongName.java",
        "class K { static void one_unique_function_name("
        + ", ".join(f"int argument_number_{i}" for i in range(12))
        + ") {} }\n",
    ),
}


@pytest.mark.parametrize("language", sorted(ONE_FUNCTION))
def test_symbol_one_match_fits_170_bytes_with_a_very_long_path(
    project: Path, language: str
) -> None:
    name, source = ONE_FUNCTION[language]
    write(project, {f"{long_dir(8, 's')}/{name}": source})
    found, size = answer(project, "symbol", "one_unique_function_name")
    assert size <= 170, found
    (match,) = found["matches"]
    assert match["at"].startswith("a_rather_long_folder_name_s_0/…/") and match["at"].endswith(
        f"/{name}:" + ("3" if language == "go" else "1")
    )


# Nine uses in nine files, one per file, in each language.
NINE_USES = {
    "ts": ("user_module.ts", 'import * as lib from "lib";\nlib.common();\n'),
    "js": ("user_module.js", "const lib = require('lib');\nlib.common();\n"),
    "go": ("user_module.go", "package p\nfunc f() { lib.common() }\n"),
    "rust": ("user_module.rs", "use lib;\nfn f() { lib::common(); }\n"),
    "java": ("UserModule.java", "class U {\n  void f() { Lib.common(); }\n}\n"),
}


@pytest.mark.parametrize("language", sorted(NINE_USES))
def test_usages_under_ten_uses_fit_360_bytes_flat_with_very_long_paths(
    project: Path, language: str
) -> None:
    name, source = NINE_USES[language]
    write(project, {f"{long_dir(6, str(i))}/{i}_{name}": source for i in range(9)})
    found, size = answer(project, "usages", "common")
    assert size <= 360, found
    assert found["uses"] == 9 and len(found["at"]) + found["more"] == 9
    assert found["at"][0] == f"a_rather_long_folder_name_0_0/…/0_{name}:2"


# 480 uses across 60 files (8 a file), the worst case docs/usage.md budgets, in each language.
def spread(language: str, uses_per_file: int) -> dict[str, str]:
    calls = "common();\n" * uses_per_file
    bodies = {
        "ts": calls,
        "js": calls,
        "go": "package p\nfunc f() {\n" + "\tcommon()\n" * uses_per_file + "}\n",
        "rust": "fn f() {\n" + "    common();\n" * uses_per_file + "}\n",
        "java": "class M { void f() {\n" + "  common();\n" * uses_per_file + "} }\n",
    }
    suffix = {"ts": "ts", "js": "js", "go": "go", "rust": "rs", "java": "java"}[language]
    return {
        f"{long_dir(2, 'u')}/module_number_{i:02}.{suffix}": bodies[language] for i in range(60)
    }


@pytest.mark.parametrize("language", ["go", "java", "js", "rust", "ts"])
def test_usages_of_480_uses_across_60_files_fit_900_bytes(project: Path, language: str) -> None:
    write(project, spread(language, 8))
    found, size = answer(project, "usages", "common")
    assert found["uses"] == 480 and found["files"] == 60 and size <= 900, (size, found)
    assert len(found["in"]) + found["moreFiles"] == 60 and found["in"][0]["uses"] == 8


def test_blast_radius_fits_200_bytes_with_sixty_long_callers(project: Path) -> None:
    folder = long_dir(3, "b")
    files = {
        f"{folder}/shared_helper_module.go": "package p\n\nfunc SharedHelper() int { return 1 }\n"
    }
    for i in range(60):
        files[f"{folder}/caller_module_with_a_long_name_{i:02}.go"] = (
            f"package p\n\nfunc c{i}() int {{ return SharedHelper() }}\n"
        )
    write(project, files)
    found, size = answer(project, "blast-radius", f"{folder}/shared_helper_module.go:SharedHelper")
    assert size <= 200, found
    assert len(found["callers"]) + found["callersMore"] == 60


# --- a missing grammar ------------------------------------------------------------------------


def hide_grammars(tmp: Path, modules: list[str]) -> dict[str, str]:
    """An environment in which these grammar wheels fail to import, as when they are not
    installed."""
    shadow = tmp / "shadow"
    for module in modules:
        (shadow / module).mkdir(parents=True, exist_ok=True)
        (shadow / module / "__init__.py").write_text(
            f'raise ImportError("No module named {module!r}")\n'
        )
    return {"PYTHONPATH": str(shadow)}


def run(project: Path, extra_env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**env_for(project), **extra_env}
    return subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", *args, "--project", str(project)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def line(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_a_missing_grammar_is_said_in_every_answer_and_by_doctor_until_it_is_installed(
    project: Path, tmp_path: Path
) -> None:
    write(project, MIXED)
    commit_all(project)
    hidden = hide_grammars(tmp_path, ["tree_sitter_go", "tree_sitter_rust"])
    said = {"notIndexed": ["go", "rust"], "why": "grammar missing: sidekit doctor"}
    assert line(run(project, hidden, "symbol", "trimDecimal")) == {
        "found": 0,
        "searched": 7,
        **said,
    }
    assert line(run(project, hidden, "usages", "parseURL"))["notIndexed"] == ["go", "rust"]
    assert line(run(project, hidden, "blast-radius", "web/src/parse.ts:parseURL")) == {
        "callers": ["web/src/index.ts"],
        "basis": "imports",
        "searched": 7,
        **said,
    }
    doctor = run(project, hidden, "doctor", "--format", "json")
    (check,) = [c for c in json.loads(doctor.stdout)["checks"] if c["check"] == "code languages"]
    assert check["status"] == "problem"
    assert check["detail"].startswith(
        "not indexed: go, rust (this project has such files; tree-sitter-go: "
    )
    assert (
        check["fix"]
        == f"{sys.executable} -m pip install 'tree-sitter>=0.23' tree-sitter-go tree-sitter-rust"
    )
    settle(project)  # past the racy window: the next queries take the warm path (code/fresh.py)
    assert line(run(project, hidden, "symbol", "parseURL"))["notIndexed"] == ["go", "rust"]
    assert line(run(project, hidden, "symbol", "parseURL"))["notIndexed"] == [
        "go",
        "rust",
    ]  # warm: still said
    # Installed again (here: no longer hidden): the next query, warm as it is, reads those files.
    assert line(run(project, {}, "symbol", "trimDecimal")) == {
        "matches": [{"kind": "function", "at": "cast/cast.go:3", "sig": "(s string)"}],
        "searched": 7,
    }
    assert "notIndexed" not in line(run(project, {}, "usages", "parseURL"))
    doctor = run(project, {}, "doctor", "--format", "json")
    (check,) = [c for c in json.loads(doctor.stdout)["checks"] if c["check"] == "code languages"]
    assert check == {
        "check": "code languages",
        "status": "ok",
        "detail": "grammars for ts, js, go, rust, java load",
    }


def test_symbol_with_every_grammar_missing_still_fits_170_bytes(
    project: Path, tmp_path: Path
) -> None:
    folder = long_dir(8, "m")
    args = ", ".join(f"argument_number_{i}=None" for i in range(12))
    write(
        project,
        {
            f"{folder}/module_with_a_long_name.py": f"def one_unique_function_name({args}):\n    "
            "pass\n"
        },
    )
    write(project, {f"{folder}/{name}": source for name, source in ONE_FUNCTION.values()})
    hidden = hide_grammars(
        tmp_path,
        [
            "tree_sitter_typescript",
            "tree_sitter_javascript",
            "tree_sitter_go",
            "tree_sitter_rust",
            "tree_sitter_java",
        ],
    )
    done = run(project, hidden, "symbol", "one_unique_function_name")
    found = line(done)
    assert len(done.stdout.rstrip("\n").encode()) <= 170, found
    assert found["notIndexed"] == ["go", "java", "js", "rust", "ts"] and len(found["matches"]) == 1
    assert os.path.isdir(project / ".sidekit")


# --- the hook hot path -------------------------------------------------------------------------

MODULES_PROBE = """
import os, runpy, sys
sys.argv = [sys.argv[1]]
def leave(code):
    raise SystemExit(code)
os._exit = leave
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize("path", ["web/src/parse.ts", "cast/cast.go", "store/src/lib.rs"])
def test_hooks_on_an_edit_in_another_language_never_import_tree_sitter(
    project: Path, clean_env: dict[str, str], path: str
) -> None:
    from testing.hooks import HOOK_SCRIPTS, payload

    write(project, MIXED)
    commit_all(project)
    answer(project, "symbol", "parseURL")  # the index of every language is built and on disk
    target = project / path
    old = target.read_text()
    target.write_text(old + "\n// edited\n")
    event = payload(
        "PostToolUse",
        project,
        tool_name="Edit",
        tool_input={"file_path": str(target), "old_string": old[:10], "new_string": old[:10]},
        tool_response={"filePath": str(target)},
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", MODULES_PROBE, str(HOOK_SCRIPTS["PostToolUse"])],
        input=json.dumps(event).encode(),
        capture_output=True,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
        timeout=30,
    )
    modules = set(done.stderr.decode().split())
    assert "sidekit_hooks.pipeline.runtime" in modules  # the probe really ran the hook
    # (the package itself is plain data, the suffixes the rule packs' `languages` and the tools
    # sidecar read)
    assert not {
        m for m in modules if m.startswith(("tree_sitter", "sidekit_hooks.code.languages."))
    }
    assert done.returncode == 0


def test_without_tree_sitter_itself_doctor_names_it_and_python_still_answers(
    project: Path, tmp_path: Path
) -> None:
    write(project, {**MIXED, "lib.py": "def helper():\n    return 1\n"})
    commit_all(project)
    hidden = hide_grammars(tmp_path, ["tree_sitter"])
    assert line(run(project, hidden, "symbol", "helper")) == {
        "matches": [{"kind": "function", "at": "lib.py:1", "sig": "()"}],
        "searched": 8,
        "notIndexed": ["go", "java", "js", "rust", "ts"],
        "why": "grammar missing: sidekit doctor",
    }
    doctor = run(project, hidden, "doctor", "--format", "json")
    (check,) = [c for c in json.loads(doctor.stdout)["checks"] if c["check"] == "code languages"]
    assert check["status"] == "problem"
    assert check["detail"].startswith(
        "not indexed: go, java, js, rust, ts (this project has such files; tree-sitter: "
    )
    assert check["fix"].endswith(
        " -m pip install 'tree-sitter>=0.23' tree-sitter-go tree-sitter-java tree-sitter-javascript"
        " tree-sitter-rust tree-sitter-typescript"
    )


IMPORTING = {
    "go.mod": "module example.com/shop\n\ngo 1.22\n",
    "cart/cart.go": "package cart\n\nfunc Total() int { return 1 }\n",
    "api/api.go": 'package api\n\nimport "example.com/shop/cart"\n\nvar T = cart.Total()\n',
    # another package's folder name
    "api/other.go": 'package api\n\nimport "example.com/shop/api/cart"\n',
    "web/src/utils/index.ts": "export const u = 1;\n",
    "web/src/utils/strings.ts": "export const s = 1;\n",
    "web/src/app.ts": 'import { u } from "./utils";\nimport { s } from "./utils/strings.js";\n',
    "web/legacy.js": "const { s } = require('x');\nimport { u } from './src/utils/index';\n",
    "crate/src/lib.rs": "mod parse;\nmod store;\n",
    "crate/src/parse/mod.rs": "pub fn parse() {}\n",
    "crate/src/store.rs": "use crate::parse::parse;\nuse crate::parser::other;\n",
    "java/src/a/b/Splitter.java": "package a.b;\npublic class Splitter { public static int LIMIT "
    "= 1; }\n",
    "java/src/a/c/User.java": "package a.c;\nimport a.b.Splitter;\nclass User {}\n",
    "java/src/a/c/Star.java": "package a.c;\nimport a.b.*;\nclass Star {}\n",
    "java/src/a/c/Static.java": "package a.c;\nimport static a.b.Splitter.LIMIT;\nclass Static "
    "{}\n",
    "java/src/a/c/Other.java": "package a.c;\nimport a.bb.Splitter;\nclass Other {}\n",
}


@pytest.mark.parametrize(
    ("target", "importers"),
    [
        ("cart/cart.go", ["api/api.go"]),
        ("web/src/utils/index.ts", ["web/legacy.js", "web/src/app.ts"]),
        ("web/src/utils/strings.ts", ["web/src/app.ts"]),
        ("crate/src/parse/mod.rs", ["crate/src/store.rs"]),
        (
            "java/src/a/b/Splitter.java",
            ["java/src/a/c/Star.java", "java/src/a/c/Static.java", "java/src/a/c/User.java"],
        ),
    ],
)
def test_blast_radius_of_a_file_names_its_importers_in_each_language(
    project: Path, target: str, importers: list[str]
) -> None:
    write(project, IMPORTING)
    commit_all(project)
    found, size = answer(project, "blast-radius", target)
    assert size <= 200
    assert found == {"importers": importers, "basis": "imports", "searched": 15}


def test_answers_follow_edits_new_files_and_deletions_in_other_languages(project: Path) -> None:
    write(project, MIXED)
    commit_all(project)
    settle(project)
    assert answer(project, "usages", "trimDecimal")[0]["uses"] == 2
    assert answer(project, "usages", "trimDecimal")[0]["uses"] == 2  # warm: nothing moved
    cast = project / "cast" / "cast.go"
    cast.write_text(
        cast.read_text() + "\nfunc Again(s string) string { return trimDecimal(trimDecimal(s)) }\n"
    )
    assert answer(project, "usages", "trimDecimal")[0] == {
        "uses": 3,
        "at": ["cast/cast.go:5", "cast/cast.go:7", "cast/cast_test.go:5"],
        "searched": 7,
    }
    write(
        project,
        {"cast/more/more.go": 'package more\n\nfunc M() string { return trimDecimal("2") }\n'},
    )
    assert (
        answer(project, "usages", "trimDecimal")[0]["uses"] == 4
    )  # a new, untracked file in a new folder
    (project / "cast" / "cast_test.go").unlink()
    found = answer(project, "usages", "trimDecimal")[0]
    assert found == {
        "uses": 3,
        "at": ["cast/cast.go:5", "cast/cast.go:7", "cast/more/more.go:3"],
        "searched": 7,
    }
