"""The compact answer a rewritten raw pytest prints: real pytest runs in a subprocess, with the
plugin loaded the way the PreToolUse rewrite loads it (`-p
sidekit_hooks.runners.pytest.compact`)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.runners.pytest import compact
from testing.status import Suite, suite  # noqa: F401 - the fixture

PLUGIN = ["-p", "sidekit_hooks.runners.pytest.compact"]
ONE_CAUSE = """
    import pytest
    from lib import term_len

    @pytest.mark.parametrize("n", range(30))
    def test_len(n):
        assert term_len("abcdefgh"[: (n % 3) + 5]) > 0

    def test_short():
        assert term_len("ab") == 2
"""
LIB = """
    def term_len(x):
        return len(x) if len(x) < 5 else int(x)
"""


def run(suite: Suite, *args: str) -> subprocess.CompletedProcess[str]:
    return suite.pytest(*args, timeout=120)


def parse(out: str) -> tuple[str, dict[str, Any]]:
    head, line, rest = out.split("\n", 2)
    assert rest == "", out
    return head, json.loads(line)


def raw_file(suite: Suite, head: str) -> Path:
    match = re.search(r"all of it: (\S+)", head)
    assert match, head
    return suite.root / match.group(1)


def test_red_run_with_one_root_cause(suite: Suite) -> None:
    suite.write("lib.py", LIB)
    suite.write("tests/test_a.py", ONE_CAUSE)
    raw = run(suite, "tests", "-p", "no:randomly")
    done = run(suite, "tests", *PLUGIN)
    assert (raw.returncode, done.returncode) == (1, 1)
    assert len(done.stdout.encode()) <= compact.ANSWER_BUDGET < len(raw.stdout.encode()) // 10
    head, answer = parse(done.stdout)
    assert (
        head.startswith("sidekit: pytest's output (")
        and "compacted; exit code 1; all of it: .sidekit/pytest/raw-" in head
    )
    assert head.endswith("(prefix the command with SIDEKIT_RAW=1 to see it raw)")
    assert (answer["exit"], answer["failed"], answer["passed"]) == (1, 30, 1)
    [cluster] = answer["clusters"]
    assert (cluster["type"], cluster["at"], cluster["affected"]) == ("ValueError", "lib.py:3", 30)
    saved = raw_file(suite, head).read_text()
    assert saved.endswith("30 failed, 1 passed" + saved.rpartition("30 failed, 1 passed")[2])
    assert "ValueError: invalid literal for int()" in saved
    assert suite.summary()["run"]["compact"] is True  # recorded, and marked as seen by the model


def test_short_output_is_printed_as_it_was(suite: Suite) -> None:
    suite.write("lib.py", LIB)
    suite.write(
        "tests/test_a.py",
        "from lib import term_len\n\ndef test_short():\n    assert term_len('ab') == 2\n",
    )
    raw = run(suite, "tests", "-p", "no:randomly")
    done = run(suite, "tests", *PLUGIN)
    strip = re.compile(r"in \d+\.\d+s")
    assert done.returncode == 0 and strip.sub("", done.stdout) == strip.sub("", raw.stdout)
    assert "1 passed" in done.stdout


def test_a_hundred_distinct_failures_stay_in_budget(suite: Suite) -> None:
    body = "".join(
        f"\ndef test_{i}():\n    raise KeyError('missing key number {i} ' + 'x' * 200)\n"
        for i in range(100)
    )
    suite.write("tests/test_many.py", body)
    done = run(suite, "tests", *PLUGIN)
    assert done.returncode == 1 and len(done.stdout.encode()) <= compact.ANSWER_BUDGET
    head, answer = parse(done.stdout)
    assert answer["failed"] == 100 and answer["moreClusters"] >= 90 and answer["moreFailures"] >= 90


def test_collection_errors_are_errors(suite: Suite) -> None:
    for i in range(12):
        suite.write(f"tests/test_broken_{i}.py", "import no_such_module_anywhere\n")
    done = run(suite, "tests", *PLUGIN)
    assert done.returncode == 2
    head, answer = parse(done.stdout)
    assert "exit code 2" in head and answer["exit"] == 2 and answer["state"] == "interrupted"
    assert (
        answer["clusters"][0]["type"] == "ModuleNotFoundError"
        and answer["clusters"][0]["phase"] == "collect"
    )
    assert "errors during collection" in answer["pytest"]


def test_stopped_by_maxfail_says_so_and_what_did_not_run(suite: Suite) -> None:
    suite.write("lib.py", LIB)
    suite.write("tests/test_a.py", ONE_CAUSE)
    done = run(suite, "tests", "--maxfail=3", "-p", "no:randomly", *PLUGIN)
    head, answer = parse(done.stdout)
    assert done.returncode == 1 and answer["failed"] == 3
    assert answer["stopped"] == "stopping after 3 failures" and answer["notRun"] == 28


def test_no_tests_ran_is_exit_5(suite: Suite) -> None:
    suite.write("tests/test_a.py", "".join(f"def test_{i}():\n    pass\n" for i in range(400)))
    done = run(suite, "tests", "-k", "nothing_matches", "-rA", *PLUGIN)
    assert done.returncode == 5
    assert "exit" not in done.stdout or json.loads(done.stdout.splitlines()[1])["exit"] == 5


def test_internal_error_is_never_green(suite: Suite) -> None:
    suite.write("tests/test_a.py", "".join(f"def test_{i}():\n    pass\n" for i in range(300)))
    suite.write(
        "conftest.py",
        "def pytest_collection_finish(session):\n    raise RuntimeError('plugin bug ' + 'y' * "
        "3000)\n",
    )
    done = run(suite, "tests", *PLUGIN)
    assert done.returncode == 3
    head, answer = parse(done.stdout)
    assert "exit code 3" in head and answer["exit"] == 3 and answer["state"] == "internalError"
    assert answer["pytest"].startswith("INTERNALERROR>")


def test_crashed_xdist_worker_is_counted(suite: Suite) -> None:
    suite.write(
        "tests/test_a.py",
        "import os\n\ndef test_crash():\n    os._exit(1)\n"
        + "".join(f"\ndef test_{i}():\n    assert {i} < 0, 'x' * 200\n" for i in range(12)),
    )
    done = run(suite, "tests", "-n", "2", *PLUGIN)
    assert done.returncode == 1
    head, answer = parse(done.stdout)
    # counted as pytest's last line counts them: "13 failed" (the crashed test included)
    assert (
        answer["crashedWorkers"] == 1
        and answer["failed"] == 13
        and "errors" not in answer
        and "pytest" in answer
    )
    assert "crashed while running" in json.dumps(answer["clusters"])


def test_a_long_green_run_is_compacted_and_counts_warnings(suite: Suite) -> None:
    suite.write(
        "tests/test_warn.py",
        "import warnings\n"
        + "".join(
            f"\ndef test_{i}():\n    warnings.warn('deprecated thing number {i} ' + 'z' * 80, "
            "DeprecationWarning)\n"
            for i in range(40)
        ),
    )
    done = run(suite, "tests", *PLUGIN)
    assert done.returncode == 0
    head, answer = parse(done.stdout)
    assert "exit code 0" in head and (answer["exit"], answer["passed"], answer["warnings"]) == (
        0,
        40,
        40,
    )
    assert "clusters" not in answer


def test_a_run_killed_from_outside_still_says_what_it_saw(suite: Suite) -> None:
    import signal
    import time

    started = (
        suite.root / "slow-started"
    )  # the kill comes once the run is inside test_slow, however busy the machine
    suite.write(
        "tests/test_slow.py",
        "import time\n\ndef test_fast():\n    pass\n\ndef test_slow():\n    "
        f"open({str(started)!r}, 'w').close()\n"
        "    time.sleep(60)\n",
    )
    child = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "tests", *PLUGIN],
        cwd=suite.root,
        env=suite.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 50
    while not started.exists() and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.05)
    assert started.exists(), "the run never reached test_slow"
    child.send_signal(signal.SIGTERM)  # what the Bash tool's timeout does
    out, _ = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGTERM
    assert out.startswith("sidekit: pytest was killed by SIGTERM (exit code 143) after ")
    assert "before it finished" in out
    saved = re.search(r"all of it: (\S+);", out)
    assert saved and (suite.root / saved.group(1)).read_text().startswith(".")


def test_the_ini_option_the_hook_appends_loads_it_and_an_unknown_one_only_warns(
    suite: Suite, tmp_path: Path
) -> None:
    suite.write("lib.py", LIB)
    suite.write("tests/test_a.py", ONE_CAUSE)
    done = run(suite, "tests", "-o", "sidekit_compact=true")
    head, answer = parse(done.stdout)
    assert done.returncode == 1 and answer["failed"] == 30
    # Where sidekit does not load (here: plugin autoload off), pytest runs as written and warns
    # once.
    env = dict(suite.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD="1")
    raw = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests", "-o", "sidekit_compact=true"],
        cwd=suite.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        raw.returncode == 1
        and "30 failed" in raw.stdout
        and "Unknown config option: sidekit_compact" in raw.stdout
    )


def test_a_terminated_forked_child_of_a_test_says_nothing(suite: Suite) -> None:
    suite.write(
        "tests/test_fork.py",
        (
            "import multiprocessing, time\n\n\ndef test_child_terminated():\n"
            "    child = multiprocessing.get_context('fork').Process(target=time.sleep, "
            "args=(30,))\n"
            "    child.start()\n    time.sleep(0.5)\n    child.terminate()\n    child.join()\n    "
            "assert child.exitcode == -15\n"
        )
        + "".join(f"\ndef test_{i}():\n    assert {i} < 0, 'x' * 200\n" for i in range(12)),
    )
    done = run(suite, "tests", *PLUGIN)
    head, answer = parse(done.stdout)  # exactly two lines: nothing from the child
    assert done.returncode == 1 and (answer["passed"], answer["failed"]) == (1, 12)


def test_with_other_threads_running_the_run_stays_in_one_process(suite: Suite) -> None:
    # A fork keeps only the calling thread: with another one running, nothing forks and the answer
    # is the same.
    suite.write(
        "conftest.py",
        "import threading, time\n\nthreading.Thread(target=time.sleep, args=(30,), "
        "daemon=True).start()\n",
    )
    suite.write("lib.py", LIB)
    suite.write("tests/test_a.py", ONE_CAUSE)
    done = run(suite, "tests", "-p", "no:randomly", *PLUGIN)
    head, answer = parse(done.stdout)
    assert (
        done.returncode == 1
        and "exit code 1;" in head
        and (answer["failed"], answer["passed"]) == (30, 1)
    )


def test_collect_only_from_the_environment_is_left_as_pytest_prints_it(suite: Suite) -> None:
    suite.write("tests/test_a.py", "".join(f"def test_{i}():\n    pass\n" for i in range(200)))
    # Added to the suite's own options (which leave hypothesis's and anyio's plugins out).
    env = dict(suite.env, PYTEST_ADDOPTS=f"{suite.env['PYTEST_ADDOPTS']} --collectonly")
    argv = [sys.executable, "-m", "pytest", "-q", "tests", "-p", "no:randomly"]
    raw = subprocess.run(argv, cwd=suite.root, env=env, capture_output=True, text=True, timeout=120)
    done = subprocess.run(
        [*argv, *PLUGIN], cwd=suite.root, env=env, capture_output=True, text=True, timeout=120
    )
    strip = re.compile(r"in \d+\.\d+s")
    assert done.returncode == raw.returncode == 0 and strip.sub("", done.stdout) == strip.sub(
        "", raw.stdout
    )
    assert "200 tests collected" in done.stdout


def test_a_crash_after_the_session_ended_is_stated(suite: Suite) -> None:
    import signal

    suite.write("lib.py", LIB)
    suite.write("tests/test_a.py", ONE_CAUSE)
    suite.write(
        "conftest.py",
        "import os, signal\n\ndef pytest_unconfigure(config):\n"
        "    import atexit\n    atexit.register(lambda: os.kill(os.getpid(), signal.SIGSEGV))\n",
    )
    done = run(suite, "tests", "-p", "no:randomly", "-p", "no:faulthandler", *PLUGIN)
    head, answer = parse(done.stdout)
    assert done.returncode == -signal.SIGSEGV and "exit code 139;" in head and answer["exit"] == 139
    assert (
        answer["pytest"] == "the process was killed by SIGSEGV after the session ended"
        and answer["failed"] == 30
    )


LONG_TRACEBACKS = """
    import pytest
    from lib import parse

    def deeper(value, depth):
        if depth == 0:
            return parse(value)
        return deeper(value, depth - 1)

    @pytest.mark.parametrize("n", range(40))
    def test_parse(n):
        data = {"n": n, "text": "abc" * 5}
        assert deeper(data["text"], 6) == n

    def test_chained():
        try:
            parse("x")
        except ValueError as exc:
            raise KeyError("while parsing") from exc

    def test_multiline():
        assert parse(
            "y"  # a statement over three lines: its extent comes from the tokens
        ) == 1

    @pytest.mark.parametrize("n", range(5))
    def test_compare(n):
        assert [n, "b", [1, 2, 3]] == [n + 1, "b", [1, 2]]  # a list: a dict's diff order follows the hash seed
"""
DEEP_LIB = """
    def parse(value):
        return helper(value)

    def helper(value):
        return int(value)
"""


def test_the_answer_states_the_size_of_exactly_what_raw_pytest_prints(suite: Suite) -> None:
    """The compacted run finds each statement's extent once (`statement_cache`, #23); raw pytest,
    without it, must print the same bytes: the raw file and the head's byte count are those of the
    long tracebacks raw pytest prints, byte for byte (only the timing differs), so the answer is
    what it was."""
    suite.write("lib.py", DEEP_LIB)
    suite.write("tests/test_deep.py", LONG_TRACEBACKS)
    raw = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests", "-p", "no:randomly"],
        cwd=suite.root,
        env=suite.env,
        capture_output=True,
        timeout=120,
    )
    done = run(suite, "tests", "-p", "no:randomly", *PLUGIN)
    assert (raw.returncode, done.returncode) == (1, 1)
    head, answer = parse(done.stdout)
    saved = raw_file(suite, head).read_bytes()
    timing = re.compile(rb" in \d+\.\d+s( \([0-9:]+\))?( =+)?\n$")
    assert timing.sub(b"", saved) == timing.sub(b"", raw.stdout)
    assert (
        saved.count(b"tests/test_deep.py:8: in deeper\n") == 40 * 6
        and b"The above exception was the direct cause" in saved
    )
    assert b'>       assert parse(\n            "y"  # a statement over three lines' in saved
    assert f"pytest's output ({len(saved):,} B) compacted; exit code 1;" in head
    assert (answer["failed"], answer["clusters"][0]["type"], answer["clusters"][0]["affected"]) == (
        47,
        "ValueError",
        41,
    )


WHAT_THE_MEMOS_KEY_ON = """
    import importlib
    import os
    import sys

    import pytest
    from lib import parse

    @pytest.fixture
    def noisy():
        yield
        print("said in teardown")

    @pytest.mark.parametrize("n", range(3))
    def test_with_teardown_output(noisy, n):
        assert parse("t") == n

    @pytest.mark.parametrize("n", range(3))
    def test_from_another_directory(monkeypatch, tmp_path, n):
        here = os.path.dirname(os.path.abspath(__file__))
        monkeypatch.chdir([here, os.path.dirname(here), tmp_path][n])  # the frames' paths from a new cwd
        assert parse("c") == n

    @pytest.mark.parametrize("edits", [0, 1, 0, 2])
    def test_a_module_edited_after_import(tmp_path_factory, edits):
        folder = tmp_path_factory.getbasetemp() / "made"
        folder.mkdir(exist_ok=True)
        body = "# edited\\n" * edits + "def made():\\n    return int('made')\\n"  # the file, not the code, changes
        (folder / "made_module.py").write_text(body)
        sys.path.insert(0, str(folder))
        try:
            module = importlib.import_module("made_module")
        finally:
            sys.path.remove(str(folder))
        module.made()

    def test_a_module_gone_before_its_report(tmp_path):
        (tmp_path / "gone_module.py").write_text("def gone():\\n    return int('gone')\\n")
        sys.path.insert(0, str(tmp_path))
        try:
            import gone_module
        finally:
            sys.path.remove(str(tmp_path))
        os.unlink(tmp_path / "gone_module.py")
        gone_module.gone()
"""


@pytest.mark.parametrize("style", [[], ["--tb=short", "-l"]], ids=["long", "short-locals"])
def test_the_kept_frame_answers_give_raw_pytests_bytes(suite: Suite, style: list[str]) -> None:
    """What the compacted run keeps per frame (`frame_memo`, `teardown_index`, #23) is keyed by all
    it depends on: a changed working directory, a module rewritten or deleted during the run,
    teardown output and other traceback styles still print raw pytest's bytes."""
    suite.write("lib.py", DEEP_LIB)
    suite.write("tests/test_keys.py", WHAT_THE_MEMOS_KEY_ON)
    args = ["tests", "-p", "no:randomly", "-p", "no:cacheprovider", *style]
    raw = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *args],
        cwd=suite.root,
        env=suite.env,
        capture_output=True,
        timeout=120,
    )
    done = run(suite, *args, *PLUGIN)
    assert (raw.returncode, done.returncode) == (1, 1)
    head, answer = parse(done.stdout)
    saved = raw_file(suite, head).read_bytes()
    varying = re.compile(
        rb" in \d+\.\d+s( \([0-9:]+\))?( =+)?\n$|pytest-\d+|0x[0-9a-f]+"
    )  # tmp dirs, ids
    assert varying.sub(b"", saved) == varying.sub(b"", raw.stdout)
    assert saved.count(b"said in teardown") == 3 and answer["failed"] == 11
    assert saved.count(b"made_module.py:2: ") == 4 and saved.count(b"# edited") == (
        4 if style else 7
    )
    absolute = (
        f"\n{suite.root / 'lib.py'}:6: ".encode()
    )  # from another cwd, pytest names files in full
    assert (
        b"gone_module.py:2: " in saved and saved.count(absolute) == 2 and b"\nlib.py:6: " in saved
    )
    assert f"pytest's output ({len(saved):,} B) compacted; exit code 1;" in head
    stored = suite.root / ".sidekit" / "pytest" / "statements.json"
    assert len(json.loads(stored.read_text())) == (
        5 if style else 6
    )  # files parsed (long: also a statement alone)
    again, _ = parse(run(suite, *args, *PLUGIN).stdout)  # neither parsed again: the same bytes
    assert varying.sub(b"", raw_file(suite, again).read_bytes()) == varying.sub(b"", raw.stdout)
