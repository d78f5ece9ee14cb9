"""The adapter functions vitest and jest share (runners/__init__.py's contract), bound to the
runner's name: `vitest.py` and `jest.py` each take theirs from `Shared(NAME)` and keep only what
differs (detection, the command forms, the options appended, what `sidekit test` runs).

- `collect`: this run's records from the JSON report it left (js/compact.py).
- `needs_feed` / `feed_after`: a red run whose reporter never loaded, fed after it ended
  (js/feed.py).
- `tests_for` / `graph_selection`: the test files the import graph reaches (impact/scripts.py).

Standard library only at import, and nothing imported until a function is called: the adapters
are loaded on the PreToolUse hot path.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` costs the hot path (matches, compact_words) milliseconds
if TYPE_CHECKING:
    from typing import Any

GRAPH_SUFFIXES = (
    ".ts",
    ".tsx",
    ".mts",
    ".cts",
    ".js",
    ".jsx",
    ".mjs",
    ".cjs",
)  # the source files the import graph answers for


class Shared:
    """The shared adapter functions for one runner: its `NAME` is the folder under `.sidekit/` its
    reports and held-back output go to, and the word its records carry as "runner"."""

    def __init__(self, name: str) -> None:
        self.name = name

    def collect(self, project: str, started: float, exit_code: int, raw_output_path: str) -> Any:
        """This run's records: the runners layer's Result when it exists (else a status Capture, or
        None when the run left no report newer than its start)."""
        from sidekit_hooks.runners.js import compact as js_compact

        return js_compact.run_result(self.name, project, started, exit_code, raw_output_path)

    def needs_feed(self, cwd: str, output: str, code: int, since_ns: int) -> bool:
        """A red run whose reporter never loaded is fed after it ended (js/feed.py)."""
        from sidekit_hooks.runners.js import feed

        return feed.needs_feed(self.name, cwd, output, code, since_ns)

    def feed_after(self, job: dict[str, Any]) -> Any:
        """The run `needs_feed` marked, as an error of the run (the job names its runner)."""
        from sidekit_hooks.runners.js import feed

        return feed.stopped_early(job)

    def tests_for(self, project: str, path: str) -> dict[str, Any]:
        """The test files a change to `path` can affect: the import graph (impact/scripts.py)."""
        from sidekit_hooks.impact import by_graph, scripts

        return by_graph.tests_for(project, path, scripts, GRAPH_SUFFIXES, self.name)

    def graph_selection(self, project: str, base: str | None) -> dict[str, Any]:
        """`sidekit select`'s answer head from the same graph (`sidekit test --select` still runs
        every test)."""
        from sidekit_hooks.impact import by_graph, scripts

        return by_graph.selection(project, base, scripts, self.name)
