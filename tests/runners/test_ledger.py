"""The wrappers' light helpers: running a test binary without `subprocess`, and one cache writer per run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from sidekit_hooks.runners import ledger

REPO = Path(__file__).resolve().parents[2]


def test_a_binary_runs_with_its_output_in_one_stream_and_its_own_exit_code() -> None:
    assert ledger.run_binary(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"]) == (b"out\nerr\n", 3)


def test_a_binary_killed_by_a_signal_reports_it_negative() -> None:
    assert ledger.run_binary(["/bin/sh", "-c", "kill -TERM $$"]) == (b"", -15)


def test_a_binary_that_cannot_start_says_why_and_exits_127(tmp_path: Path) -> None:
    output, code = ledger.run_binary([str(tmp_path / "missing")])
    assert code == 127 and output.startswith(str(tmp_path / "missing").encode() + b": ")


def test_the_runs_one_writer_caches_every_spooled_binary_after_the_run_ends(tmp_path: Path) -> None:
    """Two binaries of one run (one parent) spool; the cache is written once the parent has ended."""
    (tmp_path / ".git").mkdir()
    spool = (
        "import sys; sys.path.insert(0, {repo!r})\n"
        "from sidekit_hooks.runners import ledger\n"
        "ledger.spool({root!r}, 'go', [{root!r}, '{name}', '1.0', '{code}'], {text!r})\n"
    )
    green = "\x16=== RUN   TestAdds\n\x16--- PASS: TestAdds (0.00s)\n\x16PASS\n"  # -test.v=test2json framing
    red = "\x16=== RUN   TestSubs\n    b_test.go:3: wrong\n\x16--- FAIL: TestSubs (0.00s)\n\x16FAIL\n"
    python = [sys.executable, "-I", "-S", "-c"]
    script = " && ".join(f'{" ".join(python)} "$S{i}"' for i in (1, 2)) + ' && ls "$F" > "$F.seen" && sleep 0.3'
    folder = tmp_path / ".sidekit" / "go"
    env = dict(
        os.environ,
        F=str(folder),
        S1=spool.format(repo=str(REPO), root=str(tmp_path), name="a", code=0, text=green),
        S2=spool.format(repo=str(REPO), root=str(tmp_path), name="b", code=101, text=red),
    )
    subprocess.run(["/bin/sh", "-c", script], env=env, check=True, timeout=30)
    seen = Path(f"{folder}.seen").read_text().split()  # while the parent still ran: spooled, not written
    assert sum(n.startswith("spool-") for n in seen) == 2 and sum(n.startswith("writer-") for n in seen) == 1
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
