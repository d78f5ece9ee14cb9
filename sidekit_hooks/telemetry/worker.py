"""The detached exporter: `python -P -m sidekit_hooks.telemetry.worker PROJECT`.

Started by the Stop hook (runtime.after_output) when an export is configured, and run in the
foreground by `sidekit report --export otlp`. One at a time per project (a lock file), under a
wall-clock cap. It ships what is new since the cursor, round after round; when the collector is down
it tries again a few times, then leaves the cursor where it was, so the next Stop (or export) sends
the same records.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable

from sidekit_hooks.core import background, exportconfig, hooklog, workspace
from sidekit_hooks.telemetry import collect

WALL_CAP = 120  # seconds; a hung collector never keeps a worker alive longer
RETRY_DELAYS = (1.0, 3.0)  # then give up until the next Stop
LOCK = "otel-export.lock"
MAX_ROUNDS = 1000


class Result:
    __slots__ = ("shipped", "message", "ok")

    def __init__(self, shipped: int, message: str, ok: bool) -> None:
        self.shipped, self.message, self.ok = shipped, message, ok


def export(
    project: str,
    *,
    delays: tuple[float, ...] = RETRY_DELAYS,
    sleep: Callable[[float], None] = time.sleep,
    timeout: float | None = None,
) -> Result:
    """Ship everything new; what happened, in one sentence."""
    found = exportconfig.explain(project)
    endpoint, headers = found.endpoint, found.headers
    if not endpoint:
        untrusted = (
            f"; pyproject.toml names {found.ignored}, which you have not trusted for this project "
            f"(sidekit otel trust {found.ignored})"
            if found.ignored
            else ""
        )
        return Result(
            0,
            "no OpenTelemetry endpoint configured (SIDEKIT_OTEL_ENDPOINT, the plugin's "
            "otel_endpoint "
            f"option, or a trusted [tool.sidekit] otel-endpoint){untrusted}: nothing sent",
            True,
        )
    from sidekit_hooks.telemetry import otlp

    absent = otlp.missing()
    if absent:
        return Result(
            0,
            f"OpenTelemetry export configured but {', '.join(absent)} not installed: "
            "pip install 'sidekit-hooks[otel]'; nothing sent",
            False,
        )
    lock = os.path.join(workspace.state_dir(project), LOCK)
    if not background.take_lock(lock, stale_after=WALL_CAP + 30):
        return Result(0, "another export is running for this project", True)
    try:
        return _rounds(project, endpoint, headers, delays, sleep, timeout or otlp.TIMEOUT)
    finally:
        background.release_lock(lock)


def _rounds(
    project: str,
    endpoint: str,
    headers: dict[str, str],
    delays: tuple[float, ...],
    sleep: Callable[[float], None],
    timeout: float,
) -> Result:
    from sidekit_hooks.telemetry import otlp

    shipped = 0
    resource = _resource()
    for _ in range(MAX_ROUNDS):
        batch = collect.pending(project)
        if not len(batch):
            break
        for delay in (0.0, *delays):
            sleep(delay)
            if otlp.ship(endpoint, headers, batch, resource, timeout):
                break
        else:
            return Result(
                shipped,
                f"collector at {endpoint} did not accept the export; {len(batch)} record(s) wait "
                "for the next try",
                False,
            )
        collect.save_cursor(project, batch.cursor)
        shipped += len(batch)
    return Result(shipped, f"shipped {shipped} record(s) to {endpoint}", True)


def _resource() -> dict[str, str]:
    """Fleet-wide identity: the host, and Gas Town/City's names when the session has them."""
    out = {"host.name": os.uname().nodename}
    for attribute, variable in (
        ("gt.role", "GT_ROLE"),
        ("gt.run_id", "GT_RUN_ID"),
        ("gc.agent", "GC_AGENT"),
        ("gc.city", "GC_CITY"),
    ):
        if os.environ.get(variable):
            out[attribute] = os.environ[variable]
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    project = os.path.abspath(args[0] if args else os.getcwd())
    signal.alarm(
        WALL_CAP
    )  # the default action ends the process: the cursor was saved after each round
    result = export(project)
    if not result.ok:
        hooklog.error(project, "Stop", "otel-export", result.message)
    print(result.message, file=sys.stderr)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
