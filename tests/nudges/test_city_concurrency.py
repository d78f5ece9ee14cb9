"""Producers and drainers on one Gas City state.json at once: nothing lost, nothing delivered twice.

Drainers are the real UserPromptSubmit hook and direct calls of nudges/city.py; writers are direct
calls.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from testing.city import city_env
from testing.hooks import HOOK_SCRIPTS, REPO

# The writers and the direct drainers stand for gc's own callers, whose flock blocks without a timeout
# (gascity internal/nudgequeue/state.go, WithState): they wait for the lock as long as the test may
# last, where a hook gives up after a fraction of a second and tries at its next call. (With 30 s, a
# loaded machine, load 15 with every drainer at the lock, left a writer waiting past it.)
GC_WAIT = 600

WRITER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from sidekit_hooks.nudges import city
root, tag, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
for i in range(count):
    item = city.new_item(f"{tag}-{i}", "mayor", "")
    item["source"] = "w"
    city.enqueue(root, [item], time.monotonic() + GC_WAIT)
""".replace("GC_WAIT", str(GC_WAIT))

# A drainer stops once the writers are done and the state file (replaced whole, so readable without
# the lock) holds nothing pending or in flight: an empty turn alone (lock busy, items in another's
# hands) is not the end.
EMPTY = """
def drained(root):
    import json, os
    try:
        with open(os.path.join(root, ".gc", "runtime", "nudges", "state.json")) as handle:
            state = json.load(handle)
    except (OSError, ValueError):
        return False
    return not state.get("pending") and not state.get("in_flight")
"""

DIRECT_DRAINER = (
    EMPTY
    + """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from sidekit_hooks.nudges import city
root, done = sys.argv[2], sys.argv[3]
while True:
    finished = os.path.exists(done)
    claims = city.claim(root, time.monotonic() + GC_WAIT)
    for held in claims:
        print(held.nudge.message, flush=True)
    city.settle(claims, delivered=True, deadline=time.monotonic() + GC_WAIT)  # no hook deadline
    if not claims and finished and drained(root):
        break
    time.sleep(0.002)
""".replace("GC_WAIT", str(GC_WAIT))
)

HOOK_DRAINER = (
    EMPTY
    + """
import json, os, subprocess, sys
hook, payload, done, root = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
while True:
    finished = os.path.exists(done)
    out = subprocess.run([sys.executable, "-S", hook], input=payload.encode(), capture_output=True).stdout
    if out.strip():
        print(json.loads(out)["hookSpecificOutput"]["additionalContext"], flush=True)
    elif finished and drained(root):
        break
"""
)


def delivered(text: str) -> list[str]:
    """Messages in a drainer's output: hook lines read `[from w] tag-i`; `(+N more queued)` is not
    one."""
    return [
        line.split("] ", 1)[-1]
        for line in text.splitlines()
        if line.strip() and not line.startswith("(+")
    ]


def race(
    tmp_path: Path,
    project: Path,
    env: dict[str, str],
    writers: int,
    per_writer: int,
    hook_drainers: int,
    direct_drainers: int,
) -> list[str]:
    root = tmp_path / "city"
    (root / ".gc" / "runtime" / "nudges").mkdir(parents=True)
    done = tmp_path / "writers-done"
    env = city_env(env, project, root, tmp_path / "home", "gc-1")
    body = json.dumps(
        {
            "session_id": "s1",
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": "go",
        }
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(REPO), str(root), f"w{w}", str(per_writer)], env=env
        )
        for w in range(writers)
    ]
    drainers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                HOOK_DRAINER,
                str(HOOK_SCRIPTS["UserPromptSubmit"]),
                body,
                str(done),
                str(root),
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(hook_drainers)
    ]
    drainers += [
        subprocess.Popen(
            [sys.executable, "-c", DIRECT_DRAINER, str(REPO), str(root), str(done)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(direct_drainers)
    ]
    try:
        written = [proc.wait(timeout=600) for proc in procs]
    finally:
        done.write_text("")  # a writer that failed must not leave the drainers running
    ends = [proc.communicate(timeout=600) for proc in drainers]
    outputs = [out for out, _ in ends]
    counts = Counter(m for text in outputs for m in delivered(text))
    # none twice, first: whatever else failed (a writer or a direct drainer that could not have the
    # lock in its time) cannot make one said twice
    assert [m for m, n in counts.items() if n > 1] == []
    assert written == [0] * writers
    assert [(proc.returncode, err) for proc, (_, err) in zip(drainers, ends, strict=True)] == [
        (0, "")
    ] * len(drainers)
    expected = {f"w{w}-{i}" for w in range(writers) for i in range(per_writer)}
    assert sorted(expected - set(counts)) == []  # none lost
    assert set(counts) == expected
    assert json.loads((root / ".gc" / "runtime" / "nudges" / "state.json").read_text()) == {}
    # the hooks' hand-overs left nothing behind in the session's file queue (claimed, staged)
    assert [p.name for p in (project / ".runtime").rglob("*") if p.is_file()] == []
    return outputs


def test_two_writers_two_drainers(tmp_path: Path, project: Path, clean_env: dict[str, str]) -> None:
    race(tmp_path, project, clean_env, writers=2, per_writer=60, hook_drainers=1, direct_drainers=1)


@pytest.mark.slow
def test_eight_writers_four_drainers_two_thousand_nudges(
    tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> None:
    outputs = race(
        tmp_path, project, clean_env, writers=8, per_writer=250, hook_drainers=2, direct_drainers=2
    )
    assert [bool(delivered(out)) for out in outputs] == [
        True
    ] * 4  # the hooks and the direct calls all drained
