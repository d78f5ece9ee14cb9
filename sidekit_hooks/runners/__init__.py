"""Test runners feeding the shared test cache (`status/`): one adapter per runner, found by name and
loaded only when asked, and the PreToolUse rewrite that compacts the agent's own raw runs (`rewrite`
for pytest, `dispatch` for the others).

An adapter is a module with this interface (standard library only at import: `matches` is on the
PreToolUse hot path):

    NAME: str                                    # its key in REGISTRY below
    def detect(project: str) -> bool             # cheap: the project's files say this runner tests it
    def matches(words: list[str]) -> bool        # a simple command's words (env assignments stripped) run it
    def compact_words(words: list[str], project: str) -> list[str] | None
        # the words to run instead: the same words plus APPENDED options only, or None to leave the
        # command alone. An adapter never judges permissions: dispatch.pre_tool_use hands the client
        no # rewrite that any of its Bash rules would judge differently from the command as written
    def collect(project: str, started: float, exit_code: int, raw_output_path: str) -> Result
        # what one run left (its raw output, report files newer than `started`), as cache records

Optional: `def command(project: str, args: list[str]) -> list[str]` (or a plain `COMMAND:
list[str]`, to which the arguments are appended): what `sidekit test [ARGS]` runs for this runner;
its output (stdout and stderr in one stream) goes to `raw_output_path`, then `collect` reads it.
Optional: `def before_run(project: str) -> object`: taken just before `sidekit test` starts the run
and passed to `collect` as `before=`, to tell the files this run writes from older ones (junit).

What the rest of the package asks of a runner, it asks here or of the adapter, never by the runner's
name (tests/runners/test_runner_names.py fails when a name is spelled elsewhere):

- its own PreToolUse rewrite, when it keeps one: OWN_REWRITES below (pytest's,
  runners/pytest/rewrite.py); every other runner's raw run is compacted by the shared path from its
  `matches` and `compact_words`.
- the commands that trigger it: TRIGGERS (runners/words.py, the registry's part on the lowest floor:
  the PreToolUse filter and the hook event table's `if` conditions read them without importing any
  adapter); `matches` then decides.
- how a run is fed, the adapter's `FEED`: "plugin" (pytest: its pytest plugin writes the cache as the run
  goes, and `sidekit test` runs it through its own path), "wrapper" (a wrapper around each test binary),
  "reporter" (a reporter sidekit adds to the run), "writer" (a detached writer after the run), "reports"
  (the reports the run leaves behind, read once it has ended). The model has read a "wrapper" or
  "reporter" run's failures in its compacted output: the feed after it queues no tests line.
  Optional `def feed_after(job: dict) -> Result | None`: a compacted run whose failure can bypass that
  feed is marked at PreToolUse and fed from what it printed once it ended (runners/junit/feed.py).
  Optional `def left_alone_run(words) -> str`: a run left as written whose reports will feed the cache:
  the tool name its marker carries, or "".
- the folders its writers leave pending: optional `PENDING: tuple[str, ...]` (name prefixes of the
  files under `.sidekit/<NAME>/` a run leaves until its writer is done) and `PENDING_CLAIM: str`
  (the prefix that says a writer has claimed the run; without it, every pending file does):
  runners/pending.py.
- how its tests are selected: optional `def selection(project, base) -> (patterns, head)` and `def
  tests_for(project, path) -> dict` (its own graph); `IMPORT_GRAPH = True` (the package's Python
  import graph, impact/); neither: no graph, every test runs.
- `NAME` is also the word the answers carry as "runner".

A module that is not there (another branch delivers it) is skipped, never an error.
"""

from __future__ import annotations

import os

from sidekit_hooks.runners.words import TRIGGERS, trigger_words, triggered

__all__ = [
    "TRIGGERS",
    "trigger_words",
    "triggered",
]  # the hook path's words (runners/words.py), re-exported

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

# name -> module; the order is the detection order (the first runner whose files are there wins).
REGISTRY: dict[str, str] = {
    "go": "sidekit_hooks.runners.go.adapter",
    "cargo": "sidekit_hooks.runners.cargo.adapter",
    "junit": "sidekit_hooks.runners.junit.adapter",
    # `dotnet test`, named by its test platform (runners/dotnet/)
    "mtp": "sidekit_hooks.runners.dotnet.mtp",
    "vstest": "sidekit_hooks.runners.dotnet.vstest",
    "vitest": "sidekit_hooks.runners.js.vitest",
    "jest": "sidekit_hooks.runners.js.jest",
    "node": "sidekit_hooks.runners.node.adapter",  # `node --test`, node's own test runner
    "pytest": "sidekit_hooks.runners.pytest.adapter",
}
# name -> "module:function" of a runner's own PreToolUse rewrite ((command, cwd, project) -> the
# command it proposes, or ''), asked before the shared path (runners/dispatch.py) and without
# loading any other adapter.
OWN_REWRITES: dict[str, str] = {
    "pytest": "sidekit_hooks.runners.pytest.rewrite:wired_then_rewritten"
}
# the mark a runner's compacted command carries -> "module:function" that replaces its green output
# as PostToolUse may ((payload, project) -> the tool_response to show, or None); one substring test
# for every other Bash call, no adapter loaded.
OUTPUT_FOLDS: dict[str, str] = {"cargo_tee.sh": "sidekit_hooks.runners.cargo.noise:updated_output"}
NONE = "none"
RUNNER_ENV = "SIDEKIT_RUNNER"  # names the runner when the project's files are ambiguous


class Result:
    """One run as a runner reported it, in the cache's words (status.vocabulary).

    A plain class, not a dataclass: this module is imported on the PreToolUse hot path.
    """

    def __init__(self, runner: str, started: float, exit: int) -> None:
        self.runner = runner
        self.started = started
        self.exit = exit
        self.tests: dict[str, dict[str, Any]] = {}  # test id -> {"o", "d", "f", "p"}
        self.errors: dict[str, dict[str, Any]] = {}  # build/setup failures by path
        # paths (packages, files) whose every test this run ran and reported: their cached tests it
        # did not report are gone (renamed, deleted, now a parent of subtests)
        self.covered: set[str] = set()
        self.args: list[str] = []
        self.interrupted = False
        # the runner's own final verdict line, for a red run with no failing test
        self.last_words = ""


def load(name: str) -> ModuleType | None:
    """The adapter module for `name`, or None when this build does not have it."""
    module = REGISTRY.get(name)
    if module is None:
        return None
    # here: a go test wrapper imports this package and never loads an adapter by name
    import importlib

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(
            exc.name
        ):  # the adapter itself is missing, not one of its imports
            return None
        raise


def names() -> list[str]:
    return list(REGISTRY)


def adapters() -> list[ModuleType]:
    """Every adapter this build has, in registry order."""
    return [adapter for adapter in map(load, REGISTRY) if adapter is not None]


def says_a_plugin_runner(text: str) -> bool:
    """Whether `text` says a trigger word of a runner with its own rewrite (OWN_REWRITES: fed by its
    plugin), a cheap substring test."""
    return any(word in text for name in OWN_REWRITES for word in TRIGGERS.get(name, ()))


def plugin_run_args(words: list[str]) -> list[str] | None:
    """The arguments of a raw run of a runner fed by its own plugin (its adapter's `run_args`), or
    None when these words start no such run."""
    if not triggered(" ".join(words)):  # no adapter is loaded for words that name no runner
        return None
    for adapter in adapters():
        if feeds(adapter) == "plugin" and hasattr(adapter, "run_args"):
            args = adapter.run_args(words)
            if args is not None:
                return list(args)
    return None


def runs_itself(words: list[str]) -> bool:
    """Whether these words (a simple command's, env assignments stripped) start a run whose cache is
    written by the run itself (its plugin, its wrappers, its writer), not by the feed after it."""
    return triggered(" ".join(words)) and any(
        feeds(adapter) in ("plugin", "wrapper", "writer") and _safe(adapter, "matches", words)
        for adapter in adapters()
    )


def folded_output(command: str, payload: dict[str, Any], project: str) -> dict[str, Any] | None:
    """The output a runner folds for its compacted `command` (OUTPUT_FOLDS), or None."""
    for mark, target in OUTPUT_FOLDS.items():
        if mark in command:
            import importlib

            module, _, function = target.partition(":")
            found = getattr(importlib.import_module(module), function)(payload, project)
            return found if isinstance(found, dict) else None
    return None


def own_rewrite(name: str, command: str, cwd: str, project: str) -> str:
    """The command a runner's own rewrite (OWN_REWRITES) proposes for `command`, or '' to leave it
    alone (before the permission judgment, which dispatch applies to every rewrite)."""
    import importlib

    module, _, function = OWN_REWRITES[name].partition(":")
    return str(getattr(importlib.import_module(module), function)(command, cwd, project))


def feeds(adapter: ModuleType) -> str:
    """How a run of this runner reaches the cache (`FEED`, see above); "reports" when not said."""
    return str(getattr(adapter, "FEED", "reports"))


def detect(project: str) -> str:
    """The runner that tests `project` ($SIDEKIT_RUNNER when set), or "none"."""
    chosen = os.environ.get(RUNNER_ENV, "")
    if chosen:
        return chosen if load(chosen) is not None else NONE
    for name in REGISTRY:
        adapter = load(name)
        if adapter is not None and _safe(adapter, "detect", project):
            return name
    return NONE


def for_words(words: list[str]) -> ModuleType | None:
    """The adapter whose runner these command words run and that compacts them through the shared
    path (runners/dispatch.py); a runner fed by its own plugin (`FEED = "plugin"`) has its own
    rewrite."""
    for adapter in adapters():
        if feeds(adapter) != "plugin" and _safe(adapter, "matches", words):
            return adapter
    return None


def _safe(adapter: ModuleType, function: str, argument: object) -> bool:
    try:
        return bool(getattr(adapter, function)(argument))
    # one broken adapter must not hide the others (nor break a hook)
    except Exception:  # noqa: BLE001
        return False
