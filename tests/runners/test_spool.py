"""The wrappers' light helpers: running a test binary without `subprocess`, and one cache writer per
run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sidekit_hooks.runners import spool

REPO = Path(__file__).resolve().parents[2]


def test_a_binary_runs_with_its_output_in_one_stream_and_its_own_exit_code() -> None:
    assert spool.run_binary(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"]) == (
        b"out\nerr\n",
        3,
    )


def test_a_binary_killed_by_a_signal_reports_it_negative() -> None:
    assert spool.run_binary(["/bin/sh", "-c", "kill -TERM $$"]) == (b"", -15)


def test_a_binary_that_cannot_start_says_why_and_exits_127(tmp_path: Path) -> None:
    output, code = spool.run_binary([str(tmp_path / "missing")])
    assert code == 127 and output.startswith(str(tmp_path / "missing").encode() + b": ")


def test_the_runs_one_writer_caches_every_spooled_binary_after_the_run_ends(tmp_path: Path) -> None:
    """Two binaries of one run (one parent) spool; the cache is written once the parent has
    ended."""
    (tmp_path / ".git").mkdir()
    spool_script = (
        "import sys; sys.path.insert(0, {repo!r})\n"
        "from sidekit_hooks.runners import spool\n"
        "spool.spool({root!r}, 'go', [{root!r}, '{name}', '1.0', '{code}'], {text!r})\n"
    )
    # -test.v=test2json framing
    green = "\x16=== RUN   TestAdds\n\x16--- PASS: TestAdds (0.00s)\n\x16PASS\n"
    red = (
        "\x16=== RUN   TestSubs\n    b_test.go:3: wrong\n\x16--- FAIL: TestSubs (0.00s)\n\x16FAIL\n"
    )
    python = [sys.executable, "-I", "-S", "-c"]
    script = (
        " && ".join(f'{" ".join(python)} "$S{i}"' for i in (1, 2))
        + ' && ls "$F" > "$F.seen" && sleep 0.3'
    )
    folder = tmp_path / ".sidekit" / "go"
    env = dict(
        os.environ,
        F=str(folder),
        S1=spool_script.format(repo=str(REPO), root=str(tmp_path), name="a", code=0, text=green),
        S2=spool_script.format(repo=str(REPO), root=str(tmp_path), name="b", code=101, text=red),
    )
    subprocess.run(["/bin/sh", "-c", script], env=env, check=True, timeout=30)
    seen = (
        Path(f"{folder}.seen").read_text().split()
    )  # while the parent still ran: spooled, not written
    assert (
        sum(n.startswith("spool-") for n in seen) == 2
        and sum(n.startswith("writer-") for n in seen) == 1
    )
    deadline = time.time() + 20
    while time.time() < deadline and list(folder.glob("writer-*")):
        time.sleep(0.1)
    assert list(folder.glob("spool-*")) == [] and list(folder.glob("writer-*")) == []
    found = subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", "failures"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        env=dict(os.environ, CLAUDE_PROJECT_DIR=str(tmp_path)),
    )
    assert "b::TestSubs" in found.stdout


def test_old_runs_files_are_swept_at_most_once_an_hour(tmp_path: Path) -> None:
    """Each run leaves its printed-* file: a red binary stats them all only when the last sweep is
    old."""
    (tmp_path / ".git").mkdir()
    folder = tmp_path / ".sidekit" / "go"
    folder.mkdir(parents=True)
    old, fresh = folder / "printed-1-1", folder / "printed-2-2"
    for path in (old, fresh):
        path.write_text("10")
    os.utime(old, (time.time() - 2 * 86_400, time.time() - 2 * 86_400))
    assert spool.printed_before(str(tmp_path), "go", 5) == 0
    assert not old.exists() and fresh.exists() and (folder / spool.SWEPT).exists()
    os.utime(fresh, (time.time() - 2 * 86_400, time.time() - 2 * 86_400))
    assert (
        spool.printed_before(str(tmp_path), "go", 5) == 5
    )  # the same run (our parent): 5 printed before
    assert fresh.exists()  # swept less than an hour ago: left for the next sweep
    stamp = folder / spool.SWEPT
    os.utime(stamp, (time.time() - 2 * spool.SWEEP_EVERY, time.time() - 2 * spool.SWEEP_EVERY))
    spool.printed_before(str(tmp_path), "go", 5)
    assert not fresh.exists() and time.time() - stamp.stat().st_mtime < 60


def test_a_runs_ledger_counts_its_compact_answers_beside_its_printed_bytes(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    root = str(tmp_path)
    assert [spool.answers_before(root, "go") for _ in range(3)] == [0, 1, 2]
    assert spool.printed_before(root, "go", 7) == 0  # the byte count is its own field
    assert spool.printed_before(root, "go", 1) == 7
    assert spool.answers_before(root, "go") == 3
    (path,) = (tmp_path / ".sidekit" / "go").glob("printed-*")
    path.write_text(
        "2048"
    )  # a short byte count (an older version's): the answers still count from it
    assert (spool.answers_before(root, "go"), spool.printed_before(root, "go", 1)) == (0, 2048)


def test_a_link_where_the_sweep_stamp_would_be_is_never_followed(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    folder = tmp_path / ".sidekit" / "go"
    folder.mkdir(parents=True)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.write_text("x")
    os.utime(outside, (1_000_000, 1_000_000))
    (folder / spool.SWEPT).symlink_to(outside)
    assert spool.printed_before(str(tmp_path), "go", 5) == 0
    assert outside.stat().st_mtime == 1_000_000 and outside.read_text() == "x"


def test_a_spool_goexec_sh_printed_is_read_with_its_time_and_without_its_end_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "spool-1-2-3"
    path.write_text(f"/p\tpkg\t-\t0\n\x16PASS\n{spool.SPOOLED}")
    os.utime(path, (1700000000.5, 1700000000.5))
    assert spool.read_spool(str(path), ended=False) == (
        ["/p", "pkg", "1700000000.5", "0"],
        "\x16PASS\n",
    )
    assert not path.exists()


def test_a_spool_goexec_sh_did_not_print_is_kept_while_the_run_goes_on_and_then_dropped(
    tmp_path: Path,
) -> None:
    """Without the end line: the binary still runs (or its wrapper was killed), nothing printed as
    it was."""
    path = tmp_path / "spool-1-2-3"
    path.write_text("/p\tpkg\t-\t0\n\x16=== RUN   TestA\n")
    assert spool.read_spool(str(path), ended=False) == ([], "") and path.exists()
    assert spool.read_spool(str(path), ended=True) == ([], "") and not path.exists()


def test_a_spool_written_whole_by_python_is_read_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "spool-1-2-3"
    path.write_text("/p\tpkg\t12.5\t1\n\x16FAIL\n")
    assert spool.read_spool(str(path), ended=False) == (["/p", "pkg", "12.5", "1"], "\x16FAIL\n")


def test_a_run_without_a_start_time_is_alive_while_its_process_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No /proc (macOS): run_key gives `<pid>-0`, and the pid alone says whether go still runs."""
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )

    def no_proc(path: str, *args: object, **kwargs: object) -> object:
        raise FileNotFoundError(path)

    monkeypatch.setattr(spool, "open", no_proc, raising=False)
    assert spool.run_alive(f"{os.getpid()}-0") is True
    assert spool.run_alive(f"{ended.stdout.strip()}-0") is False
    assert (
        spool.run_alive(f"{os.getpid()}-12345") is False
    )  # a start time that cannot be checked: not this run


def test_a_run_whose_start_is_unknown_never_loses_a_spool_still_being_written(
    tmp_path: Path,
) -> None:
    """Its writer cannot tell a killed wrapper's spool from one whose binary still runs: kept for
    the sweep."""
    folder = tmp_path / ".sidekit" / "go"
    folder.mkdir(parents=True)
    run = "999999999-0"  # no such process: the run looks ended
    writing = folder / f"spool-{run}-1"
    writing.write_text(f"{tmp_path}\tp\t-\t0\n\x16=== RUN   TestA\n")
    spool.write_run(str(folder), run, "go")
    assert writing.exists()
