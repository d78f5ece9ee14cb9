"""Workers the hooks start (core/background.py `spawn_module`): detached, and SIGTERM ends them even
when the hook that started them ignored it (the warm path's async fallback does while the client
exits; an ignored signal stays ignored across exec)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from testing.hooks import REPO

SIGTERM_BIT = 1 << (15 - 1)  # /proc/PID/status masks: bit N-1 for signal N

STARTER = """
import signal, sys
sys.path.insert(0, sys.argv[1])
signal.signal(signal.SIGTERM, signal.SIG_IGN)
from sidekit_hooks.core import background
print(background.spawn_module("timeit", ["-n", "1", "import time; time.sleep(5)"]))
"""


def ignored_mask(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return int(line.split()[1], 16)
    raise AssertionError(f"no SigIgn line for {pid}")


def test_a_worker_started_with_sigterm_ignored_still_ends_on_sigterm() -> None:
    done = subprocess.run(
        [sys.executable, "-S", "-c", STARTER, str(REPO)],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    pid = int(done.stdout)
    try:
        time.sleep(0.2)  # started: its mask is the one it runs with
        assert not ignored_mask(pid) & SIGTERM_BIT
    finally:
        subprocess.run(["kill", "-KILL", str(pid)], check=False)
