"""`sidekit demo` and `sidekit replay`, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from sidekit_hooks.cli.playback import transcript
from testing.hooks import SIDEKIT


def test_demo_runs_the_scripted_session_through_the_hooks(clean_env: dict[str, str]) -> None:
    before = set(Path(tempfile.gettempdir()).glob("sidekit-demo-*"))
    done = subprocess.run(
        [*SIDEKIT, "demo"], capture_output=True, text=True, env=clean_env, timeout=120
    )
    assert (done.returncode, done.stderr) == (0, "")
    out = done.stdout
    assert "  $ sidekit scope set --issue gt-abc12 --allow 'api/handlers/**' 'tests/**'\n" in out
    assert (
        "  5. Read auth/middleware.py\n     It wanders into the auth middleware, outside the "
        "task: reading is fine "
        "and the primer named the scope, so the notice is held back (threshold).\n"
    ) in out
    assert (
        "     .. held back (threshold): scope: [sidecar:scope] FYI: auth/middleware.py is outside "
        "this task's "
        "scope (gt-abc12); reading …\n"
    ) in out
    assert (
        "     -> agent told: [sidecar:scope] auth/middleware.py is outside this task's scope "
        "(gt-abc12); "
        "if it must change, tell the user.\n"
    ) in out
    assert (
        "     -> agent told: [sidecar:scope] This Bash command writes auth/session.py, outside "
        "this "
        "task's scope (gt-abc12); if it must change, tell the user.\n"
    ) in out
    assert " 12. user: Wrap up and summarize what changed.\n" in out
    assert (
        set(Path(tempfile.gettempdir()).glob("sidekit-demo-*")) == before
    )  # the throw-away repo is gone


def write_transcript(path: Path, cwd: str) -> None:
    env = {"sessionId": "abc-123", "cwd": cwd, "version": "2.1.241", "isSidechain": False}

    def call(
        n: int,
        name: str,
        tool_input: dict[str, Any],
        result: Any,
        content: str,
        error: bool = False,
    ) -> list[dict[str, Any]]:
        block: dict[str, Any] = {
            "tool_use_id": f"toolu_{n}",
            "type": "tool_result",
            "content": content,
        }
        if error:
            block["is_error"] = True
        return [
            {
                **env,
                "type": "assistant",
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": tool_input}
                    ],
                },
            },
            {
                **env,
                "type": "user",
                "message": {"role": "user", "content": [block]},
                "toolUseResult": result,
            },
        ]

    lines = [
        {
            **env,
            "type": "user",
            "permissionMode": "default",
            "message": {"role": "user", "content": "Fix src/a.py"},
        }
    ]
    lines += call(
        1,
        "Read",
        {"file_path": f"{cwd}/lib/b.py"},
        {
            "type": "text",
            "file": {
                "filePath": f"{cwd}/lib/b.py",
                "content": "X = 1\n",
                "numLines": 1,
                "startLine": 1,
                "totalLines": 1,
            },
        },
        "     1→X = 1\n",
    )
    lines += call(
        2,
        "Edit",
        {"file_path": f"{cwd}/lib/b.py", "old_string": "X = 1", "new_string": "X = 2"},
        {
            "filePath": f"{cwd}/lib/b.py",
            "oldString": "X = 1",
            "newString": "X = 2",
            "originalFile": "X = 1\n",
            "structuredPatch": [],
            "userModified": False,
            "replaceAll": False,
        },
        "The file has been updated.",
    )
    lines += call(
        3,
        "Bash",
        {"command": "ls /no/such/dir"},
        "Error: Exit code 2\nls: cannot access",
        "Exit code 2\nls: cannot access",
        True,
    )
    lines += call(
        4,
        "Write",
        {"file_path": f"{cwd}/src/x.py", "content": "Y = 1\n"},
        "Error: not read",
        "<tool_use_error>File has not been read yet</tool_use_error>",
        True,
    )
    lines += [
        {
            **env,
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_9",
                        "name": "Read",
                        "input": {"file_path": f"{cwd}/x"},
                    }
                ],
            },
            "isSidechain": True,
        }
    ]
    lines += [
        {
            **env,
            "type": "attachment",
            "attachment": {"type": "hook_additional_context", "content": ["old"]},
        },
        {
            **env,
            "type": "user",
            "isMeta": True,
            "message": {"role": "user", "content": "<command-name>/clear</command-name>"},
        },
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")


def test_the_demo_shows_its_nudges_with_the_nudge_budget_on(clean_env: dict[str, str]) -> None:
    """The scripted calls return a few lines each: under a user's default budget (5% of the
    tool-result bytes, nudges/spend.py) a session like it would hear nothing, so the demo plays
    without it."""
    env = {
        **clean_env,
        "SIDEKIT_NUDGE_BUDGET": "",
    }  # the tests' fixture turns it off; "" is the default
    done = subprocess.run([*SIDEKIT, "demo"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (
        "12 steps; nudges delivered: 4 (scope 2, specs 1, tools 1); held back by the policy: 3 "
        "(duplicate 1, threshold 2)"
    )


def test_transcript_maps_lines_to_hook_payloads(tmp_path: Path) -> None:
    write_transcript(tmp_path / "t.jsonl", "/repo")
    session = transcript.read(str(tmp_path / "t.jsonl"))
    assert [(e.event_name, e.payload.get("tool_name", "")) for e in session.events] == [
        ("UserPromptSubmit", ""),
        ("PostToolUse", "Read"),
        ("PostToolUse", "Edit"),
        ("PostToolUseFailure", "Bash"),
    ]
    assert session.events[3].payload["error"] == "Exit code 2\nls: cannot access"
    assert session.events[2].payload["tool_response"]["originalFile"] == "X = 1\n"
    assert (session.session, session.cwd, session.skipped, session.unanswered) == (
        "abc-123",
        "/repo",
        1,
        0,
    )


def test_replay_runs_a_transcript_with_the_projects_scope(
    project: Path, tmp_path: Path, clean_env: dict[str, str]
) -> None:
    subprocess.run(
        [
            *SIDEKIT,
            "scope",
            "set",
            "--issue",
            "T-1",
            "--allow",
            "src/**",
            "--project",
            str(project),
        ],
        check=True,
        capture_output=True,
    )
    write_transcript(tmp_path / "t.jsonl", str(project))
    done = subprocess.run(
        [*SIDEKIT, "replay", str(tmp_path / "t.jsonl")],
        capture_output=True,
        text=True,
        env=clean_env,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")
    body = done.stdout.split("\n", 3)[3]  # after the header lines naming the throw-away folder
    assert body == (
        "  2. Read lib/b.py\n"
        "     -> agent told nothing\n"
        "     .. held back (threshold): scope: [sidecar:scope] FYI: lib/b.py is outside this "
        "task's scope (T-1); "
        "reading is fine, edits …\n"
        "  3. Edit lib/b.py\n"
        "     -> agent told: [sidecar:scope] lib/b.py is outside this task's scope (T-1); "
        "if it must change, tell the user.\n"
        "        why: the scope sidecar fired; the policy let it through\n\n"
        "4 steps; nudges delivered: 1 (scope 1); held back by the policy: 1 (threshold 1)\n"
        "(not replayed: 0 tool calls without a result, 1 unreadable lines)\n"
    )
    assert not (project / ".sidekit" / "log").exists()  # the real project is never written to


def test_replay_of_a_missing_or_empty_file_says_what_to_pass(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text('{"type": "summary"}\n')
    done = subprocess.run(
        [*SIDEKIT, "replay", str(tmp_path / "empty.jsonl")], capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (
        1,
        (
            f"sidekit: {tmp_path / 'empty.jsonl'} holds no prompts or tool calls sidekit can "
            "replay\n"
            "  fix: pass a Claude Code session transcript (.jsonl), not a settings or log file\n"
        ),
    )
