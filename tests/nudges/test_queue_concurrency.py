"""Many writers and drainers at once, ours and Gas Town-style: every message delivered exactly
once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from testing.hooks import HOOK_SCRIPTS, REPO

SESSION = "race"

# Writes like Gas Town's Go code: straight to the final name (not atomic), pretty-printed,
# nanosecond timestamps with an offset, the zero time for deliver_after.
GT_WRITER = """
import json, os, sys, time
folder, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(folder, exist_ok=True)
for i in range(count):
    body = {"sender": "gastown/crew/max", "message": f"{tag}-{i}", "priority": "urgent" if i % 7 == 0 else "normal",
            "timestamp": "2026-04-30T09:02:38.123456789-04:00", "expires_at": "2999-04-30T09:32:38.123456789-04:00",
            "deliver_after": "0001-01-01T00:00:00Z"}
    with open(os.path.join(folder, f"{time.time_ns()}-{os.urandom(4).hex()}.json"), "w") as f:
        f.write(json.dumps(body, indent=2))
"""

OUR_WRITER = """
import sys
sys.path.insert(0, sys.argv[1])
from sidekit_hooks.nudges import queue
root, tag, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
for i in range(count):
    queue.enqueue(root, "race", queue.Nudge(f"[sidecar:scope] {tag}-{i}"), max_depth=10_000)
"""

DRAINER = """
import json, subprocess, sys
hook, payload, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
for _ in range(rounds):
    out = subprocess.run([sys.executable, "-S", hook], input=payload.encode(), capture_output=True).stdout
    if out.strip():
        print(json.loads(out)["hookSpecificOutput"]["additionalContext"])
"""


def delivered_messages(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        if line.startswith("(+") or not line.strip():
            continue
        out.append(line.split("] ", 1)[1])
    return out


def test_concurrent_enqueue_and_drain_deliver_each_message_once(
    project: Path, clean_env: dict[str, str]
) -> None:
    root = project / ".runtime" / "nudge_queue"
    folder = root / SESSION
    env = dict(clean_env, CLAUDE_PROJECT_DIR=str(project))
    payload = json.dumps(
        {
            "session_id": SESSION,
            "cwd": str(project),
            "hook_event_name": "UserPromptSubmit",
            "prompt": "go",
        }
    )
    writers = [
        subprocess.Popen([sys.executable, "-c", GT_WRITER, str(folder), f"gt{w}", "40"], env=env)
        for w in range(3)
    ]
    writers += [
        subprocess.Popen(
            [sys.executable, "-c", OUR_WRITER, str(REPO), str(root), f"sk{w}", "40"], env=env
        )
        for w in range(3)
    ]
    drainers = [
        subprocess.Popen(
            [sys.executable, "-c", DRAINER, str(HOOK_SCRIPTS["UserPromptSubmit"]), payload, "12"],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for proc in writers:
        assert proc.wait(timeout=120) == 0
    outputs = [proc.communicate(timeout=300)[0] for proc in drainers]
    # Drain whatever is left, one boundary at a time, as later turns would.
    for _ in range(200):
        if not any(name.endswith(".json") or ".claimed" in name for name in os.listdir(folder)):
            break
        done = subprocess.run(
            [sys.executable, "-S", str(HOOK_SCRIPTS["UserPromptSubmit"])],
            input=payload.encode(),
            capture_output=True,
            env=env,
        )
        if done.stdout.strip():
            outputs.append(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])
    counts = Counter(m for text in outputs for m in delivered_messages(text))
    expected = {f"{tag}{w}-{i}" for tag in ("gt", "sk") for w in range(3) for i in range(40)}
    assert set(counts) == expected
    assert [m for m, n in counts.items() if n > 1] == []
    assert os.listdir(folder) == []
