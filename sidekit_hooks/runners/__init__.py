"""Test runners feeding the shared test cache (`status/`): one adapter per runner, found by name and
loaded only when asked, and the PreToolUse rewrite that compacts the agent's own raw runs (`rewrite`
for pytest, `dispatch` for the others).

An adapter is a module with this interface (standard library only at import: `matches` is on the
PreToolUse hot path):

    NAME: str                                    # "go" | "cargo" | "junit" | "mtp" | "vstest" | "vitest" | "jest" | "pytest"
    def detect(project: str) -> bool             # cheap: the project's files say this runner tests it
    def matches(words: list[str]) -> bool        # a simple command's words (env assignments stripped) run it
    def compact_words(words: list[str], project: str) -> list[str] | None
        # the words to run instead: the same words plus APPENDED options only, or None to leave the
        # command alone. An adapter never judges permissions: dispatch.answer hands the client no
        # rewrite that any of its Bash rules would judge differently from the command as written
    def collect(project: str, started: float, exit_code: int, raw_output_path: str) -> Result
        # what one run left (its raw output, report files newer than `started`), as cache records

Optional: `def command(project: str, args: list[str]) -> list[str]` (or a plain `COMMAND: list[str]`,
to which the arguments are appended): what `sidekit test [ARGS]` runs for this runner; its output
(stdout and stderr in one stream) goes to `raw_output_path`, then `collect` reads it.
Optional: `def before_run(project: str) -> object`: taken just before `sidekit test` starts the run
and passed to `collect` as `before=`, to tell the files this run writes from older ones (junit).

A module that is not there (another branch delivers it) is skipped, never an error.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

# name -> module; the order is the detection order (the first runner whose files are there wins).
REGISTRY: dict[str, str] = {
    "go": "sidekit_hooks.runners.go.adapter",
    "cargo": "sidekit_hooks.runners.cargo.adapter",
    "junit": "sidekit_hooks.runners.junit.adapter",
    "mtp": "sidekit_hooks.runners.dotnet.mtp",  # `dotnet test`, named by its test platform (runners/dotnet/)
    "vstest": "sidekit_hooks.runners.dotnet.vstest",
    "vitest": "sidekit_hooks.runners.js.vitest",
    "jest": "sidekit_hooks.runners.js.jest",
    "pytest": "sidekit_hooks.runners.pytest.adapter",
}
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
        # paths (packages, files) whose every test this run ran and reported: their cached tests it did
        # not report are gone (renamed, deleted, now a parent of subtests)
        self.covered: set[str] = set()
        self.args: list[str] = []
        self.interrupted = False
        self.last_words = ""  # the runner's own final verdict line, for a red run with no failing test


def load(name: str) -> ModuleType | None:
    """The adapter module for `name`, or None when this build does not have it."""
    module = REGISTRY.get(name)
    if module is None:
        return None
    import importlib  # here: a go test wrapper imports this package and never loads an adapter by name

    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):  # the adapter itself is missing, not one of its imports
            return None
        raise


def names() -> list[str]:
    return list(REGISTRY)


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
    """The adapter whose runner these command words run (pytest excluded: it has its own rewrite)."""
    for name in REGISTRY:
        if name == "pytest":
            continue
        adapter = load(name)
        if adapter is not None and _safe(adapter, "matches", words):
            return adapter
    return None


def _safe(adapter: ModuleType, function: str, argument: object) -> bool:
    try:
        return bool(getattr(adapter, function)(argument))
    except Exception:  # noqa: BLE001 - one broken adapter must not hide the others (nor break a hook)
        return False
