"""libtest's text (as `cargo test` prints it) into cache records; what the cargo rewrite appends."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from sidekit_hooks.runners.cargo import adapter as cargo

OUTPUT = """\
   Compiling calc v0.1.0 (/p)
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.17s
     Running unittests src/lib.rs (target/debug/deps/calc-7cdd78762c1a096e)

running 3 tests
test tests::ok ... ok
test tests::wrong ... FAILED
test tests::later ... ignored, not yet

failures:

---- tests::wrong stdout ----

thread 'tests::wrong' (31157) panicked at src/lib.rs:11:26:
assertion `left == right` failed
  left: 2
 right: 3
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    tests::wrong

test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s

error: test failed, to rerun pass `--lib`
     Running tests/api.rs (target/debug/deps/api-0123456789abcdef)

running 1 test
test parses ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests calc

running 1 test
test src/lib.rs - add (line 2) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.10s

error: 1 target failed:
    `--lib`
"""


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "calc"\nversion = "0.1.0"\n')
    (tmp_path / "tests" / "api.rs").write_text("")
    return tmp_path


def test_tests_by_source_file_with_the_panic_location(crate: Path) -> None:
    result = cargo.parse(OUTPUT, str(crate), 0.0, 101, "")
    assert result.tests == {
        "src/lib.rs::tests::ok": {"o": "passed", "d": 0.0},
        "src/lib.rs::tests::wrong": {
            "o": "failed",
            "d": 0.0,
            "p": "call",
            "f": {
                "type": "panic",
                "message": "assertion `left == right` failed",
                "at": "src/lib.rs:11",
                "shape": "assertion",
            },
        },
        "src/lib.rs::tests::later": {"o": "skipped", "d": 0.0},
        "tests/api.rs::parses": {"o": "passed", "d": 0.0},
        "src/lib.rs::doc add (line 2)": {"o": "passed", "d": 0.0},
    }
    assert result.errors == {}


def test_a_workspace_member_s_tests_are_under_its_folder(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text('[workspace]\nmembers = ["b"]\n')
    (tmp_path / "b" / "src").mkdir(parents=True)
    (tmp_path / "b" / "Cargo.toml").write_text('[package]\nname = "b-crate"\nversion = "0.1.0"\n')
    text = (
        "     Running unittests src/lib.rs (target/debug/deps/b_crate-0123)\n\nrunning 1 test\n"
        "test t ... FAILED\n\nfailures:\n\n---- t stdout ----\n\nthread 't' (1) panicked at "
        "b/src/lib.rs:2:5:\n"
        "boom\n\nfailures:\n    t\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 "
        "measured\n"
    )
    result = cargo.parse(text, str(tmp_path), 0.0, 101, "")
    assert list(result.tests) == ["b/src/lib.rs::t"]
    assert result.tests["b/src/lib.rs::t"]["f"]["at"] == "b/src/lib.rs:2"


def test_a_compile_error_is_an_error_with_its_location_not_zero_failed(crate: Path) -> None:
    text = (
        "   Compiling calc v0.1.0 (/p)\nerror[E0308]: mismatched types\n --> src/lib.rs:3:5\n  |\n"
        "error: could not compile `calc` (lib test) due to 1 previous error\n"
    )
    result = cargo.parse(text, str(crate), 0.0, 101, "")
    assert result.tests == {}
    assert result.errors == {
        "Cargo.toml": {
            "type": "compile error[E0308]",
            "message": "mismatched types",
            "at": "src/lib.rs:3",
            "shape": "mismatched",
        }
    }
    assert result.last_words == "error: could not compile `calc` (lib test) due to 1 previous error"


def test_a_binary_that_dies_without_its_summary_is_a_crash(crate: Path) -> None:
    text = (
        "     Running unittests src/lib.rs (target/debug/deps/calc-7cdd)\n\nrunning 2 tests\ntest "
        "a ... ok\n"
        "error: test failed, to rerun pass `--lib`\n\nCaused by:\n  process didn't exit "
        "successfully: "
        "`/p/target/debug/deps/calc-7cdd` (signal: 6, SIGABRT: process abort signal)\n"
    )
    result = cargo.parse(text, str(crate), 0.0, 101, "")
    assert result.errors == {
        "src/lib.rs": {
            "type": "crash",
            "message": "signal: 6, SIGABRT: process abort signal",
            "shape": "signal: N, SIGABRT: process abort signal",
        }
    }


def appended(mode: str, rustdoc: str = "", quiet: bool = True) -> list[str]:
    runner = [
        "/bin/sh",
        str(Path(cargo.__file__).parent / "cargo_tee.sh"),
        "bin",
        sys.executable,
        mode,
    ]
    words = [
        "--config",
        'target."cfg(all())".runner=[' + ",".join(f'"{part}"' for part in runner) + "]",
    ]
    words += ["--config", f'build.rustdoc="{rustdoc}"'] if rustdoc else []
    return words + (["--config", "term.quiet=true"] if quiet else [])


@pytest.mark.parametrize(
    ("words", "mode", "quiet"),
    [
        (["cargo", "test"], "fd", True),
        (["cargo", "test", "-p", "b", "--features=x"], "fd", True),
        (
            ["cargo", "test", "-p", "b", "parses"],
            "f",
            True,
        ),  # a test-name filter: cargo runs no doc tests then
        (["cargo", "test", "--no-fail-fast"], "d", True),
        (
            ["cargo", "test", "--tests"],
            "f",
            True,
        ),  # no doc tests in this run: each binary speaks for itself
        (
            ["cargo", "test", "--target", "x86_64-unknown-linux-gnu"],
            "f",
            True,
        ),  # older cargo: no doc tests
        (["cargo", "test", "--test=api", "--no-fail-fast"], "-", True),
        (["cargo", "test", "-v"], "fd", False),  # cargo refuses --verbose with term.quiet
        (["cargo", "test", "--", "--nocapture"], None, True),
        (["cargo", "test", "--no-run"], None, True),
        (["cargo", "test", "--config", "x=1"], None, True),
    ],
)
def test_the_runner_and_rustdoc_are_appended_unless_the_command_has_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, words: list[str], mode: str | None, quiet: bool
) -> None:
    monkeypatch.setenv("CARGO_HOME", str(tmp_path / "cargo-home"))
    monkeypatch.delenv("RUSTDOC", raising=False)
    monkeypatch.delenv("CARGO_TERM_VERBOSE", raising=False)
    wrapper = tmp_path / ".sidekit" / "cargo" / "rustdoc"
    found = cargo.compact_words(list(words), str(tmp_path))
    assert found == (None if mode is None else words + appended(mode, str(wrapper), quiet))
    if mode is not None:
        assert wrapper.read_text() == (
            f"#!/bin/sh\nexec /bin/sh {Path(cargo.__file__).parent / 'cargo_tee.sh'} doc "
            f'{sys.executable} - "$@"\n'
        )
        assert os.access(wrapper, os.X_OK)


def test_a_rustdoc_the_project_or_the_environment_names_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARGO_HOME", str(tmp_path / "cargo-home"))
    monkeypatch.setenv("RUSTDOC", "/opt/rustdoc")
    assert cargo.compact_words(["cargo", "test"], str(tmp_path)) == [
        "cargo",
        "test",
        *appended("f"),
    ]
    monkeypatch.delenv("RUSTDOC")
    (tmp_path / ".cargo").mkdir()
    (tmp_path / ".cargo" / "config.toml").write_text('[build]\nrustdoc = "/opt/rustdoc"\n')
    assert cargo.compact_words(["cargo", "test"], str(tmp_path)) == [
        "cargo",
        "test",
        *appended("f"),
    ]
    assert not (tmp_path / ".sidekit").exists()


def test_a_runner_the_project_configured_is_never_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARGO_HOME", str(tmp_path / "cargo-home"))
    (tmp_path / ".cargo").mkdir()
    (tmp_path / ".cargo" / "config.toml").write_text(
        '[target.x86_64-unknown-linux-gnu]\nrunner = "qemu"\n'
    )
    assert cargo.compact_words(["cargo", "test"], str(tmp_path)) is None
    monkeypatch.setenv("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "valgrind")
    assert cargo.compact_words(["cargo", "test"], str(tmp_path / "elsewhere")) is None


def test_a_cargo_config_that_cannot_be_read_plainly_leaves_the_command_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARGO_HOME", str(tmp_path / "cargo-home"))
    (tmp_path / ".cargo").mkdir()
    (tmp_path / "elsewhere.toml").write_text("")
    (tmp_path / ".cargo" / "config.toml").symlink_to(tmp_path / "elsewhere.toml")
    assert cargo.compact_words(["cargo", "test"], str(tmp_path)) is None
    os.mkfifo(tmp_path / ".cargo" / "config")
    (tmp_path / ".cargo" / "config.toml").unlink()
    assert (
        cargo.compact_words(["cargo", "test"], str(tmp_path)) is None
    )  # a FIFO: refused at once, no hang


@pytest.mark.parametrize(
    ("folder", "named", "test"),
    [
        ("m", "src/lib.rs", "m/src/lib.rs::doc add (line 2)"),  # rustdoc run in the member's folder
        ("m", "m/src/lib.rs", "m/src/lib.rs::doc add (line 2)"),  # run from the workspace's root
        (
            "rust/m",
            "m/src/lib.rs",
            "rust/m/src/lib.rs::doc add (line 2)",
        ),  # the workspace below the project
    ],
)
def test_a_workspace_member_s_doc_test_is_named_once_under_its_folder(
    tmp_path: Path, folder: str, named: str, test: str
) -> None:
    (tmp_path / folder).mkdir(parents=True)
    (tmp_path / folder / "Cargo.toml").write_text('[package]\nname = "m"\nversion = "0.1.0"\n')
    text = f"   Doc-tests m\n\nrunning 1 test\ntest {named} - add (line 2) ... ok\n\ntest result: ok. 1 passed; 0 failed\n"
    assert list(cargo.parse(text, str(tmp_path), 0.0, 0, "").tests) == [test]
