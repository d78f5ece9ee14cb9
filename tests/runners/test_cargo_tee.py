"""cargo_tee.sh and cargo_answer.awk: the units of one compacted `cargo test`, held until one speaks
for the run, as they were when short, else one answer; then the writer caches the run (no cargo
needed: fake test binaries under target/debug/deps, a shell as cargo)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from realproj import sidekit

from sidekit_hooks.runners.cargo import adapter as cargo

TEE = cargo.tee_script()
LIB = "     Running unittests src/lib.rs (target/debug/deps/p-0a1b)\n"
API = "     Running tests/api.rs (target/debug/deps/api-2c3d)\n"
GREEN = (
    "\nrunning 2 tests\ntest tests::a ... ok\ntest tests::b ... ok\n\n"
    "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in "
    "0.00s\n\n"
)


def red(failures: int) -> str:
    """libtest's output for `failures` failing tests: all but the last panic in dot(), the last
    elsewhere."""
    names = [f"t{i:02}" for i in range(failures)]
    blocks = "".join(
        f"---- {name} stdout ----\n\nthread '{name}' (7) panicked at "
        f"src/parse.rs:{204 if i < failures - 1 else 9}:5:\n"
        f"{'dot() got ' + str(i) + ' bytes' if i < failures - 1 else 'index out of bounds'}\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n"
        for i, name in enumerate(names)
    )
    return (
        f"\nrunning {failures + 1} tests\ntest fine ... ok\n"
        + "".join(f"test {name} ... FAILED\n" for name in names)
        + "\nfailures:\n\n"
        + blocks
        + "\nfailures:\n"
        + "".join(f"    {name}\n" for name in names)
        + f"\ntest result: FAILED. 1 passed; {failures} failed; 0 ignored; 0 measured; 0 filtered "
        "out; "
        "finished in 0.01s\n\n"
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / ".git").mkdir()
    (root / "Cargo.toml").write_text('[package]\nname = "p"\nversion = "0.1.0"\n')
    (root / "src" / "lib.rs").write_text("")
    (root / "tests" / "api.rs").write_text("")
    return root


def binary(project: Path, name: str, text: str, code: int = 0) -> str:
    path = project / "target" / "debug" / "deps" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.parent / f"{name}.txt").write_text(text)
    path.write_text(f"#!/bin/sh\ncat '{path}.txt'\nexit {code}\n")
    path.chmod(0o755)
    return str(path)


def cargo_run(project: Path, mode: str, binaries: list[str]) -> subprocess.CompletedProcess[str]:
    """A shell standing in for cargo: each binary through the runner, stopping at a red one
    (fail-fast)."""
    script = "\n".join(
        f"/bin/sh '{TEE}' bin '{sys.executable}' {mode} '{b}' || "
        f"{{ s=$?; case {mode} in *f*) exit $s;; esac; }}"
        for b in binaries
    )
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project))
    return subprocess.run(
        ["/bin/sh", "-c", script],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_short_units_are_held_then_printed_as_they_were_with_cargo_s_running_lines(
    project: Path,
) -> None:
    lib = binary(project, "p-0a1b", GREEN)
    api = binary(project, "api-2c3d", red(1), 101)
    done = cargo_run(project, "fd", [lib, api])
    assert done.returncode == 101 and done.stderr == ""
    assert done.stdout == LIB + GREEN + API + red(1)


def test_a_long_red_run_is_one_answer_for_every_unit_held_before_it(project: Path) -> None:
    lib = binary(project, "p-0a1b", GREEN)
    api = binary(project, "api-2c3d", red(12), 101)
    done = cargo_run(project, "fd", [lib, api])
    head, answer, *rest = done.stdout.splitlines()
    assert done.returncode == 101 and rest == []
    shown = head.split("all of it: ")[1].split(" ")[0]
    raw = project / shown
    assert head == (
        f"sidekit: cargo test output ({len(LIB + GREEN + API + red(12)):,} B) compacted; exit "
        "code 101; "
        f"all of it: {shown} (prefix the command with SIDEKIT_RAW=1 to see it raw)"
    )
    assert json.loads(answer) == {
        "runner": "cargo",
        "exit": 101,
        "passed": 3,
        "failed": 12,
        "clusters": [
            {
                "type": "panic",
                "at": "src/parse.rs:204",
                "message": "dot() got 0 bytes",
                "affected": 11,
                "first": "tests/api.rs::t00",
            },
            {
                "type": "panic",
                "at": "src/parse.rs:9",
                "message": "index out of bounds",
                "first": "tests/api.rs::t11",
            },
        ],
    }
    assert raw.read_text() == LIB + GREEN + API + red(12)
    assert len(done.stdout) <= 780 - 70


def test_without_doc_tests_to_come_each_binary_speaks_for_itself(project: Path) -> None:
    lib = binary(project, "p-0a1b", GREEN)
    done = cargo_run(project, "f", [lib])
    assert (done.returncode, done.stdout) == (0, LIB + GREEN)


def test_a_binary_killed_by_a_signal_speaks_and_dies_the_same_way(project: Path) -> None:
    lib = binary(project, "p-0a1b", GREEN)
    crash = project / "target" / "debug" / "deps" / "api-2c3d"
    crash.write_text("#!/bin/sh\necho '\nrunning 1 test'\nkill -ABRT $$\n")
    crash.chmod(0o755)
    runner = f"/bin/sh '{TEE}' bin '{sys.executable}' fd"
    # the signal cargo would see
    script = f"{runner} '{lib}' && echo held && {runner} '{crash}'; kill -l $?"
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project))
    done = subprocess.run(
        ["/bin/sh", "-c", script], cwd=project, env=env, capture_output=True, text=True, timeout=60
    )
    # held until the crash speaks; what it printed as it was (the shell may add its own `Aborted`)
    assert done.stdout.startswith("held\n" + LIB + GREEN + API + "\nrunning 1 test\n")
    assert done.stdout.endswith("ABRT\n")


def test_the_writer_caches_the_whole_run_once_cargo_has_ended(project: Path) -> None:
    lib = binary(project, "p-0a1b", GREEN)
    api = binary(project, "api-2c3d", red(3), 101)
    assert cargo_run(project, "fd", [lib, api]).returncode == 101
    folder = project / ".sidekit" / "cargo"
    deadline = time.time() + 20
    while time.time() < deadline and list(folder.glob("run-*")):
        time.sleep(0.1)
    assert list(folder.glob("run-*")) == []  # every file of the run, once cached
    status, _ = sidekit(project, dict(os.environ, CLAUDE_PROJECT_DIR=str(project)), "status")
    assert (status["runner"], status["passed"], status["failed"]) == ("cargo", 3, 3)
    assert [c["at"] for c in status["clusters"]] == ["src/parse.rs:204", "src/parse.rs:9"]


def test_a_test_binary_asked_for_its_list_runs_as_it_is(project: Path) -> None:
    lib = binary(project, "p-0a1b", GREEN)
    done = subprocess.run(
        ["/bin/sh", TEE, "bin", sys.executable, "fd", lib, "--list"],
        cwd=project,
        capture_output=True,
    )
    assert (done.returncode, done.stdout.decode()) == (0, GREEN)
    assert not (project / ".sidekit").exists()


def answer_for(folder: Path, units: list[tuple[str, int, str, str]]) -> list[str]:
    """cargo_answer.awk over units (kind, exit status, source, output) of a run in `folder`."""
    run = folder / "run-123-456"
    files = []
    for number, (kind, code, source, text) in enumerate(units, 1):
        for suffix, body in (
            ("meta", f"{kind}\t{code}\t{source}\n"),
            ("head", f"   header {number}\n"),
            ("out", text),
        ):
            (folder / f"{run.name}.{number}.{suffix}").write_text(body)
            files.append(str(folder / f"{run.name}.{number}.{suffix}"))
    awk = Path(TEE).parent / "cargo_answer.awk"
    # `placed`: as after `run.py --place` found nothing to move (no such file; the placing itself is
    # tests/runners/test_cargo_exercised.py's)
    variables = [
        "printed=0",
        f"root={folder}",
        f"run={run}",
        f"state={folder}",
        f"placed={run}.placed",
    ]
    done = subprocess.run(
        ["awk", *[w for v in variables for w in ("-v", v)], "-f", str(awk), *files],
        capture_output=True,
        text=True,
        env=dict(os.environ, LC_ALL="C"),
        check=True,
    )
    return done.stdout.splitlines()


def test_a_binary_that_ends_without_its_summary_is_a_build_error_with_its_panic(
    tmp_path: Path,
) -> None:
    said = "thread 'main' (5) panicked at tests/plain.rs:1:13:\noutside any test\nnote: run with `RUST_BACKTRACE=1`\n"
    lines = answer_for(
        tmp_path,
        [("bin", 0, "src/lib.rs", GREEN), ("bin", 101, "tests/plain.rs", said + "x\n" * 1100)],
    )
    assert json.loads(lines[1]) == {
        "runner": "cargo",
        "exit": 101,
        "passed": 2,
        "buildErrors": 1,
        "clusters": [
            {
                "type": "crash",
                "message": "panicked at tests/plain.rs:1:13: outside any test",
                "first": "tests/plain.rs",
            }
        ],
    }


def test_a_doc_test_that_does_not_compile_is_placed_at_its_error(tmp_path: Path) -> None:
    name = "src/lib.rs - add (line 1)"
    doc = (
        f"\nrunning 1 test\ntest {name} ... FAILED\n\nfailures:\n\n---- {name} stdout ----\n"
        "error[E0425]: cannot find value `y` in this scope\n --> src/lib.rs:3:1\n  |\n"
        + "  | padding\n"
        * 200
        + f"\nfailures:\n    {name}\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 "
        "measured\n"
    )
    lines = answer_for(tmp_path, [("doc", 101, "p", doc)])
    assert json.loads(lines[1]) == {
        "runner": "cargo",
        "exit": 101,
        "failed": 1,
        "clusters": [
            {
                "type": "compile error[E0425]",
                "at": "src/lib.rs:3",
                "message": "cannot find value `y` in this scope",
                "first": "src/lib.rs::doc add (line 1)",
            }
        ],
    }


def test_a_crash_an_earlier_speaker_printed_keeps_the_run_red_in_the_last_answer(
    project: Path,
) -> None:
    """--no-fail-fast with doc tests to come: the lib binary aborts (it speaks at once, short, as it
    was), the rest is green and long: the doc-test run's answer is the run's, exit 101 with the
    crash."""
    crash = project / "target" / "debug" / "deps" / "p-0a1b"
    crash.parent.mkdir(parents=True)
    crash.write_text(
        "#!/bin/sh\nprintf '\\nrunning 3 tests\\ntest tests::a ... ok\\n'\nkill -ABRT $$\n"
    )
    crash.chmod(0o755)
    many = "".join(f"test t{i:03} ... ok\n" for i in range(150))
    api = binary(
        project,
        "api-2c3d",
        f"\nrunning 150 tests\n{many}\ntest result: ok. 150 passed; 0 failed; 0 ignored\n",
    )
    tools = project.parent / "bin"
    tools.mkdir()
    (tools / "rustdoc").write_text('#!/bin/sh\ncat "$DOC_OUTPUT"\n')
    (tools / "rustdoc").chmod(0o755)
    doc = project.parent / "doc.txt"
    doc.write_text(
        "\nrunning 2 tests\ntest src/lib.rs - a (line 1) ... ok\ntest src/lib.rs - b (line 9) ... "
        "ok\n\n"
        "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n"
    )
    runner = f"/bin/sh '{TEE}' bin '{sys.executable}' d"
    script = (
        f"{runner} '{crash}'; echo \"crash $?\"; {runner} '{api}'; echo \"api $?\"; "
        f"/bin/sh '{TEE}' doc '{sys.executable}' - --test --crate-name p; exit $?"
    )
    env = dict(
        os.environ,
        CLAUDE_PROJECT_DIR=str(project),
        DOC_OUTPUT=str(doc),
        PATH=f"{tools}:{os.environ['PATH']}",
    )
    done = subprocess.run(
        ["/bin/sh", "-c", script], cwd=project, env=env, capture_output=True, text=True, timeout=60
    )
    shown, rest = done.stdout.split("crash 134\napi 0\n")
    assert (
        shown.removesuffix("Aborted\n") == LIB + "\nrunning 3 tests\ntest tests::a ... ok\n"
    )  # the shell may say it
    head, answer = rest.splitlines()
    assert "compacted; exit code 101; all of it: " in head
    kept = (project / head.split("all of it: ")[1].split(" ")[0]).read_text()
    assert (
        kept.startswith(API) and "tests::a" not in kept
    )  # what this answer stands for: the crash was shown
    assert json.loads(answer) == {
        "runner": "cargo",
        "exit": 101,
        "passed": 153,
        "buildErrors": 1,
        "clusters": [
            {"type": "crash", "message": "signal 6 (SIGABRT): Aborted", "first": "src/lib.rs"}
        ],
    }


def test_a_red_answer_carries_its_top_clusters_when_each_failure_is_at_its_own_line(
    tmp_path: Path,
) -> None:
    """Three red units of 8 failures each, every one at its own line (a planted bug that many
    asserts see): the estimate of cargo's own lines leaves little room, the top clusters still fit,
    shortened."""
    units = []
    for number, (kind, source) in enumerate(
        (("bin", "src/lib.rs"), ("bin", "tests/lib.rs"), ("doc", "strsim"))
    ):
        names = [
            f"src/lib.rs - jaro_function_number_{number}_{i} (line {100 + i})"
            if kind == "doc"
            else f"tests::jaro_winkler_diff_with_a_long_name_{number}_{i}"
            for i in range(8)
        ]
        blocks = "".join(
            f"---- {name} stdout ----\n\nthread '{name}' (7) panicked at "
            f"src/lib.rs:{800 + 10 * number + i}:9:\n"
            f"assertion failed: actual: `0.8{i}`, expected: `0.806451612903{i}`: actual not "
            "within < 1e-6 of expected\n"
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n"
            for i, name in enumerate(names)
        )
        text = (
            "\nrunning 8 tests\n"
            + "".join(f"test {name} ... FAILED\n" for name in names)
            + "\nfailures:\n\n"
            + blocks
            + "\ntest result: FAILED. 0 passed; 8 failed; 0 ignored; 0 measured\n"
        )
        units.append((kind, 101, source, text))
    head, answer = answer_for(tmp_path, units)
    found = json.loads(answer)
    assert (found["exit"], found["failed"]) == (101, 24)
    assert found["clusters"][0] == {
        "type": "panic",
        "at": "src/lib.rs:800",
        "message": "assertion failed: actual: `0.80`, expected: `0.8064516129030`: actual not "
        "wit...",
    }
    assert found["moreClusters"] == 24 - len(found["clusters"])
    assert len(head) + len(answer) + 2 <= 780 - 3 * 70 - (40 + 30 * 3)


def test_the_writer_tells_a_crash_by_its_own_signal_not_another_binary_s_last_words(
    project: Path,
) -> None:
    from sidekit_hooks.runners.cargo import run as cargo_run

    state = project / ".sidekit" / "cargo"
    state.mkdir(parents=True)
    run = state / "run-123-456"
    units = [
        ("bin\t134\tsrc/lib.rs\n", LIB, "\nrunning 3 tests\ntest tests::a ... ok\n"),
        ("bin\t0\ttests/api.rs\n", API, GREEN),
    ]
    for number, (meta, head, out) in enumerate(units, 1):
        for suffix, body in (("meta", meta), ("head", head), ("out", out)):
            (state / f"{run.name}.{number}.{suffix}").write_text(body)
    text, code, _ = cargo_run.units(str(run))
    result = cargo.parse(text, str(project), 0.0, code, "")
    assert code == 101
    assert result.errors == {
        "src/lib.rs": {
            "type": "crash",
            "message": "signal: 6, SIGABRT",
            "shape": "signal: N, SIGABRT",
        }
    }
    assert sorted(result.tests) == [
        "src/lib.rs::tests::a",
        "tests/api.rs::tests::a",
        "tests/api.rs::tests::b",
    ]


def test_a_crash_before_a_green_binary_is_told_by_its_own_lines(tmp_path: Path) -> None:
    """`sidekit test`'s raw output: cargo's `Caused by` follows the crashed binary, and a green one
    after."""
    text = LIB + "\nrunning 3 tests\ntest tests::a ... ok\n" + API + GREEN
    result = cargo.parse(text, str(tmp_path), 0.0, 101, "")
    assert result.errors == {
        "src/lib.rs": {
            "type": "crash",
            "message": "test tests::a ... ok",
            "shape": "test tests::a ... ok",
        }
    }


def written_run(
    project: Path, number: int, argv: list[str], units: list[tuple[str, str, str]]
) -> None:
    """One compacted run's files (cargo's command line, each unit's meta, head, output), then the
    writer."""
    from sidekit_hooks.runners.cargo import run as cargo_run

    state = project / ".sidekit" / "cargo"
    state.mkdir(parents=True, exist_ok=True)
    run = state / f"run-{number}-456"
    (state / f"{run.name}.argv").write_bytes(b"\0".join(w.encode() for w in argv) + b"\0")
    for unit, (meta, head, out) in enumerate(units, 1):
        for suffix, body in (("meta", meta), ("head", head), ("out", out)):
            (state / f"{run.name}.{unit}.{suffix}").write_text(body)
    cargo_run.write(str(run))


def test_a_filtered_run_keeps_the_crash_of_tests_it_did_not_run(project: Path) -> None:
    """`cargo test --no-fail-fast` with a binary that aborts, then `cargo test nosuchtestxyz`
    (nothing runs), `cargo test tests::` (other tests of that binary run, green): still red. A full
    green run after it clears the crash."""
    ours = ["--config", 'target."cfg(all())".runner=["/bin/sh"]', "--config", "term.quiet=true"]
    crashed = ("bin\t134\tsrc/lib.rs\n", LIB, "\nrunning 3 tests\ntest tests::a ... ok\n")
    none = "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 2 filtered out\n\n"
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project))
    written_run(
        project,
        1,
        ["cargo", "test", "--no-fail-fast", *ours],
        [crashed, ("bin\t0\ttests/api.rs\n", API, GREEN)],
    )
    assert sidekit(project, env, "status")[0]["collectErrors"] == 1
    for number, filtered in enumerate(
        (["nosuchtestxyz"], ["--lib"], ["-p", "p"], ["--test", "api"]), 2
    ):
        written_run(
            project,
            number,
            ["cargo", "test", *filtered, *ours],
            [("bin\t0\tsrc/lib.rs\n", LIB, none)],
        )
        status = sidekit(project, env, "status")[0]
        assert (status["state"], status["collectErrors"]) == ("failed", 1), filtered
    # a filter that runs other tests of the binary that crashed, green: the crashing one did not run
    written_run(
        project, 7, ["cargo", "test", "tests::", *ours], [("bin\t0\tsrc/lib.rs\n", LIB, GREEN)]
    )
    status = sidekit(project, env, "status")[0]
    assert (status["state"], status["collectErrors"]) == ("failed", 1)
    written_run(
        project, 9, ["/usr/bin/cargo", "test", "-q", *ours], [("bin\t0\tsrc/lib.rs\n", LIB, GREEN)]
    )
    status = sidekit(project, env, "status")[0]
    assert (status["state"], status.get("collectErrors")) == ("passed", None)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([], []),
        (
            [
                "--no-fail-fast",
                "--workspace",
                "-q",
                "--release",
                "-j",
                "4",
                "--features",
                "x",
                "--config",
                "a=1",
            ],
            [],
        ),
        (["nosuchtestxyz"], ["nosuchtestxyz"]),
        (["--lib"], ["--lib"]),
        (["--doc"], ["--doc"]),
        (["-p", "strsim", "--no-fail-fast"], ["-p", "strsim"]),
        (["--test", "lib", "jaro"], ["--test", "lib", "jaro"]),
        (["--bin", "x"], ["--bin", "x"]),
        (["--package=strsim"], ["--package=strsim"]),
        (["--", "--exact", "tests::a"], ["--", "--exact", "tests::a"]),
        (["--", "--skip", "jaro", "--nocapture", "--test-threads", "1"], ["--", "--skip", "jaro"]),
        (["--", "--nocapture", "--test-threads=2"], []),
    ],
)
def test_the_words_that_narrow_a_cargo_run(args: list[str], words: list[str]) -> None:
    assert cargo.filter_words(args) == words


def test_a_workspace_member_s_tests_are_named_under_its_folder_as_the_cache_names_them(
    project: Path,
) -> None:
    member = project / "m"
    (member / "src").mkdir(parents=True)
    (member / "Cargo.toml").write_text('[package]\nname = "m"\nversion = "0.1.0"\n')
    (member / "src" / "lib.rs").write_text("")
    red_member = binary(project, "m-0a1b", red(12), 101)
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project))
    done = subprocess.run(
        ["/bin/sh", "-c", f"/bin/sh '{TEE}' bin '{sys.executable}' f '{red_member}'; exit $?"],
        cwd=member,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    answer = json.loads(done.stdout.splitlines()[1])
    assert [c["first"] for c in answer["clusters"]] == ["m/src/lib.rs::t00", "m/src/lib.rs::t11"]
