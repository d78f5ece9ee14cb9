"""A command as the agent's Bash tool runs it (one shell, stdout and stderr together, no terminal),
timed: the raw-against-compacted runs of the runner tests and bench rows."""

from __future__ import annotations

import resource
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Ran:
    exit: int
    output: str
    secs: float  # wall
    cpu: float  # user + system of the whole process tree

    @property
    def size(self) -> int:
        return len(self.output.encode("utf-8", "replace"))


def bash_tool(command: str, cwd: Path, env: dict[str, str], timeout: float = 600) -> Ran:
    """`command` run through `bash -c` in `cwd` with exactly `env`."""
    before = children_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=timeout,
    )
    secs = time.perf_counter() - started
    cpu = children_cpu() - before
    return Ran(done.returncode, done.stdout.decode("utf-8", "replace"), secs, cpu)


def children_cpu() -> float:
    """CPU seconds of the waited-for children, to the microsecond (os.times counts 10 ms ticks: a
    0.12 s run would read 0.12 or 0.13, and a ratio of two such runs moves by 8% on one tick)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime
