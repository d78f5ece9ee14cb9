"""Raw `cargo test` through Bash in the real Claude Code CLI (2.1.328): cargo's own noise (issue
#33, item 3). A green call reaches the model with rustc's warning folded into one line (PostToolUse
`updatedToolOutput`); a red call keeps it (the client ignores a replaced output there), its answer
compact and its exit code cargo's.

The project is wired the README's way (`sidekit install --project`); the scripted model runs cargo
test itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from testing import requires
from testing.bash_runs import answer, bash_session
from testing.code import write

# `unused` is the warning rustc prints (and cargo replays) on every run
LIB = """pub fn double(n: u32) -> u32 {
    let unused = 1;
    n * 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn doubles() {
        assert_eq!(super::double(2), 4);
    }
}
"""
FOLDED = (
    "rustc: 1 warning (first: unused variable: `unused`, src/lib.rs:2); cargo: 2 status lines; "
    "full output: .sidekit/cargo/raw-"
)


@pytest.fixture
def wired(project: Path, sidekit: Callable[..., str]) -> Path:
    requires.program("cargo", "install Rust (rustup)")
    write(
        project,
        {
            "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
            "src/lib.rs": LIB,
        },
    )
    sidekit("install", "--project", str(project))
    return project


def cargo_env() -> dict[str, str]:
    """The agent's cargo is this machine's (its HOME is a fresh folder)."""
    home = os.path.expanduser("~")
    return {
        "PATH": os.environ.get("PATH", ""),
        "CARGO_HOME": os.environ.get("CARGO_HOME") or os.path.join(home, ".cargo"),
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME") or os.path.join(home, ".rustup"),
    }


def test_a_green_cargo_test_reaches_the_model_with_rustc_s_warning_folded(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    run = bash_session(
        claude_cli,
        wired,
        tmp_path / "home",
        ["cargo test", "SIDEKIT_RAW=1 cargo test"],
        env=cargo_env(),
    )
    (green, body, _), (raw, raw_body, _) = answer(run, 0), answer(run, 1)
    print(
        f"\nmodel received {len(raw_body.encode())} B raw, {len(body.encode())} B folded:\n{body}"
    )
    assert green["is_error"] is False and raw["is_error"] is False
    assert body.startswith(FOLDED), body
    named = body.split("full output: ", 1)[1].split("\n", 1)[0]
    assert "warning: unused variable" in (wired / named).read_text()  # all of it, kept
    assert "warning" not in body.split("\n", 1)[1] and "test tests::doubles ... ok" in body
    assert "warning: unused variable: `unused`" in raw_body and "rustc:" not in raw_body


def test_a_red_cargo_test_keeps_rustc_s_warning_and_its_exit_code(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    lib = wired / "src" / "lib.rs"
    lib.write_text(LIB.replace("n * 2", "n * 3"))
    run = bash_session(claude_cli, wired, tmp_path / "home", ["cargo test"], env=cargo_env())
    red, body, _ = answer(run, 0)
    print(f"\nmodel received {len(body.encode())} B:\n{body}")
    assert red["is_error"] is True and body.startswith("Exit code 101\nwarning: unused variable")
    assert "rustc:" not in body  # not folded: a red call's output is the client's own
    assert "test tests::doubles ... FAILED" in body and "test result: FAILED" in body
