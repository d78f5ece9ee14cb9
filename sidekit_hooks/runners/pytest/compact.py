"""The compact answer for a raw pytest run: loaded by the recorder when `-o sidekit_compact=true` is
given (the PreToolUse rewrite in `runners.rewrite` appends it), or directly with
`-p sidekit_hooks.runners.pytest.compact`.

pytest runs exactly as asked; only its terminal output is held back: the terminal reporter writes
into `.sidekit/pytest/raw-*.txt`, named when the run starts and written as the output arrives. At
the end, output of SHORT bytes or less (a green run, one failure) is printed as it was. Otherwise
two lines are: what happened and where the raw output is, then the `sidekit test` answer for this
run (counts as pytest's last line gives them, exit code, root-cause clusters), within ANSWER_BUDGET
bytes.

The run is watched from outside (`runners.supervisor`): it goes on in a forked child with the signal
handlers and mask of the raw run, and the parent, which learns the real exit status, prints. So the
exit code stated is the process's own, and a run that dies before its end (`os._exit`, a signal, a
segfault, a timeout plugin's dump) is reported as not finished, with that code or signal and the
tail of what it printed. Never greener than the run: when the exit is not a plain pass/fail the
answer carries pytest's own last words, and counts crashed xdist workers. When anything here fails,
the raw output is printed instead. Collect-only, `-s`, `--pdb` and `--trace` runs, however spelled,
are left alone.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Generator
from typing import Any

import pytest

from sidekit_hooks.answers import render, shape
from sidekit_hooks.core import safepath
from sidekit_hooks.runners import supervisor
from sidekit_hooks.runners.pytest import frame_memo, statement_cache, teardown_index
from sidekit_hooks.runners.pytest.plugin import RECORDER
from sidekit_hooks.status import cache, record

SHORT = 2048  # bytes of raw output printed as they are
# characters of raw output held before they are written (pytest flushes after every test)
FLUSH_AT = 16384
# bytes of both lines together; the client adds "Exit code N\n", and the model gets <= 800
ANSWER_BUDGET = 780
EXIT_SLACK = 2  # the head is fitted before the real exit code is known: room for a longer one
TAIL = 600  # bytes of a run that did not finish, shown after the line saying so
KEEP = 10  # raw output files kept under .sidekit/pytest/
RAW_FOLDER = "pytest"
STATEMENTS = "statements.json"  # in RAW_FOLDER: statement lines of files parsed in earlier runs
STATE = pytest.StashKey[dict[str, Any]]()
COUNT_WORDS = {
    "passed": "passed",
    "failed": "failed",
    "error": "errors",
    "errors": "errors",
    "skipped": "skipped",
    "xfailed": "xfailed",
    "xpassed": "xpassed",
}


class RawFile:
    """The terminal writer's file: each write goes to the raw file at once while tests run, so what
    a run printed survives `os._exit` (pytest-timeout's stack dump, written from a watchdog thread
    just before it ends the process, is not flushed by pytest). Only the terminal summary, the long
    tracebacks a few words per write, is held in FLUSH_AT-character pieces instead of one system
    call per word (#23); pytest flushes it at its end."""

    encoding = "utf-8"
    errors = "replace"

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.size = 0  # bytes written so far (a flush counts what it writes)
        self.pending: list[str] = []
        self.pending_chars = 0
        self.held = False  # True during the terminal summary only (pytest_terminal_summary)

    def write(self, text: str) -> int:
        self.pending.append(text)
        self.pending_chars += len(text)
        if not self.held or self.pending_chars >= FLUSH_AT:
            self.flush()
        return len(text)

    def flush(self) -> None:
        if not self.pending:
            return
        data = "".join(self.pending).encode(
            "utf-8", "replace"
        )  # what encoding each piece gives, at once
        self.pending.clear()
        self.pending_chars = 0
        self.size += len(data)
        view = memoryview(data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]

    def isatty(self) -> bool:
        return False


@pytest.hookimpl(trylast=True)  # after the terminal reporter exists
def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not takes_over(
        config
    ):  # an xdist worker prints nothing of its own
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    writer = getattr(reporter, "_tw", None)
    if writer is None or not hasattr(writer, "_file"):  # an unknown pytest: leave its output alone
        return
    root = _root(config)
    path, fd = open_raw(root)
    state: dict[str, Any] = {
        "writer": writer,
        "original": writer._file,
        "started": time.time(),
        "path": path,
        "shown": shown_path(path),
        "raw": RawFile(fd),
    }
    config.stash[STATE] = state
    writer._file = state["raw"]
    # the same long tracebacks, each statement's extent found once, files unchanged since a run not
    # parsed (#23)
    statement_cache.install(os.path.join(os.path.dirname(path), STATEMENTS))
    frame_memo.install()  # and each frame's path, columns and source
    teardown_index.install(
        reporter
    )  # and each failure's teardown report found without a scan of all
    state["report"] = supervisor.fork_run(
        lambda code, signum, message: _finish(state, code, signum, message)
    )


def takes_over(config: pytest.Config) -> bool:
    """Whether the output is one to hold back: not a listing, not live output, not a debugger."""
    option = config.option
    capture = getattr(option, "capture", "fd")
    return not (
        getattr(option, "collectonly", False)
        or capture == "no"
        or getattr(option, "usepdb", False)
        or getattr(option, "trace", False)
        or getattr(option, "setuponly", False)
        or getattr(option, "setupplan", False)
        or getattr(option, "showfixtures", False)
        or getattr(option, "show_fixtures_per_test", False)
        or getattr(option, "markers", False)
    )


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_terminal_summary(config: pytest.Config) -> Generator[None, None, None]:
    """The summary's long output in pieces; written out when it ends, however it ends."""
    state = config.stash.get(STATE, None)
    raw = state["raw"] if state is not None else None
    if raw is not None:
        raw.held = True
    try:
        yield
    finally:
        if raw is not None:
            raw.held = False
            raw.flush()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport() -> None:
    frame_memo.forget_files()  # a test's code ran since the last report: files may be gone


@pytest.hookimpl(tryfirst=True)
def pytest_make_collect_report() -> None:
    frame_memo.forget_files()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(STATE, None)
    if state is not None:
        state["stopped"] = str(session.shouldstop or session.shouldfail or "")


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(STATE, None)
    if state is None or state.get("done"):
        return
    state["done"] = True
    state["writer"]._file = state["original"]
    raw_file: RawFile = state["raw"]
    for step in (raw_file.flush, lambda: os.close(raw_file.fd), statement_cache.save):
        try:
            step()
        except OSError:
            pass
    message: dict[str, Any] = {"kind": "raw"}
    try:
        if raw_file.size > SHORT:
            raw = read_text(state["path"])
            message = {"kind": "compact", "answer": answer(config, raw, state.get("stopped", ""))}
    except Exception:  # noqa: BLE001 - never less than the run said: fall back to its own words
        message = {"kind": "raw"}
    if state["report"] is not None:  # the watching parent prints, with the process's real exit code
        data = json.dumps(message).encode()
        os.write(state["report"], data[: supervisor.MESSAGE_LIMIT])
        os.close(state["report"])
        return
    recorded = _recorded_exit(config)
    _write(state["original"], finished_text(state, message, recorded, 0))


def _finish(state: dict[str, Any], code: int, signum: int, message: bytes | None) -> None:
    """In the watching parent, after the run ended: print what the model gets."""
    try:
        parsed = json.loads(message) if message else None
    except ValueError:
        parsed = None
    text = (
        finished_text(state, parsed, code, signum)
        if isinstance(parsed, dict)
        else unfinished(state, code, signum)
    )
    original = state["original"]
    try:
        fd = original.fileno()
    except (AttributeError, OSError, ValueError):
        fd = 1
    data = text.encode("utf-8", "replace")
    while data:
        data = data[os.write(fd, data) :]


def finished_text(state: dict[str, Any], message: dict[str, Any], code: int, signum: int) -> str:
    """The text for a run that finished: its raw output, or the two compact lines with its real exit
    code (a process killed after its session ended, e.g. a crash at interpreter exit, says so)."""
    if message.get("kind") != "compact":
        raw = read_text(state["path"])
        return raw + (
            f"sidekit: then the process was killed by {signal_name(signum)}\n" if signum else ""
        )
    size = os.stat(state["path"]).st_size
    fitted = dict(message["answer"])
    recorded = fitted.get("exit")
    code = 128 + signum if signum else code
    fitted["exit"] = code
    if signum:
        fitted["pytest"] = (
            f"the process was killed by {signal_name(signum)} after the session ended"
        )
    elif recorded != code and code not in (
        0,
        1,
    ):  # something after the session decided the exit: say what
        fitted["pytest"] = last_words(read_tail(state["path"], 8 * TAIL))
    text = head(size, code, state["shown"]) + render.dumps(fitted) + "\n"
    if len(text.encode()) > ANSWER_BUDGET:
        fitted.pop("clusters", None)
        text = head(size, code, state["shown"]) + render.dumps(fitted) + "\n"
    return text


def unfinished(state: dict[str, Any], code: int, signum: int) -> str:
    """A run that ended before its session did: how it ended, its exit code, the tail of what it
    printed."""
    seconds = time.time() - state["started"]
    if signum:
        how = f"was killed by {signal_name(signum)} (exit code {128 + signum})"
    else:
        how = f"exited with code {code}"
    line = (
        f"sidekit: pytest {how} after {seconds:.0f} s, before it finished; all of it: "
        f"{state['shown']}; "
        f"its last output:\n"
    )
    tail = read_tail(state["path"], TAIL)
    if os.stat(state["path"]).st_size > TAIL and "\n" in tail:
        tail = "..." + tail[tail.index("\n") + 1 :]
    return line + (tail or "(nothing)\n") + ("" if tail.endswith("\n") else "\n")


def signal_name(signum: int) -> str:
    import signal

    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def head(size: int, exit_code: int, shown: str) -> str:
    return (
        f"sidekit: pytest's output ({size:,} B) compacted; exit code {exit_code}; "
        f"all of it: {shown} (prefix the command with SIDEKIT_RAW=1 to see it raw)\n"
    )


def answer(config: pytest.Config, raw: str, stopped: str) -> dict[str, Any]:
    """The compact answer as data, fitted to the budget; its `exit` is the recorded one."""
    recorder = config.pluginmanager.get_plugin(RECORDER)
    written = getattr(recorder, "saved", None)
    exit_code = _exit_code(raw, written)
    size = len(raw.encode("utf-8", "replace"))
    first_line = head(size, exit_code, shown_path(_shown_of(config)))
    budget = ANSWER_BUDGET - len(first_line.encode("utf-8")) - 1 - EXIT_SLACK
    if written is None:  # the recorder did not write: say what pytest said last, nothing more
        return {
            "runner": "pytest",
            "exit": exit_code,
            "error": "test status not recorded",
            "pytest": last_words(raw),
        }
    summary, table = written
    run = summary.get("run") or {}
    found = record.run_clusters(summary, table)
    extra: dict[str, Any] = {
        "exit": exit_code,
        **(summary_counts(config) or shape.counts(run.get("counts") or {})),
        "state": "" if exit_code in (0, 1) else run.get("state", ""),
        "stopped": render.clip(stopped, 60),
        "notRun": max(0, int(run.get("selected", 0)) - int(run.get("ran", 0)))
        if stopped or run.get("interrupted")
        else 0,
        "crashedWorkers": raw.count(" node down:"),
        "warnings": _warnings(raw),
    }
    failing = sum(int(c.get("affected", 1)) for c in found)
    if exit_code not in (0, 1) or (exit_code and not failing) or extra["crashedWorkers"]:
        extra["pytest"] = last_words(raw)
    result = {"generation": summary.get("generation", 0), **shape.capability(summary), **extra}
    result["secs"] = round(float(run.get("finished", 0)) - float(run.get("started", 0)), 2)
    result["interrupted"] = bool(run.get("interrupted"))
    result["newFailures"] = sum(int(c.get("new", 0)) for c in found)
    return dict(shape.with_clusters(shape.drop_zeros(result), found, 0, failing, budget, 80))


def summary_counts(config: pytest.Config) -> dict[str, int]:
    """The counts of pytest's own last line (subtests count there as pytest counts them)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    try:
        # reporter may be None
        parts, _ = getattr(reporter, "build_summary_stats_line")()  # noqa: B009
    except Exception:  # noqa: BLE001 - an unknown pytest: keep the recorded counts
        return {}
    found: dict[str, int] = {}
    for text, _markup in parts:
        number, _, word = str(text).partition(" ")
        if number.isdigit() and word in COUNT_WORDS:
            found[COUNT_WORDS[word]] = int(number)
    return found


def last_words(raw: str) -> str:
    """pytest's own verdict: an INTERNALERROR line, else the last `E` line of an error, else its
    last line."""
    lines = [line.strip() for line in raw.splitlines() if line.strip()]
    internal = [line for line in lines if line.startswith("INTERNALERROR>")]
    if internal:
        return render.clip(internal[-1], 140)
    banners = [
        line.strip("! ") for line in lines if line.startswith("!!!")
    ]  # Interrupted: ..., stopping after ...
    final = lines[-1].strip("= ") if lines else ""
    return render.clip("; ".join(([banners[-1]] if banners else []) + [final]), 140)


def _warnings(raw: str) -> int:
    """The warning count of pytest's final line (the warnings summary itself stays in the raw
    file)."""
    import re

    tail = raw.rstrip().rpartition("\n")[2]
    found = re.search(r"(\d+) warnings?\b", tail)
    return int(found.group(1)) if found else 0


def _exit_code(raw: str, written: tuple[dict[str, Any], dict[str, Any]] | None) -> int:
    if written is not None:
        return int((written[0].get("run") or {}).get("exit", 0))
    return 3 if "INTERNALERROR>" in raw else 1  # unknown, and never claim a pass


def _recorded_exit(config: pytest.Config) -> int:
    written = getattr(config.pluginmanager.get_plugin(RECORDER), "saved", None)
    return int((written[0].get("run") or {}).get("exit", 1)) if written else 1


def _write(stream: Any, text: str) -> None:
    stream.write(text)
    stream.flush()


def open_raw(root: str) -> tuple[str, int]:
    """A new raw output file under `.sidekit/pytest/` (the newest KEEP stay), open for writing."""
    from sidekit_hooks.core import safepath

    folder = os.path.join(cache_dir(root), RAW_FOLDER)
    safepath.makedirs(folder, root)
    name = time.strftime("raw-%Y%m%d-%H%M%S", time.localtime()) + f"-{os.getpid()}.txt"
    path = os.path.join(folder, name)
    fd = safepath.open_append(path, root)
    os.set_blocking(fd, True)
    os.ftruncate(fd, 0)
    kept = sorted(
        entry for entry in os.listdir(folder) if entry.startswith("raw-") and entry.endswith(".txt")
    )
    for old in kept[:-KEEP]:
        if old != name:
            try:
                os.unlink(os.path.join(folder, old))
            except OSError:
                pass
    return path, fd


def read_text(path: str) -> str:
    """A run's saved output (its last MAX_OUTPUT bytes; never a link or a FIFO: OSError)."""
    return read_tail(path, safepath.MAX_OUTPUT)


def read_tail(path: str, size: int) -> str:
    """The last `size` bytes of a file, as text (a character cut at the start is replaced)."""
    return safepath.read_tail(path, size).decode("utf-8", "replace")


def shown_path(path: str) -> str:
    """How the answer names a file: relative to the working directory when inside it."""
    here = os.getcwd().rstrip(os.sep) + os.sep
    return path[len(here) :] if path.startswith(here) else path


def _shown_of(config: pytest.Config) -> str:
    state = config.stash.get(STATE, None)
    return str(state["path"]) if state else ""


def save_raw(root: str, raw: str) -> str:
    """Write `raw` as a new raw output file; returns how the answer names it."""
    path, fd = open_raw(root)
    try:
        saved = RawFile(fd)
        saved.write(raw)
        saved.flush()
    finally:
        os.close(fd)
    return shown_path(path)


def cache_dir(root: str) -> str:
    from sidekit_hooks.core import workspace

    return workspace.state_dir(root)


def _root(config: pytest.Config) -> str:
    recorder = config.pluginmanager.get_plugin(RECORDER)
    root = getattr(recorder, "root", "")
    return str(root) if root else cache.workspace_root(str(config.rootpath))
