"""node's own test runner on a real project: a one-cause bug planted in src/money.js fails 24 tests.

`sidekit test`, `status` and `failures` answer with "runner":"node"; the agent's raw `node --test`
is compacted by the shared rewrite (appended options only) and fed into the cache after it ended.
Slow (each run is a real node process), but part of CI (node is on every CI machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.pipeline import runtime
from sidekit_hooks.runners import dispatch
from sidekit_hooks.runners.junit import feed as junit_feed
from testing.code import sidekit
from testing.requires import program

pytestmark = pytest.mark.slow

FAILING = 24
PASSING = 2
LIMIT = 800
PLANTED = "src/money.js"
MONEY = """function cents(amount) {
  const whole = Number(amount);
  return Math.round(whole%s.toFixed(2) * 100);
}
module.exports = { cents };
"""
TESTS = """const test = require('node:test');
const assert = require('node:assert');
const money = require('../src/money.js');
for (let i = 0; i < %d; i++) {
  test(`cents of ${i}.25`, () => { assert.strictEqual(money.cents(i + 0.25), i * 100 + 25); });
}
test('exports cents', () => { assert.strictEqual(typeof money.cents, 'function'); });
test('money', async (t) => { await t.test('is a module', () => { assert.ok(money); }); });
"""


def shop(root: Path, planted: bool = True) -> Path:
    program("node", "install Node.js 20 or later")
    (root / "src").mkdir(parents=True)
    (root / "test").mkdir()
    (root / "package.json").write_text(
        json.dumps({"name": "shop", "scripts": {"test": "node --test"}})
    )
    (root / PLANTED).write_text(MONEY % (".value" if planted else ""))
    (root / "test" / "money.test.js").write_text(TESTS % FAILING)
    return root


def answer_of(root: Path, command: str) -> tuple[dict[str, Any], int, int]:
    done = sidekit(root, command, check=False)
    assert done.stdout.count("\n") == 1, done.stdout + done.stderr
    return json.loads(done.stdout), len(done.stdout.strip().encode()), done.returncode


def test_sidekit_test_answers_the_planted_bug_as_one_cluster_at_its_file(tmp_path: Path) -> None:
    root = shop(tmp_path / "shop")
    found, size, code = answer_of(root, "test")
    assert size <= LIMIT, found
    assert code == 1
    cluster = found.pop("clusters")
    found.pop("secs")
    assert found == {
        "generation": 1,
        "runner": "node",
        "exit": 1,
        "passed": PASSING,
        "failed": FAILING,
        "newFailures": FAILING,
    }
    assert [(c["type"], c["at"], c["affected"]) for c in cluster] == [
        ("TypeError", f"{PLANTED}:3", FAILING)
    ]
    assert cluster[0]["first"] == "test/money.test.js::cents of 0.25"

    status, size, code = answer_of(root, "status")
    assert (status["runner"], status["state"], status["failed"], status["passed"], code) == (
        "node",
        "failed",
        FAILING,
        PASSING,
        0,
    )
    failures, size, code = answer_of(root, "failures")
    assert (failures["runner"], failures["failing"], failures["clusters"][0]["at"]) == (
        "node",
        FAILING,
        f"{PLANTED}:3",
    )
    assert size <= 2000


def test_a_green_run_names_each_test_by_file_and_full_name(tmp_path: Path) -> None:
    root = shop(tmp_path / "shop", planted=False)
    found, _size, code = answer_of(root, "test")
    assert (found["runner"], found["exit"], found["passed"], found.get("failed"), code) == (
        "node",
        0,
        FAILING + PASSING,
        None,
        0,
    )
    table = json.loads((root / ".sidekit" / "status-tests.json").read_text())["tests"]
    assert (
        "test/money.test.js::money > is a module" in table
        and "test/money.test.js::money" not in table
    )


def test_the_agents_raw_run_is_compacted_and_fed_into_the_cache(
    tmp_path: Path, clean_env: dict[str, str]
) -> None:
    root = shop(tmp_path / "shop")
    payload = {
        "session_id": "s",
        "tool_use_id": "call-1",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "node --test"},
    }
    raw = subprocess.run(
        ["node", "--test"], cwd=root, capture_output=True, text=True, env=clean_env
    )
    answer = json.loads(dispatch.pre_tool_use(payload))
    command = answer["hookSpecificOutput"]["updatedInput"]["command"]
    assert command.startswith("node --test --test-reporter=") and "records.mjs" in command
    done = subprocess.run(
        ["/bin/sh", "-c", command], cwd=root, capture_output=True, text=True, env=clean_env
    )
    output = done.stdout + done.stderr
    assert (raw.returncode, done.returncode) == (1, 1)
    assert len(output.encode()) <= LIMIT < len((raw.stdout + raw.stderr).encode())
    assert output.splitlines()[:2] == [
        f"node --test: {FAILING} failed, {PASSING} passed, 0 skipped ({FAILING + PASSING} tests)",
        f"  {FAILING} x TypeError: Cannot read properties of undefined (reading 'toFixed') at "
        f"{PLANTED}:3"
        " (first: cents of 0.25)",
    ]
    # PostToolUseFailure, as Claude Code reports a red Bash call: the marker is claimed, the worker
    # feeds
    ended = dict(payload, hook_event_name="PostToolUseFailure", error=f"Exit code 1\n{output}")
    assert junit_feed.hand_over(
        parse_event("PostToolUseFailure", ended, str(root)), runtime.FEED_WORKER
    )
    summary = wait_for_summary(root)
    assert (summary["runner"], summary["failing"]) == ("node", FAILING)
    status, _size, _code = answer_of(root, "status")
    assert (status["runner"], status["clusters"][0]["at"]) == ("node", f"{PLANTED}:3")


def wait_for_summary(root: Path, seconds: float = 30.0) -> dict[str, Any]:
    path = root / ".sidekit" / "status.json"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if path.is_file():
            return dict(json.loads(path.read_text()))
        time.sleep(0.1)
    raise AssertionError(f"no summary after {seconds} s: {sorted(os.listdir(root / '.sidekit'))}")
