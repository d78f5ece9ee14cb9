"""Shared fixtures: a throw-away project and a way to run the real hook entry points."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from sidekit_hooks.core import hook_table
from testing import interpreter, requires
from testing.hooks import HOOK_SCRIPTS, REPO, HookRunner  # noqa: E402,F401  (re-exported for fixtures)

# Property tests check behaviour, not speed (speed lives in bench/): hypothesis's 200 ms per-example
# deadline only turns a loaded machine into a failure.
hypothesis_settings.register_profile("sidekit", deadline=None)
hypothesis_settings.load_profile("sidekit")

# The full suite adds what drives real programs at a real pace: the Claude Code CLI (e2e), whole
# paced sessions on real projects, project environments and runners installed from the registries,
# and a headless browser. `pytest -q` runs the fast suite a developer runs before every commit;
# `pytest -q --full` runs everything; .ci/run runs both halves (`pytest -q`, then `--full -m slow`).
SLOW_FOLDERS = ("e2e", "sessions")
CHILD_PYTEST_ADDOPTS = "-p no:hypothesispytest -p no:anyio -p no:randomly"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="also run the slow tests (real CLI, sessions, registries)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """A suite started in the background by a non-interactive shell (`cmd &`, as scripts and agents
    run it) inherits SIGINT ignored, and so would every program the tests start: a test's ^C
    (os.kill with SIGINT) would not reach the pytest it runs. The tests start their programs with
    SIGINT as a terminal has it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    interpreter.put_first_on_path()
    # The pytest runs the tests start (raw runs through the hooks, `sidekit test`, a project's own
    # suite) load what a project's run needs (sidekit's plugin, xdist), not this suite's own tools:
    # hypothesis's plugin alone imports hypothesis, about half of a small run's CPU. This process
    # read its own options already; a value the developer set is kept.
    os.environ.setdefault("PYTEST_ADDOPTS", CHILD_PYTEST_ADDOPTS)


def pytest_unconfigure(config: pytest.Config) -> None:
    interpreter.remove_folders()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        relative = item.path.relative_to(here) if item.path.is_relative_to(here) else item.path
        if relative.parts and relative.parts[0] in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)
    if config.getoption("--full") or os.environ.get("SIDEKIT_FULL_SUITE") == "1":
        return
    fast = [item for item in items if item.get_closest_marker("slow") is None]
    if len(fast) != len(items):
        config.hook.pytest_deselected(
            items=[item for item in items if item.get_closest_marker("slow")]
        )
        items[:] = fast


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Under CI a test skips only for what no CI machine has (`testing.requires.not_run_here`): any
    other skip is a promised part of the suite that could not run, so it fails the run instead."""
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and requires.in_ci()) or hasattr(report, "wasxfail"):
        return
    reason = _skip_reason(report)
    if not reason.startswith(requires.NOT_RUN_PREFIX):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where every promised test must run: {reason}"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Every run ends by listing what it did not run and why (CI's output says it, not only a
    count), and the seed of its random order (pytest-randomly; -q hides the header that has it), so
    a failure replays."""
    config = terminalreporter.config
    if config.pluginmanager.hasplugin("randomly") and isinstance(
        getattr(config.option, "randomly_seed", None), int
    ):
        terminalreporter.write_line(
            f"random order: -p randomly --randomly-seed={config.option.randomly_seed} replays it"
        )
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if not hasattr(r, "wasxfail")]
    if not skipped:
        return
    terminalreporter.section(f"not run: {len(skipped)}")
    for report in skipped:
        terminalreporter.write_line(f"{report.nodeid}: {_skip_reason(report)}")


def _skip_reason(report: pytest.TestReport) -> str:
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return reason.removeprefix("Skipped: ")


# Signals whose "ignored" a started program inherits (a handler is reset at exec, SIG_IGN is not).
INHERITED_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)


@pytest.fixture(autouse=True)
def _no_signal_left_ignored() -> Iterator[None]:
    """A test that leaves one of these signals ignored in the suite's process (a hook run in-process
    as an async fallback ignores SIGTERM) would make every program later tests start ignore it too:
    the signal tests then fail in whatever order follows. Put back, and the test that did it errs."""
    before = {number: signal.getsignal(number) for number in INHERITED_SIGNALS}
    yield
    left = [
        signal.Signals(number).name
        for number, handler in before.items()
        if signal.getsignal(number) is signal.SIG_IGN and handler is not signal.SIG_IGN
    ]
    for number, handler in before.items():
        if handler is not None and signal.getsignal(number) is not handler:
            signal.signal(number, handler)
    assert not left, f"the test left {', '.join(left)} ignored in the suite's process"


@pytest.fixture(autouse=True)
def _no_hook_context() -> None:
    """A hook run in-process leaves its prompt/tool ids for the decisions it logs
    (hooklog.CONTEXT)."""
    from sidekit_hooks.core import hooklog

    hooklog.CONTEXT.clear()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project folder (not a git repo unless a test makes it one)."""
    root = tmp_path / "proj"
    root.mkdir()
    return root


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, sidekit_cache: Path) -> dict[str, str]:
    """The process environment without anything Gas Town or Claude Code would set."""
    for name in (
        "GT_TOWN_ROOT",
        "GT_ROOT",
        "TMUX_PANE",
        "GT_SESSION",
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_CODE_SESSION_ID",
        "SIDEKIT_DISABLE",
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_DATA",
        "SIDEKIT_JUDGE",
        "GC_CITY",
        "GC_CITY_PATH",
        "GC_CITY_ROOT",
        "GC_SESSION_ID",
        "GC_AGENT",
        "GC_ALIAS",
        "GC_CONTINUATION_EPOCH",
        "SIDEKIT_GC_DRAIN",
        "SIDEKIT_OTEL_ENDPOINT",
        "SIDEKIT_OTEL_HEADERS",
    ):
        monkeypatch.delenv(name, raising=False)
    return dict(os.environ)


@pytest.fixture(autouse=True)
def sidekit_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Background workers started by hooks (the function index) write their cache here, not to
    ~/.cache."""
    folder = tmp_path_factory.getbasetemp() / "sidekit-cache"
    monkeypatch.setenv("SIDEKIT_CACHE_DIR", str(folder))
    # Hook tests speak of one behaviour each, on payloads of a few bytes: the session's nudge budget
    # (nudges/spend.py, 5% of the tool-result bytes) is off unless a test names it
    # (tests/nudges/test_spend.py, and the session corpus, which measures it).
    monkeypatch.setenv("SIDEKIT_NUDGE_BUDGET", "off")
    # A hook's deadline is wall time, and this machine may be loaded (other suites, a CPU hog): a
    # test that asserts a finding gives its hooks the longest deadline a user may set, so the
    # finding does not hang on the load. A test whose subject is the deadline itself removes it
    # (tests/pipeline/test_hook.py, tests/pipeline/test_finish.py).
    monkeypatch.setenv(hook_table.DEADLINE_ENV, str(hook_table.MAX_DEADLINE))
    return folder


@pytest.fixture
def run_hook(project: Path, clean_env: dict[str, str]) -> HookRunner:
    """Run a real hook entry script in a subprocess, the way Claude Code's settings form does."""

    def run(
        event: str,
        payload: dict[str, Any] | str | bytes,
        *,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        timeout: float = 20,
    ) -> subprocess.CompletedProcess[str]:
        data = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
        full_env = dict(clean_env, CLAUDE_PROJECT_DIR=str(project), **(env or {}))
        raw = data.encode() if isinstance(data, str) else data
        done = subprocess.run(
            [sys.executable, "-S", str(HOOK_SCRIPTS[event])],
            input=raw,
            capture_output=True,
            env=full_env,
            cwd=str(cwd or project),
            timeout=timeout,
        )
        return subprocess.CompletedProcess(
            done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
        )

    return run


@pytest.fixture
def user_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private user rule folder (`$XDG_CONFIG_HOME/sidekit/rules`), so no real ~/.config leaks
    in."""
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    return config / "sidekit" / "rules"


@pytest.fixture(scope="session", autouse=True)
def no_workspace_above_the_tests(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests' projects live under the base temp folder and most have no `.git`: a run there
    keeps its cache in the nearest folder upwards that has `.sidekit/` or `.git`
    (status.cache.workspace_root), as a run in a repository's subfolder does. A `.sidekit/` left
    in /tmp (a pytest run with sidekit's plugin in /tmp makes one) would take every such cache, and
    dozens of tests would fail far from the cause: stop before any test runs, naming it."""
    from sidekit_hooks.core.workspace import STATE_DIR

    folder = tmp_path_factory.getbasetemp().parent
    while folder.parent != folder:
        for marker in (STATE_DIR, ".git"):
            if (folder / marker).exists():
                pytest.exit(
                    f"{folder / marker} would hold the cache of the tests' projects: remove it "
                    f"(rm -rf {folder / marker}), then run the tests again",
                    returncode=4,
                )
        folder = folder.parent


@pytest.fixture(scope="session", autouse=True)
def plugins_rewritten_once(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests start pytest about 200 times. pytest rewrites the asserts of every module of an
    installed plugin's distribution (all of hypothesis, anyio, the sidekit modules its plugin
    imports...) and caches that in `__pycache__`, unless bytecode writing is off
    (PYTHONDONTWRITEBYTECODE, as some shells and containers set it): then each of those runs
    rewrites them again, 0.8 CPU s of a 1.2 s start. One small red run without the variable leaves
    the cache the others read (pytest reads it even when it may not write it), as on a machine
    without the variable. Only this run writes: the tests' own projects keep the setting, so a file
    a test edits within a second is never run from stale bytecode."""
    tail = f".{sys.implementation.cache_tag}-pytest-{pytest.__version__}.pyc"
    if not sys.dont_write_bytecode or all(
        (origin.parent / "__pycache__" / f"{origin.stem}{tail}").is_file()
        for origin in _plugin_files()
    ):
        return
    folder = tmp_path_factory.mktemp("plugins-rewritten")
    (folder / "pytest.ini").write_text("[pytest]\n")
    (folder / "test_warm.py").write_text(
        "def test_passes():\n    pass\n\n\ndef test_fails():\n    assert 1 == 2\n"
    )
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTHONDONTWRITEBYTECODE", "PYTEST_"))
    }
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        env=env,
        cwd=folder,
        timeout=120,
    )


def _plugin_files() -> list[Path]:
    import importlib.metadata
    import importlib.util

    found = []
    for entry in importlib.metadata.entry_points(group="pytest11"):
        spec = importlib.util.find_spec(entry.module)
        if spec is not None and spec.origin is not None:
            found.append(Path(spec.origin))
    return found


@pytest.fixture(scope="session", autouse=True)
def no_worker_outlives_the_tests(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Every sidekit process the tests started (hooks' background workers included) has ended by the
    end.

    Workers are detached (own session), so they are found by what ties them to this run: their
    working folder or a path in their environment under this run's base temp folder. A straggler is
    given a grace period, then killed and reported as an error of the last test.
    """
    import time

    base = str(tmp_path_factory.getbasetemp())
    yield
    deadline = time.monotonic() + WORKER_GRACE
    while _sidekit_processes(base) and time.monotonic() < deadline:
        time.sleep(0.25)
    left = _sidekit_processes(base)
    for line in left:
        try:
            os.kill(int(line.split(":", 1)[0]), 9)
        except OSError:
            pass
    assert left == [], f"sidekit processes outlived the tests (killed now): {left}"


WORKER_GRACE = 30.0  # seconds for workers started by the last tests to finish their work


def _sidekit_processes(base: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        if int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode(errors="replace")
            if "sidekit_hooks" not in cmdline:
                continue
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environ = handle.read().decode(errors="replace")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except (OSError, IndexError):
            continue
        if cwd.startswith(base) or base in environ:
            found.append(f"{pid}: {cmdline.strip()[:200]}")
    return found
