"""runners/go/goexec.sh, the sh wrapper go runs each test binary through: a stand-in binary (a sh
script that prints what a Go test binary prints with and without `-test.v=test2json`), run as go
runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from sidekit_hooks.runners.go import adapter as go

WRAPPER = str(Path(go.__file__).parent / "goexec.sh")
# A test binary: framed output under -test.v=test2json, else what go test prints without -v.
BINARY = r"""#!/bin/sh
printf '%s\n' "$*" >"$0.args"
case " $* " in *" -test.v=test2json "*) framed=1 ;; *) framed=0 ;; esac
[ "$framed" = 1 ] || { echo "unframed run: $*"; exit 9; }
if [ -n "${PANIC_A:-}" ]; then # as testing does: the test's FAIL, the panic, no last PASS or FAIL
    printf '\026=== RUN   TestA\n\026--- FAIL: TestA (0.00s)\npanic: boom [recovered]\n\ngoroutine 7 [running]:\n'
    exit 2
fi
printf '\026=== RUN   TestA\n'
printf '    p_test.go:7: a passing test logs\n'
printf '        on two lines\n'
printf 'printed by the test\n'
printf '\026--- PASS: TestA (0.00s)\n'
if [ -n "${FAIL_B:-}" ]; then
    printf '\026=== RUN   TestB\n'
    printf '    p_test.go:12: got 1, want 2\n'
    printf '\026--- FAIL: TestB (0.00s)\n'
    printf '\026FAIL\n'
    exit 1
fi
[ -n "${DIE:-}" ] && kill -"$DIE" $$
[ -n "${DIE_GROUP:-}" ] && kill -"$DIE_GROUP" 0 && sleep 5
[ -n "${EXIT:-}" ] && exit "$EXIT"
if [ -n "${KILL_WRAPPER:-}" ]; then
    printf '\026=== RUN   TestKilled\n\026--- PASS: TestKilled (0.00s)\n'
    kill -KILL "$PPID"
fi
i=0
while [ -n "${BIG:-}" ] && [ $i -lt 40 ]; do
    echo "a long line printed by a passing test: $i ......................."
    i=$((i + 1))
done
printf '\026PASS\n'
"""


def project(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "m"
    (root / "p").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "go.mod").write_text("module example.com/m\n")
    work = tmp_path / "go-build1" / "b001"
    work.mkdir(parents=True)
    binary = work / "p.test"
    binary.write_text(BINARY)
    binary.chmod(0o755)
    return root, binary


def run(root: Path, binary: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """As go runs it: in the package's folder, from a parent that ends (the run's writer waits for
    it)."""
    line = " ".join(["/bin/sh", WRAPPER, sys.executable, str(binary), "-test.paniconexit0", *args])
    environ = {
        k: v for k, v in os.environ.items() if k not in ("SIDEKIT_RAW", "CLAUDE_PROJECT_DIR")
    }
    return subprocess.run(
        ["/bin/sh", "-c", line + "; exit $?"],
        cwd=str(root / "p"),
        env=dict(environ, **env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def cached(root: Path) -> dict[str, str]:
    deadline = time.time() + 20
    table = root / ".sidekit" / "status-tests.json"
    while time.time() < deadline and not table.exists():
        time.sleep(0.05)
    return {test: entry["o"] for test, entry in json.loads(table.read_text())["tests"].items()}


def test_a_passing_binary_prints_what_it_would_without_the_framing_and_is_cached(
    tmp_path: Path,
) -> None:
    root, binary = project(tmp_path)
    done = run(root, binary)
    assert (done.returncode, done.stdout, done.stderr) == (0, "printed by the test\nPASS\n", "")
    given = f"-test.paniconexit0 -test.v=test2json -test.testlogfile={binary.parent}/testlog.txt\n"
    assert (
        Path(f"{binary}.args").read_text() == given
    )  # go reads the test log: passing packages stay cached
    assert cached(root) == {"p::TestA": "passed"}
    assert (
        abs(
            json.loads((root / ".sidekit" / "status.json").read_text())["run"]["started"]
            - time.time()
        )
        < 60
    )
    assert not [n for n in os.listdir(root / ".sidekit" / "go") if n.startswith((".out", "spool-"))]


def test_a_passing_binary_with_long_output_is_compacted_by_python(tmp_path: Path) -> None:
    root, binary = project(tmp_path)
    done = run(root, binary, BIG="1")
    head, answer = done.stdout.splitlines()
    assert done.returncode == 0 and head.startswith(
        "sidekit: go test output (2,655 B) compacted; exit code 0;"
    )
    assert json.loads(answer)["passed"] == 1


def test_a_failing_binary_goes_to_python_and_prints_as_go_would(tmp_path: Path) -> None:
    root, binary = project(tmp_path)
    done = run(root, binary, FAIL_B="1")
    assert done.returncode == 1
    assert done.stdout == (
        "printed by the test\n--- FAIL: TestB (0.00s)\n    p_test.go:12: got 1, want 2\nFAIL\n"
    )
    assert cached(root) == {"p::TestA": "passed", "p::TestB": "failed"}


def test_verbose_runs_print_the_verbose_text_and_the_binary_gets_the_framing_instead_of_v(
    tmp_path: Path,
) -> None:
    root, binary = project(tmp_path)
    done = run(root, binary, "-test.v=true")
    assert done.returncode == 0
    assert (
        Path(f"{binary}.args")
        .read_text()
        .startswith("-test.paniconexit0 -test.v=test2json -test.testlogfile=")
    )
    assert done.stdout == (
        "=== RUN   TestA\n    p_test.go:7: a passing test logs\n        on two lines\nprinted by "
        "the test\n"
        "--- PASS: TestA (0.00s)\nPASS\n"
    )


# go, as it sees us end; in a session of its own, and living through a signal sent to that session
PARENT = (
    "import signal, subprocess, sys; signal.signal(signal.SIGTERM, lambda *_: None);"
    "print(subprocess.run(sys.argv[1:]).returncode)"
)


def as_go_sees_it(root: Path, binary: Path, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PARENT, "/bin/sh", WRAPPER, sys.executable, str(binary)],
        cwd=str(root / "p"),
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=60,
        start_new_session=True,
    )
    return done.stdout


def test_a_signal_sent_to_the_run_takes_the_wrapper_with_it(tmp_path: Path) -> None:
    root, binary = project(tmp_path)
    assert as_go_sees_it(root, binary, DIE_GROUP="TERM") == "printed by the test\n-15\n"


def test_an_exit_code_above_128_is_the_exit_code_not_a_signal(tmp_path: Path) -> None:
    root, binary = project(tmp_path)
    assert as_go_sees_it(root, binary, EXIT="130") == "printed by the test\n130\n"
    assert as_go_sees_it(root, binary, EXIT="143") == "printed by the test\n143\n"


def test_sigkill_which_no_shell_can_note_stays_a_signal(tmp_path: Path) -> None:
    root, binary = project(tmp_path)
    assert as_go_sees_it(root, binary, DIE="KILL") == "printed by the test\n-9\n"


def test_raw_and_pass_through_runs_are_the_binary_itself(tmp_path: Path) -> None:
    root, binary = project(tmp_path)
    assert (
        run(root, binary, SIDEKIT_RAW="1").stdout == "unframed run: -test.paniconexit0\n"
    )  # exit 9
    listed = run(root, binary, "-test.list=.")
    assert (listed.returncode, listed.stdout) == (
        9,
        "unframed run: -test.paniconexit0 -test.list=.\n",
    )
    assert not (root / ".sidekit").exists()


def test_a_link_where_the_spool_folder_would_be_is_never_followed(tmp_path: Path) -> None:
    root, binary = project(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / ".sidekit").symlink_to(outside)
    done = run(root, binary)
    assert (done.returncode, done.stdout) == (
        0,
        "printed by the test\nPASS\n",
    )  # goexec.py: printed as it was
    time.sleep(0.3)
    assert os.listdir(outside) == []


def test_a_killed_wrappers_spool_is_never_cached_and_goes_once_the_run_has_ended(
    tmp_path: Path,
) -> None:
    """The wrapper killed under its binary (go killed, ^C): its spool has no end line, nothing is
    cached from it, and the run's writer (started by another binary of the run) removes it once the
    run ends."""
    root, binary = project(tmp_path)
    folder = root / ".sidekit" / "go"
    line = " ".join(["/bin/sh", WRAPPER, sys.executable, str(binary)])
    # one parent for the wrappers, as go is for a run's binaries (the last one filtered: its package
    # run whole would drop TestB, in whichever order the two cache writes land)
    script = f"KILL_WRAPPER=1 {line}; ls {folder} > {folder}.seen; FAIL_B=1 {line} >/dev/null; {line} -test.run=TestA; sleep 0.3"
    done = subprocess.run(
        ["/bin/sh", "-c", script], cwd=str(root / "p"), capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "printed by the test\nPASS\n"
    assert [
        n for n in Path(f"{folder}.seen").read_text().split() if n.startswith("spool-")
    ]  # the killed one's
    assert cached(root) == {"p::TestA": "passed", "p::TestB": "failed"}
    deadline = time.time() + 20
    while time.time() < deadline and list(folder.glob("writer-*")):
        time.sleep(0.05)
    assert [n for n in os.listdir(folder) if n.startswith("spool-")] == []


def test_a_spool_gone_before_python_reads_it_still_ends_as_the_binary_did(tmp_path: Path) -> None:
    """goexec.py handed a spool that is no longer there: no traceback, the binary's own status."""
    root, _ = project(tmp_path)
    start = str(Path(go.__file__).parent / "goexec_start.py")
    line = f"{sys.executable} -I -S {start} --captured {root}/.sidekit/go/spool-gone 1 0 0"
    done = subprocess.run(
        ["/bin/sh", "-c", line + "; exit $?"],
        cwd=str(root / "p"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")


def test_the_sh_wrappers_run_key_is_the_one_python_computes_for_the_same_go_run(
    tmp_path: Path,
) -> None:
    """goexec.sh names a spool by go's pid and start time in sh, spool.run_key names the
    printed-bytes ledger in Python: one run, one key, or the writer and `status` would wait on the
    wrong run."""
    root, binary = project(tmp_path)
    folder = root / ".sidekit" / "go"
    seen = tmp_path / "seen"
    binary.write_text(BINARY.replace("#!/bin/sh\n", f"#!/bin/sh\nls {folder} >{seen}\n", 1))
    done = run(root, binary, FAIL_B="1")  # red: the sh wrapper spools, then execs goexec.py
    assert done.returncode == 1
    spooled = [
        n.removeprefix("spool-").rpartition("-")[0]
        for n in seen.read_text().split()
        if n.startswith("spool-")
    ]
    printed = [n.removeprefix("printed-") for n in os.listdir(folder) if n.startswith("printed-")]
    assert len(spooled) == 1 and spooled == printed
    pid, born = spooled[0].split("-")
    assert int(pid) > 1 and int(born) > 0  # go's start time read from /proc, not the unknown `-0`


def test_a_package_run_whole_forgets_its_cached_tests_the_run_no_longer_has(tmp_path: Path) -> None:
    """TestB failed, then went (deleted, renamed, or now a parent of subtests): a run of the whole
    package that ends on its own drops it. A filtered run, or one cut short, drops nothing."""
    root, binary = project(tmp_path)
    assert run(root, binary, FAIL_B="1").returncode == 1
    assert cached(root) == {"p::TestA": "passed", "p::TestB": "failed"}
    assert (
        run(root, binary, "-test.run=TestA").returncode == 0
    )  # filtered: TestB was not asked about
    assert settled(root) == {"p::TestA": "passed", "p::TestB": "failed"}
    assert run(root, binary, PANIC_A="1").returncode == 2  # cut short: TestB never ran
    assert settled(root) == {"p::TestA": "failed", "p::TestB": "failed"}
    assert run(root, binary).returncode == 0  # the whole package, to its own PASS
    assert settled(root) == {"p::TestA": "passed"}


def settled(root: Path) -> dict[str, str]:
    """The cache once the run's writer (detached, after the wrapper's parent ended) is done."""
    folder = root / ".sidekit" / "go"
    deadline = time.time() + 20
    while time.time() < deadline and [
        n for n in os.listdir(folder) if n.startswith(("writer-", "spool-"))
    ]:
        time.sleep(0.05)
    return cached(root)
