"""The optional judge: a fake judge command, driven through the real hooks and the worker
directly."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.core import hooklog, workspace
from sidekit_hooks.detectors import judge
from sidekit_hooks.nudges import policy, queue
from testing.hooks import bash, context_of, payload

FAKE_JUDGE = """\
import json, sys, time
event = json.load(sys.stdin)
with open(sys.argv[1], "a") as seen:
    seen.write(json.dumps(event) + "\\n")
if "slow" in event.get("command", ""):
    time.sleep(30)
if "crash" in event.get("command", ""):
    sys.exit("judge broke")
if "curl" in event.get("command", ""):
    print("The MCP tool `fetch_page` already fetches URLs; no need to curl by hand.")
else:
    print("NONE")
"""


@pytest.fixture
def fake_judge(tmp_path: Path) -> tuple[str, Path]:
    script = tmp_path / "fake_judge.py"
    script.write_text(FAKE_JUDGE)
    seen = tmp_path / "seen.jsonl"
    return f"{sys.executable} {script} {seen}", seen


def judge_log(project: Path, count: int, timeout: float = 30) -> list[dict[str, Any]]:
    """The judge's log once it holds `count` records (the worker runs in the background)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        records = hooklog.read(str(project), judge.LOG)
        if len(records) >= count:
            return records
        time.sleep(0.05)
    raise AssertionError(
        f"judge log has {hooklog.read(str(project), judge.LOG)}, wanted {count} records"
    )


def test_judge_is_off_by_default(project: Path, run_hook: Any) -> None:
    done = run_hook("PostToolUse", bash(project, "curl https://example.org", stdout="ok"))
    assert (done.returncode, done.stdout) == (0, "")
    assert not (project / ".sidekit" / "judge").exists()


def test_judge_answer_is_queued_and_delivered_at_the_next_boundary(
    project: Path, run_hook: Any, fake_judge: tuple[str, Path]
) -> None:
    command, seen = fake_judge
    env = {
        "SIDEKIT_JUDGE": command,
        "SIDEKIT_JUDGE_TIMEOUT": "20",
    }  # a loaded CI box is not a slow judge
    done = run_hook(
        "PostToolUse", bash(project, "curl -s https://example.org/page", stdout="ok"), env=env
    )
    assert (done.returncode, done.stdout) == (0, "")  # the hook never waits for the judge
    assert [r["outcome"] for r in judge_log(project, 1)] == ["queued"]
    assert json.loads(seen.read_text()) == {
        "hook": "PostToolUse",
        "tool": "Bash",
        "kind": "shell",
        "command": "curl -s https://example.org/page",
        "output": "ok",
    }
    pending = queue.pending(workspace.queue_root(str(project)), "sess-1")
    assert [(n.sender, n.message) for _, n in pending] == [
        (
            "sidekit/judge",
            "[sidecar:judge] The MCP tool `fetch_page` already fetches URLs; no need to curl by "
            "hand.",
        )
    ]
    prompt = run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on"))
    assert context_of(prompt.stdout) == (
        "[sidecar:judge] The MCP tool `fetch_page` already fetches URLs; no need to curl by hand."
    )


@pytest.mark.parametrize(
    ("command", "outcome"),
    [
        ("ls -la", "silent"),
        ("crash now", "failed"),
        ("slow build", "timeout"),
    ],
)
def test_judge_says_nothing_unless_it_answers(
    project: Path,
    fake_judge: tuple[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    outcome: str,
) -> None:
    monkeypatch.setenv("SIDEKIT_JUDGE", fake_judge[0])
    monkeypatch.setenv("SIDEKIT_JUDGE_TIMEOUT", "1")
    folder = Path(judge.session_dir(str(project), "sess-1"))
    folder.mkdir(parents=True)
    event_file = folder / "event.json"
    event_file.write_text(json.dumps({"command": command}))
    started = time.monotonic()
    assert judge.run_worker(str(project), "sess-1", str(event_file)) == outcome
    assert time.monotonic() - started < 5
    assert queue.pending(workspace.queue_root(str(project)), "sess-1") == []
    assert not event_file.exists() and not (folder / "running.lock").exists()


def ask_worker(project: Path, command: str = "curl x") -> str:
    folder = Path(judge.session_dir(str(project), "sess-1"))
    folder.mkdir(parents=True, exist_ok=True)
    event_file = folder / "event.json"
    event_file.write_text(json.dumps({"hook": "PostToolUse", "tool": "Bash", "command": command}))
    return judge.run_worker(str(project), "sess-1", str(event_file))


def policy_pack(project: Path, table: str) -> None:
    (project / ".sidekit" / "rules").mkdir(parents=True, exist_ok=True)
    (project / ".sidekit" / "rules" / "local.toml").write_text(
        f'[pack]\nname = "local"\n\n[policy]\n{table}\n'
    )


def decisions_of(project: Path) -> list[tuple[str, str]]:
    return [
        (r["decision"], r.get("by", ""))
        for r in hooklog.read(str(project), hooklog.DECISIONS)
        if r.get("sidecar") == "judge"
    ]


def test_the_policy_admits_the_judge_like_any_sidecar(
    project: Path, fake_judge: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIDEKIT_JUDGE", fake_judge[0])
    assert ask_worker(project) == "queued"
    assert ask_worker(project) == "held"  # the same answer again: a duplicate
    policy_pack(project, "dedup = false")
    assert ask_worker(project) == "held"  # 30 s between two nudges of one sidecar
    assert decisions_of(project) == [
        ("fired", ""),
        ("suppressed", "duplicate"),
        ("suppressed", "cooldown"),
    ]
    assert len(queue.pending(workspace.queue_root(str(project)), "sess-1")) == 1


def test_mute_and_the_session_cap_reach_the_judge(
    project: Path, fake_judge: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIDEKIT_JUDGE", fake_judge[0])
    policy_pack(project, 'mute = ["judge"]')
    assert ask_worker(project) == "held"
    assert decisions_of(project) == [("suppressed", "muted")]
    policy_pack(project, "max_nudges = 0")
    assert ask_worker(project) == "queued"  # the one "cap reached" line, said once
    assert [n.message for _, n in queue.pending(workspace.queue_root(str(project)), "sess-1")] == [
        "[sidecar:policy] Nudge cap reached (0 this session): further sidecar findings are held "
        "back; "
        "`sidekit report` lists them."
    ]
    assert policy.session_capped(str(project), "sess-1")


def test_hook_calls_the_judge_at_most_once_per_interval(
    project: Path, run_hook: Any, fake_judge: tuple[str, Path]
) -> None:
    command, seen = fake_judge
    env = {"SIDEKIT_JUDGE": command, "SIDEKIT_JUDGE_INTERVAL": "600"}
    for text in ("curl a", "curl b", "curl c"):
        assert run_hook("PostToolUse", bash(project, text, stdout="ok"), env=env).returncode == 0
    judge_log(project, 1)
    time.sleep(0.3)
    assert [json.loads(line)["command"] for line in seen.read_text().splitlines()] == ["curl a"]
