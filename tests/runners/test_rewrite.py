"""The PreToolUse rewrite of raw pytest commands: which forms are rewritten, which are left alone,
and that a rewrite only ever appends one plain pytest option to the command as written."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from sidekit_hooks.runners import dispatch, permissions
from sidekit_hooks.runners.pytest import environments
from sidekit_hooks.runners.pytest import rewrite as rewrite
from testing.pretool import SIDEKIT_MODULES, in_process, run_hook
from testing.runs import fake_venv

APPENDED = " -o sidekit_compact=true"


def wired_venv(project: Path, name: str = ".venv") -> Path:
    """A project venv that has the recorder wired in (what `sidekit install --project` leaves)."""
    env = project / name
    site = fake_venv(env)
    (site / environments.pth_name(str(project))).write_text(
        environments.shim_dir(str(project)) + "\n"
    )
    environments.write_shim(str(project))
    return env


@pytest.fixture
def proj(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in (
        "SIDEKIT_COMPACT_PYTEST",
        "UV_PROJECT_ENVIRONMENT",
        "VIRTUAL_ENV",
        "PYTEST_ADDOPTS",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
        "CLAUDE_PID",
        "CLAUDECODE",
        "CLAUDE_PROJECT_DIR",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(
        "HOME", str(project.parent / "home")
    )  # no user settings of whoever runs the tests
    wired_venv(project)
    (project / "sub").mkdir()
    monkeypatch.setenv("PATH", f"{project / '.venv' / 'bin'}{os.pathsep}/usr/bin:/bin")
    return project


@pytest.mark.parametrize(
    "command",
    [
        "pytest",
        "pytest -q tests",
        "py.test -x tests/test_a.py::test_b",
        "python -m pytest -q",
        "python3 -m pytest -q tests -k 'a and not b'",
        ".venv/bin/pytest -q",
        ".venv/bin/python -m pytest -q tests",
        "cd sub && ../.venv/bin/python -m pytest -q",
        "cd sub && cd .. && pytest -rs",
        "FOO=1 BAR=x pytest -q",
        "uv run pytest -q",
        "poetry run pytest",
        "uv run python -m pytest tests",
        "python -m pytest -q -n 2 --tb=short",
        "pytest -m 'not slow' -p xdist",
    ],
)
def test_rewritten_by_appending_one_option(proj: Path, command: str) -> None:
    (proj / "pyproject.toml").write_text('[project]\nname = "p"\n')
    assert rewrite.rewrite(command, str(proj), str(proj)) == command + APPENDED


@pytest.mark.parametrize(
    "command",
    [
        "pytest -q | tail -5",
        "pytest -q > out.txt",
        "pytest -q 2>&1",
        "pytest -q; echo done",
        "pytest -q || true",
        "pytest -q && echo ok",
        "pytest -q &",
        "pytest --collect-only -q",
        "pytest --co",
        "pytest --collectonly",
        "PYTEST_PLUGINS=x pytest -q",
        "pytest --help",
        "pytest --version",
        "pytest -s tests",
        "pytest -xs tests",
        "pytest --capture=no",
        "pytest --capture no",
        "pytest --pdb",
        "pytest --trace",
        "pytest -p no:sidekit",
        "SIDEKIT_RAW=1 pytest -q",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 pytest -q",
        "pytest $ARGS",
        "pytest -q  # the suite",
        "echo pytest",
        "grep -rn pytest .",
        "sidekit test",
        "python -c 'import pytest'",
        "cd - && pytest",
        "pytest -q -- -weird",
        "/usr/bin/env pytest",
        "pytest -q tests" + APPENDED,
    ],
)
def test_left_alone(proj: Path, command: str) -> None:
    assert rewrite.rewrite(command, str(proj), str(proj)) == ""


def test_left_alone_where_the_recorder_does_not_load(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = wired_venv(project)
    monkeypatch.setenv("PATH", f"{env / 'bin'}{os.pathsep}/usr/bin:/bin")
    assert rewrite.rewrite("pytest -q", str(project), str(project)) == "pytest -q" + APPENDED
    (Path(environments.shim_dir(str(project))) / "sidekit_hooks").unlink()
    assert (
        rewrite.rewrite("pytest -q", str(project), str(project)) == ""
    )  # sidekit moved: the -p would fail
    other = project / "other"
    (other / "bin").mkdir(parents=True)
    (other / "pyvenv.cfg").write_text("")
    (other / "bin" / "python").write_text("")
    assert (
        rewrite.rewrite(f"{other}/bin/python -m pytest", str(project), str(project)) == ""
    )  # not wired


def test_sidekits_own_environment_needs_no_wiring(project: Path) -> None:
    command = f"{sys.executable} -m pytest -q"
    assert rewrite.rewrite(command, str(project), str(project)) == command + APPENDED


def test_project_setting_and_environment_turn_it_off(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (proj / "pyproject.toml").write_text("[tool.sidekit]\ncompact-pytest = false\n")
    assert rewrite.rewrite("pytest -q", str(proj), str(proj)) == ""
    (proj / "pyproject.toml").write_text("[tool.sidekit]\ncompact-pytest = true\n")
    assert rewrite.rewrite("pytest -q", str(proj), str(proj)) == "pytest -q" + APPENDED
    monkeypatch.setenv("SIDEKIT_COMPACT_PYTEST", "0")
    assert rewrite.rewrite("pytest -q", str(proj), str(proj)) == ""


def test_the_hook_answers_updated_input_keeping_other_fields(
    proj: Path, clean_env: dict[str, str]
) -> None:
    command = f"cd {proj} && .venv/bin/python -m pytest -q tests"
    body = {
        "session_id": "s",
        "cwd": str(proj),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run the tests", "timeout": 60000},
        "tool_use_id": "t",
    }
    env = dict(clean_env, CLAUDE_PROJECT_DIR=str(proj), PATH=os.environ["PATH"])
    done = run_hook(body, env, proj)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": {
                "command": command + APPENDED,
                "description": "run the tests",
                "timeout": 60000,
            },
        }
    }
    body["tool_input"] = {"command": "ls -la"}
    done = run_hook(body, env, proj)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_a_non_pytest_bash_call_imports_nothing_of_the_runtime(
    project: Path, clean_env: dict[str, str]
) -> None:
    body = {"tool_name": "Bash", "tool_input": {"command": "git status"}}
    done = in_process(body, clean_env, project, then=SIDEKIT_MODULES)
    # the registry (standard library only) holds the trigger words; no adapter, no rewrite, no
    # runtime
    expected = "['sidekit_hooks', 'sidekit_hooks.pipeline', 'sidekit_hooks.pipeline.hook', 'sidekit_hooks.runners', 'sidekit_hooks.runners.words']"
    assert done.stdout.strip() == expected, done.stderr


def test_judging_a_pytest_call_imports_no_re_json_or_shlex(
    project: Path, clean_env: dict[str, str]
) -> None:
    """The rule check and the plugin check run on every pytest call: they stay off `re`/`json` (~10
    ms)."""
    command = f"{sys.executable} -m pytest -q"
    body = {"tool_name": "Bash", "cwd": str(project), "tool_input": {"command": command}}
    imported = "sorted(m for m in ('re', 'json', 'shlex', 'sidekit_hooks.runners.permissions') if m in sys.modules)"
    done = in_process(body, dict(clean_env, HOME=str(project.parent)), project, then=imported)
    assert "sidekit_compact" in done.stdout, done.stderr
    assert done.stdout.endswith("}}}['sidekit_hooks.runners.permissions']\n"), done.stderr


@pytest.mark.parametrize(
    ("rules", "rewritten"),
    [
        ({"deny": ["Bash(python -m pytest -q)"]}, False),  # exact: the rewrite would slip past it
        ({"allow": ["Bash(pytest -q tests)"]}, True),  # matches neither command: judges both alike
        ({"ask": ["Bash(py.test)"]}, True),
        ({"ask": ["Bash(* -q)"]}, False),  # a wildcard anchored at the end, naming no pytest
        ({"allow": ["Bash(python -m pytest:*)"], "deny": ["Bash(pytest --lf *)"]}, True),
        ({"allow": ["Bash(git status)", "Read"]}, True),
    ],
)
def test_only_rules_that_judge_both_alike_let_it_rewrite(
    proj: Path, rules: dict[str, list[str]], rewritten: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(permissions, "client_argv", lambda: [])  # no `claude` runs these tests
    (proj / ".claude").mkdir()
    (proj / ".claude" / "settings.local.json").write_text(json.dumps({"permissions": rules}))
    body = {"tool_name": "Bash", "cwd": str(proj), "tool_input": {"command": "python -m pytest -q"}}
    assert (
        rewrite.rewrite("python -m pytest -q", str(proj), str(proj))
        == "python -m pytest -q" + APPENDED
    )
    expected = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": {"command": "python -m pytest -q" + APPENDED},
        }
    }
    assert (json.loads(dispatch.pre_tool_use(body) or "null")) == (expected if rewritten else None)


def test_one_switch_turns_every_rewrite_off_and_the_old_pytest_one_still_works(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(permissions, "client_argv", lambda: [])
    body = {"tool_name": "Bash", "cwd": str(proj), "tool_input": {"command": "python -m pytest -q"}}
    said = json.loads(dispatch.pre_tool_use(body) or "null")
    assert said["hookSpecificOutput"]["updatedInput"] == {
        "command": "python -m pytest -q" + APPENDED
    }
    for name in (dispatch.OFF_ENV, rewrite.OLD_OFF_ENV):
        monkeypatch.setenv(name, "0")
        assert dispatch.pre_tool_use(body) == ""
        monkeypatch.delenv(name)


@pytest.mark.parametrize("tail", ["\r", "\v", "\f", "\u00a0", "\u2028", "\u3000"])
def test_only_the_shells_blanks_are_trimmed(proj: Path, tail: str) -> None:
    assert (
        rewrite.rewrite(f"pytest -q{tail}", str(proj), str(proj)) == f"pytest -q{tail}" + APPENDED
    )
    assert (
        rewrite.rewrite(f"pytest -q{tail} \t ", str(proj), str(proj))
        == f"pytest -q{tail}" + APPENDED
    )


def test_no_rewrite_where_the_plugin_will_not_load(
    proj: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (proj / "sub" / "pytest.ini").write_text("[pytest]\naddopts = -p no:sidekit\n")
    assert rewrite.rewrite("pytest -q", str(proj), str(proj)) == "pytest -q" + APPENDED
    assert rewrite.rewrite("cd sub && pytest -q", str(proj), str(proj)) == ""
    assert rewrite.rewrite("pytest -q sub/test_a.py", str(proj), str(proj)) == ""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert rewrite.rewrite("pytest -q", str(proj), str(proj)) == ""
    assert (
        rewrite.rewrite("pytest -q -p sidekit", str(proj), str(proj))
        == "pytest -q -p sidekit" + APPENDED
    )


def test_in_the_plugin_form_a_pytest_command_wires_the_project_first_even_when_left_as_written(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No `sidekit install` in the plugin form: a run the rewrite leaves alone (a pipe) records all
    the same."""
    site = fake_venv(project / ".venv")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    piped = {
        "tool_name": "Bash",
        "cwd": str(project),
        "tool_input": {"command": "pytest -q | tail -3"},
    }
    monkeypatch.delenv("CLAUDE_PLUGIN_ROOT", raising=False)
    assert (dispatch.pre_tool_use(piped), sorted(p.name for p in site.iterdir())) == (
        "",
        [],
    )  # settings form: install's job
    monkeypatch.setenv("CLAUDE_PLUGIN_ROOT", str(project.parent / "plugin"))
    assert dispatch.pre_tool_use(piped) == ""
    assert [p.name for p in site.iterdir()] == [environments.pth_name(str(project))]
    assert environments.records_in(str(project / ".venv"), str(project))
