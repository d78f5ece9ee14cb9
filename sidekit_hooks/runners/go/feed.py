"""A compacted `go test` fed after it ended (runners/junit/feed.py's worker asks the adapter): only a
package that failed to build, whose test binary (and so sidekit's wrapper around it) never ran."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.runners import Result


def needs_feed(cwd: str, output: str, code: int, since_ns: int) -> bool:
    """Whether the run needs the worker: a package failed to build; every one that ran fed the cache
    through its test binary's wrapper."""
    return build_failed(output)


def build_failed(output: str) -> bool:
    """Whether go's output says a package failed to build (or vet, or set up): its `FAIL` line."""
    return " [build failed]" in output or " [setup failed]" in output


def feed_after(job: dict[str, Any]) -> Result | None:
    """The packages that failed to build, as errors of the run (None: nothing to record)."""
    from sidekit_hooks.runners.go import adapter

    root = str(job["root"])
    cwd = (job.get("payload") or {}).get("cwd")
    output, started, code = str(job.get("output", "")), float(job["started"]), int(job["exit"])
    return adapter.build_failures(root, str(cwd or root), output, started, code)
