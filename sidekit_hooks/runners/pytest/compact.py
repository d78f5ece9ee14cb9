"""The compact answer for a raw pytest run: loaded by the recorder when `-o sidekit_compact=true` is
given (the PreToolUse rewrite in `status.rewrite` appends it), or directly with `-p sidekit_hooks.runners.pytest.compact`.

pytest runs exactly as asked; only its terminal output is held back: the terminal reporter writes
into memory, and at the end the whole text goes to `.sidekit/pytest/raw-*.txt`. If it is short
(<= SHORT bytes: a green run, one failure) it is printed as it was. Otherwise two lines are: what
happened and where the raw output is, then the `sidekit test` answer for this run (counts, exit
code, root-cause clusters), within ANSWER_BUDGET bytes in all. The exit code is pytest's own.

Never greener than the run: the exit code is stated, and when it is not a plain pass/fail the answer
carries pytest's own last words (internal error, usage error, interruption, `-x` stop, no tests),
and counts crashed xdist workers. A run killed with SIGTERM (a timeout from outside) prints one line
saying so and where its partial output is. When anything here fails, the raw output is printed instead.
"""

from __future__ import annotations

import io
import os
import time
from typing import Any

import pytest

from sidekit_hooks.answers import render, shape
from sidekit_hooks.status import cache, record
from sidekit_hooks.runners.pytest.plugin import RECORDER

SHORT = 2048  # bytes of raw output printed as they are
ANSWER_BUDGET = 780  # bytes of both lines together; the client adds "Exit code N\n", and the model gets <= 800
KEEP = 10  # raw output files kept under .sidekit/pytest/
RAW_FOLDER = "pytest"
STATE = pytest.StashKey[dict[str, Any]]()


@pytest.hookimpl(trylast=True)  # after the terminal reporter exists
def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker prints nothing of its own
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    writer = getattr(reporter, "_tw", None)
    if writer is None or not hasattr(writer, "_file"):  # an unknown pytest: leave its output alone
        return
    state = {"writer": writer, "original": writer._file, "spool": io.StringIO(), "started": time.time()}
    config.stash[STATE] = state
    writer._file = state["spool"]
    _on_terminate(config, state)


def _on_terminate(config: pytest.Config, state: dict[str, Any]) -> None:
    """A run killed from outside (the Bash tool's timeout sends SIGTERM) still says what it saw."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
        return
    try:  # the terminal itself: while a test runs, pytest's capture holds fd 1
        terminal = os.dup(state["original"].fileno())
    except (OSError, ValueError, AttributeError):
        return

    pid = os.getpid()

    def stopped(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if os.getpid() != pid:  # a forked child of a test (multiprocessing): it dies as it would have
            os.kill(os.getpid(), signal.SIGTERM)
            return
        try:
            raw = _release(state)
            saved = save_raw(_root(config), raw)
            note = (f"sidekit: pytest was stopped by SIGTERM after {time.time() - state['started']:.0f} s, before it "
                    f"finished; what it printed: {saved}; its last line: {last_words(raw)}\n")
            os.write(terminal, note.encode("utf-8", "replace"))
        finally:
            os.kill(os.getpid(), signal.SIGTERM)

    state["terminal"] = terminal
    state["handler"] = stopped
    signal.signal(signal.SIGTERM, stopped)


def _release(state: dict[str, Any]) -> str:
    """Give the terminal back to pytest's writer; returns what was held."""
    state["writer"]._file = state["original"]
    state["done"] = True
    return str(state["spool"].getvalue())


def _forget_terminate(state: dict[str, Any]) -> None:
    import signal

    if "handler" in state and signal.getsignal(signal.SIGTERM) is state["handler"]:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if "terminal" in state:
        os.close(state.pop("terminal"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(STATE, None)
    if state is not None:
        state["stopped"] = str(session.shouldstop or session.shouldfail or "")


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(STATE, None)
    if state is None or state.get("done"):
        return
    original = state["original"]
    raw = _release(state)
    _forget_terminate(state)
    try:
        root = _root(config)
        saved = save_raw(root, raw)
        if len(raw.encode("utf-8", "replace")) <= SHORT:
            text = raw
        else:
            text = compact(config, raw, saved, state.get("stopped", ""))
    except Exception:  # noqa: BLE001 - never less than the run said: fall back to its own words
        text = raw
    original.write(text)
    original.flush()


def compact(config: pytest.Config, raw: str, saved: str, stopped: str) -> str:
    recorder = config.pluginmanager.get_plugin(RECORDER)
    written = getattr(recorder, "saved", None)
    exit_code = _exit_code(raw, written)
    head = (f"sidekit: pytest's output ({len(raw.encode('utf-8', 'replace')):,} B) compacted; exit code {exit_code}; "
            f"all of it: {saved} (prefix the command with SIDEKIT_RAW=1 to see it raw)\n")
    budget = ANSWER_BUDGET - len(head.encode("utf-8")) - 1
    if written is None:  # the recorder did not write: say what pytest said last, nothing more
        answer = {"runner": "pytest", "exit": exit_code, "error": "test status not recorded", "pytest": last_words(raw)}
        return head + render.dumps(answer) + "\n"
    summary, table = written
    run = summary.get("run") or {}
    found = record.run_clusters(summary, table)
    extra: dict[str, Any] = {
        "exit": exit_code,
        **shape.counts(run.get("counts") or {}),
        "state": "" if exit_code in (0, 1) else run.get("state", ""),
        "stopped": render.clip(stopped, 60),
        "notRun": max(0, int(run.get("selected", 0)) - int(run.get("ran", 0))) if stopped or run.get("interrupted") else 0,
        "crashedWorkers": raw.count(" node down:"),
        "warnings": _warnings(raw),
    }
    failing = sum(int(c.get("affected", 1)) for c in found)
    if exit_code not in (0, 1) or (exit_code and not failing) or extra["crashedWorkers"]:
        extra["pytest"] = last_words(raw)
    answer = {"generation": summary.get("generation", 0), **shape.capability(summary), **extra}
    answer["secs"] = round(float(run.get("finished", 0)) - float(run.get("started", 0)), 2)
    answer["interrupted"] = bool(run.get("interrupted"))
    answer["newFailures"] = sum(int(c.get("new", 0)) for c in found)
    fitted = shape.with_clusters(shape.drop_zeros(answer), found, 0, failing, budget, 80)
    return head + render.dumps(fitted) + "\n"


def last_words(raw: str) -> str:
    """pytest's own verdict: an INTERNALERROR line, else the last `E` line of an error, else its last line."""
    lines = [line.strip() for line in raw.splitlines() if line.strip()]
    internal = [line for line in lines if line.startswith("INTERNALERROR>")]
    if internal:
        return render.clip(internal[-1], 140)
    banners = [line.strip("! ") for line in lines if line.startswith("!!!")]  # Interrupted: ..., stopping after ...
    final = lines[-1].strip("= ") if lines else ""
    return render.clip("; ".join(([banners[-1]] if banners else []) + [final]), 140)


def _warnings(raw: str) -> int:
    """The warning count of pytest's final line (the warnings summary itself stays in the raw file)."""
    import re

    tail = raw.rstrip().rpartition("\n")[2]
    found = re.search(r"(\d+) warnings?\b", tail)
    return int(found.group(1)) if found else 0


def _exit_code(raw: str, written: tuple[dict[str, Any], dict[str, Any]] | None) -> int:
    if written is not None:
        return int((written[0].get("run") or {}).get("exit", 0))
    return 3 if "INTERNALERROR>" in raw else 1  # unknown, and never claim a pass


def save_raw(root: str, raw: str) -> str:
    """Write the raw output under `.sidekit/pytest/` (the newest KEEP files stay); returns how to name it."""
    folder = os.path.join(cache_dir(root), RAW_FOLDER)
    name = time.strftime("raw-%Y%m%d-%H%M%S", time.localtime()) + f"-{os.getpid()}.txt"
    path = os.path.join(folder, name)
    from sidekit_hooks.core import workspace

    workspace.atomic_write(path, raw)
    kept = sorted(entry for entry in os.listdir(folder) if entry.startswith("raw-") and entry.endswith(".txt"))
    for old in kept[:-KEEP]:
        try:
            os.unlink(os.path.join(folder, old))
        except OSError:
            pass
    here = os.getcwd().rstrip(os.sep) + os.sep
    return path[len(here):] if path.startswith(here) else path


def cache_dir(root: str) -> str:
    from sidekit_hooks.core import workspace

    return workspace.state_dir(root)


def _root(config: pytest.Config) -> str:
    recorder = config.pluginmanager.get_plugin(RECORDER)
    root = getattr(recorder, "root", "")
    return str(root) if root else cache.workspace_root(str(config.rootpath))
