"""A `cargo test` failure that panicked in test code is placed at the crate function the failing
tests exercise (runners/cargo/exercised.py), in the cache (adapter.parse) and in the answer the
model reads (cargo_tee.sh asks `run.py --place`, cargo_answer.awk reads it).

The three crates under cargo_cases/ are small copies of the tuning projects' shapes, each with one
planted bug, and `cargo-test.txt` is what `cargo test --no-fail-fast` printed for them (recorded
once; the target folder's absolute path cut to `target/`): `width` is unicode-width's (a test
file's `assert_width!` macro, trait methods for `char` and `str` that forward to `tables.rs`, a doc
test), `case` heck's (tests a `t!` macro writes, `to_string` through `Display`, `lowercase` handed
to `transform` by name), `digits` humantime's (some failures panic in the broken function, the
others at their own assert lines)."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from realproj import sidekit
from test_cargo_tee import cargo_run

from sidekit_hooks.runners.cargo import adapter as cargo
from sidekit_hooks.runners.cargo import exercised

CASES = Path(__file__).parent / "cargo_cases"


def crate(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(CASES / name, root)
    (root / ".git").mkdir()
    return root


def recorded(name: str) -> str:
    return (CASES / name / "cargo-test.txt").read_text()


def line_of(root: Path, path: str, text: str) -> int:
    """The line of `path` that holds `text` (where a function is declared)."""
    lines = (root / path).read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def failures(root: Path, output: str) -> dict[str, tuple[str, str]]:
    """Each failing test of the recorded run, as the cache gets it: (at, checks)."""
    result = cargo.parse(output, str(root), 0.0, 101, "")
    return {
        test: (str(entry["f"].get("at")), str(entry["f"].get("checks", "")))
        for test, entry in result.tests.items()
        if entry["o"] == "failed"
    }


def test_unicode_width_s_shape_is_one_cluster_at_str_width_not_a_line_of_the_test_file(
    tmp_path: Path,
) -> None:
    """Each test's `assert_width!` panics at its own line of tests/tests.rs; the tests that fail
    all call `.width()` on a string literal, the passing ones on a char; `str`'s `width` only
    forwards to `tables::str_width`, so the failures go there."""
    root = crate(tmp_path, "width")
    at = f"src/tables.rs:{line_of(root, 'src/tables.rs', 'pub fn str_width(')}"
    assert failures(root, recorded("width")) == {
        "tests/tests.rs::test_str": (
            at,
            "str_width, exercised by test_str, asserted at tests/tests.rs:11",
        ),
        "tests/tests.rs::test_empty": (
            at,
            "str_width, exercised by test_empty, asserted at tests/tests.rs:21",
        ),
        "tests/tests.rs::test_wide": (
            at,
            "str_width, exercised by test_wide, asserted at tests/tests.rs:16",
        ),
        "src/lib.rs::doc (line 3)": (
            at,
            "str_width, exercised by doc (line 3), asserted at src/lib.rs:6",
        ),
    }


def test_heck_s_shape_is_one_cluster_at_the_function_handed_to_transform(tmp_path: Path) -> None:
    """Tests a `t!` macro writes (no `fn` of their name in the source), `to_string` through a
    `Display` impl, `lowercase` passed to `transform` by name; snake's and kebab's tests fail,
    shouty's pass (they reach `transform` with `uppercase`)."""
    root = crate(tmp_path, "case")
    at = f"src/lib.rs:{line_of(root, 'src/lib.rs', 'fn lowercase(')}"
    found = failures(root, recorded("case"))
    assert {test: where for test, (where, _) in found.items()} == {
        "src/lib.rs::kebab::tests::test1": at,
        "src/lib.rs::kebab::tests::test2": at,
        "src/lib.rs::snake::tests::test1": at,
        "src/lib.rs::snake::tests::test2": at,
        "src/lib.rs::snake::tests::test3": at,
        "src/kebab.rs::doc kebab::AsKebabCase (line 5)": at,
        "src/snake.rs::doc snake::AsSnakeCase (line 5)": at,
    }
    assert found["src/lib.rs::snake::tests::test2"][1] == (
        "lowercase, exercised by test2, asserted at src/snake.rs:41"
    )


def test_humantime_s_shape_joins_the_stackless_failures_to_the_panic_in_the_broken_function(
    tmp_path: Path,
) -> None:
    """A '0' digit underflows in `two_digits` (a frame in crate code, kept as it is); the other
    failures assert at their own lines and go to that same spot: one cause, one cluster."""
    root = crate(tmp_path, "digits")
    panic = "src/lib.rs:3"
    assert failures(root, recorded("digits")) == {
        "src/lib.rs::test::midnight": (panic, ""),
        "src/lib.rs::test::ten_past_ten": (panic, ""),
        "src/lib.rs::test::quarter_past_one": (
            panic,
            "two_digits, exercised by quarter_past_one, asserted at src/lib.rs:31",
        ),
        "src/lib.rs::test::twenty_past_three": (
            panic,
            "two_digits, exercised by twenty_past_three, asserted at src/lib.rs:36",
        ),
    }


def only(output: str, keep: set[str]) -> str:
    """The recorded output with the `... FAILED` lines of the tests not in `keep` read as `ok`."""
    lines = []
    for line in output.splitlines(keepends=True):
        name = line[5:].partition(" ... ")[0] if line.startswith("test ") else ""
        if line.endswith(" ... FAILED\n") and name not in keep:
            line = f"test {name} ... ok\n"
        lines.append(line)
    return "".join(lines)


def test_a_lone_failure_in_test_code_stays_at_its_line(tmp_path: Path) -> None:
    root = crate(tmp_path, "width")
    output = only(recorded("width"), {"test_str"})
    assert failures(root, output) == {"tests/tests.rs::test_str": ("tests/tests.rs:11", "")}


@pytest.mark.parametrize("bound", ["MAX_TOTAL_BYTES", "MAX_SECONDS"])
def test_sources_past_the_bounds_move_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bound: str
) -> None:
    root = crate(tmp_path, "width")
    monkeypatch.setattr(exercised, bound, 1000 if bound == "MAX_TOTAL_BYTES" else -1.0)
    assert {at for at, _ in failures(root, recorded("width")).values()} == {
        "tests/tests.rs:11",
        "tests/tests.rs:16",
        "tests/tests.rs:21",
        "src/lib.rs:6",
    }


def test_a_source_that_is_a_link_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    """tests/tests.rs as a link to a copy outside: not read, so no failing test is found and
    nothing moves (and nothing outside is opened)."""
    root = crate(tmp_path, "width")
    outside = tmp_path / "outside.rs"
    shutil.move(root / "tests" / "tests.rs", outside)
    (root / "tests" / "tests.rs").symlink_to(outside)
    found = failures(root, recorded("width"))
    assert found["tests/tests.rs::test_str"] == ("tests/tests.rs:11", "")


def test_the_scan_reads_names_as_rust_does() -> None:
    """Comments and literals hold no calls; `"x".width()` and `'x'.width()` keep their receiver's
    kind; a `static` table's rows are skipped, its lines kept."""
    source = exercised.read_file(
        "src/lib.rs",
        "static T: [u8; 2] = [\n    f(1),\n    2,\n];\n"
        "// g(\nfn a() -> usize {\n"
        '    let s = "h(";\n    "x".width() + \'y\'.width() + b(T[0])\n}\n',
    )
    [(module, function)] = source.functions
    assert (module, function.name, function.line, function.end) == ("", "a", 6, 9)
    assert [(call[1], call[2], call[3]) for call in function.calls] == [
        ("method", '""', "width"),
        ("method", "''", "width"),
        ("fn", "", "b"),
    ]


def units(output: str) -> list[tuple[str, str]]:
    """The recorded run cut at cargo's `Running` and `Doc-tests` lines: (header, output)."""
    cut: list[tuple[str, str]] = []
    for line in output.splitlines(keepends=True):
        if line.startswith(("     Running ", "   Doc-tests ")):
            cut.append((line, ""))
        elif cut:
            cut[-1] = (cut[-1][0], cut[-1][1] + line)
    return cut


def width_tests_binary(root: Path, then: str = "") -> Path:
    """A stand-in for the `width` case's tests binary: prints its recorded output, runs `then` (a
    shell line), exits 101 as the red binary did."""
    [_, (_, tests), _] = units(recorded("width"))
    deps = root / "target" / "debug" / "deps"
    deps.mkdir(parents=True)
    binary = deps / "tests-198c557378da3c52"
    (deps / "tests.txt").write_text(tests)
    binary.write_text(f"#!/bin/sh\ncat '{deps / 'tests.txt'}'\n{then}\nexit 101\n")
    binary.chmod(0o755)
    return binary


def test_the_answer_the_model_reads_names_the_function_once_for_every_failure(
    tmp_path: Path,
) -> None:
    """The tests binary of the `width` case through cargo_tee.sh as cargo's runner (no doc tests to
    come, so it speaks for itself; fail-fast): three failures panicked at three lines of tests/tests.rs; the
    answer is one cluster at `str_width`."""
    root = crate(tmp_path, "width")
    binary = width_tests_binary(root)
    done = cargo_run(root, "f", [str(binary)])  # a shell as cargo: the writer waits for it
    head, answer, *rest = done.stdout.splitlines()
    assert (done.returncode, rest) == (101, []), done.stdout
    assert head.startswith("sidekit: cargo test output (")
    found: dict[str, Any] = json.loads(answer)
    at = f"src/tables.rs:{line_of(root, 'src/tables.rs', 'pub fn str_width(')}"
    assert found == {
        "runner": "cargo",
        "exit": 101,
        "passed": 3,
        "failed": 3,
        "clusters": [
            {
                "type": "panic",
                "at": at,
                "message": 'assertion `left == right` failed: "hello" has the wrong width',
                "affected": 3,
                "first": "tests/tests.rs::test_empty",
            }
        ],
    }
    deadline = time.time() + 20  # the run's writer, detached: its files gone once it has cached
    while time.time() < deadline and list((root / ".sidekit" / "cargo").glob("run-*")):
        time.sleep(0.1)
    status, _ = sidekit(root, dict(os.environ, CLAUDE_PROJECT_DIR=str(root)), "status")
    assert [(c["at"], c.get("affected", 1)) for c in status["clusters"]] == [(at, 3)]


def test_an_interrupted_run_answers_at_once_unplaced_and_passes_the_signal_on(
    tmp_path: Path,
) -> None:
    """The binary is interrupted (SIGTERM to the runner, as a Ctrl-C or the client would): no
    placing step holds the signal back; the answer names the failures where they panicked, and the
    runner dies by the signal it caught."""
    root = crate(tmp_path, "width")
    binary = width_tests_binary(root, then="kill -TERM $PPID")
    done = cargo_run(root, "f", [str(binary)])
    head, answer, *_ = done.stdout.splitlines()
    assert done.returncode == 128 + 15, done.stdout
    assert [cluster["at"] for cluster in json.loads(answer)["clusters"]][:1] == [
        "tests/tests.rs:11"
    ], answer


def test_a_source_made_to_be_slow_to_read_stops_at_the_time_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """300,000 unclosed macro calls in one body: each would be followed 20,000 characters for its
    arguments (minutes); the scan stops at MAX_SECONDS and nothing moves."""
    root = crate(tmp_path, "width")
    (root / "src" / "slow.rs").write_text("fn f() {" + "a!(" * 300_000)
    monkeypatch.setattr(exercised, "MAX_SECONDS", 0.5)
    started = time.monotonic()
    found = failures(root, recorded("width"))
    assert time.monotonic() - started < 5
    assert found["tests/tests.rs::test_str"] == ("tests/tests.rs:11", "")


def test_a_string_left_open_with_every_quote_escaped_is_one_scan(tmp_path: Path) -> None:
    """`"\\"\\"\\"...` never closed: matched from every quote again, reading it was quadratic (tens of
    seconds for these 120 KB, hours for the 4 MB a file may have), with no time check inside a regex;
    now it runs to the end of the file once, and the placement is the one without it."""
    root = crate(tmp_path, "width")
    without = failures(root, recorded("width"))
    (root / "src" / "quotes.rs").write_text('fn f() { let s = "' + '\\"' * 60_000)
    started = time.monotonic()
    found = failures(root, recorded("width"))
    assert time.monotonic() - started < 5
    assert found == without


def test_a_scan_that_breaks_leaves_the_failures_where_they_panicked_and_is_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache's writer parses the run whatever the scan does: its error goes to the log."""
    from sidekit_hooks.core import hooklog

    root = crate(tmp_path, "width")

    def broken(root: str) -> None:
        raise IndexError("a source no test foresaw")

    monkeypatch.setattr(exercised, "project_graph", broken)
    found = failures(root, recorded("width"))
    assert found["tests/tests.rs::test_str"] == ("tests/tests.rs:11", "")
    [record] = hooklog.read(str(root), hooklog.ERRORS)
    assert (record["where"], record["error"]) == (
        "runners/cargo/exercised.place",
        "IndexError: a source no test foresaw",
    )
