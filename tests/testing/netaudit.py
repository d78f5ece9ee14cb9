"""Run a sidekit process under an audit hook that records every network call it makes (#31 Deliver
8).

    python -S tests/testing/netaudit.py hooks/stop.py            # a hook entry script
    python -P -S tests/testing/netaudit.py -m MODULE ARGS...     # a worker (how the audit reaches them)

`sys.addaudithook` sees every `socket.*` audit event (socket.__new__, connect, sendto, sendmsg,
bind, getaddrinfo, gethostbyname, ...), whatever library makes the call, before the call happens.
Each is appended as a JSON line to `$NETAUDIT_LOG` with the process id and the program. So are the
imports of `opentelemetry*` and `sidekit_hooks.telemetry*`, and every process the program starts. A
Python child started through `os.posix_spawn` (how sidekit starts its detached workers,
core/background.py) is started through this wrapper too, so the audit reaches every worker the hooks
start, and theirs; any other child is recorded as `unwrapped`, for the test to judge.

Standard library only, written to the log with `os.write` (no buffer to lose at `os._exit`).
"""

from __future__ import annotations

import json
import os
import runpy
import sys

LOG = os.environ.get("NETAUDIT_LOG", "")
WRAPPER = os.path.abspath(__file__)
WATCHED_IMPORTS = ("opentelemetry", "sidekit_hooks.telemetry")
SPAWNS = (
    "os.posix_spawn",
    "os.spawn",
    "os.exec",
    "os.system",
    "subprocess.Popen",
    "os.fork",
    "os.forkpty",
)


def record(kind: str, **fields: object) -> None:
    line = (
        json.dumps({"pid": os.getpid(), "program": PROGRAM, "kind": kind, **fields}, default=repr)
        + "\n"
    )
    fd = os.open(LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line.encode("utf-8", "replace"))
    finally:
        os.close(fd)


def audit(event: str, args: tuple[object, ...]) -> None:
    if event.startswith("socket."):
        record("network", event=event, args=[repr(arg)[:200] for arg in args])
    elif event == "import" and str(args[0]).startswith(WATCHED_IMPORTS):
        record("import", module=str(args[0]))
    elif event.startswith(SPAWNS) and not WRAPPING:
        argv = args[1] if len(args) > 1 and isinstance(args[1], (list, tuple)) else args[:1]
        record("spawn", event=event, argv=[str(arg)[:200] for arg in argv], wrapped=False)


WRAPPING: list[bool] = []  # set while this wrapper itself starts a wrapped child
real_posix_spawn = os.posix_spawn


def wrapped_posix_spawn(path: object, argv: list[str], env: object, **kwargs: object) -> int:
    """A Python child runs through this wrapper (its audit hook first); anything else runs as
    asked."""
    args = list(argv)
    if os.path.realpath(str(path)) == os.path.realpath(sys.executable) and "-m" in args:
        at = args.index("-m")
        args = [*args[:at], WRAPPER, *args[at:]]
        WRAPPING.append(True)
        try:
            pid = real_posix_spawn(path, args, env, **kwargs)  # type: ignore[arg-type]
        finally:
            WRAPPING.clear()
        record(
            "spawn", event="os.posix_spawn", argv=args[args.index("-m") :], wrapped=True, child=pid
        )
        return pid
    return real_posix_spawn(path, args, env, **kwargs)  # type: ignore[arg-type]


def main() -> None:
    global PROGRAM
    args = sys.argv[1:]
    sys.addaudithook(audit)
    os.posix_spawn = wrapped_posix_spawn  # type: ignore[assignment]
    if args[0] == "-m":
        PROGRAM = args[1]
        record("start")
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        PROGRAM = os.path.basename(args[0])
        record("start")
        sys.argv = list(args)
        runpy.run_path(args[0], run_name="__main__")


PROGRAM = "?"

if __name__ == "__main__":
    main()
