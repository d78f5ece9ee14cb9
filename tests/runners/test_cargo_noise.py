"""cargo's own noise in a green compacted `cargo test` (runners/cargo/noise.py, issue #33 item 3):
rustc's warnings and cargo's status lines folded into one line after the run, through
PostToolUse's updatedToolOutput; a red call's output is left as it was (the client ignores a
replacement there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidekit_hooks.runners.cargo import noise
from testing.hooks import HookRunner, bash, pre_bash

NOTE = (
    "  = note: see <https://doc.rust-lang.org/nightly/rustc/check-cfg/cargo-specifics.html> for "
    "more information about checking conditional configuration"
)
# humantime 2.1.0's green compacted `cargo test --no-fail-fast` on Rust 1.95 (the test lines cut
# to two per unit): rustc's two warnings replayed by cargo, then the units as the tee printed them
GREEN = f"""warning: unexpected `cfg` condition value: `cloudabi`
 --> src/date.rs:6:7
  |
6 | #[cfg(target_os="cloudabi")]
  |       ^^^^^^^^^^^^^^^^^^^^
  |
  = note: expected values for `target_os` are: `aix`, `amdhsa`, `android`, and `solid_asp3` and 14 more
{NOTE}
  = note: `#[warn(unexpected_cfgs)]` on by default

warning: unexpected `cfg` condition value: `cloudabi`
  --> src/date.rs:14:9
   |
14 |     not(target_os="cloudabi"),
   |         ^^^^^^^^^^^^^^^^^^^^
   |
   = note: expected values for `target_os` are: `aix`, `amdhsa`, `android`, and `solid_asp3` and 14 more
 {NOTE}

warning: `humantime` (lib) generated 2 warnings
     Running unittests src/lib.rs (target/debug/deps/humantime-d405e164b70aaf93)

running 2 tests
test date::test::all_86400_seconds ... ok
test date::test::big_day - should panic ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.02s

   Doc-tests humantime

running 1 test
test src/duration.rs - duration::format_duration (line 246) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.83s

"""
FOLDED = """rustc: 2 warnings (first: unexpected `cfg` condition value: `cloudabi`, src/date.rs:6); \
cargo: 2 status lines; full output: .sidekit/cargo/raw-1.txt
running 2 tests
test date::test::all_86400_seconds ... ok
test date::test::big_day - should panic ... ok

test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.02s

running 1 test
test src/duration.rs - duration::format_duration (line 246) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.83s

"""


def test_rustc_warnings_and_cargo_status_lines_fold_into_one_line_with_counts() -> None:
    assert noise.fold(GREEN, ".sidekit/cargo/raw-1.txt") == FOLDED


def test_errors_cargo_one_line_warnings_and_libtest_lines_stay_as_they_were() -> None:
    """Only cargo's warnings are folded: its own one-line `warning:` (no block after it) costs
    nothing of what follows, a `warning:` a test printed stays, and an `error` line is never
    folded."""
    text = (
        "warning: unused manifest key: package.foo\n"
        "test a ... ok\n"
        "warning: printed by test a, with --nocapture\n"
        "  as its second line\n"
        "error: test failed, to rerun pass `--lib`\n"
        "   Compiling libc v0.2.191\n"
        "   Compiling memchr v2.8.3\n"
        "   Compiling calc v0.1.0 (/work/calc)\n"
        "    Finished `test` profile [unoptimized + debuginfo] target(s) in 4.02s\n"
        "test result: ok. 1 passed; 0 failed\n"
    )
    assert noise.fold(text, "R") == (
        "rustc: 1 warning (first: unused manifest key: package.foo); cargo: 4 status lines; "
        "full output: R\n"
        "test a ... ok\n"
        "warning: printed by test a, with --nocapture\n"
        "  as its second line\n"
        "error: test failed, to rerun pass `--lib`\n"
        "test result: ok. 1 passed; 0 failed\n"
    )


def test_an_output_without_noise_or_that_would_not_shrink_is_left_alone() -> None:
    assert noise.fold("running 1 test\ntest a ... ok\n", "R") is None
    assert noise.fold("     Running x (y)\n", ".sidekit/cargo/raw-20261205-000000-1.txt") is None


@pytest.fixture
def crate(project: Path) -> Path:
    (project / "Cargo.toml").write_text('[package]\nname = "calc"\nversion = "0.1.0"\n')
    (project / "src").mkdir()
    (project / "src" / "lib.rs").write_text("pub fn one() -> u32 {\n    1\n}\n")
    (project / ".git").mkdir()
    return project


def compacted(crate: Path, run_hook: HookRunner) -> str:
    pre = run_hook("PreToolUse", pre_bash(crate, "cargo test"))
    command = str(json.loads(pre.stdout)["hookSpecificOutput"]["updatedInput"]["command"])
    assert noise.MARK in command, command
    return command


def test_the_real_post_tool_use_hook_replaces_a_green_compacted_run_s_output(
    crate: Path, run_hook: HookRunner
) -> None:
    post = run_hook("PostToolUse", bash(crate, compacted(crate, run_hook), stdout=GREEN))
    assert post.returncode == 0, post.stderr
    updated = json.loads(post.stdout)["hookSpecificOutput"]["updatedToolOutput"]
    raws = list((crate / ".sidekit" / "cargo").glob("raw-*.txt"))
    assert len(raws) == 1 and raws[0].read_text() == GREEN  # the whole output, named in the fold
    shown = str(raws[0].relative_to(crate))
    assert updated["stdout"] == FOLDED.replace(".sidekit/cargo/raw-1.txt", shown)
    assert {k: v for k, v in updated.items() if k != "stdout"} == {
        "stderr": "",
        "interrupted": False,
        "isImage": False,
    }


def test_a_red_call_and_a_raw_cargo_test_are_left_as_they_were(
    crate: Path, run_hook: HookRunner
) -> None:
    command = compacted(crate, run_hook)
    failed = run_hook("PostToolUseFailure", bash(crate, command, error=f"Exit code 101\n{GREEN}"))
    raw = run_hook("PostToolUse", bash(crate, "cargo test", stdout=GREEN))
    for done in (failed, raw):
        assert done.returncode == 0 and "updatedToolOutput" not in done.stdout, done.stdout
    assert not list((crate / ".sidekit").glob("cargo/raw-*.txt"))


def test_an_interrupted_call_is_left_as_it_was(crate: Path, run_hook: HookRunner) -> None:
    payload = bash(crate, compacted(crate, run_hook), stdout=GREEN)
    payload["tool_response"]["interrupted"] = True
    done = run_hook("PostToolUse", payload)
    assert done.returncode == 0 and "updatedToolOutput" not in done.stdout, done.stdout


@pytest.mark.slow
def test_heck_s_green_run_reaches_the_model_with_its_warning_folded(tmp_path: Path) -> None:
    """heck 0.5.0 on Rust 1.95 (issue #33, item 3): its green compacted run was 712 B, most of it
    rustc's `unexpected cfg` warning; the real PostToolUse hook folds it into one line."""
    from realproj import env_for, shell
    from test_real_projects import copy_tree, fetch_crate

    from testing.hooks import bash as post_bash
    from testing.hostile import hook
    from testing.pretool import rewritten

    project = copy_tree(fetch_crate("heck", "0.5.0"), tmp_path / "heck")  # with a `.git`
    env = env_for(project)
    assert shell(project, "cargo test --no-run", env).exit == 0
    command = rewritten(project, "cargo test", env)
    ran = shell(project, command, env)
    assert ran.exit == 0 and "warning: unexpected `cfg` condition value" in ran.output
    done = hook("PostToolUse", post_bash(project, command, stdout=ran.output), project)
    folded = json.loads(done.stdout)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    print(f"\nheck green: {len(ran.output.encode()):,} B -> {len(folded.encode()):,} B\n{folded}")
    first, *rest = folded.split("\n")
    named = first.rsplit("full output: ", 1)[-1]
    assert first == (
        "rustc: 1 warning (first: unexpected `cfg` condition value: `unicode`, src/train.rs:70); "
        f"full output: {named}"
    )
    assert named.startswith(".sidekit/cargo/raw-") and (project / named).read_text() == ran.output
    assert "warning" not in "\n".join(rest) and '"exit":0' in folded
    assert len(folded.encode()) < 400


def test_a_link_out_of_the_project_keeps_the_output_and_writes_nothing_outside(
    crate: Path, run_hook: HookRunner, tmp_path: Path
) -> None:
    command = compacted(crate, run_hook)
    outside = tmp_path / "outside"
    outside.mkdir()
    for name in (crate / ".sidekit" / "cargo").iterdir():
        name.unlink()
    (crate / ".sidekit" / "cargo").rmdir()
    (crate / ".sidekit" / "cargo").symlink_to(outside)
    done = run_hook("PostToolUse", bash(crate, command, stdout=GREEN))
    assert done.returncode == 0 and "updatedToolOutput" not in done.stdout, done.stdout
    assert list(outside.iterdir()) == []
