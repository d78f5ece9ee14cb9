"""An answer read from the cache waits for the writer of a go or cargo run that has just ended."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from sidekit_hooks.runners import pending, spool


def dead_run() -> str:
    """The `<pid>-<start>` of a process that has ended (a start time no live process has)."""
    return f"{os.getpid()}-1"


def touch(path: Path, age: float = 0.0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x")
    if age:
        then = time.time() - age
        os.utime(path, (then, then))
    return path


def own_run() -> str:
    """This process's key, as spool.run_key gives it to a wrapper whose parent is this process."""
    with open(f"/proc/{os.getpid()}/stat", encoding="ascii") as handle:
        return f"{os.getpid()}-{handle.read().rpartition(')')[2].split()[19]}"


def test_the_files_of_an_ended_run_are_pending_until_its_writer_removes_them(
    tmp_path: Path,
) -> None:
    run = dead_run()
    meta = touch(tmp_path / ".sidekit" / "cargo" / f"run-{run}.1.meta")
    touch(tmp_path / ".sidekit" / "cargo" / f"run-{run}.compact")
    assert pending.pending_runs(str(tmp_path)) == [run]
    timer = threading.Timer(0.3, lambda: list(map(Path.unlink, meta.parent.iterdir())))
    timer.start()
    started = time.monotonic()
    assert pending.wait(str(tmp_path), timeout=5.0)
    assert 0.25 < time.monotonic() - started < 3.0
    assert pending.pending_runs(str(tmp_path)) == []


def test_a_go_writers_claim_counts_and_a_run_still_going_does_not(tmp_path: Path) -> None:
    ended, going, killed = dead_run(), own_run(), f"{os.getpid()}-2"
    assert spool.run_alive(going)
    touch(tmp_path / ".sidekit" / "go" / f"spool-{ended}-4242")
    touch(tmp_path / ".sidekit" / "go" / f"writer-{ended}")
    touch(tmp_path / ".sidekit" / "go" / f"writer-{going}")
    touch(
        tmp_path / ".sidekit" / "go" / f"spool-{killed}-4243"
    )  # a killed wrapper's: no writer will come
    touch(tmp_path / ".sidekit" / "go" / "printed-1-2")  # not a writer's file
    assert pending.pending_runs(str(tmp_path)) == [ended]


def test_a_long_go_run_is_fresh_by_its_last_spool_not_by_its_writers_claim(tmp_path: Path) -> None:
    """The claim is made when the run's first green binary ends; the run's last spool, when it
    ended."""
    ended = dead_run()
    touch(tmp_path / ".sidekit" / "go" / f"writer-{ended}", age=pending.FRESH + 30)
    assert pending.pending_runs(str(tmp_path)) == []
    touch(tmp_path / ".sidekit" / "go" / f"spool-{ended}-4242")
    assert pending.pending_runs(str(tmp_path)) == [ended]


def test_the_files_of_a_writer_that_died_are_not_waited_for(tmp_path: Path) -> None:
    touch(tmp_path / ".sidekit" / "cargo" / f"run-{dead_run()}.1.out", age=pending.FRESH + 5)
    assert pending.pending_runs(str(tmp_path)) == []
    started = time.monotonic()
    assert pending.wait(str(tmp_path), timeout=5.0) and time.monotonic() - started < 0.5


def test_a_writer_that_never_finishes_costs_at_most_the_timeout(tmp_path: Path) -> None:
    touch(tmp_path / ".sidekit" / "cargo" / f"run-{dead_run()}.1.out")
    started = time.monotonic()
    assert pending.wait(str(tmp_path), timeout=0.2) is False
    assert time.monotonic() - started < 1.0


def test_status_answers_after_the_writer(tmp_path: Path) -> None:
    from sidekit_hooks.cli.commands import status

    meta = touch(tmp_path / ".sidekit" / "cargo" / f"run-{dead_run()}.1.meta")
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "c"\nversion = "0.1.0"\n')
    threading.Timer(0.3, meta.unlink).start()
    started = time.monotonic()
    found = status.answer(str(tmp_path))
    assert (found["runner"], found["state"]) == ("cargo", "noRuns")
    assert time.monotonic() - started > 0.25
