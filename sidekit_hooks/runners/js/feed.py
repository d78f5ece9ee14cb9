"""A compacted vitest or jest run fed after it ended (runners/junit/feed.py's worker asks the
adapter): only a red run whose reporter never loaded, which the reporter could not feed itself."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.runners import Result


def needs_feed(runner: str, cwd: str, output: str, code: int, since_ns: int) -> bool:
    """Whether the run needs the worker: red, and sidekit's reporter did not load (it would have fed
    it)."""
    return code != 0 and not reporter_ran(cwd, runner, since_ns)


def reporter_ran(cwd: str, runner: str, since_ns: int) -> bool:
    """Whether sidekit's vitest/jest reporter loaded in this run: it saves the held-back output as
    `.sidekit/<runner>/raw-*` whenever it does (one listing of a folder that keeps about twenty
    files)."""
    from sidekit_hooks.core import workspace
    from sidekit_hooks.runners.js import compact as js_compact

    folder = js_compact.runner_dir(workspace.project_dir(cwd), runner)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return False
    for entry in entries:
        try:
            if (
                entry.name.startswith(js_compact.RAW_PREFIX)
                and entry.stat(follow_symlinks=False).st_mtime_ns >= since_ns
            ):
                return True
        except OSError:
            continue
    return False


def stopped_early(job: dict[str, Any]) -> Result:
    """A red vitest or jest run that ended before sidekit's reporter loaded (`jest nomatch`: "No
    tests found"; `vitest --project x`: "No projects matched"; a config that does not load;
    hand_over checked that the reporter saved nothing): nothing of it reached the cache, so it is an
    error of the run, `(exit N)` in the runner's own words, as the reporter would have filed it."""
    from sidekit_hooks.runners import Result, store
    from sidekit_hooks.runners.js import compact as js_compact

    runner, output, code = str(job["tool"]), str(job.get("output", "")), int(job["exit"])
    result = Result(runner, float(job["started"]), code)
    result.errors = {js_compact.red_key(code): js_compact.red_run_error(output, code)}
    result.args = [runner]
    result.last_words = js_compact.verdict(output)
    store.save_raw(str(job["root"]), runner, output, f"agent-{runner}")
    return result
