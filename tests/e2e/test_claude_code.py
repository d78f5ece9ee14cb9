"""The hooks inside the real Claude Code CLI (2.1.328): what reached the model, byte for byte, and
where.

Each test runs `claude -p` against a scripted model (see claude_e2e.py) and reads the requests the
model received. Tool results carry hook output after the tool's own text; the prompt carries it as a
text block of the first user message.
"""

from __future__ import annotations

import json
import os
import sys
import venv
from collections.abc import Callable
from pathlib import Path

from testing.acme import MESSAGE, STATUS_422, pack
from testing.claude import (
    FINAL_TEXT,
    REPO,
    Run,
    SessionRunner,
    ToolCall,
    prompt_reminders,
    reminder,
    result_text,
    sidekit_shell,
    split_result,
    write_settings,
)
from testing.rule_toml import rule
from testing.runs import CHECKOUT_ONLY, plugin_copy

PROMPT = "Carry on with the task."
NO_OUTPUT = "(Bash completed with no output)"


def queue_files(project: Path, session: str) -> list[str]:
    folder = project / ".runtime" / "nudge_queue" / session
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def written(path: Path) -> str:
    return f"File created successfully at: {path} (file state is current in your context — no need to Read it back)"


def bash_nudge(message: str, then: str = "") -> ToolCall:
    """A Bash call that queues a nudge for the running session, as another agent or `gt nudge`
    would.

    No --session and no --project: `sidekit nudge` finds both where Claude Code puts them for Bash
    ($CLAUDE_CODE_SESSION_ID, the project as the working directory).
    """
    command = f'{sidekit_shell()} nudge "{message}" >/dev/null' + (f"; {then}" if then else "")
    return ToolCall("Bash", {"command": command, "description": "queue a nudge"})


# --- the settings form
# -----------------------------------------------------------------------------


def test_queued_nudges_arrive_with_the_prompt(
    run_session: SessionRunner, project: Path, session_id: str, sidekit: Callable[..., str]
) -> None:
    write_settings(project, sys.executable)
    sidekit(
        "nudge",
        "--session",
        session_id,
        "[sidecar:specs] Spec 4.1: validation errors return HTTP 422.",
    )
    sidekit("nudge", "--session", session_id, "--sender", "mayor", "rebase on main before you push")

    run = run_session(PROMPT, [FINAL_TEXT])

    blocks = run.prompt_blocks()
    expected = reminder(
        "UserPromptSubmit hook additional context",
        "[sidecar:specs] Spec 4.1: validation errors return HTTP 422.\n[from mayor] rebase on "
        "main before you push",
    )
    assert prompt_reminders(blocks) == [expected]
    texts = [block.get("text") for block in blocks]
    assert texts.index(expected) < texts.index(PROMPT)  # said with the prompt, before it
    assert run.count("validation errors return HTTP 422") == 1
    assert queue_files(project, session_id) == []  # delivered once, removed from the queue


def test_gas_town_nudge_for_the_tmux_session_arrives(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    """Inside Gas Town (`$TMUX_PANE`; gt sets `$GT_SESSION`) the tmux session's queue is drained
    too."""
    write_settings(project, sys.executable)
    sidekit(
        "nudge",
        "--session",
        "gt-e2e/crew",
        "--sender",
        "mayor",
        "--priority",
        "urgent",
        "stop: main is red",
    )

    run = run_session(PROMPT, [FINAL_TEXT], env={"TMUX_PANE": "%0", "GT_SESSION": "gt-e2e/crew"})

    assert prompt_reminders(run.prompt_blocks()) == [
        reminder(
            "UserPromptSubmit hook additional context", "[URGENT from mayor] stop: main is red"
        )
    ]
    assert queue_files(project, "gt-e2e_crew") == []


def test_queued_nudge_lands_next_to_the_tool_result(
    run_session: SessionRunner, project: Path, session_id: str
) -> None:
    write_settings(project, sys.executable)
    target = project / "notes.txt"
    steps = [
        bash_nudge("[sidecar:tests] 3 tests fail in tests/test_api.py; sidekit failures"),
        ToolCall("Write", {"file_path": str(target), "content": "hello\n"}),
    ]

    run = run_session(PROMPT, steps)

    assert (
        prompt_reminders(run.prompt_blocks()) == []
    )  # the queue was empty when the prompt went out
    body, reminders = split_result(result_text(run.tool_result(0)))
    assert body == NO_OUTPUT
    assert reminders == [
        reminder(
            "PostToolUse:Bash hook additional context",
            "[sidecar:tests] 3 tests fail in tests/test_api.py; sidekit failures",
        )
    ]
    assert split_result(result_text(run.tool_result(1))) == (
        written(target),
        [],
    )  # said once, not again
    assert run.tool_result(0).get("is_error") is False


def test_failing_bash_goes_through_post_tool_use_failure(
    run_session: SessionRunner, project: Path
) -> None:
    write_settings(project, sys.executable)
    steps = [
        bash_nudge(
            "[sidecar:tools] the build script is scripts/build.sh", then="echo oops >&2; exit 3"
        )
    ]

    run = run_session(PROMPT, steps)

    block = run.tool_result(0)
    assert block["is_error"] is True
    assert split_result(result_text(block)) == (
        "Exit code 3\noops",
        [
            reminder(
                "PostToolUseFailure:Bash hook additional context",
                "[sidecar:tools] the build script is scripts/build.sh",
            )
        ],
    )


def test_a_full_delivery_is_cut_counted_and_the_rest_follows(
    run_session: SessionRunner, project: Path, session_id: str, sidekit: Callable[..., str]
) -> None:
    """At most 1,000 characters at a time: what does not fit is counted, and said at the next
    boundary."""
    write_settings(project, sys.executable)
    nudges = [
        f"[sidecar:specs] rule {n}: " + "x" * (250 - len(f"[sidecar:specs] rule {n}: "))
        for n in range(5)
    ]
    for nudge in nudges:
        sidekit("nudge", "--session", session_id, nudge)

    run = run_session(PROMPT, [ToolCall("Bash", {"command": "ls", "description": "list"})])

    assert prompt_reminders(run.prompt_blocks()) == [
        reminder(
            "UserPromptSubmit hook additional context", "\n".join(nudges[:3]) + "\n(+2 more queued)"
        )
    ]
    assert split_result(result_text(run.tool_result(0)))[1] == [
        reminder("PostToolUse:Bash hook additional context", "\n".join(nudges[3:]))
    ]
    assert [run.count(nudge) for nudge in nudges] == [1] * 5


def test_hooks_that_say_nothing_leave_the_conversation_untouched(
    run_session: SessionRunner, project: Path
) -> None:
    write_settings(project, sys.executable)
    (project / "a.py").write_text("x = 1\n")
    steps = [
        ToolCall("Read", {"file_path": str(project / "a.py")}),
        ToolCall("Bash", {"command": "ls", "description": "list"}),
    ]

    run = run_session(PROMPT, steps)

    assert prompt_reminders(run.prompt_blocks()) == []
    assert split_result(result_text(run.tool_result(0)))[1] == []
    assert split_result(result_text(run.tool_result(1))) == ("a.py", [])
    assert not (project / ".sidekit" / "log" / "hooks.jsonl").exists()  # and nothing went wrong


# --- the plugin form
# -------------------------------------------------------------------------------


def system_messages(run: Run) -> list[str]:
    """Every systemMessage a hook printed, from the stream-json hook responses."""
    found = []
    for line in run.stdout.splitlines():
        try:
            event = json.loads(line)
            output = (
                json.loads(event.get("output") or "{}")
                if event.get("subtype") == "hook_response"
                else {}
            )
        except (ValueError, AttributeError):
            continue
        if isinstance(output, dict) and output.get("systemMessage"):
            found.append(str(output["systemMessage"]))
    return found


def plugin_name() -> str:
    return str(json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())["name"])


def assert_nudges_arrive(
    run_session: SessionRunner,
    project: Path,
    session_id: str,
    sidekit: Callable[..., str],
    **options: Path,
) -> None:
    sidekit("nudge", "--session", session_id, "[sidecar:scope] the task is api/**")
    run = run_session(PROMPT, [bash_nudge("[sidecar:tests] tests/test_a.py fails")], **options)
    # Both forms wire SessionStart, which delivers what waits in the queue before the first prompt.
    assert prompt_reminders(run.prompt_blocks()) == [
        reminder("SessionStart hook additional context", "[sidecar:scope] the task is api/**")
    ]
    assert split_result(result_text(run.tool_result(0))) == (
        NO_OUTPUT,
        [
            reminder(
                "PostToolUse:Bash hook additional context", "[sidecar:tests] tests/test_a.py fails"
            )
        ],
    )


def test_plugin_form_from_the_checkout(
    run_session: SessionRunner, project: Path, session_id: str, sidekit: Callable[..., str]
) -> None:
    """`--plugin-dir` = this repo: hooks/hooks.json runs hooks/run, which uses the checkout's
    .venv."""
    assert (REPO / ".venv" / "bin" / "python").exists(), (
        "./install.sh makes the .venv hooks/run uses"
    )
    assert_nudges_arrive(run_session, project, session_id, sidekit, plugin_dir=REPO)


def test_plugin_form_with_a_ready_plugin_data_venv(
    run_session: SessionRunner,
    project: Path,
    session_id: str,
    sidekit: Callable[..., str],
    tmp_path: Path,
) -> None:
    """A plugin copy without .venv finds the environment its bootstrap built in
    $CLAUDE_PLUGIN_DATA/venv."""
    plugin = plugin_copy(tmp_path / "plugin", *CHECKOUT_ONLY)
    home = tmp_path / "home"
    data = (
        home / ".claude" / "plugins" / "data" / f"{plugin_name()}-inline"
    )  # where the CLI points it
    venv.create(
        data / "venv", with_pip=False, symlinks=True
    )  # hooks run with -S: no packages needed
    (data / "venv" / ".sidekit-ready").touch()
    assert_nudges_arrive(run_session, project, session_id, sidekit, plugin_dir=plugin, home=home)
    assert not (
        data / "bootstrap.log"
    ).exists()  # the ready environment was used; no bootstrap started


def test_plugin_form_while_the_environment_builds_runs_on_the_standard_library(
    run_session: SessionRunner,
    project: Path,
    session_id: str,
    sidekit: Callable[..., str],
    tmp_path: Path,
) -> None:
    """First run of a fresh plugin (#18): its environment is still building, so the hooks run on the
    standard library meanwhile (a Python >= 3.11 on PATH) and never block."""
    plugin = plugin_copy(tmp_path / "plugin", *CHECKOUT_ONLY)
    (plugin / "hooks" / "bootstrap").write_text(
        "#!/bin/sh\nexit 0\n"
    )  # no pip install inside a test
    sidekit("nudge", "--session", session_id, "[sidecar:scope] waits for the environment")

    run = run_session(
        PROMPT, [ToolCall("Bash", {"command": "ls", "description": "list"})], plugin_dir=plugin
    )

    assert prompt_reminders(run.prompt_blocks()) == [
        reminder(
            "SessionStart hook additional context", "[sidecar:scope] waits for the environment"
        )
    ]
    assert split_result(result_text(run.tool_result(0)))[1] == []
    assert queue_files(project, session_id) == []
    # The person at the terminal is told once, with real paths (the agent's shell has no
    # $CLAUDE_PLUGIN_DATA).
    data = tmp_path / "home" / ".claude" / "plugins" / "data" / f"{plugin_name()}-inline"
    told = [m for m in system_messages(run) if "first run of this plugin" in m]
    assert told == [
        f"sidekit: first run of this plugin: building its Python environment in {data}/venv "
        "(usually under "
        f"a minute; progress: {data}/bootstrap.log). Meanwhile its hooks run on the standard "
        "library; "
        "what needs the environment comes once it is ready."
    ]
    assert run.count("first run of this plugin") == 0  # never the model's business


def test_sidekit_install_form(
    run_session: SessionRunner, project: Path, session_id: str, sidekit: Callable[..., str]
) -> None:
    """`sidekit install --project DIR` wires the same hooks into .claude/settings.json."""
    sidekit("install", "--project", str(project))
    assert_nudges_arrive(run_session, project, session_id, sidekit)


# --- detectors, through the real client
# ------------------------------------------------------------


def test_broken_rule_pack_does_not_disturb_the_session(
    run_session: SessionRunner, project: Path, session_id: str, sidekit: Callable[..., str]
) -> None:
    write_settings(project, sys.executable)
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "broken.toml").write_text(
        '[pack]\nname = "broken\n[[rules]\nid = 1\n'
    )
    (project / "src").mkdir()
    sidekit("nudge", "--session", session_id, "[sidecar:specs] see docs/spec.md")
    steps = [
        ToolCall(
            "Write",
            {"file_path": str(project / "src" / "app.py"), "content": "status_code = 400\n"},
        ),
        bash_nudge("[sidecar:tests] still arrives"),
    ]

    run = run_session(PROMPT, steps)

    assert prompt_reminders(run.prompt_blocks()) == [
        reminder("UserPromptSubmit hook additional context", "[sidecar:specs] see docs/spec.md")
    ]
    assert split_result(result_text(run.tool_result(1))) == (
        NO_OUTPUT,
        [reminder("PostToolUse:Bash hook additional context", "[sidecar:tests] still arrives")],
    )
    assert run.count("broken.toml") == 0  # a broken pack is the user's business, not the model's
    assert (project / "src" / "app.py").read_text() == "status_code = 400\n"


# --- the scope sidecar -----------------------------------------------

# What the scope sidecar says, exactly (its wording is pinned here so a change shows up in the real
# client).
READ_OUTSIDE = "[sidecar:scope] FYI: {path} is outside this task's scope; reading is fine, edits need the user's go-ahead."
WRITE_OUTSIDE = (
    "[sidecar:scope] {path} is outside this task's scope; if it must change, tell the user."
)
UTIL_READ = "1\tdef helper():\n2\t    return 1\n3"  # the Read tool's own text for lib/util.py


def updated(path: Path) -> str:
    return f"The file {path} has been updated successfully. (file state is current in your context — no need to Read it back)"


def scoped_project(project: Path, sidekit: Callable[..., str]) -> Path:
    """src/app.py in scope, lib/util.py outside it (`sidekit scope set --allow 'src/**'`); returns
    lib/util.py."""
    write_settings(project, sys.executable)
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("def main():\n    return 0\n")
    (project / "lib").mkdir()
    (project / "lib" / "util.py").write_text("def helper():\n    return 1\n")
    sidekit("scope", "set", "--allow", "src/**")
    return project / "lib" / "util.py"


def read_then_edit(path: Path, old: str, new: str) -> list[ToolCall]:
    return [
        ToolCall("Read", {"file_path": str(path)}),
        ToolCall("Edit", {"file_path": str(path), "old_string": old, "new_string": new}),
    ]


def test_an_out_of_scope_edit_gets_one_scope_nudge_and_a_read_none(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    util = scoped_project(project, sidekit)
    steps = read_then_edit(util, "return 1", "return 2")

    run = run_session(PROMPT, steps)

    # Reading outside the scope is fine and the session's primer names the scope: held back by
    # default.
    assert split_result(result_text(run.tool_result(0))) == (UTIL_READ, [])
    assert split_result(result_text(run.tool_result(1))) == (
        updated(util),
        [
            reminder(
                "PostToolUse:Edit hook additional context", WRITE_OUTSIDE.format(path="lib/util.py")
            )
        ],
    )
    assert prompt_reminders(run.prompt_blocks()) == []


def test_in_scope_work_gets_no_nudge(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    scoped_project(project, sidekit)
    target = project / "src" / "new.py"
    steps = [
        ToolCall("Read", {"file_path": str(project / "src" / "app.py")}),
        ToolCall("Write", {"file_path": str(target), "content": "VALUE = 1\n"}),
    ]

    run = run_session(PROMPT, steps)

    assert split_result(result_text(run.tool_result(0))) == (
        "1\tdef main():\n2\t    return 0\n3",
        [],
    )
    assert split_result(result_text(run.tool_result(1))) == (written(target), [])


def test_the_same_finding_twice_is_said_once(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    util = scoped_project(project, sidekit)
    steps = [
        *read_then_edit(util, "return 1", "return 2"),
        *read_then_edit(util, "return 2", "return 3"),
    ]

    run = run_session(PROMPT, steps)

    said = [split_result(result_text(run.tool_result(index)))[1] for index in range(4)]
    assert said == [
        [],
        [
            reminder(
                "PostToolUse:Edit hook additional context", WRITE_OUTSIDE.format(path="lib/util.py")
            )
        ],
        [],
        [],
    ]
    assert run.count(READ_OUTSIDE.format(path="lib/util.py")) == 0
    assert run.count(WRITE_OUTSIDE.format(path="lib/util.py")) == 1
    assert util.read_text() == "def helper():\n    return 3\n"


def test_broken_rule_pack_leaves_the_scope_nudge_alone(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    scoped_project(project, sidekit)
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "broken.toml").write_text(
        '[pack]\nname = "broken\n[[rules]\nid = 1\n'
    )
    target = project / "lib" / "extra.py"

    run = run_session(PROMPT, [ToolCall("Write", {"file_path": str(target), "content": "X = 1\n"})])

    assert split_result(result_text(run.tool_result(0))) == (
        written(target),
        [
            reminder(
                "PostToolUse:Write hook additional context",
                WRITE_OUTSIDE.format(path="lib/extra.py"),
            )
        ],
    )
    assert run.count("broken.toml") == 0


# --- the tools sidecar ----------------------------------------------


def test_tools_nudge_lands_next_to_the_bash_result(
    run_session: SessionRunner, project: Path
) -> None:
    write_settings(project, sys.executable)
    source = "".join(
        f"x{n} = {n}  # a long module: the hint speaks only after output of 2 KB or more\n"
        for n in range(40)
    )
    (project / "a.py").write_text(source)

    run = run_session(PROMPT, [ToolCall("Bash", {"command": "cat a.py", "description": "show"})])

    assert split_result(result_text(run.tool_result(0))) == (
        source.rstrip("\n"),
        [
            reminder(
                "PostToolUse:Bash hook additional context",
                "[sidecar:tools] `cat` of a.py: use the Read tool instead; it shows line numbers "
                "and pages long files "
                "without the shell.",
            )
        ],
    )


# --- project rule packs
# ----------------------------------------------------------------------------------

GOOD_PACK = pack(
    "acme-api",
    rule(
        STATUS_422,
        MESSAGE,
        tools=["Write", "Edit"],
        paths=["api/**/*.py"],
        added=r"status_code\s*=\s*400",
    ),
)


def test_broken_rule_pack_leaves_the_other_packs_working(
    run_session: SessionRunner, project: Path
) -> None:
    write_settings(project, sys.executable)
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "broken.toml").write_text(
        '[pack]\nname = "broken\n[[rules]\nid = 1\n'
    )
    (project / "sidecar_rules" / "acme.toml").write_text(GOOD_PACK)
    (project / "api").mkdir()
    target = project / "api" / "users.py"

    run = run_session(
        PROMPT, [ToolCall("Write", {"file_path": str(target), "content": "status_code = 400\n"})]
    )

    assert split_result(result_text(run.tool_result(0))) == (
        written(target),
        [
            reminder(
                "PostToolUse:Write hook additional context",
                "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400.",
            )
        ],
    )
    assert (
        run.count("broken.toml") == 0
    )  # the model never hears of it; the person does, once, and the log keeps it
    notices = [text for text in run.user_notices() if "broken.toml" in text]
    assert len(notices) == 1 and notices[0].startswith(
        "PostToolUse:Write says: sidekit: a broken rule pack was skipped (the others still apply): "
        "sidecar_rules/broken.toml:2: TOML syntax: "
    ), notices
    assert [record["where"] for record in run.hook_log] == [
        "rules:sidecar_rules/broken.toml"
    ]  # for `sidekit doctor`


# --- the commands sidekit suggests run in the agent's shell
# ---------------------------------------------


def path_without_sidekit() -> str:
    """The test's PATH minus every folder that holds a `sidekit` (the venv when it is activated)."""
    return os.pathsep.join(
        part
        for part in os.environ.get("PATH", "").split(os.pathsep)
        if part and not (Path(part) / "sidekit").exists()
    )


def test_suggested_commands_run_as_written_in_the_settings_form(
    run_session: SessionRunner, project: Path, sidekit: Callable[..., str]
) -> None:
    """`sidekit install --claude-md`: the block says `sidekit status`; the agent's Bash has no venv
    on PATH."""
    sidekit("install", "--project", str(project), "--claude-md")
    suggested = [
        line
        for line in (project / "CLAUDE.md").read_text().splitlines()
        if "`sidekit status`" in line
    ]
    assert suggested, "the CLAUDE.md block suggests `sidekit status`"
    steps = [
        ToolCall(
            "Bash",
            {"command": "command -v python3 pytest; sidekit status", "description": "status"},
        ),
        ToolCall("Bash", {"command": "sidekit usages main", "description": "usages"}),
    ]

    run = run_session(PROMPT, steps, env={"PATH": path_without_sidekit()})

    body, _ = split_result(result_text(run.tool_result(0)))
    assert "command not found" not in body and body.splitlines()[-1].startswith("{"), body
    assert (
        str(REPO / ".venv") not in body
    )  # the project's python3 and pytest are not shadowed by sidekit's venv
    assert run.tool_result(1).get("is_error") is False, result_text(run.tool_result(1))


def test_doctor_in_the_plugin_form_from_the_agents_shell(
    run_session: SessionRunner, project: Path
) -> None:
    """The agent runs `sidekit doctor` in a plugin-form session: the plugin is recognised, nothing
    to mend."""
    steps = [ToolCall("Bash", {"command": "sidekit doctor", "description": "doctor"})]

    run = run_session(PROMPT, steps, plugin_dir=REPO, env={"PATH": path_without_sidekit()})

    body, _ = split_result(result_text(run.tool_result(0)))
    assert f"ok       settings: wired as a plugin: {REPO} (this session's plugin)" in body, body
    assert "no problems found" in body and run.tool_result(0).get("is_error") is False, body
