"""A command as the agent's Bash tool runs it (one shell, stdout and stderr together, no terminal), timed:
the raw-against-compacted runs of the runner tests and bench rows."""

from __future__ import annotations

import os
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
    before = os.times()
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
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return Ran(done.returncode, done.stdout.decode("utf-8", "replace"), secs, cpu)
