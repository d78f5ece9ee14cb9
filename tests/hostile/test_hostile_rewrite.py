"""The raw-pytest rewrite is as safe as the raw command (#19 items 3 and 4).

Each case drives the real entry points from outside: the PreToolUse hook script (as Claude Code runs
it, sometimes under a stand-in `claude` process whose arguments carry permission rules), and pytest
runs with the option the hook appends. `SIDEKIT_HOSTILE_ROOT=/path/to/checkout` points both at an
older tree (pytest then imports sidekit from there), which is how each case was shown to fail
before.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from testing.hostile import ROOT, env_for
from testing.stand_in import pre_tool_use, rewritten

APPENDED = " -o sidekit_compact=true"
PYTHON = (
    sys.executable
)  # sidekit's own environment: records without wiring, so its runs are rewritten
LONG_RED = "".join(f"\ndef test_red_{i}():\n    assert {i} < 0, 'x' * 200\n" for i in range(12))


@pytest.fixture
def proj(project: Path) -> Path:
    (project / "tests" / "integration").mkdir(parents=True)
    return project


def test_control_a_plain_run_is_rewritten(proj: Path) -> None:
    command = f"{PYTHON} -m pytest -q tests/integration"
    assert rewritten(pre_tool_use(proj, command)) == command + APPENDED


# -- 3. the rewrite never changes a verdict
# ---------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "rule"),
    [
        ("deny", "Bash(* tests/integration)"),  # a wildcard that does not name pytest
        ("ask", "Bash(*-q tests/integration)"),
        ("allow", "Bash(* tests/integration)"),
    ],
)
def test_a_settings_wildcard_rule_keeps_the_command_as_written(
    proj: Path, kind: str, rule: str
) -> None:
    (proj / ".claude").mkdir()
    (proj / ".claude" / "settings.json").write_text(json.dumps({"permissions": {kind: [rule]}}))
    assert rewritten(pre_tool_use(proj, f"{PYTHON} -m pytest -q tests/integration")) == ""


def test_a_user_settings_rule_counts_too(proj: Path) -> None:
    home = proj.parent / "home" / ".claude"
    home.mkdir(parents=True)
    (home / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(* tests/integration)"]}})
    )
    assert rewritten(pre_tool_use(proj, f"{PYTHON} -m pytest -q tests/integration")) == ""


@pytest.mark.parametrize("with_pid", [True, False])
@pytest.mark.parametrize(
    "flag", ["--disallowedTools", "--allowedTools", "--allowed-tools", "--disallowed-tools"]
)
def test_rules_the_client_was_started_with_count(proj: Path, flag: str, with_pid: bool) -> None:
    command = f"{PYTHON} -m pytest -q"
    assert (
        rewritten(
            pre_tool_use(proj, command, [flag, f"Bash({command})", "Read"], with_pid=with_pid)
        )
        == ""
    )
    assert (
        rewritten(pre_tool_use(proj, command, [f"{flag}=Bash({command}),Read"], with_pid=with_pid))
        == ""
    )
    # A prefix rule judges both alike: the rewrite goes on under it.
    prefix = [flag, f"Bash({PYTHON} -m pytest:*)"]
    assert rewritten(pre_tool_use(proj, command, prefix, with_pid=with_pid)) == command + APPENDED


def test_an_unreadable_source_of_rules_leaves_it_alone(proj: Path) -> None:
    (proj / ".claude").mkdir()
    (proj / ".claude" / "settings.local.json").write_text(
        '{"permissions": {"allow": ["Bash(git status)"'
    )
    assert rewritten(pre_tool_use(proj, f"{PYTHON} -m pytest -q")) == ""


def test_an_outside_permission_prompt_tool_leaves_it_alone(proj: Path) -> None:
    command = f"{PYTHON} -m pytest -q"
    assert (
        rewritten(pre_tool_use(proj, command, ["--permission-prompt-tool", "mcp__perm__ask"])) == ""
    )


# -- 4. the rewrite never changes the run: what the hook leaves alone or keeps
# ---------------------------


@pytest.mark.parametrize("tail", ["\r", "\v", "\f", "\u00a0", "\u2028", " x\u00a0"])
def test_arguments_are_kept_byte_for_byte(proj: Path, tail: str) -> None:
    command = f"{PYTHON} -m pytest -q tests{tail}"
    assert rewritten(pre_tool_use(proj, command)) == command + APPENDED


@pytest.mark.parametrize("spelling", ["--collect-only", "--collectonly", "--co"])
def test_every_spelling_of_collect_only_is_left_alone(proj: Path, spelling: str) -> None:
    assert rewritten(pre_tool_use(proj, f"{PYTHON} -m pytest -q {spelling}")) == ""


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pytest.ini", "[pytest]\naddopts = -p no:sidekit --strict-config\n"),
        ("pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-pno:sidekit"\n'),
        ("setup.cfg", "[tool:pytest]\naddopts = -p no:sidekit\n"),
        ("tox.ini", "[pytest]\naddopts = -p no:sidekit\n"),
    ],
)
def test_no_rewrite_where_an_ini_file_turns_the_plugin_off(
    proj: Path, name: str, text: str
) -> None:
    (proj / name).write_text(text)
    assert rewritten(pre_tool_use(proj, f"{PYTHON} -m pytest -q")) == ""


@pytest.mark.parametrize(
    "env", [{"PYTEST_ADDOPTS": "-p no:sidekit"}, {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}]
)
def test_no_rewrite_where_the_environment_turns_the_plugin_off(
    proj: Path, env: dict[str, str]
) -> None:
    assert rewritten(pre_tool_use(proj, f"{PYTHON} -m pytest -q", env=env)) == ""


def test_autoload_off_but_the_plugin_named_is_rewritten(proj: Path) -> None:
    command = f"{PYTHON} -m pytest -q -p sidekit"
    assert (
        rewritten(pre_tool_use(proj, command, env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}))
        == command + APPENDED
    )


# -- 4. the rewrite never changes the run: the compacted run itself
# -----------------------------------


def pytest_env(project: Path) -> dict[str, str]:
    env: dict[str, str] = dict(env_for(project))
    env["PYTHONPATH"] = str(ROOT)  # the tree under test, also inside pytest
    for name in ("PYTEST_ADDOPTS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTEST_PLUGINS"):
        env.pop(name, None)
    # sidekit's plugin loads as in a user's run; this suite's own tools stay out (hypothesis's plugin
    # alone is about half of a small run's CPU, and these cases start 17 runs).
    env["PYTEST_ADDOPTS"] = "-p no:hypothesispytest -p no:anyio"
    return env


def compacted(project: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:randomly", *args, "-o", "sidekit_compact=true"],
        cwd=project,
        env=pytest_env(project),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def write(project: Path, name: str, text: str, tail: str = "") -> None:
    (project / name).parent.mkdir(parents=True, exist_ok=True)
    (project / name).write_text(textwrap.dedent(text) + tail)


def test_forked_children_of_a_test_see_the_signal_handlers_of_the_raw_run(project: Path) -> None:
    write(
        project,
        "test_fork.py",
        """
        import multiprocessing, os, signal

        def probe(queue):
            queue.put(str(signal.getsignal(signal.SIGTERM)))

        def test_child_handlers():
            context = multiprocessing.get_context("fork")
            queue = context.Queue()
            child = context.Process(target=probe, args=(queue,))
            child.start()
            seen = queue.get(timeout=30)
            child.join()
            assert seen == str(signal.SIG_DFL)
            assert str(signal.getsignal(signal.SIGTERM)) == str(signal.SIG_DFL)
    """,
        LONG_RED,
    )
    done = compacted(project)
    assert done.returncode == 1
    answer = json.loads(done.stdout.splitlines()[1])
    assert (answer["passed"], answer["failed"]) == (1, 12), done.stdout


def test_a_pool_terminated_by_code_under_test_never_hangs(project: Path) -> None:
    write(
        project,
        "test_pool.py",
        """
        import multiprocessing, time

        def work(n):
            time.sleep(0.01 * (n % 3))
            return n

        def test_pool():
            for _ in range(5):
                pool = multiprocessing.get_context("fork").Pool(4)
                pool.map_async(work, range(40))
                time.sleep(0.05)
                pool.terminate()
                pool.join()
    """,
        LONG_RED,
    )
    for _ in range(3):
        done = compacted(project, timeout=60)
        assert done.returncode == 1 and '"passed":1' in done.stdout, done.stdout


def test_the_raw_file_is_named_up_front_and_streamed(project: Path) -> None:
    # test_slow holds the run until the check is done (at most 60 s), however long a busy machine
    # takes to get there
    released = project / "released"
    write(
        project,
        "test_slow.py",
        "import os, time\n\ndef test_fast():\n    pass\n\ndef test_slow():\n    end = time.time() "
        "+ 60\n"
        f"    while not os.path.exists({str(released)!r}) and time.time() < end:\n        "
        "time.sleep(0.05)\n",
    )
    child = subprocess.Popen(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:randomly", "-o", "sidekit_compact=true"],
        cwd=project,
        env=pytest_env(project),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.time() + 50
        seen = b""
        while time.time() < deadline and not seen.startswith(b".") and child.poll() is None:
            time.sleep(0.2)
            files = sorted((project / ".sidekit" / "pytest").glob("raw-*.txt"))
            seen = files[-1].read_bytes() if files else b""
        assert seen.startswith(b"."), (
            "the raw file holds the first test's dot while the run goes on"
        )
        assert child.poll() is None, "the run was still going (test_slow waits to be released)"
    finally:
        released.touch()
        child.kill()
        child.communicate(timeout=30)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (
            "import os\n\ndef test_a():\n    pass\n\ndef test_b():\n    print('x')\n    "
            "os._exit(0)\n",
            0,
        ),
        ("import os\n\ndef test_a():\n    pass\n\ndef test_b():\n    os._exit(3)\n", 3),
        (
            "import ctypes\n\ndef test_a():\n    pass\n\ndef test_b():\n    ctypes.string_at(0)\n",
            -signal.SIGSEGV,
        ),
        (
            "import os, signal\n\ndef test_a():\n    pass\n\ndef test_b():\n    "
            "os.kill(os.getpid(), signal.SIGKILL)\n",
            -signal.SIGKILL,
        ),
    ],
)
def test_a_run_that_dies_is_reported_as_not_finished_with_its_real_exit(
    project: Path, body: str, code: int
) -> None:
    write(project, "test_dies.py", body)
    raw = subprocess.run(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:faulthandler"],
        cwd=project,
        env=pytest_env(project),
        capture_output=True,
        text=True,
        timeout=60,
    )
    done = compacted(project, "-p", "no:faulthandler")
    assert raw.returncode == code and done.returncode == code
    assert re.match(
        r"sidekit: pytest (exited with code \d+|was killed by SIG\w+ \(exit code \d+\)) after \d+ "
        r"s, "
        r"before it finished; all of it: \.sidekit/pytest/raw-\S+\.txt; its last output:\n",
        done.stdout,
    )
    assert done.stdout.splitlines()[1].startswith("test_dies.py .") or done.stdout.splitlines()[
        1
    ].startswith(".")
    how = f"exited with code {code}" if code >= 0 else f"killed by {signal.Signals(-code).name}"
    assert how in done.stdout


def test_a_timeout_dump_is_shown_not_swallowed(project: Path) -> None:
    # What pytest-timeout's thread method does: dump the stacks through the terminal writer, then
    # os._exit(1).
    write(
        project,
        "conftest.py",
        """
        import os, threading, time

        import pytest

        @pytest.fixture(autouse=True)
        def watchdog(request):
            def fire():
                time.sleep(1)
                writer = request.config.get_terminal_writer()
                writer.sep("+", "Timeout")
                for n in range(60):
                    writer.line(f"  File 'stack.py', line {n}, in frame_{n}")
                writer.sep("+", "Timeout")
                os._exit(1)
            threading.Thread(target=fire, daemon=True).start()
            yield
    """,
    )
    write(project, "test_hang.py", "import time\n\ndef test_hang():\n    time.sleep(30)\n")
    done = compacted(project)
    assert done.returncode == 1
    assert (
        "exited with code 1" in done.stdout
        and "+ Timeout +" in done.stdout
        and "frame_59" in done.stdout
    )


def test_subtests_are_counted_as_pytest_counts_them(project: Path) -> None:
    write(
        project,
        "test_sub.py",
        """
        def test_sub(subtests):
            for i in range(4):
                with subtests.test(i=i):
                    assert i < 0, "x" * 300

        def test_ok():
            pass
    """,
    )
    raw = subprocess.run(
        [PYTHON, "-m", "pytest", "-q", "-p", "no:randomly"],
        cwd=project,
        env=pytest_env(project),
        capture_output=True,
        text=True,
        timeout=60,
    )
    done = compacted(project)
    assert raw.stdout.rstrip().splitlines()[-1].startswith("5 failed, 1 passed")
    answer = json.loads(done.stdout.splitlines()[1])
    assert (answer["failed"], answer["passed"]) == (5, 1)


def test_the_answer_states_the_process_exit_code(project: Path) -> None:
    write(
        project,
        "conftest.py",
        """
        import pytest

        @pytest.hookimpl(trylast=True)
        def pytest_sessionfinish(session, exitstatus):
            session.exitstatus = 4  # after sidekit's recorder has written exit 1
    """,
    )
    write(project, "test_red.py", LONG_RED)
    done = compacted(project)
    assert done.returncode == 4
    head, line = done.stdout.splitlines()
    assert "exit code 4;" in head and json.loads(line)["exit"] == 4
