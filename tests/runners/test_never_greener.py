"""Never greener, per runner: a compile error, a panic or crash, a timeout, no tests, a filter that
matches no tests, and a failing test in a second package or workspace member (libtest has no timeout
of its own: cargo's timeout is the caller's, tested on its own). For each: the raw run,
the compacted raw run (through the real PreToolUse hook) and `sidekit test` end with the same exit
code, and a red run is never reported without a failure or an error."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from realproj import env_for, git_init, need, shell, sidekit

from testing.pretool import rewritten

pytestmark = pytest.mark.slow

GO_OK = "package p\n\nfunc Add(a, b int) int { return a + b }\n"
GO_OK_TEST = 'package p\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n'
GO_CASES: dict[str, tuple[dict[str, str | None], str, int]] = {
    "compile error": (
        {"p/p.go": "package p\n\nfunc Add(a, b int) int { return a + c }\n"},
        "./...",
        1,
    ),
    "panic": (
        {
            "p/p_test.go": 'package p\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tvar '
            "m map[string]int\n"
            '\tm["x"] = Add(1, 2)\n}\n\nfunc TestLater(t *testing.T) {}\n'
        },
        "./...",
        1,
    ),
    "timeout": (
        {
            "p/p_test.go": 'package p\n\nimport (\n\t"testing"\n\t"time"\n)\n\n'
            "func TestSlow(t *testing.T) { time.Sleep(5 * time.Second) }\n"
        },
        "-timeout 1s ./...",
        1,
    ),
    "no tests": ({"p/p_test.go": None}, "./...", 0),
    "filter matches nothing": ({}, "-run NoSuchTest ./...", 0),
    "second package fails": (
        {
            "q/q.go": "package q\n",
            "q/q_test.go": 'package q\n\nimport "testing"\n\n'
            'func TestQ(t *testing.T) { t.Errorf("q is wrong: %d", 2) }\n',
        },
        "./...",
        1,
    ),
}


def project_of(root: Path, base: Mapping[str, str | None], files: Mapping[str, str | None]) -> Path:
    """A git project of `base` with `files` over it (None: that base file left out)."""
    for rel, text in {**base, **files}.items():
        if text is not None:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text)
    git_init(root)
    return root


def go_module(root: Path, files: dict[str, str | None]) -> Path:
    base = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "p/p.go": GO_OK,
        "p/p_test.go": GO_OK_TEST,
    }
    return project_of(root, base, files)


@pytest.mark.parametrize("case", list(GO_CASES))
def test_go_is_never_greener(tmp_path: Path, case: str) -> None:
    need("go")
    files, args, expected = GO_CASES[case]
    project = go_module(tmp_path / "m", files)
    env = env_for(project, GOFLAGS="-count=1")
    tests = ["--", *args.split()] if args != "./..." else []
    check(project, env, f"go test {args}", expected, "go", tests, built="compile error" not in case)


CARGO_TOML = '[package]\nname = "c"\nversion = "0.1.0"\nedition = "2021"\n'
CARGO_LIB = "pub fn add(a: i32, b: i32) -> i32 { a + b }\n"
CARGO_TEST = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n"
CARGO_CASES: dict[str, tuple[dict[str, str | None], str, int]] = {
    "compile error": ({"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + c }\n"}, "", 101),
    "panic": (
        {
            "src/lib.rs": CARGO_LIB
            + "#[test]\nfn boom() { let v: Vec<i32> = vec![]; let _ = v[3]; }\n"
        },
        "",
        101,
    ),
    "crash": (
        {"src/lib.rs": CARGO_LIB + "#[test]\nfn aborts() { std::process::abort(); }\n"},
        "",
        101,
    ),
    "failing doc test": (
        {
            "src/lib.rs": "/// ```\n/// assert_eq!(c::add(1, 2), 4);\n/// ```\n"
            + CARGO_LIB
            + CARGO_TEST
        },
        "",
        101,
    ),
    "compile error in a test target": (
        {"tests/api.rs": '#[test]\nfn api() { let x: i32 = "no"; }\n'},
        "",
        101,
    ),
    "panic outside tests": (
        {
            "Cargo.toml": CARGO_TOML + '\n[[test]]\nname = "plain"\nharness = false\n',
            "tests/plain.rs": 'fn main() { panic!("outside any test"); }\n',
        },
        "",
        101,
    ),
    "no tests": ({"src/lib.rs": CARGO_LIB}, "", 0),
    "filter matches nothing": ({}, " no_such_test", 0),
    "second member fails": (
        {
            "Cargo.toml": '[workspace]\nmembers = ["a", "b"]\nresolver = "2"\n',
            "a/Cargo.toml": '[package]\nname = "a"\nversion = "0.1.0"\nedition = "2021"\n',
            "a/src/lib.rs": CARGO_LIB + CARGO_TEST,
            "b/Cargo.toml": '[package]\nname = "b"\nversion = "0.1.0"\nedition = "2021"\n',
            "b/src/lib.rs": '#[test]\nfn wrong() { assert_eq!(1 + 1, 3, "b is wrong"); }\n',
            "src/lib.rs": None,
        },
        "",
        101,
    ),
}


def crate(root: Path, files: dict[str, str | None]) -> Path:
    base: dict[str, str | None] = {
        "Cargo.toml": CARGO_TOML,
        "src/lib.rs": CARGO_LIB + CARGO_TEST,
    }
    return project_of(root, base, files)


@pytest.mark.parametrize("case", list(CARGO_CASES))
def test_cargo_is_never_greener(tmp_path: Path, case: str) -> None:
    need("cargo")
    files, args, expected = CARGO_CASES[case]
    project = crate(tmp_path / "c", files)
    env = env_for(project, CARGO_TARGET_DIR=str(tmp_path / "target"))
    tests = ["--", *args.split()] if args else []
    check(
        project,
        env,
        f"cargo test{args}",
        expected,
        "cargo",
        tests,
        built="compile error" not in case,
    )


def test_a_cargo_run_stopped_by_a_timeout_is_never_greener(tmp_path: Path) -> None:
    """libtest has no timeout: the caller's (here `timeout`, in the agent's case the Bash tool's)
    stops the whole process group while a test hangs. The compacted run ends the same way and says
    so."""
    need("cargo")
    slow = "#[test]\nfn hangs() { std::thread::sleep(std::time::Duration::from_secs(60)); }\n"
    project = crate(tmp_path / "c", {"tests/slow.rs": slow})
    env = env_for(project, CARGO_TARGET_DIR=str(tmp_path / "target"))
    assert shell(project, "cargo test --no-run", env, timeout=300).exit == 0
    raw = shell(project, "timeout -s TERM 4 cargo test", env, timeout=60)
    compact = shell(
        project, "timeout -s TERM 4 " + rewritten(project, "cargo test", env), env, timeout=60
    )
    assert raw.exit == compact.exit == 124, compact.output
    assert (
        "running 1 test" in raw.output
        and "test result" not in raw.output.split("tests/slow.rs")[-1]
    )
    # what ran before the hang, as it was, then the stopped binary's own words: never a pass for it
    assert "test tests::adds ... ok" in compact.output and "Running tests/slow.rs" in compact.output
    assert "running 1 test" in compact.output.split("tests/slow.rs")[-1]
    assert "test result" not in compact.output.split("tests/slow.rs")[-1]


TIMES = re.compile(r"\d+\.\d+s\b")


def same_text(output: str) -> list[str]:
    """Output lines without what differs between two runs of the same tests: timings, cargo's
    compile lines (a compacted run sets term.quiet, which keeps them and cargo's `waiting for other
    jobs` out), and their order (cargo compiles the lib and its tests in parallel: their errors
    race)."""
    return sorted(
        TIMES.sub("Ns", line)
        for line in output.splitlines()
        if not line.lstrip().startswith(
            ("Compiling ", "Finished ", "warning: build failed, waiting for other jobs")
        )
    )


def check(
    project: Path,
    env: dict[str, str],
    command: str,
    expected: int,
    runner: str,
    test_args: list[str],
    built: bool,
) -> None:
    """`built`: the build gets as far as running a test binary (a compile error does not: nothing
    feeds the cache, and `status` right after says there is no run)."""
    raw = shell(project, command, env, timeout=300)
    compacted = rewritten(project, command, env)
    assert compacted.startswith(command + " ")
    compact = shell(project, compacted, env, timeout=300)
    # read at once: the compacted run's cache is written after its answer (a detached child), and an
    # answer read meanwhile waits for it rather than show the run before
    after, _ = sidekit(project, env, "status", timeout=60)
    found, code = sidekit(project, env, "test", *test_args, timeout=300)
    assert raw.exit == expected, raw.output[-2000:]
    assert compact.exit == expected, compact.output[-2000:]
    assert code == found["exit"] == expected and found["runner"] == runner, found
    if expected:
        # red; a build that failed before any test binary ran fed nothing to the cache: no run
        assert after.get("state") in (
            ("failed", "error", "interrupted") if built else ("noRuns",)
        ), after
        assert found.get("failed", 0) + found.get("buildErrors", 0) >= 1, found
        assert "FAIL" in compact.output or "error" in compact.output, compact.output[-2000:]
    else:
        assert found.get("failed", 0) == 0 and "buildErrors" not in found
    if (
        raw.size <= 2048 and "panic" not in raw.output and "abort" not in raw.output
    ):  # short: left as it is
        assert same_text(compact.output) == same_text(raw.output)
    if found.get("passed", 0) == 0 and not expected:
        assert found["state"] == "noTests", found  # zero tests run is not a pass


def test_a_compacted_green_go_package_is_cached_as_a_raw_one_is(tmp_path: Path) -> None:
    need("go")
    project = go_module(tmp_path / "m", {})
    env = env_for(project)
    command = rewritten(project, "go test ./...", env)
    first, second = shell(project, command, env), shell(project, command, env)
    assert (first.exit, second.exit) == (0, 0)
    assert "(cached)" not in first.output and first.output.startswith("ok  \texample.com/m/p\t")
    assert second.output == "ok  \texample.com/m/p\t(cached)\n"


def test_the_mcp_tools_answer_for_the_go_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    need("go")
    from sidekit_hooks.cli.mcpserver import tools

    project = go_module(tmp_path / "m", GO_CASES["second package fails"][0])
    for name, value in env_for(project, GOFLAGS="-count=1").items():
        monkeypatch.setenv(name, value)
    tested = json.loads(tools.answer("test", {}, str(project)))
    assert {k: tested[k] for k in ("runner", "exit", "passed", "failed")} == {
        "runner": "go",
        "exit": 1,
        "passed": 1,
        "failed": 1,
    }
    assert tested["clusters"][0]["at"] == "q/q_test.go:5"
    status = json.loads(tools.answer("status", {}, str(project)))
    assert (status["runner"], status["state"], status["failed"]) == ("go", "failed", 1)
    assert json.loads(tools.answer("select", {}, str(project)))["basis"] == "all"


def test_a_compacted_go_run_under_goflags_json_still_gives_json(tmp_path: Path) -> None:
    need("go")
    project = go_module(tmp_path / "m", GO_CASES["second package fails"][0])
    env = env_for(project, GOFLAGS="-json -count=1")
    compact = shell(project, rewritten(project, "go test ./...", env), env)
    events = [json.loads(line) for line in compact.output.splitlines()]
    assert compact.exit == 1 and "sidekit" not in compact.output
    assert {
        (e.get("Test"), e["Action"])
        for e in events
        if e["Action"] in ("pass", "fail") and e.get("Test")
    } == {
        ("TestAdd", "pass"),
        ("TestQ", "fail"),
    }


def test_status_right_after_a_long_red_go_run_is_that_run(tmp_path: Path) -> None:
    """A red package whose output is long gets the compact answer; the cache is merged and written
    after it by a detached child, and `status` read at once waits for that child: never the green
    run before."""
    need("go")
    many = (
        'package p\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestMany(t *testing.T) {\n'
        "\tfor i := 0; i < 40; i++ {\n"
        '\t\tt.Run(fmt.Sprint(i), func(t *testing.T) { t.Errorf("Add(%d, 1) = %d, want %d", i, '
        "Add(i, 1)+1, i+1) })\n"
        "\t}\n}\n"
    )
    project = go_module(tmp_path / "m", {})
    env = env_for(project, GOFLAGS="-count=1")
    command = rewritten(project, "go test ./...", env)
    assert shell(project, command, env).exit == 0
    first, _ = sidekit(project, env, "status", timeout=60)
    assert (first["state"], first["passed"]) == ("passed", 1), first
    (project / "p" / "many_test.go").write_text(many)
    compact = shell(project, command, env, timeout=300)
    assert compact.exit == 1 and compact.output.startswith("sidekit: go test output"), (
        compact.output[-2000:]
    )
    after, _ = sidekit(project, env, "status", timeout=60)
    assert (after["runner"], after["state"], after["failed"]) == ("go", "failed", 40), after
