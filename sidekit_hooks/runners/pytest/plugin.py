"""The `sidekit` pytest plugin (`pytest11` entry point): record every run into `.sidekit/`.

It loads in every pytest run of the environment, so this module imports only what pytest already
has loaded; merging, clustering and writing happen once, at session end, in `record`. It never
prints, never changes pytest's options or output; `-p no:sidekit` turns it off. Under xdist the
workers describe their failures on the reports and only the controller writes.
"""

from __future__ import annotations

import os
import time

import pytest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from _pytest._code.code import ExceptionInfo

    from sidekit_hooks.status import record
    from sidekit_hooks.status.vocabulary import Summary, Table

RECORDER = "sidekit-recorder"
COMPACT_PLUGIN = "sidekit_hooks.runners.pytest.compact"  # loaded with -p by the PreToolUse rewrite
MESSAGE_CHARS = 300  # first line of an exception message, as stored
MENTION_TEXT = 4000  # how much of an assertion's text is searched for a reported exception
MAX_FRAMES = 10
SYNTAX_ERRORS = (
    "SyntaxError",
    "IndentationError",
    "TabError",
)  # placed at the file that does not compile
# Path parts that mean "not the project's own code" even inside the project folder.
FOREIGN = ("/site-packages/", "/dist-packages/", "/.venv/", "/.tox/", "/.nox/", "/venv/")
# pytest's outcome words, ranked: a test's outcome is its worst phase.
from sidekit_hooks.core import workspace
from sidekit_hooks.status.clip import clip
from sidekit_hooks.status.vocabulary import OUTCOME_RANK as RANK

COMPACT_INI = "sidekit_compact"  # `-o sidekit_compact=true`: what the PreToolUse rewrite appends


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        COMPACT_INI,
        "print sidekit's compact answer instead of long output (set by sidekit's "
        "PreToolUse hook for an agent's raw pytest run)",
        type="bool",
        default=False,
    )


@pytest.hookimpl(
    trylast=True
)  # after the terminal reporter exists: the compact plugin takes over its output
def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.get_plugin(RECORDER) is None:  # once, even if loaded under two names
        config.pluginmanager.register(Recorder(config), RECORDER)
    try:
        wanted = bool(config.getini(COMPACT_INI))
    except ValueError:  # registered by another copy of this plugin under another name: same answer
        wanted = False
    if wanted and not config.pluginmanager.has_plugin(COMPACT_PLUGIN):
        # By name, as `-p` would: the answer's shape lives with the CLI, a floor above this one.
        config.pluginmanager.import_plugin(COMPACT_PLUGIN)


class Recorder:
    """Collects outcomes per test and phase; writes the cache at session end (controller only)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.worker = hasattr(config, "workerinput")
        self.started = time.time()
        self.rootdir = str(config.rootpath)
        self._root = ""
        self.tests: dict[str, dict[str, Any]] = {}
        self.collect_errors: dict[str, dict[str, Any]] = {}
        self.selected: list[str] | None = None
        self.deselected: list[str] = []
        self.interrupted = False
        self._compare: dict[str, str] | None = None
        self.saved: tuple[Summary, Table] | None = None  # (summary, table) once written

    @property
    def root(self) -> str:
        """The workspace whose `.sidekit/` gets the cache; found on first need (most runs: at the
        end)."""
        if not self._root:
            self._root = _workspace_root(self.rootdir)
        return self._root

    # -- capture (workers and single-process runs) ------------------------------------------
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        report = yield
        compare, self._compare = self._compare, None
        if report.failed and call.excinfo is not None:
            try:
                report.sidekit = describe(call.excinfo, self.root, compare)
            except Exception:  # noqa: BLE001 - describing a failure must never change the run
                pass
        return report

    def pytest_assertrepr_compare(
        self, config: pytest.Config, op: str, left: object, right: object
    ) -> None:
        """Keep the compared values of a failing assert; answer None so pytest's text is
        unchanged."""
        try:
            from _pytest._io.saferepr import saferepr

            self._compare = {
                "op": op,
                "left": saferepr(left, maxsize=160),
                "right": saferepr(right, maxsize=160),
            }
        except Exception:  # noqa: BLE001
            self._compare = None

    # -- outcomes (controller and single-process runs) --------------------------------------
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.worker or str(report.outcome) == "rerun":  # pytest-rerunfailures' extra outcome
            return
        entry = self.tests.setdefault(report.nodeid, {"d": 0.0})
        entry["d"] += report.duration
        outcome = phase_outcome(report)
        if outcome is None or RANK[outcome] < RANK.get(entry.get("o", ""), -1):
            return
        entry["o"] = outcome
        if report.failed and "p" not in entry:
            entry["p"] = report.when
            found = getattr(report, "sidekit", None)
            entry["f"] = (
                found if isinstance(found, dict) else from_text(report.longreprtext, self.root)
            )

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if self.worker or not report.failed:
            return
        failure = from_text(str(report.longrepr), self.root)
        failure.setdefault("at", report.nodeid.split("::")[0] or ".")
        self.collect_errors[report.nodeid.split("::")[0] or "."] = failure

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not self.worker:
            self.selected = [item.nodeid for item in session.items]

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        self.deselected.extend(item.nodeid for item in items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        if self.selected is None:
            self.selected = list(ids)

    def pytest_keyboard_interrupt(self, excinfo: ExceptionInfo[BaseException]) -> None:
        # pytest stops for collection errors and -x with KeyboardInterrupt subclasses; only ^C
        # counts
        self.interrupted = excinfo.type is KeyboardInterrupt

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.worker:
            return
        try:
            from sidekit_hooks.runners.pytest import exercised

            exercised.place(self.tests, self.root)
        except Exception:  # noqa: BLE001 - a source it cannot read leaves the failures where they are
            pass
        try:
            from sidekit_hooks.status import record

            self.saved = record.save(self.capture(), int(exitstatus))
        except Exception as exc:  # noqa: BLE001 - the user's run goes on; say why the cache is old
            import warnings

            warnings.warn(
                pytest.PytestWarning(
                    f"sidekit: test status not recorded in .sidekit/ ({type(exc).__name__}: {exc})"
                ),
                stacklevel=1,
            )

    # -- what the run was -------------------------------------------------------------------
    def capture(self) -> record.Capture:
        """Everything `record.save` needs, as plain data (the recorder module never sees the
        plugin)."""
        from sidekit_hooks.status import record

        return record.Capture(
            root=self.root,
            rootdir=self.rootdir,
            started=self.started,
            tests=self.tests,
            collect_errors=self.collect_errors,
            selected=self.selected,
            deselected=self.deselected,
            whole_files=self.whole_files(),
            interrupted=self.interrupted,
            args=self.args(),
            plugins=self.plugins(),
            compact=self.config.pluginmanager.has_plugin(COMPACT_PLUGIN),
        )

    def plugins(self) -> list[str]:
        names = set()
        for _, dist in self.config.pluginmanager.list_plugin_distinfo():
            name = str(getattr(dist, "project_name", None) or "").lower().replace("_", "-")
            if name and name not in ("pytest", "sidekit-hooks", "sidekit-pytest-recorder"):
                names.add(name.removeprefix("pytest-"))
        return sorted(names)

    def whole_files(self) -> bool:
        """Whether every test of each file this run collected was collected or deselected here.

        Not so when node ids were named (the file's other tests were never collected), or under
        xdist with -k/-m (the controller does not see what the workers deselected).
        """
        if any("::" in arg for arg in self.args()):
            return False
        option = vars(self.config.option)
        distributed = self.config.pluginmanager.has_plugin("dsession")
        return not (distributed and (option.get("keyword") or option.get("markexpr")))

    def args(self) -> list[str]:
        return [str(arg) for arg in self.config.invocation_params.args]


def phase_outcome(report: pytest.TestReport) -> str | None:
    """The test outcome one phase report decides, or None (a passing setup/teardown decides
    nothing)."""
    xfail = hasattr(report, "wasxfail")
    if report.failed:
        return "failed" if report.when == "call" else "error"
    if report.skipped:
        return "xfailed" if xfail else "skipped"
    if report.when == "call":
        return "xpassed" if xfail else "passed"
    return None


def describe(
    excinfo: ExceptionInfo[BaseException], root: str, compare: dict[str, str] | None
) -> dict[str, Any]:
    """A failure as a small JSON-able dict (survives xdist): type, message, where, cause, frames.

    A failing doctest is described by what failed in it, not by pytest's wrapper around it (#18):
    an exception by its own traceback, a wrong output by the example's file and line."""
    example = doctest_failure(excinfo.value)
    if example is not None:
        return describe_doctest(example, root)
    return describe_exception(excinfo, root, compare)


def describe_exception(
    excinfo: ExceptionInfo[BaseException],
    root: str,
    compare: dict[str, str] | None,
    rename: dict[str, tuple[str, int]] | None = None,
) -> dict[str, Any]:
    """`describe` of a plain exception; `rename` maps a doctest's pseudo-file to its example's file
    and line."""
    value = excinfo.value
    kind = type(value)
    failure: dict[str, Any] = {"type": kind.__qualname__, "message": first_line(value)}
    if kind.__module__ not in ("builtins", "_pytest.outcomes"):
        failure["module"] = kind.__module__
    entries = [entry for entry in excinfo.traceback if not _hidden(entry, excinfo)] or list(
        excinfo.traceback
    )
    located = [
        _locate(str(entry.path), entry.lineno + 1, entry.name, root, rename or {})
        for entry in entries
    ]
    if located:
        (crash, _), line, _ = located[-1]
        failure["at"] = f"{crash}:{line}"
    if (
        isinstance(value, SyntaxError) and value.filename and value.lineno
    ):  # the file that does not compile
        (path, inside) = where(_absolute(value.filename, root), root)
        if inside:
            failure["at"] = failure["frame"] = f"{path}:{value.lineno}"
    own = [f"{path}:{line} in {name}" for (path, mine), line, name in located if mine]
    if own:
        failure["frame"] = own[-1].partition(" in ")[0]
        failure["frames"] = own[:2] + own[2 - MAX_FRAMES :] if len(own) > MAX_FRAMES else own
        if (
            not rename
        ):  # stopped in test code (an assert's line): placed at the function the test called
            from sidekit_hooks.runners.pytest import subject

            innermost = max(index for index, ((_, mine), _, _) in enumerate(located) if mine)
            entry = entries[innermost]
            failure = subject.resolve(failure, entry.frame.raw, located[innermost][1], root, where)
    cause = root_cause(value)
    if cause is not None:
        failure["cause"] = clip(
            f"{type(cause).__qualname__}: {first_line(cause)}".rstrip(": "), MESSAGE_CHARS
        )
    if compare and isinstance(value, AssertionError):
        failure["compare"] = compare
    if isinstance(value, AssertionError):
        mentions = exception_mentions(_text(value)[:MENTION_TEXT])
        if mentions:
            failure["mentions"] = mentions
    return failure


def _locate(
    path: str, line: int, name: str, root: str, rename: dict[str, tuple[str, int]]
) -> tuple[tuple[str, bool], int, str]:
    if path in rename:  # `<doctest pkg.mod.f[1]>` line 1 is the example's line in pkg/mod.py
        real, first = rename[path]
        return where(real, root), first + line - 1, name
    return where(path, root), line, name


def doctest_failure(value: BaseException) -> Any:
    """The first doctest.UnexpectedException / DocTestFailure a failing doctest item raised, or
    None."""
    import sys

    doctest = sys.modules.get("doctest")
    if doctest is None:
        return None
    failures = getattr(value, "failures", None)  # pytest's MultipleDoctestFailures
    first = failures[0] if isinstance(failures, (list, tuple)) and failures else value
    return (
        first if isinstance(first, (doctest.UnexpectedException, doctest.DocTestFailure)) else None
    )


def describe_doctest(failure: Any, root: str) -> dict[str, Any]:
    """A doctest example's failure: its exception where it was raised, or its wrong output at its
    line."""
    test, example = failure.test, failure.example
    filename = str(test.filename or "")
    line = (test.lineno or 0) + example.lineno + 1  # as pytest reports it: 1-based, in the file
    pseudo = (
        f"<doctest {test.name}[{test.examples.index(example)}]>" if example in test.examples else ""
    )
    exc_info = getattr(failure, "exc_info", None)
    if exc_info is not None:
        from _pytest._code.code import ExceptionInfo  # loaded by pytest already

        found = describe_exception(
            ExceptionInfo.from_exc_info(exc_info),
            root,
            None,
            {pseudo: (filename, line)} if pseudo and filename else None,
        )
        found["doctest"] = True
        return found
    (path, mine) = where(filename, root)
    spot = f"{path}:{line}"
    source, want, got = (
        " ".join(str(text).split()) for text in (example.source, example.want, failure.got)
    )
    described: dict[str, Any] = {
        "type": "DocTestFailure",
        "module": "doctest",
        "at": spot,
        "doctest": True,
        "message": clip(
            f"{source} -> expected {want or 'nothing'}, got {got or 'nothing'}", MESSAGE_CHARS
        ),
    }
    if mine:
        described["frame"], described["frames"] = spot, [f"{spot} in {test.name}"]
    return described


def first_line(value: BaseException) -> str:
    text = _text(value).strip()
    line = text.splitlines()[0].strip() if text else ""
    return clip(line, MESSAGE_CHARS)


def _text(value: BaseException) -> str:
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - a broken __str__ in the code under test
        return ""


def root_cause(value: BaseException) -> BaseException | None:
    """The innermost exception this one was raised from (explicitly or while handling)."""
    found = None
    current: BaseException | None = value
    for _ in range(8):
        nxt = (
            current.__cause__ or (None if current.__suppress_context__ else current.__context__)
            if current
            else None
        )
        if nxt is None:
            break
        found = current = nxt
    return found


def exception_mentions(text: str) -> list[str]:
    """Exceptions an assertion's text reports, e.g. `<Result TypeError('bad')>` -> "TypeError:
    bad"."""
    import re

    found: list[str] = []
    pattern = r"\b([A-Z]\w*(?:Error|Exception))(?:\((['\"])(.{0,600}?)\2[,)]|: ([^\n]{1,600}))"
    for match in re.finditer(pattern, text):
        message = (match.group(3) if match.group(3) is not None else match.group(4) or "").strip()
        mention = f"{match.group(1)}: {message}"
        if message and mention not in found:
            found.append(mention)
        if len(found) == 3:
            break
    return found


def from_text(text: str, root: str) -> dict[str, Any]:
    """A failure from pytest's rendered text (collection errors, worker crashes): `E   Type: msg` lines."""
    import re

    error_lines = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
    last = error_lines[-1] if error_lines else (text.strip().splitlines() or [""])[-1]
    kind, sep, message = last.partition(": ")
    if not sep or not re.fullmatch(r"[\w.]+", kind):
        kind, message = "Error", last
    failure: dict[str, Any] = {
        "type": kind.rpartition(".")[2],
        "message": clip(message.strip(), MESSAGE_CHARS),
    }
    spots = re.findall(r'File "([^"]+)", line (\d+)', text) + re.findall(
        r"^([^\s:][^:\n]*\.py):(\d+)", text, re.M
    )
    own = [
        (where(os.path.join(root, path) if not os.path.isabs(path) else path, root), line)
        for path, line in spots
    ]
    mine = [f"{path}:{line}" for (path, inside), line in own if inside]
    if mine:
        failure["at"] = failure["frame"] = mine[-1]
    if (
        failure["type"] in SYNTAX_ERRORS
    ):  # the file that does not compile, not the import that read it
        broken = re.findall(r'^E\s+File "([^"]+)", line (\d+)', text, re.M)
        if broken:
            (path, inside), line = where(_absolute(broken[-1][0], root), root), broken[-1][1]
            if inside:
                failure["at"] = failure["frame"] = f"{path}:{line}"
    return failure


def _absolute(path: str, root: str) -> str:
    return path if os.path.isabs(path) else os.path.join(root, path)


def where(path: str, root: str) -> tuple[str, bool]:
    """(display path, inside the project): workspace-relative inside; package-relative outside."""
    path, inside = workspace.in_project(path, root, FOREIGN)
    if inside:
        return path, True
    for marker in ("/site-packages/", "/dist-packages/"):
        index = path.rfind(marker)
        if index >= 0:
            return path[index + len(marker) :], False
    index = path.rfind("/lib/python")
    if index >= 0:
        return path[index + 1 :].partition("/")[2], False
    return path, False


def _hidden(entry: Any, excinfo: ExceptionInfo[BaseException]) -> bool:
    """pytest's `__tracebackhide__`, and unittest's own frames (`__unittest`): an `assertEqual`
    fails at the test's line, not in unittest/case.py."""
    try:
        if entry.frame.f_globals.get("__unittest"):
            return True
    except Exception:  # noqa: BLE001
        pass
    try:
        return bool(entry.ishidden(excinfo))
    except TypeError:  # pytest < 8.1 takes no argument
        return bool(entry.ishidden())
    except Exception:  # noqa: BLE001
        return False


def _workspace_root(rootdir: str) -> str:
    from sidekit_hooks.status.cache import workspace_root

    return workspace_root(rootdir)
