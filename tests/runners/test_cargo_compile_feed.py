"""A compacted `cargo test` that does not compile: no test binary runs, so no unit of the run speaks
and no writer feeds the cache; what cargo printed reaches it through the hooks
(runners/junit/feed.py's feed), and `status` stops answering with the last run's failures, `stale`
(issue #33, item 7)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from sidekit_hooks.runners import Result, store
from sidekit_hooks.runners.cargo import adapter as cargo
from testing.hooks import HookRunner, bash, fed_one_error_quietly, pre_bash

# cargo 1.95, `cargo test` on a crate whose lib no longer compiles (as the Bash tool joins stderr
# and stdout)
BROKEN = """error[E0277]: cannot add `&str` to `u32`
 --> src/lib.rs:2:7
  |
2 |     a + "b"
  |       ^ no implementation for `u32 + &str`
  |
  = help: the trait `Add<&str>` is not implemented for `u32`
help: the following other types implement trait `Add<Rhs>`
 --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/ops/arith.rs:99:8
  |
  = note: `u32` implements `Add`

For more information about this error, try `rustc --explain E0277`.
error: could not compile `calc` (lib) due to 1 previous error
error: could not compile `calc` (lib test) due to 1 previous error
"""
RED = "src/lib.rs::tests::adds"


@pytest.fixture
def crate(project: Path) -> Path:
    (project / "Cargo.toml").write_text(
        '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n'
    )
    (project / "src").mkdir()
    (project / "src" / "lib.rs").write_text('pub fn add(a: u32, b: u32) -> u32 {\n    a + "b"\n}\n')
    (project / ".git").mkdir()
    return project


def job(crate: Path, output: str, code: int, *args: str) -> dict[str, object]:
    return {
        "root": str(crate),
        "started": 1.0,
        "exit": code,
        "output": output,
        "args": ["test", *args],
    }


def test_a_compile_error_is_an_error_of_the_run_at_the_line_rustc_names(crate: Path) -> None:
    found = cargo.feed_after(job(crate, BROKEN, 101))
    assert found is not None and found.tests == {} and found.exit == 101 and found.args == []
    assert {path: (e["type"], e["at"], e["message"]) for path, e in found.errors.items()} == {
        "Cargo.toml": ("compile error[E0277]", "src/lib.rs:2", "cannot add `&str` to `u32`")
    }
    assert found.last_words == "error: could not compile `calc` (lib) due to 1 previous error"


def test_a_filtered_run_s_compile_error_keeps_its_narrowing_words(crate: Path) -> None:
    found = cargo.feed_after(job(crate, BROKEN, 101, "--lib", "adds"))
    assert found is not None and found.args == ["--lib", "adds"]


@pytest.mark.parametrize(
    ("output", "code"),
    [
        (BROKEN, 0),  # a green exit never files an error
        (
            "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n",
            101,
        ),  # tests ran
        (
            BROKEN
            + "\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
            101,
        ),
        ("error: no such command: `tset`\n", 101),  # not a compile error: nothing to place
    ],
)
def test_a_run_that_is_not_a_compile_failure_is_nothing_to_feed(
    crate: Path, output: str, code: int
) -> None:
    assert not cargo.needs_feed(str(crate), output, code, 0)
    assert cargo.feed_after(job(crate, output, code)) is None


def test_the_real_hooks_turn_a_compile_error_after_a_red_run_into_status_s_newest_truth(
    crate: Path, run_hook: HookRunner
) -> None:
    """The heck case: red, then the agent's own `cargo test` stops at a compile error; status kept
    the old failure (`stale`) and never named the compile error."""
    red = Result("cargo", time.time() - 5, 101)
    red.tests = {
        RED: {
            "o": "failed",
            "d": 0.0,
            "p": "call",
            "f": {"type": "panic", "message": "boom", "at": "src/lib.rs:9"},
        }
    }
    store.save(str(crate), red)
    pre = run_hook("PreToolUse", pre_bash(crate, "cargo test"))
    assert (
        pre.returncode == 0
        and "--config" in json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    )
    post = run_hook(
        "PostToolUseFailure", bash(crate, "cargo test", error=f"Exit code 101\n{BROKEN}")
    )
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")
    found = fed_one_error_quietly(crate, 101)  # the model has just read cargo's own words on it
    assert found["state"] == "failed" and found["collectErrors"] == 1
    assert "stale" not in found  # the cache heard of this run
    compile_error = {k: v for k, v in found["clusters"][1].items() if k != "id"}
    assert compile_error == {
        "type": "compile error[E0277]",
        "phase": "collect",
        "at": "src/lib.rs:2",
        "message": "cannot add `&str` to `u32`",
        "new": 1,
        "first": "Cargo.toml",
    }
    assert (
        found["clusters"][0]["at"] == "src/lib.rs:9"
    )  # the test it could not run keeps its last failure


def test_a_green_cargo_run_through_the_hooks_starts_no_worker(
    crate: Path, run_hook: HookRunner
) -> None:
    run_hook("PreToolUse", pre_bash(crate, "cargo test"))
    assert list((crate / ".sidekit" / "junit-feed").iterdir())  # the run's marker
    post = run_hook(
        "PostToolUse", bash(crate, "cargo test", "test result: ok. 1 passed; 0 failed\n")
    )
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")
    assert not list((crate / ".sidekit" / "junit-feed").iterdir())  # claimed, and no job left
    assert not (crate / ".sidekit" / "status.json").exists()
