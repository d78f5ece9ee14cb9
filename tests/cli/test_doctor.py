"""`sidekit doctor`, run as a user runs it: the real CLI in a subprocess against real settings
files."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks import __version__
from sidekit_hooks.cli.wiring import settings_merge
from sidekit_hooks.core import hooklog
from testing.hooks import REPO
from testing.runs import AGENT_PREFIXES, sidekit_at_home

PYTHON = os.path.abspath(sys.executable)
PY_VERSION = ".".join(map(str, sys.version_info[:3]))
CMD = {
    key: h["command"]
    for key, h in settings_merge.wanted_handlers(PYTHON, str(REPO / "hooks")).items()
}
VERSIONS = (
    f"sidekit {__version__}, Python {PY_VERSION}, pydantic {metadata.version('pydantic')}, "
    f"rapidfuzz {metadata.version('rapidfuzz')}, tomli-w {metadata.version('tomli-w')}"
)
RULES = "  ok       rule packs: every pack passes lint"
OTEL_OFF = "  info     otel export: off: no endpoint set (SIDEKIT_OTEL_ENDPOINT or the plugin's otel_endpoint)"
AGENT_SHELL = (
    "  ok       agent shell: `sidekit` runs in the agent's shell (SessionStart "
    "(.claude/settings.json) puts it on "
    f"PATH): sidekit {__version__}"
)


def sidekit(
    *args: str, home: Path, env_extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = sidekit_at_home(*args, home=home, drop=(*AGENT_PREFIXES, "SIDEKIT_P"), extra=env_extra)
    # Hook timings vary from run to run; everything else is asserted exactly.
    return subprocess.CompletedProcess(
        done.args, done.returncode, re.sub(r"\d+ ms", "N ms", done.stdout), done.stderr
    )


def lines_of(out: str) -> list[str]:
    return out.splitlines()


def write_settings(project: Path, data: dict[str, Any], name: str = "settings.json") -> Path:
    path = project / ".claude" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def wired(commands: dict[str, str], others: bool = True) -> dict[str, Any]:
    """Settings that wire `commands`, and (with `others`) every other event the way install does."""
    every = {**{key: CMD[key] for key in settings_merge.EVENTS if others}, **commands}
    hooks: dict[str, list[dict[str, Any]]] = {}
    for (
        key,
        command,
    ) in every.items():  # an event's second handler (PreToolUse:jest) joins its event's list
        group = {"matcher": "*", "hooks": [{"type": "command", "command": command, "timeout": 5}]}
        hooks.setdefault(settings_merge.event_of(key), []).append(group)
    return {"hooks": hooks}


def healthy_tail(project: Path) -> list[str]:
    tail = [
        "  ok       paths: .sidekit/ and .runtime/ stay inside the project",
        "  ok       state: .sidekit/ and .runtime/nudge_queue/ writable",
        f"  info     versions: {VERSIONS}",
    ]
    return (
        tail
        + [RULES]
        + [
            "  ok       code languages: grammars for ts, js, go, rust, java load",
            "  info     test cache: no pytest run recorded yet",
            f"  info     test interpreter: {PYTHON} (sidekit's own: no project environment"
            " found); override: --python PY",
            "  ok       hook deadline: no hook ran out of time in the last 24 h",
            mcp_line(project),
            OTEL_OFF,
            "  ok       hook log: no hook failures in the last 24 h",
        ]
    )


def mcp_line(project: Path) -> str:
    return (
        "  info     mcp: `sidekit mcp` lists 10 tools, first answer in N ms; not in .mcp.json "
        f"(add it: sidekit install --project {project} --mcp)"
    )


def test_a_sound_installation_reports_every_check_and_exits_0(project: Path, home: Path) -> None:
    sidekit("install", "--project", str(project), home=home)
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert lines_of(done.stdout) == [
        f"sidekit doctor: {project}",
        "  ok       settings: .claude/settings.json wires PostToolUse, PostToolUseFailure, "
        "UserPromptSubmit, PreToolUse, PreToolUse:jest, SessionStart, Stop, SubagentStop",
        f"  ok       interpreter: {PYTHON} (Python {PY_VERSION})",
        "  ok       hook runs: PostToolUse (.claude/settings.json): exit 0, valid output, N ms",
        "  ok       hook runs: PostToolUseFailure (.claude/settings.json): exit 0, valid output, "
        "N ms",
        *(
            f"  ok       hook runs: {event} (.claude/settings.json): exit 0, valid output, N ms"
            for event in (
                "UserPromptSubmit",
                "PreToolUse",
                "PreToolUse:jest",
                "SessionStart",
                "Stop",
                "SubagentStop",
            )
        ),
        AGENT_SHELL,
        *healthy_tail(project),
        "no problems found",
    ]
    assert not (project / ".runtime" / "nudge_queue" / "sidekit-doctor-probe").exists()


def test_no_wiring_is_a_problem_with_the_install_command(project: Path, home: Path) -> None:
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 1
    assert lines_of(done.stdout) == [
        f"sidekit doctor: {project}",
        "  PROBLEM  settings: no sidekit hook entries in .claude/settings.json, "
        ".claude/settings.local.json or "
        "~/.claude/settings.json",
        f"           fix: sidekit install --project {project}",
        *healthy_tail(project),
        "1 problem found",
    ]


def test_a_missing_interpreter_and_a_missing_script_are_named(project: Path, home: Path) -> None:
    write_settings(
        project,
        wired(
            {
                "PostToolUse": settings_merge.command_for(
                    "/gone/.venv/bin/python", str(REPO / "hooks" / "post_tool_use.py")
                ),
                "PostToolUseFailure": settings_merge.command_for(
                    PYTHON, "/gone/hooks/post_tool_use_failure.py"
                ),
                "UserPromptSubmit": CMD["UserPromptSubmit"],
            }
        ),
    )
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 1
    assert lines_of(done.stdout)[1:7] == [
        "  ok       settings: .claude/settings.json wires PostToolUse, PostToolUseFailure, "
        "UserPromptSubmit, PreToolUse, PreToolUse:jest, SessionStart, Stop, SubagentStop",
        "  PROBLEM  interpreter: /gone/.venv/bin/python (.claude/settings.json) does not exist",
        f"           fix: sidekit install --project {project}",
        f"  ok       interpreter: {PYTHON} (Python {PY_VERSION})",
        "  PROBLEM  hook script: PostToolUseFailure in .claude/settings.json runs "
        "/gone/hooks/post_tool_use_failure.py, which does not exist",
        f"           fix: sidekit install --project {project}",
    ]
    assert lines_of(done.stdout)[-1] == "2 problems found"


def test_a_hook_that_fails_or_prints_junk_is_caught_by_the_live_probe(
    project: Path, home: Path, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.py"
    junk.write_text("print('hello from a profile')\n")
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.exit('boom')\n")
    write_settings(
        project,
        wired(
            {
                "PostToolUse": settings_merge.command_for(PYTHON, str(junk)),
                "PostToolUseFailure": settings_merge.command_for(PYTHON, str(crash)),
                "UserPromptSubmit": CMD["UserPromptSubmit"],
            }
        ),
    )
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 1
    assert lines_of(done.stdout)[3:8] == [
        "  PROBLEM  hook runs: PostToolUse printed something other than one JSON object: 'hello "
        "from a profile\\n'",
        f"           fix: sidekit install --project {project}",
        "  PROBLEM  hook runs: PostToolUseFailure (.claude/settings.json) exited 1: boom",
        f"           fix: sidekit install --project {project}",
        "  ok       hook runs: UserPromptSubmit (.claude/settings.json): exit 0, valid output, N "
        "ms",
    ]


def test_missing_events_duplicates_and_disabled_hooks_are_problems(
    project: Path, home: Path
) -> None:
    write_settings(
        project,
        {"disableAllHooks": True, **wired({"PostToolUse": CMD["PostToolUse"]}, others=False)},
    )
    other = settings_merge.command_for(PYTHON, str(REPO / "hooks" / "post_tool_use.py")).replace(
        " -S ", " -S  "
    )
    write_settings(project, wired({"PostToolUse": other}, others=False), "settings.local.json")
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 1
    assert lines_of(done.stdout)[1:7] == [
        '  PROBLEM  settings: .claude/settings.json sets "disableAllHooks": true, so no hook runs',
        f'           fix: delete the "disableAllHooks" line from {project}/.claude/settings.json',
        "  PROBLEM  settings: PostToolUseFailure, UserPromptSubmit, PreToolUse, PreToolUse:jest, "
        "SessionStart, Stop, SubagentStop not wired"
        " (found in .claude/settings.json, "
        ".claude/settings.local.json)",
        f"           fix: sidekit install --project {project}",
        "  PROBLEM  settings: PostToolUse is wired more than once (.claude/settings.json, "
        ".claude/settings.local.json):"
        " nudges would come twice",
        f"           fix: sidekit uninstall --project {project} --local",
    ]


def test_plugin_wiring_counts_as_wired(project: Path, home: Path) -> None:
    write_settings(project, {"enabledPlugins": {"sidekit-hooks@team-tools": True, "other@x": True}})
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 0
    assert lines_of(done.stdout)[1] == (
        "  ok       settings: wired as a plugin: sidekit-hooks@team-tools (.claude/settings.json)"
    )


def test_invalid_settings_json_is_reported_with_its_fix(project: Path, home: Path) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json").write_text("{oops")
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 1
    path = project / ".claude" / "settings.local.json"
    assert lines_of(done.stdout)[1:3] == [
        f"  PROBLEM  settings: .claude/settings.local.json: {path} is not valid JSON (line 1, "
        "column 2: Expecting "
        "property name enclosed in double quotes); nothing was changed",
        f"           fix: repair it (python3 -m json.tool {path} points at the error), then: "
        "sidekit doctor "
        f"--project {project}",
    ]


def test_recent_hook_failures_are_problems_older_ones_are_history(
    project: Path, home: Path
) -> None:
    sidekit("install", "--project", str(project), home=home)
    log = project / ".sidekit" / "log" / "hooks.jsonl"
    log.parent.mkdir(parents=True)
    log.write_text(
        json.dumps(
            {"ts": time.time() - 3 * 86400, "hook": "PostToolUse", "where": "hook", "error": "old"}
        )
        + "\n"
    )
    assert lines_of(sidekit("doctor", "--project", str(project), home=home).stdout)[-2] == (
        "  ok       hook log: no hook failures in the last 24 h (1 older)"
    )
    hooklog.error(str(project), "UserPromptSubmit", "drain", "PermissionError: [Errno 13] denied")
    ts = json.loads(log.read_text().splitlines()[-1])["ts"]
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts))
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 1
    queue = project / ".runtime" / "nudge_queue"
    assert lines_of(done.stdout)[-3:] == [
        f"  PROBLEM  hook log: 1 hook failure in the last 24 h; newest {when} UserPromptSubmit "
        "drain: "
        "PermissionError: [Errno 13] denied",
        f"           fix: chmod -R u+w {queue}; then clear the log: rm {log}*",
        "1 problem found",
    ]


def test_an_unwritable_state_dir_is_a_problem(project: Path, home: Path) -> None:
    sidekit("install", "--project", str(project), home=home)
    (project / ".runtime").write_text("not a folder")
    done = sidekit("doctor", "--project", str(project), home=home)
    assert done.returncode == 1
    queue = project / ".runtime" / "nudge_queue"
    assert [
        line
        for line in lines_of(done.stdout)
        if "state:" in line or f"chmod -R u+w {queue}" in line
    ] == [
        f"  PROBLEM  state: {queue} is not writable (Not a directory)",
        f"           fix: chmod -R u+w {queue}",
    ]


def test_json_format_is_one_compact_line(project: Path, home: Path) -> None:
    done = sidekit("doctor", "--project", str(project), "--format", "json", home=home)
    assert done.returncode == 1
    assert done.stdout.count("\n") == 1 and " " not in done.stdout.split('"detail"')[0]
    answer = json.loads(done.stdout)
    assert answer["project"] == str(project)
    assert answer["problems"] == 1
    assert answer["checks"][0] == {
        "check": "settings",
        "status": "problem",
        "detail": "no sidekit hook entries in .claude/settings.json, .claude/settings.local.json "
        "or ~/.claude/settings.json",
        "fix": f"sidekit install --project {project}",
    }
    assert "fix" not in answer["checks"][1]  # empty fields are left out


def test_doctor_reports_a_corrupt_test_cache_and_map(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".sidekit" / "code").mkdir(parents=True)
    (project / ".sidekit" / "status.json").write_text("{not json")
    (project / ".sidekit" / "code" / "covers.json").write_text("[]")
    from sidekit_hooks.cli.commands import doctor

    checks = {check.name: check for check in doctor._cache_checks(str(project))}
    assert checks["test cache"] == doctor.Check(
        "test cache",
        "problem",
        "status.json is corrupt; the next pytest run rebuilds it",
        f"sidekit test --project {project}",
    )
    assert checks["test map"] == doctor.Check(
        "test map",
        "problem",
        ".sidekit/code/covers.json cannot be used",
        f"cd {project} && sidekit map",
    )


def test_doctor_reports_a_broken_rule_pack_with_the_lint_command(project: Path) -> None:
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "team.toml").write_text(
        '[pack]\nname = "team"\n\n[[rules]]\nid = "a"\nsidecar = "specs"\n'
    )
    from sidekit_hooks.cli.commands import doctor

    check = doctor._rule_packs_check(str(project))
    assert (check.name, check.status, check.fix) == ("rule packs", "problem", "sidekit rules lint")
    assert (
        check.detail
        == "sidecar_rules/team.toml:4: rules[0].message: required key is missing (+1 more)"
    )


def test_doctor_names_a_pack_linked_out_of_the_project_with_the_copy_that_mends_it(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    outside = tmp_path / "shared" / "team.toml"
    outside.parent.mkdir()
    outside.write_text('[pack]\nname = "team"\n')
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "team.toml").symlink_to(outside)
    from sidekit_hooks.cli.commands import doctor

    link = project / "sidecar_rules" / "team.toml"
    assert doctor._rule_packs_check(str(project)) == doctor.Check(
        "rule packs",
        "problem",
        "sidecar_rules/team.toml is not read: it leads outside the project or is not a regular "
        "file",
        f"copy the pack in (cp --remove-destination {outside} {link}), "
        f"or put it in {tmp_path / 'xdg' / 'sidekit' / 'rules'}/ for every project",
    )


# --- the plugin form and the agent's shell
# ---------------------------------------------------------

PLUGIN_ENV = {
    "SIDEKIT_PLUGIN_ROOT": str(REPO)
}  # what the plugin's SessionStart exports to the agent's shell


def test_doctor_in_the_plugin_form_recognises_it_and_finds_no_problem(
    project: Path, home: Path
) -> None:
    done = sidekit("doctor", "--project", str(project), home=home, env_extra=PLUGIN_ENV)
    assert done.returncode == 0, done.stdout
    assert lines_of(done.stdout)[:4] == [
        f"sidekit doctor: {project}",
        f"  ok       settings: wired as a plugin: {REPO} (this session's plugin)",
        f"  ok       plugin: PostToolUse ({REPO}/hooks/run): exit 0, valid output, N ms",
        f"  ok       agent shell: `sidekit` runs in the agent's shell (the plugin puts {REPO}/bin "
        "on its PATH): "
        f"sidekit {__version__}",
    ]
    assert "sidekit install" not in done.stdout  # installing as well would wire everything twice


def test_doctor_warns_when_both_forms_are_wired(project: Path, home: Path) -> None:
    sidekit("install", "--project", str(project), home=home)
    done = sidekit("doctor", "--project", str(project), home=home, env_extra=PLUGIN_ENV)
    assert done.returncode == 1
    twice = [line for line in lines_of(done.stdout) if "wired more than once" in line]
    assert twice[0] == (
        "  PROBLEM  settings: PostToolUse is wired more than once (.claude/settings.json and the "
        "plugin): "
        "nudges would come twice"
    )
    assert len(twice) == len(settings_merge.EVENTS)
    assert f"fix: sidekit uninstall --project {project}" in done.stdout


def test_an_old_wiring_without_session_start_leaves_sidekit_off_the_agents_path(
    project: Path, home: Path
) -> None:
    old = {event: CMD[event] for event in ("PostToolUse", "PostToolUseFailure", "UserPromptSubmit")}
    write_settings(project, wired(old, others=False))
    done = sidekit("doctor", "--project", str(project), home=home)
    assert (
        "  PROBLEM  agent shell: `sidekit` is not on the agent's PATH: no SessionStart hook puts "
        "it there" in lines_of(done.stdout)
    )


def test_doctor_outside_a_session_recognises_the_plugin_that_set_the_project_up(
    project: Path, home: Path
) -> None:
    (project / ".sidekit").mkdir()
    (project / ".sidekit" / "plugin-setup.json").write_text(
        json.dumps({"version": 1, "root": str(REPO)})
    )
    done = sidekit(
        "doctor", "--project", str(project), home=home
    )  # no SIDEKIT_PLUGIN_ROOT: not in a session
    assert lines_of(done.stdout)[1] == (
        f"  ok       settings: wired as a plugin: {REPO} (the plugin that set this project up)"
    )
    assert (
        f"sidekit install --project {project}" not in done.stdout
    )  # never told to wire the settings form too


def test_sidekits_own_links_pass_and_recording_keeps_working(project: Path, home: Path) -> None:
    """The recorder shim (`install --recorder-only`) and `sidekit test`'s path shim link to
    sidekit's package outside the project: doctor passes them (its old fix, rm, stopped the
    recording)."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")], check=True
    )
    sidekit("install", "--project", str(project), "--recorder-only", home=home)
    (project / ".sidekit" / "pyshim").mkdir()
    (project / ".sidekit" / "pyshim" / "sidekit_hooks").symlink_to(REPO / "sidekit_hooks")
    assert os.path.islink(project / ".sidekit" / "pytest-env" / "sidekit_hooks")
    done = sidekit("doctor", "--project", str(project), home=home)
    assert "  ok       paths: .sidekit/ and .runtime/ stay inside the project" in lines_of(
        done.stdout
    )


def test_a_recorder_link_to_something_else_is_mended_by_rewiring_not_removed(
    project: Path, home: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / ".sidekit" / "pytest-env").mkdir(parents=True)
    (project / ".sidekit" / "pytest-env" / "sidekit_hooks").symlink_to(elsewhere)
    done = sidekit("doctor", "--project", str(project), home=home)
    lines = lines_of(done.stdout)
    at = lines.index(
        f"  PROBLEM  paths: .sidekit/pytest-env/sidekit_hooks -> {elsewhere} leads outside the "
        "project; "
        "sidekit refuses to use it"
    )
    assert lines[at + 1] == (
        f"           fix: sidekit install --project {project} --recorder-only (points it at this "
        "sidekit again)"
    )


def test_doctor_says_which_path_answered_the_events_wired_twice(project: Path) -> None:
    from sidekit_hooks.cli.commands import doctor
    from sidekit_hooks.pipeline import claim

    assert doctor._warm_path_check(str(project)) is None  # nothing wired to the warm path
    warm = claim.event_key("PostToolUse", {"session_id": "s", "tool_use_id": "toolu_1"})
    assert claim.claim(str(project), warm, claim.WARM) and claim.commit(str(project), warm)
    time.sleep(0.01)
    command = claim.event_key("PostToolUse", {"session_id": "s", "tool_use_id": "toolu_2"})
    assert claim.claim(str(project), command, claim.COMMAND)
    assert doctor._warm_path_check(str(project)) == doctor.Check(
        "warm path",
        "info",
        "events of the last hour: 1 by the warm server, 1 by the command hook; the newest by the "
        "command hook",
    )
