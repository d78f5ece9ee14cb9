"""The real hook entry points, run as Claude Code runs them: stdin in, one JSON object (or nothing)
out, exit 0."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sidekit_hooks import detectors
from sidekit_hooks.core import hook_table
from sidekit_hooks.core.workspace import queue_root
from sidekit_hooks.nudges import queue
from sidekit_hooks.nudges.findings import Finding
from sidekit_hooks.pipeline import hook, runtime
from testing.hooks import HOOK_SCRIPTS, HookRunner, context_of, edit, payload, pre_bash, tool_call

A_PY_EDIT = (
    "a.py",
    "x = 1",
    "x = 2",
    "x = 1\n",
)  # rel, old, new, original: the edit these tests make


def enqueue(project: Path, message: str, session: str = "sess-1", **kw: object) -> None:
    queue.enqueue(queue_root(str(project)), session, queue.Nudge(message, **kw))  # type: ignore[arg-type]


def test_user_prompt_submit_delivers_queued_nudges(project: Path, run_hook: HookRunner) -> None:
    enqueue(project, "[sidecar:scope] a.py is outside this task's scope.")
    enqueue(project, "check your mail", sender="mayor")
    done = run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on"))
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "[sidecar:scope] a.py is outside this task's scope.\n[from "
            "mayor] check your mail",
        }
    }
    assert os.listdir(project / ".runtime" / "nudge_queue" / "sess-1") == []


def test_post_tool_use_delivers_urgent_first(project: Path, run_hook: HookRunner) -> None:
    enqueue(project, "normal one")
    enqueue(project, "stop and read mail", sender="witness", priority="urgent")
    done = run_hook("PostToolUse", edit(project, *A_PY_EDIT))
    assert (
        context_of(done.stdout)
        == "[URGENT from witness] stop and read mail\n[from sidekit] normal one"
    )


def test_failure_hook_delivers_too(project: Path, run_hook: HookRunner) -> None:
    enqueue(project, "[sidecar:tests] 3 tests failed last run: sidekit failures")
    failure = payload(
        "PostToolUseFailure",
        project,
        tool_name="Bash",
        tool_use_id="toolu_2",
        tool_input={"command": "echo oops >&2; exit 3", "description": "fail"},
        error="Exit code 3\noops",
        is_interrupt=False,
        duration_ms=19,
    )
    done = run_hook("PostToolUseFailure", failure)
    assert json.loads(done.stdout)["hookSpecificOutput"] == {
        "hookEventName": "PostToolUseFailure",
        "additionalContext": "[sidecar:tests] 3 tests failed last run: sidekit failures",
    }


def test_delivery_is_capped_and_the_rest_counted_and_kept(
    project: Path, run_hook: HookRunner
) -> None:
    for i in range(12):
        enqueue(project, f"[sidecar:specs] finding number {i:02d} " + "x" * 80)
    first = context_of(
        run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="a")).stdout
    )
    assert len(first) <= 1000
    lines = first.splitlines()
    assert lines[-1] == f"(+{12 - (len(lines) - 1)} more queued)"
    second = context_of(
        run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="b")).stdout
    )
    delivered = [line for line in lines[:-1] + second.splitlines() if not line.startswith("(+")]
    assert delivered == [f"[sidecar:specs] finding number {i:02d} " + "x" * 80 for i in range(12)]


def test_nothing_queued_prints_nothing(project: Path, run_hook: HookRunner) -> None:
    for event, data in [
        ("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="hi")),
        ("PostToolUse", edit(project, *A_PY_EDIT)),
    ]:
        done = run_hook(event, data)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize(
    "stdin", [b"", b"not json", b"[1,2]", b"\xff\xfe\x00garbage", b'{"session_id": ', b"null"]
)
def test_garbage_stdin_exits_zero_silently_and_logs(
    project: Path, run_hook: HookRunner, stdin: bytes
) -> None:
    enqueue(project, "kept for later")
    done = run_hook("PostToolUse", stdin)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert len(os.listdir(project / ".runtime" / "nudge_queue" / "sess-1")) == 1  # nothing lost
    if stdin.strip() and stdin != b"null":
        log = (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
        assert '"where":"bad-input"' in log


def test_ten_megabyte_tool_response(project: Path, run_hook: HookRunner) -> None:
    enqueue(project, "still delivered")
    response = {"stdout": "y" * 10_000_000, "stderr": "", "interrupted": False}
    big = tool_call(
        "PostToolUse",
        project,
        "sess-1",
        "Bash",
        {"command": "./print-build-log"},
        tool_response=response,
    )
    done = run_hook("PostToolUse", big)
    assert done.returncode == 0 and context_of(done.stdout) == "[from sidekit] still delivered"


@pytest.mark.parametrize(
    "tool, tool_input, response",
    [
        ("Teleport", {"where": "mars"}, {"ok": True}),
        ("mcp__github__create_issue", {"title": "t"}, [{"type": "text", "text": "created"}]),
        (
            "Agent",
            {"description": "d", "prompt": "p"},
            {"status": "async_launched", "agentId": "a1"},
        ),
        ("TodoWrite", {"todos": []}, {"oldTodos": [], "newTodos": []}),
        ("WebFetch", {"url": "http://127.0.0.1/", "prompt": "x"}, {"bytes": 1, "code": 200}),
        ("Read", {"file_path": 42}, None),
    ],
)
def test_unknown_and_odd_tools_are_opaque(
    project: Path, run_hook: HookRunner, tool: str, tool_input: object, response: object
) -> None:
    enqueue(project, "hello")
    done = run_hook(
        "PostToolUse",
        payload(
            "PostToolUse", project, tool_name=tool, tool_input=tool_input, tool_response=response
        ),
    )
    assert done.returncode == 0 and context_of(done.stdout) == "[from sidekit] hello"


def test_subagent_events_leave_the_main_queue_alone(project: Path, run_hook: HookRunner) -> None:
    enqueue(project, "for the main agent")
    done = run_hook(
        "PostToolUse", edit(project, *A_PY_EDIT, agent_id="def456", agent_type="Explore")
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert len(os.listdir(project / ".runtime" / "nudge_queue" / "sess-1")) == 1


@pytest.mark.parametrize("session", ["../..", "/etc", "a\x00b", "x" * 10_000, "..", "."])
def test_hostile_session_ids_touch_nothing_outside_the_queue(
    tmp_path: Path, project: Path, run_hook: HookRunner, session: str
) -> None:
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    done = run_hook(
        "UserPromptSubmit",
        json.dumps(
            {
                "session_id": session,
                "cwd": str(project),
                "hook_event_name": "UserPromptSubmit",
                "prompt": "x",
            }
        ),
    )
    assert (done.returncode, done.stdout) == (0, "")
    after = sorted(str(p) for p in tmp_path.rglob("*"))
    queue_dir = str(project / ".runtime" / "nudge_queue")
    assert [
        p for p in after if p not in before and not p.startswith(queue_dir) and ".sidekit" not in p
    ] == []


def test_gas_town_root_and_tmux_session_are_drained(
    tmp_path: Path, project: Path, run_hook: HookRunner
) -> None:
    town = tmp_path / "town"
    (town / "mayor").mkdir(parents=True)
    queue.enqueue(
        str(town / ".runtime" / "nudge_queue"),
        "gt-crew-max",
        queue.Nudge("from the town", sender="mayor"),
    )
    queue.enqueue(str(town / ".runtime" / "nudge_queue"), "sess-1", queue.Nudge("by session id"))
    done = run_hook(
        "UserPromptSubmit",
        payload("UserPromptSubmit", project, prompt="x"),
        env={"GT_TOWN_ROOT": str(town), "TMUX_PANE": "%1", "GT_SESSION": "gt-crew-max"},
    )
    assert context_of(done.stdout) == "[from sidekit] by session id\n[from mayor] from the town"


def test_kill_switch(project: Path, run_hook: HookRunner) -> None:
    enqueue(project, "not now")
    done = run_hook(
        "UserPromptSubmit",
        payload("UserPromptSubmit", project, prompt="x"),
        env={"SIDEKIT_DISABLE": "1"},
    )
    assert (done.returncode, done.stdout) == (0, "")


IMPORT_PROBE = """
import os, runpy, sys
sys.argv = [sys.argv[1]]
def leave(code):  # the entry scripts end in os._exit: come back here to list the modules instead
    raise SystemExit(code)
os._exit = leave
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit:
    pass
third_party = sorted(m for m, mod in sys.modules.items()
                     if "site-packages" in (getattr(mod, "__file__", None) or ""))
print(" ".join(sorted(sys.modules)), file=sys.stderr)
print("THIRD_PARTY=" + ",".join(third_party), file=sys.stderr)
"""


@pytest.mark.parametrize("event", sorted(HOOK_SCRIPTS))
def test_hooks_import_only_the_standard_library(
    project: Path, clean_env: dict[str, str], event: str
) -> None:
    enqueue(project, "[sidecar:scope] something to deliver")
    command = (
        "pytest -q" if event == "PreToolUse" else "false"
    )  # PreToolUse: only the pytest rewrite listens
    other = payload(
        event,
        project,
        prompt="x",
        error="Exit code 1",
        tool_name="Bash",
        tool_input={"command": command},
    )
    data = edit(project, *A_PY_EDIT) if event == "PostToolUse" else other
    done = subprocess.run(
        [sys.executable, "-S", "-c", IMPORT_PROBE, str(HOOK_SCRIPTS[event])],
        input=json.dumps(data).encode(),
        capture_output=True,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
        timeout=30,
    )
    err = done.stderr.decode()
    modules = set(err.split("THIRD_PARTY=")[0].split())
    ran = (
        "sidekit_hooks.runners.pytest.rewrite"
        if event == "PreToolUse"
        else "sidekit_hooks.pipeline.runtime"
    )
    assert ran in modules  # the probe really ran the hook
    assert {"pydantic", "rapidfuzz", "tomli_w"} & modules == set()
    assert err.split("THIRD_PARTY=")[1].strip() == ""
    out = done.stdout.decode()
    if event in runtime.DRAINING_HOOKS:
        assert out.startswith('{"hookSpecificOutput"')
    else:  # nothing, or exactly one JSON object
        assert out == "" or isinstance(json.loads(out), dict)


class SlowDetector:
    name = "slow"
    hooks = frozenset({"PostToolUse"})

    def detect(self, event: object, ctx: object) -> list[Finding]:
        time.sleep(5)
        return [Finding("slow", "never said")]


def edit_with_a_slow_detector(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, float, str]:
    """The PostToolUse hook, in this process, after an Edit of a.py, with "queued before" in the
    queue and the slow detector the only one (the others would spend the budget first on a loaded
    machine): its exit code, how long it took and what it printed. The hook's own deadline (not the
    suite's longer one: tests/conftest.py), the subject of these tests."""
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    monkeypatch.delenv(hook_table.DEADLINE_ENV, raising=False)
    monkeypatch.setattr(detectors, "names", lambda hook=None: ["slow"])
    enqueue(project, "queued before")
    stdout = io.StringIO()
    monkeypatch.setattr(
        sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(edit(project, *A_PY_EDIT)).encode()))
    )
    monkeypatch.setattr(sys, "stdout", stdout)
    detectors.register("slow", SlowDetector())
    try:
        started = time.monotonic()
        code = hook.main("PostToolUse", [])
        return code, time.monotonic() - started, stdout.getvalue()
    finally:
        detectors.unregister("slow")


def test_hard_deadline_still_delivers_what_was_queued_and_loses_nothing(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sidekit_hooks.pipeline.runtime.DETECTOR_BUDGET", 10.0)
    monkeypatch.setattr(
        "sidekit_hooks.pipeline.runtime.DELIVERY_RESERVE", -10.0
    )  # no cut-off before the hard deadline
    code, seconds, stdout = edit_with_a_slow_detector(project, monkeypatch)
    assert code == 0
    assert seconds < 2
    # Drained first: the queued nudge goes out although a detector ran into the hard deadline.
    assert context_of(stdout) == "[from sidekit] queued before"
    log = (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
    assert '"where":"deadline","culprit":"detector slow"' in log
    assert queue.pending(queue_root(str(project)), "sess-1") == []


def test_a_detector_past_its_time_is_cut_off_and_the_rest_goes_on(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, seconds, stdout = edit_with_a_slow_detector(project, monkeypatch)
    assert code == 0
    assert seconds < 0.8  # cut off before the hard deadline, with time to deliver
    assert context_of(stdout) == "[from sidekit] queued before"
    log = (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
    assert (
        '"where":"timeout:detector:slow","culprit":"detector slow"' in log
        and '"where":"deadline"' not in log
    )


class BrokenDetector:
    name = "broken"
    hooks = frozenset({"PostToolUse"})

    def detect(self, event: object, ctx: object) -> list[Finding]:
        raise RuntimeError("boom")


class SayDetector:
    name = "say"
    hooks = frozenset({"PostToolUse"})

    def detect(self, event: object, ctx: object) -> list[Finding]:
        return [Finding("scope", "a.py is outside the scope.", key="k1")]


def test_a_broken_detector_does_not_silence_the_others(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    from sidekit_hooks.pipeline import runtime

    detectors.register("broken", BrokenDetector())
    detectors.register("say", SayDetector())
    try:
        outcome = runtime.run("PostToolUse", json.dumps(edit(project, *A_PY_EDIT)))
    finally:
        detectors.unregister("broken")
        detectors.unregister("say")
    assert (
        json.loads(outcome.output)["hookSpecificOutput"]["additionalContext"]
        == "[sidecar:scope] a.py is outside the scope."
    )
    assert "RuntimeError: boom" in (project / ".sidekit" / "log" / "hooks.jsonl").read_text()


def test_a_half_written_gas_town_file_does_not_stop_delivery(
    project: Path, run_hook: HookRunner
) -> None:
    folder = project / ".runtime" / "nudge_queue" / "sess-1"
    folder.mkdir(parents=True)
    half = folder / f"{time.time_ns()}-0badf00d.json"
    half.write_text(
        '{\n  "sender": "mayor",\n  "message": "half'
    )  # gt writes in place, not by rename
    enqueue(project, "whole one")
    done = run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="x"))
    assert (done.returncode, context_of(done.stdout)) == (0, "[from sidekit] whole one")
    assert half.exists()  # fresh: maybe still being written, so it is put back, not deleted


def parses_of(body: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every JSON parse of `body` from now on (the stdin text of the hook under test)."""
    from sidekit_hooks.core import fastjson

    seen: list[str] = []
    real = fastjson.loads

    def loads(text: str) -> object:
        if text == body:
            seen.append(text)
        return real(text)

    monkeypatch.setattr(fastjson, "loads", loads)
    return seen


@pytest.mark.parametrize("handler", ["test", "jest"])
def test_a_pre_tool_use_parses_its_stdin_once(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, handler: str
) -> None:
    """The entry parses the event; the handler choice and every runner's rewrite read that
    payload."""
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    body = json.dumps(
        pre_bash(project, "npx jest -t pytest", "s")
    )  # both handlers' words, and pytest's
    parsed = parses_of(body, monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body.encode())))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert hook.main("PreToolUse", [handler]) == 0
    assert parsed == [body]


def test_a_post_tool_use_parses_its_stdin_once(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    body = json.dumps(edit(project, *A_PY_EDIT))
    parsed = parses_of(body, monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body.encode())))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert hook.main("PostToolUse", []) == 0
    assert parsed == [body]


def test_the_hard_deadline_is_the_events_own(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """HookEvent.deadline is the one source of a hook's deadline: shortened there, the hook gives up
    sooner."""
    monkeypatch.setattr("sidekit_hooks.pipeline.runtime.DETECTOR_BUDGET", 10.0)
    monkeypatch.setattr(
        "sidekit_hooks.pipeline.runtime.DELIVERY_RESERVE", -10.0
    )  # no cut-off before the hard deadline
    monkeypatch.setattr(hook_table.EVENTS["PostToolUse"], "deadline", 0.3)
    code, seconds, stdout = edit_with_a_slow_detector(project, monkeypatch)
    assert code == 0 and seconds < 0.6, seconds
    assert context_of(stdout) == "[from sidekit] queued before"
    assert (
        '"where":"deadline","culprit":"detector slow"'
        in (project / ".sidekit" / "log" / "hooks.jsonl").read_text()
    )
