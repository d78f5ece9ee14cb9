"""The words of the test-status cache, in one place: outcomes, run states, and the shapes of
`.sidekit/status.json` (the summary) and `.sidekit/status-tests.json` (the table).

The shapes are TypedDicts under TYPE_CHECKING: the tests sidecar reads the summary on the hook hot
path, which must not pay for importing `typing`. The constants are plain values.
"""

from __future__ import annotations

# A test's outcome, worst last: a test with several phases keeps its worst (a failing teardown
# after a passing call is an error).
OUTCOME_RANK = {"passed": 0, "skipped": 1, "xfailed": 2, "xpassed": 3, "failed": 4, "error": 5}
FAILING = frozenset({"failed", "error"})

# The runner of a cache summary that names none: the first one, written before runners were named.
UNNAMED_RUNNER = "pytest"

# pytest's exit status -> the run's state in the summary ("interrupted" also for a real ^C).
EXIT_NAMES = {
    0: "passed",
    1: "failed",
    2: "interrupted",
    3: "internalError",
    4: "usageError",
    5: "noTests",
}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NotRequired, TypedDict

    class Failure(TypedDict, total=False):
        """Why a test failed, as the plugin captured it (small, JSON-able, survives xdist)."""

        type: str  # the exception's qualified name
        message: str  # its first line
        module: str  # the exception's module, when not a builtin
        at: str  # "path:line" of the crash
        frame: str  # "path:line" of the deepest frame in the workspace
        checks: str  # Go, no stack: "Name, asserted at x_test.go:NN" (`at` is Name's definition)
        frames: list[str]  # "path:line in name", the workspace's frames
        cause: str  # "Type: message" of the root cause (__cause__/__context__)
        compare: dict[str, str]  # an assertion's left/right
        mentions: list[str]  # names an assertion's text mentions

    class TestEntry(TypedDict):
        """One test in the table, keyed by its workspace-relative node id."""

        o: str  # outcome, a key of OUTCOME_RANK
        d: float  # seconds, all phases
        s: NotRequired[float]  # when the run that recorded it finished (epoch seconds)
        p: NotRequired[str]  # the failing phase: setup, call or teardown
        f: NotRequired[Failure]
        c: NotRequired[str]  # its cluster's id
        new: NotRequired[bool]  # failing now, not in the run before

    class Table(TypedDict):
        generation: int
        tests: dict[str, TestEntry]
        collect: dict[str, dict[str, Any]]  # collection errors by path

    class RunInfo(TypedDict, total=False):
        id: str
        started: float
        finished: float
        exit: int
        args: list[str]
        selected: int
        ran: int
        interrupted: bool
        complete: bool
        counts: dict[str, int]  # outcomes of this run's tests
        state: str  # a value of EXIT_NAMES, or "interrupted" / "error"

    class ClusterBrief(TypedDict, total=False):
        """A root cause as the summary keeps it: bounded."""

        id: str
        affected: int
        new: int
        tests: list[str]
        message: str
        cause: str
        variants: list[list[Any]]

    class Summary(TypedDict, total=False):
        """`.sidekit/status.json`: what `sidekit status` and the tests sidecar read."""

        generation: int  # rises only when what the cache says changes
        digest: str
        run: RunInfo
        counts: dict[str, int]  # outcomes of every test in the table
        collectErrors: int
        older: int  # tests whose result is from an earlier run
        newFailures: int
        failing: int
        clusters: list[ClusterBrief]
        moreClusters: int
        # path -> [failing tests through it, a cluster id, a test id or "", their test files (<= 4),
        # 1 if a doctest is among them else 0]; the last two only when they say more than the test
        # id does, and [] for "the path itself"
        files: dict[str, list[Any]]
        # failing tests whose failure is from an earlier run than `run` (it did not re-run them):
        # omitted when there are none. {"count", "tests" (the first STALE_LISTED), "causes": ids of
        # the clusters with no failure from `run`, "files": path -> how many of its `files` count
        # are such tests}
        stale: dict[str, Any]
        note: str  # why an older cache was not used
        runner: str
        pytest: str
        python: str
        plugins: list[str]
