"""`sidekit tests-for` and `sidekit select` for Rust (runner `cargo`) from the crate's module tree,
its integration tests and the workspace crates depending on it; a Cargo.toml change selects every
test file."""

from __future__ import annotations

from pathlib import Path

import pytest

from testing.code import answer, answer_in_process, commit_all, write

TESTED = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n"
WORKSPACE = {
    "Cargo.toml": '[workspace]\nmembers = ["core", "app", "tools"]\n',
    "core/Cargo.toml": '[package]\nname = "core-lib"\nversion = "0.1.0"\n',
    "core/src/lib.rs": "pub mod parse;\npub mod fmt;\npub mod extra;\npub mod alone;\npub use "
    "parse::Token;\n",
    "core/src/parse.rs": "pub struct Token;\npub fn parse() -> Token { Token }\n" + TESTED,
    "core/src/fmt/mod.rs": "pub mod width;\nuse crate::{parse::Token, extra};\npub fn show(_t: "
    "Token) {}\n",
    "core/src/fmt/width.rs": "pub fn width() -> usize { 1 }\n" + TESTED,
    "core/src/extra.rs": "pub fn e() {}\n",
    "core/src/alone.rs": "use crate::Token;\npub fn alone(_t: Token) {}\n" + TESTED,
    "core/tests/api.rs": "use core_lib::parse;\n#[test]\nfn api() { parse::parse(); }\n",
    "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ncore-lib = { '
    'path = "../core" }\n',
    "app/src/main.rs": "fn main() {}\n" + TESTED,
    "tools/Cargo.toml": '[package]\nname = "tools"\nversion = "0.1.0"\n',
    "tools/src/lib.rs": "pub fn tool() {}\n" + TESTED,
}


@pytest.fixture
def workspace(project: Path) -> Path:
    write(project, WORKSPACE)
    commit_all(project)
    return project


@pytest.mark.parametrize(
    ("changed", "files", "more"),
    [
        # width.rs: itself; its parent fmt/mod.rs, whose parent is the crate root, which alone.rs
        # uses (`use crate::Token`: a root re-export may be anything); core's integration tests; app
        # depends on core. Four files: the budget keeps two and counts two.
        ("core/src/fmt/width.rs", ["app/src/main.rs", "core/src/alone.rs"], 2),
        # extra.rs <- fmt/mod.rs (`use crate::{.., extra}`) <- width.rs (a child: `use super::*`),
        # the root
        ("core/src/extra.rs", ["app/src/main.rs", "core/src/alone.rs"], 2),
        ("tools/src/lib.rs", ["tools/src/lib.rs"], 0),  # no workspace crate depends on tools
    ],
)
def test_tests_for_follows_the_module_tree_and_the_workspace(
    workspace: Path,
    changed: str,
    files: list[str],
    more: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    found, size = answer_in_process(monkeypatch, capsys, workspace, "tests-for", changed)
    assert found == {
        "runner": "cargo",
        "files": files,
        **({"more": more} if more else {}),
        "basis": "imports",
    }
    assert size <= 100


def test_select_follows_a_re_export_to_the_crate_root(workspace: Path) -> None:
    (workspace / "core/src/parse.rs").write_text(
        "pub struct Token;\npub fn parse() -> Token { Token }\n"
    )
    found, size = answer(workspace, "select")
    assert found == {
        "runner": "cargo",
        "changed": 1,
        "files": ["app/src/main.rs", "core/src/alone.rs", "core/src/fmt/width.rs"],
        "moreFiles": 1,  # core/tests/api.rs
        "ofFiles": 5,  # parse.rs holds no test any more
        "basis": "imports",
    }
    assert size <= 150


def test_select_a_changed_manifest_runs_every_test_file(workspace: Path) -> None:
    (workspace / "tools/Cargo.toml").write_text('[package]\nname = "tools"\nversion = "0.2.0"\n')
    found = answer(workspace, "select")[0]
    assert (found["basis"], found["why"]) == ("all", "tools/Cargo.toml changed")


@pytest.mark.parametrize(
    ("written", "paths"),
    [
        ("crate::{parse::Token, extra}", ["crate::parse::Token", "crate::extra"]),
        (
            "crate::fmt::{self, width::{width, Width}}",
            ["crate::fmt", "crate::fmt::width::width", "crate::fmt::width::Width"],
        ),
        ("crate::parse::Token", ["crate::parse::Token"]),
    ],
)
def test_a_use_tree_is_every_path_it_names(written: str, paths: list[str]) -> None:
    from sidekit_hooks.impact.rust import expand

    assert expand(written) == paths
