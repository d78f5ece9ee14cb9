"""The plugin form: .claude-plugin/plugin.json, hooks/hooks.json, hooks/run and hooks/bootstrap, run
the way Claude Code runs them (`sh -c` on the hooks.json command, CLAUDE_PLUGIN_ROOT/DATA in the
environment)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sidekit_hooks import __version__
from sidekit_hooks.cli.wiring import settings_merge
from testing.hooks import REPO, context_of, payload
from testing.runs import SIDEKIT, plugin_copy, through_sh, venv_with_pytest

STUB = """#!/bin/sh
# stands in for pip: records its arguments, takes its time, succeeds or fails as told
echo "$@" >> "$STUB_CALLS"
sleep "${STUB_SLEEP:-0}"
# STUB_HOLD: a file the test creates when the build may end (at most 60 s), however busy the machine
i=0
while [ -n "$STUB_HOLD" ] && [ ! -e "$STUB_HOLD" ] && [ "$i" -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
exit "${STUB_RC:-0}"
"""


def hooks_json() -> dict[str, object]:
    data: dict[str, object] = json.loads((REPO / "hooks" / "hooks.json").read_text())
    return data


def command_of(event: str) -> str:
    groups = hooks_json()["hooks"]
    assert isinstance(groups, dict)
    return str(groups[event][0]["hooks"][0]["command"])


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    """A fresh plugin install: a copy of the repo with no .venv, as a marketplace would leave it."""
    leave_out = (
        ".venv",
        ".git",
        "__pycache__",
        ".sidekit*",
        "tests",
        "*.egg-info",
        ".*_cache",
        ".hypothesis",
    )
    return plugin_copy(tmp_path / "plugin-root", *leave_out)


@pytest.fixture
def plugin_env(
    plugin: Path, tmp_path: Path, project: Path, clean_env: dict[str, str]
) -> dict[str, str]:
    stub = tmp_path / "fake-pip"
    stub.write_text(STUB)
    stub.chmod(0o755)
    return dict(
        clean_env,
        CLAUDE_PLUGIN_ROOT=str(plugin),
        CLAUDE_PLUGIN_DATA=str(tmp_path / "plugin-data"),
        CLAUDE_PROJECT_DIR=str(project),
        SIDEKIT_BOOTSTRAP_PIP=str(stub),
        STUB_CALLS=str(tmp_path / "pip-calls"),
    )


def run_plugin_hook(
    event: str, env: dict[str, str], project: Path, data: object
) -> subprocess.CompletedProcess[str]:
    return through_sh(command_of(event), data, cwd=project, env=env, timeout=30)


def mayor_says_rebase_first(project: Path, env: dict[str, str]) -> None:
    """`sidekit nudge` queues "rebase first" from the mayor for sess-1."""
    nudge = [
        "nudge",
        "--project",
        str(project),
        "--session",
        "sess-1",
        "--sender",
        "mayor",
        "rebase",
        "first",
    ]
    subprocess.run([*SIDEKIT, *nudge], check=True, env=env, capture_output=True)


def wait_for(path: Path, seconds: float = 20) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists():
            return True
        time.sleep(0.05)
    return path.exists()


def test_manifest_and_hooks_json_have_the_documented_shape() -> None:
    manifest = json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "sidekit-hooks"
    assert manifest["version"] == __version__
    assert (
        "hooks" not in manifest
    )  # hooks/hooks.json is found by convention; naming it too runs every hook twice
    data = hooks_json()
    assert set(data) == {"description", "hooks"}
    run = '"${CLAUDE_PLUGIN_ROOT}/hooks/run"'
    assert data["hooks"] == {
        event: [
            {
                **({"matcher": matcher} if matcher else {}),
                "hooks": [
                    {
                        "type": "command",
                        "command": f"{run} {script.removesuffix('.py')}",
                        "timeout": 5,
                    },
                ],
            }
        ]
        for event, (script, matcher) in settings_merge.EVENTS.items()
        if not event.startswith("PreToolUse")
    } | {  # two handlers: Claude Code takes one rule per `if`, and `npx jest` does not say "test"
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": f"{run} pre_tool_use test",
                        "timeout": 5,
                        "if": "Bash(*test*)",
                    },
                    {
                        "type": "command",
                        "command": f"{run} pre_tool_use jest",
                        "timeout": 5,
                        "if": "Bash(*jest*)",
                    },
                ],
            }
        ]
    }


def test_fresh_install_is_silent_returns_at_once_and_builds_in_the_background(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    data_dir = tmp_path / "plugin-data"
    hold = tmp_path / "build-may-end"
    env = dict(plugin_env, STUB_HOLD=str(hold))
    done = run_plugin_hook(
        "PostToolUse", env, project, payload("PostToolUse", project, tool_name="Read")
    )
    # It returned while the build is still going (held): the build holds none of the hook's pipes.
    assert (done.returncode, json.loads(done.stdout), done.stderr) == (
        0,
        {"systemMessage": building(data_dir)},
        "",
    )
    again = run_plugin_hook(
        "PostToolUse", env, project, payload("PostToolUse", project, tool_name="Read")
    )
    assert (again.returncode, again.stdout) == (0, "")  # said once
    assert not (data_dir / "venv" / ".sidekit-ready").exists()
    hold.touch()
    assert wait_for(data_dir / "venv" / ".sidekit-ready")
    assert wait_for_gone(data_dir / "bootstrap.lock")
    assert (
        tmp_path / "pip-calls"
    ).read_text() == f"{data_dir}/venv/bin/python {plugin_env['CLAUDE_PLUGIN_ROOT']}\n"
    log = (data_dir / "bootstrap.log").read_text().splitlines()
    assert log[0].endswith(
        f"building {data_dir}/venv with python3 from {plugin_env['CLAUDE_PLUGIN_ROOT']}"
    )
    assert log[-1].endswith(" ready")


def test_the_build_compiles_the_package_the_hooks_import(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    """The hooks import the plugin folder's own package; with PYTHONDONTWRITEBYTECODE set (common in
    containers) nothing would ever write its bytecode and every hook would compile it from source."""
    plugin = Path(plugin_env["CLAUDE_PLUGIN_ROOT"])
    env = dict(plugin_env, PYTHONDONTWRITEBYTECODE="1")
    run_plugin_hook("PostToolUse", env, project, payload("PostToolUse", project, tool_name="Read"))
    assert wait_for(tmp_path / "plugin-data" / "venv" / ".sidekit-ready")
    sources = sorted([*plugin.glob("sidekit_hooks/**/*.py"), *plugin.glob("hooks/*.py")])
    assert len(sources) > 100
    assert [
        str(source.relative_to(plugin))
        for source in sources
        if not Path(importlib.util.cache_from_source(str(source))).is_file()
    ] == []


def building(data_dir: Path) -> str:
    """What the user is told, once, while the first environment builds: real paths, no
    placeholders."""
    return (
        f"sidekit: first run of this plugin: building its Python environment in {data_dir}/venv "
        "(usually under a "
        f"minute; progress: {data_dir}/bootstrap.log). Meanwhile its hooks run on the standard "
        "library; what "
        "needs the environment comes once it is ready."
    )


def wait_for_gone(path: Path, seconds: float = 10) -> bool:
    end = time.monotonic() + seconds
    while path.exists() and time.monotonic() < end:
        time.sleep(0.05)
    return not path.exists()


def test_concurrent_first_hooks_build_once(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    env = dict(plugin_env, STUB_SLEEP="1")
    runs = [
        subprocess.Popen(
            ["/bin/sh", "-c", command_of("UserPromptSubmit")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=str(project),
        )
        for _ in range(4)
    ]
    outs = []
    for proc in runs:
        out, _ = proc.communicate(
            json.dumps(payload("UserPromptSubmit", project, prompt="hi")).encode(), timeout=30
        )
        assert proc.returncode == 0
        outs.append(out)
    assert sorted(outs)[:3] == [b""] * 3 and json.loads(sorted(outs)[3]) == {
        "systemMessage": building(tmp_path / "plugin-data")
    }  # exactly one of them says it
    assert wait_for(tmp_path / "plugin-data" / "venv" / ".sidekit-ready")
    assert wait_for_gone(tmp_path / "plugin-data" / "bootstrap.lock")
    assert len((tmp_path / "pip-calls").read_text().splitlines()) == 1


def test_a_failed_build_is_logged_and_not_retried_by_every_hook(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    env = dict(plugin_env, STUB_RC="1")
    data_dir = tmp_path / "plugin-data"
    run_plugin_hook("PostToolUse", env, project, payload("PostToolUse", project))
    assert wait_for(data_dir / "bootstrap.failed")
    assert wait_for_gone(data_dir / "bootstrap.lock")
    done = run_plugin_hook("PostToolUse", env, project, payload("PostToolUse", project))
    assert (done.returncode, done.stdout) == (0, "")
    time.sleep(0.5)
    assert len((tmp_path / "pip-calls").read_text().splitlines()) == 1
    assert (
        (data_dir / "bootstrap.log")
        .read_text()
        .splitlines()[-1]
        .endswith(" failed (see above); the next hook after 10 minutes tries again")
    )
    assert not (data_dir / "venv" / ".sidekit-ready").exists()


def test_with_a_ready_venv_the_hook_runs_and_delivers(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    run_plugin_hook(
        "UserPromptSubmit", plugin_env, project, payload("UserPromptSubmit", project, prompt="x")
    )
    assert wait_for(tmp_path / "plugin-data" / "venv" / ".sidekit-ready")
    mayor_says_rebase_first(project, plugin_env)
    for event in ("UserPromptSubmit", "PostToolUse"):
        done = run_plugin_hook(
            event, plugin_env, project, payload(event, project, prompt="go", tool_name="Read")
        )
        assert done.returncode == 0 and done.stderr == ""
        assert context_of(done.stdout) == (
            "[from mayor] rebase first" if event == "UserPromptSubmit" else ""
        )


def test_a_checkout_venv_is_used_directly(
    project: Path, clean_env: dict[str, str], tmp_path: Path
) -> None:
    env = dict(
        clean_env,
        CLAUDE_PLUGIN_ROOT=str(REPO),
        CLAUDE_PLUGIN_DATA=str(tmp_path / "unused"),
        CLAUDE_PROJECT_DIR=str(project),
    )
    done = run_plugin_hook(
        "PostToolUseFailure",
        env,
        project,
        payload("PostToolUseFailure", project, tool_name="Bash", error="Exit code 1"),
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert not (tmp_path / "unused").exists()


def test_an_unknown_hook_name_is_a_silent_no_op(
    plugin: Path, plugin_env: dict[str, str], project: Path
) -> None:
    done = subprocess.run(
        [str(plugin / "hooks" / "run"), "../../etc/passwd"],
        input="{}",
        capture_output=True,
        text=True,
        env=plugin_env,
        timeout=30,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_stale_lock_from_a_killed_build_does_not_block_forever(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    lock = tmp_path / "plugin-data" / "bootstrap.lock"
    lock.mkdir(parents=True)
    old = time.time() - 20 * 60
    os.utime(lock, (old, old))
    run_plugin_hook("PostToolUse", plugin_env, project, payload("PostToolUse", project))
    assert wait_for(tmp_path / "plugin-data" / "venv" / ".sidekit-ready")


def test_a_plugin_update_refreshes_the_venv_while_hooks_keep_running(
    plugin: Path, plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    ready = tmp_path / "plugin-data" / "venv" / ".sidekit-ready"
    run_plugin_hook("PostToolUse", plugin_env, project, payload("PostToolUse", project))
    assert wait_for(ready)
    assert wait_for_gone(tmp_path / "plugin-data" / "bootstrap.lock")
    past = time.time() - 60
    os.utime(ready, (past, past))
    (plugin / "pyproject.toml").touch()  # an update: its files are newer than the venv
    env = dict(plugin_env, STUB_SLEEP="1")
    done = run_plugin_hook(
        "PostToolUse", env, project, payload("PostToolUse", project, tool_name="Read")
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")  # served by the existing venv
    end = time.monotonic() + 20
    while len((tmp_path / "pip-calls").read_text().splitlines()) < 2 and time.monotonic() < end:
        time.sleep(0.05)
    assert len((tmp_path / "pip-calls").read_text().splitlines()) == 2
    assert wait_for_gone(tmp_path / "plugin-data" / "bootstrap.lock")
    assert ready.stat().st_mtime >= (plugin / "pyproject.toml").stat().st_mtime


def test_bin_sidekit_answers_the_agent_once_the_environment_is_ready(
    plugin: Path,
    plugin_env: dict[str, str],
    project: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
) -> None:
    agent_shell = dict(clean_env)  # the Bash tool's environment: no CLAUDE_PLUGIN_ROOT/DATA
    early = subprocess.run(
        [str(plugin / "bin" / "sidekit"), "--version"],
        capture_output=True,
        text=True,
        env=agent_shell,
        timeout=30,
    )
    assert (early.returncode, early.stdout) == (1, "")
    assert early.stderr.startswith("sidekit: the plugin's Python environment is not ready yet")
    run_plugin_hook("PostToolUse", plugin_env, project, payload("PostToolUse", project))
    assert wait_for(tmp_path / "plugin-data" / "venv" / ".sidekit-ready")
    done = subprocess.run(
        [str(plugin / "bin" / "sidekit"), "--version"],
        capture_output=True,
        text=True,
        env=agent_shell,
        timeout=30,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, f"sidekit {__version__}\n", "")
    assert os.readlink(plugin / ".plugin-venv") == str(tmp_path / "plugin-data" / "venv")


def git_project_with_venv(project: Path) -> Path:
    """A git work tree with its own .venv (no pip: the setup only writes a .pth into its
    site-packages)."""
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")], check=True
    )
    return project


def site_packages(venv: Path) -> Path:
    return next((venv / "lib").glob("python3*/site-packages"))


def test_the_first_session_sets_the_project_up_once_as_install_would(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    git_project_with_venv(project)
    start = payload("SessionStart", project, source="startup")
    run_plugin_hook(
        "SessionStart", plugin_env, project, start
    )  # the environment is building meanwhile
    assert wait_for(project / ".sidekit" / "plugin-setup.json")
    assert wait_for_gone(project / ".sidekit" / "plugin-setup.lock")
    assert (
        (project / ".git" / "info" / "exclude")
        .read_text()
        .endswith(
            "# sidekit-hooks: caches, logs, the nudge queue, settings "
            "backups\n.sidekit/\n.runtime/\n"
        )
    )
    assert not (project / ".gitignore").exists()  # nothing the project tracks changed
    pth = list(site_packages(project / ".venv").glob("sidekit-recorder-*.pth"))
    assert [p.read_text() for p in pth] == [f"{project / '.sidekit' / 'pytest-env'}\n"]
    from sidekit_hooks.runners.pytest import environments

    assert environments.records_in(str(project / ".venv"), str(project))
    said = [
        run_plugin_hook(
            "UserPromptSubmit",
            plugin_env,
            project,
            payload("UserPromptSubmit", project, prompt="x"),
        )
        for _ in range(2)
    ]
    notices = [
        json.loads(done.stdout).get("systemMessage", "") if done.stdout else "" for done in said
    ]
    assert notices[1] == ""  # once
    assert notices[
        0
    ] in (  # the first hook may also be the one that tells the environment is building
        SETUP_LINE,
        building(tmp_path / "plugin-data") + "\n" + SETUP_LINE,
    )
    exclude = (project / ".git" / "info" / "exclude").read_text()
    run_plugin_hook("SessionStart", plugin_env, project, start)  # a later session: nothing twice
    time.sleep(0.5)
    assert (project / ".git" / "info" / "exclude").read_text() == exclude
    assert not (project / ".sidekit" / "plugin-setup.say").exists()


SETUP_LINE = (
    "sidekit (plugin) set up this project once, as `sidekit install` would: git now ignores "
    ".sidekit/ and "
    ".runtime/ (.git/info/exclude); pytest in .venv: now records."
)


def test_the_setup_never_follows_a_link_out_of_the_project(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(outside / "venv")], check=True
    )
    (project / ".venv").symlink_to(
        outside / "venv"
    )  # the project's .venv is a link to an environment elsewhere
    (outside / "ignore").write_text("shared\n")
    (project / ".gitignore").symlink_to(outside / "ignore")
    run_plugin_hook(
        "SessionStart", plugin_env, project, payload("SessionStart", project, source="startup")
    )
    assert wait_for(project / ".sidekit" / "plugin-setup.json")
    assert wait_for_gone(project / ".sidekit" / "plugin-setup.lock")
    assert (outside / "ignore").read_text() == "shared\n" and (project / ".gitignore").is_symlink()
    assert list(site_packages(outside / "venv").glob("*.pth")) == []


def test_hooks_work_on_the_standard_library_while_the_environment_builds(
    plugin_env: dict[str, str], project: Path, tmp_path: Path
) -> None:
    env = dict(plugin_env, STUB_SLEEP="10")
    mayor_says_rebase_first(project, plugin_env)
    done = run_plugin_hook(
        "UserPromptSubmit", env, project, payload("UserPromptSubmit", project, prompt="go")
    )
    assert not (tmp_path / "plugin-data" / "venv" / ".sidekit-ready").exists()  # still building
    assert json.loads(done.stdout) == {
        "systemMessage": building(tmp_path / "plugin-data"),
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": "[from mayor] rebase first",
        },
    }


FORTY_RED = (
    "import pytest\n\n\n@pytest.mark.parametrize('n', range(40))\ndef test_red(n):\n    assert n "
    "< 0\n\n\n"
    "def test_green():\n    pass\n"
)


@pytest.mark.parametrize(
    ("command", "rewritten"),
    [
        (
            ".venv/bin/python -m pytest -q tests",
            True,
        ),  # compact: the long red output reaches the model short
        (".venv/bin/python -m pytest -q tests 2>&1 | tail -3", False),  # a pipe: left as written
        (".venv/bin/python -m pytest -q -s tests", False),  # live output asked for: left as written
    ],
)
def test_a_raw_run_in_the_first_turn_records_before_the_setup_has_wired_the_project(
    command: str,
    rewritten: bool,
    plugin: Path,
    plugin_env: dict[str, str],
    project: Path,
    tmp_path: Path,
    clean_env: dict[str, str],
) -> None:
    """The first turn of a plugin user's first session: the plugin's environment is still building
    (the hooks run on the standard library) and the setup worker has not wired the project's .venv
    yet (it holds its lock). The raw run is recorded all the same, as after `sidekit install`, and
    compacted where the rewrite applies: `sidekit status` tells its failures, never noRuns."""
    env = dict(plugin_env, STUB_SLEEP="10")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    venv_with_pytest(project / ".venv")
    (project / "tests").mkdir()
    (project / "tests" / "test_first.py").write_text(FORTY_RED)
    (project / ".sidekit").mkdir()
    (project / ".sidekit" / "plugin-setup.lock").write_text("4242")  # the setup worker is at work
    run_plugin_hook(
        "SessionStart", env, project, payload("SessionStart", project, source="startup")
    )
    bash = payload("PreToolUse", project, tool_name="Bash", tool_input={"command": command})
    pre = run_plugin_hook("PreToolUse", env, project, bash)
    assert not (tmp_path / "plugin-data" / "venv" / ".sidekit-ready").exists()  # still building
    assert not (project / ".sidekit" / "plugin-setup.json").exists()  # and not set up
    ran_as = f"{command} -o sidekit_compact=true" if rewritten else command
    answered = {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": ran_as}}
    }
    assert (pre.returncode, json.loads(pre.stdout) if pre.stdout else None) == (
        0,
        answered if rewritten else None,
    )
    ran = subprocess.run(
        ["/bin/sh", "-c", ran_as], cwd=project, env=clean_env, capture_output=True, text=True
    )
    assert ran.stdout.startswith("sidekit: pytest's output (") is rewritten, ran.stdout[:300]
    assert ("40 failed, 1 passed" in ran.stdout) is not rewritten
    # The agent's `sidekit` (the plugin's bin/, on its Bash PATH) answers on the standard library
    # meanwhile.
    asked = [str(plugin / "bin" / "sidekit"), "status"]
    status = subprocess.run(
        asked, cwd=project, env=clean_env, capture_output=True, text=True, timeout=60
    )
    answer = json.loads(status.stdout)
    assert {key: answer.get(key) for key in ("generation", "state", "failed", "passed")} == {
        "generation": 1,
        "state": "failed",
        "failed": 40,
        "passed": 1,
    }, status.stdout + status.stderr
    assert not (
        tmp_path / "plugin-data" / "venv" / ".sidekit-ready"
    ).exists()  # answered before it was ready
