"""Raw pytest through Bash in the real Claude Code CLI (2.1.328): what reached the model (#10).

The project is wired the README's way (`sidekit install --project`); the scripted model runs pytest
itself, as agents do. `python` on the agent's PATH is the environment sidekit runs from, so a plain
`python -m pytest` there records and can be compacted.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from testing.bash_runs import answer, bash_session
from testing.claude import Run
from testing.runs import CHECKOUT_ONLY, plugin_copy

LIB = "def term_len(x):\n    return len(x) if len(x) < 5 else int(x)\n"
ONE_CAUSE = textwrap.dedent("""\
    import pytest
    from lib import term_len

    @pytest.mark.parametrize("n", range(30))
    def test_len(n):
        assert term_len("abcdefgh"[: (n % 3) + 5]) > 0
""")
GREEN = "from lib import term_len\n\n\ndef test_short():\n    assert term_len('ab') == 2\n"
TIMING = re.compile(r" in \d+\.\d+s")


@pytest.fixture
def wired(project: Path, sidekit: Callable[..., str]) -> Path:
    (project / "pytest.ini").write_text(
        "[pytest]\naddopts = -p no:randomly -p no:hypothesispytest\n"
    )
    (project / "lib.py").write_text(LIB)
    (project / "tests").mkdir()
    (project / "tests" / "test_len.py").write_text(ONE_CAUSE)
    (project / "tests" / "test_ok.py").write_text(GREEN)
    sidekit("install", "--project", str(project))
    return project


def agent_env() -> dict[str, str]:
    """`python` on the agent's PATH is the interpreter of this test run (with pytest and
    sidekit)."""
    return {"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}


def session(
    claude_cli: Path, project: Path, tmp_path: Path, commands: list[str], **kwargs: Any
) -> Run:
    return bash_session(claude_cli, project, tmp_path / "home", commands, env=agent_env(), **kwargs)


def asking_session(
    claude_cli: Path, project: Path, tmp_path: Path, command: str, *flags: str
) -> Run:
    """One command in a session whose CLI asks before a tool runs: only what `flags` allow runs."""
    return session(
        claude_cli,
        project,
        tmp_path,
        [command],
        permissions=("--permission-mode", "default", *flags),
    )


def first_result(run: Run) -> tuple[dict[str, Any], str]:
    """The first tool result and its text without the hooks' reminders."""
    block, body, _ = answer(run, 0)
    return block, body


def local(project: Path, command: str) -> str:
    # The agent's shell has neither CI nor BUILD_NUMBER (clean_environment): without them here too,
    # pytest cuts its summary lines to the terminal's width on both sides, as it does not under CI.
    done = subprocess.run(
        command,
        shell=True,
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        env={
            **{
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("PYTEST_", "SIDEKIT_")) and k not in ("CI", "BUILD_NUMBER")
            },
            **agent_env(),
            "CLAUDE_PROJECT_DIR": str(project),
        },
    )
    return done.stdout + done.stderr


def test_a_red_run_reaches_the_model_compact_and_still_failed(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    run = session(
        claude_cli, wired, tmp_path, ["python -m pytest -q", "SIDEKIT_RAW=1 python -m pytest -q"]
    )
    (compact, body, reminders), (raw, raw_body, _) = answer(run, 0), answer(run, 1)
    assert compact["is_error"] is True and reminders == []
    assert len(body.encode()) <= 800, body
    assert body.startswith("Exit code 1\nsidekit: pytest's output (") and "exit code 1" in body
    assert (
        '"exit":1' in body
        and '"failed":30' in body
        and '"passed":1' in body
        and '"at":"lib.py:2"' in body
    )
    assert ".sidekit/pytest/raw-" in body
    assert (
        raw["is_error"] is True
        and "sidekit:" not in raw_body
        and len(raw_body.encode()) > 5 * len(body.encode())
    )
    print(f"\nmodel received {len(raw_body.encode())} B raw, {len(body.encode())} B compact")


def test_a_short_green_run_reaches_the_model_unchanged(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    command = "python -m pytest -q tests/test_ok.py"
    expected = local(wired, command)
    run = session(claude_cli, wired, tmp_path, [command])
    block, body = first_result(run)
    assert block.get("is_error") is not True
    assert TIMING.sub("", body) == TIMING.sub("", expected.strip("\n"))


def test_a_collection_error_is_an_error(claude_cli: Path, wired: Path, tmp_path: Path) -> None:
    for i in range(12):
        (wired / "tests" / f"test_broken_{i}.py").write_text("import no_such_module_anywhere\n")
    run = session(claude_cli, wired, tmp_path, ["python -m pytest -q"])
    block, body = first_result(run)
    assert block["is_error"] is True and body.startswith("Exit code 2\n") and '"exit":2' in body
    assert (
        "ModuleNotFoundError" in body and '"phase":"collect"' in body and len(body.encode()) <= 800
    )


def test_a_piped_run_is_untouched(claude_cli: Path, wired: Path, tmp_path: Path) -> None:
    command = "python -m pytest -q | tail -5"
    expected = local(wired, command)
    run = session(claude_cli, wired, tmp_path, [command])
    _, body = first_result(run)
    assert "sidekit" not in body and TIMING.sub("", body) == TIMING.sub("", expected.strip("\n"))


def test_an_allowed_pytest_stays_allowed_when_rewritten(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    run = asking_session(
        claude_cli,
        wired,
        tmp_path,
        "python -m pytest -q",
        "--allowedTools",
        "Bash(python -m pytest:*)",
    )
    block, body = first_result(run)
    assert block["is_error"] is True and body.startswith("Exit code 1\nsidekit: pytest's output (")
    assert '"failed":30' in body


def test_a_refused_pytest_stays_refused(claude_cli: Path, wired: Path, tmp_path: Path) -> None:
    refused = ("--allowedTools", "Bash", "--disallowedTools", "Bash(python -m pytest:*)")
    run = asking_session(claude_cli, wired, tmp_path, "python -m pytest -q", *refused)
    block, body = first_result(run)
    # Refused as the agent wrote it; the client's message names the command it judged (the rewritten
    # one).
    assert block["is_error"] is True and body == (
        "Permission to use Bash with command python -m pytest -q -o sidekit_compact=true has been "
        "denied."
    )
    assert (
        not (wired / ".sidekit" / "pytest").exists()
        and not (wired / ".sidekit" / "status.json").exists()
    )


def test_an_exact_deny_rule_keeps_the_command_as_written(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    with_rules(wired, deny=["Bash(python -m pytest -q)"])  # exact: appending would slip past it
    run = asking_session(
        claude_cli, wired, tmp_path, "python -m pytest -q", "--allowedTools", "Bash"
    )
    block, body = first_result(run)
    assert (
        block["is_error"] is True
        and body == "Permission to use Bash with command python -m pytest -q has been denied."
    )


# -- #19: the rewrite never changes a verdict (settings wildcards, the client's own flags, ask
# rules) -----


def integration_suite(project: Path) -> str:
    (project / "tests" / "integration").mkdir()
    (project / "tests" / "integration" / "test_int.py").write_text(ONE_CAUSE)
    return "python -m pytest -q tests/integration"


def with_rules(project: Path, **rules: list[str]) -> None:
    import json

    settings = project / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["permissions"] = rules
    settings.write_text(json.dumps(data))


def refusal(run: Run) -> str:
    block, body = first_result(run)
    assert block["is_error"] is True
    return body


def test_a_settings_wildcard_deny_that_does_not_name_pytest_still_refuses(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    command = integration_suite(wired)
    with_rules(wired, deny=["Bash(* tests/integration)"])
    run = asking_session(claude_cli, wired, tmp_path, command, "--allowedTools", "Bash")
    assert refusal(run) == f"Permission to use Bash with command {command} has been denied."
    assert not (wired / ".sidekit" / "pytest").exists()


def test_an_exact_allowed_tools_flag_still_allows_and_the_run_is_raw(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    command = "python -m pytest -q"
    run = asking_session(claude_cli, wired, tmp_path, command, "--allowedTools", f"Bash({command})")
    body = refusal(
        run
    )  # not a refusal: pytest's own failure, exit 1, as the raw run prints it (cut by the client)
    assert (
        body.startswith("Exit code 1\n")
        and "sidekit:" not in body
        and "characters truncated" in body
    )
    assert (
        not (wired / ".sidekit" / "pytest").exists()
        and (wired / ".sidekit" / "status.json").exists()
    )


def test_an_exact_disallowed_tools_flag_still_refuses(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    command = "python -m pytest -q"
    run = asking_session(
        claude_cli,
        wired,
        tmp_path,
        command,
        "--allowedTools",
        "Bash",
        "--disallowedTools",
        f"Bash({command})",
    )
    assert refusal(run) == f"Permission to use Bash with command {command} has been denied."
    assert (
        not (wired / ".sidekit" / "pytest").exists()
        and not (wired / ".sidekit" / "status.json").exists()
    )


def test_an_ask_rule_still_asks_for_the_command_as_written(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    command = integration_suite(wired)
    with_rules(wired, ask=["Bash(*integration)"])
    run = asking_session(claude_cli, wired, tmp_path, command, "--allowedTools", "Bash")
    # `-p` has nobody to ask: the client refuses. Rewritten, the command would have escaped the rule
    # and run.
    assert (
        refusal(run) == "Claude requested permissions to use Bash, but you haven't granted it yet."
    )
    assert not (wired / ".sidekit" / "pytest").exists()


# --- the plugin form (#18): no `sidekit install`, the plugin's environment still building
# ------------


def plugin_first_session(project: Path, tmp_path: Path) -> Path:
    """A plugin install whose environment never gets ready (the hooks run on the standard library),
    and a project with its own .venv (pytest from the base interpreter's packages, no sidekit) that
    `sidekit install` never wired; returns the plugin's folder."""
    plugin = plugin_copy(tmp_path / "plugin", *CHECKOUT_ONLY)
    (plugin / "hooks" / "bootstrap").write_text(
        "#!/bin/sh\nexit 0\n"
    )  # the environment never gets ready
    (project / "pytest.ini").write_text(
        "[pytest]\naddopts = -p no:randomly -p no:hypothesispytest\n"
    )
    (project / "lib.py").write_text(LIB)
    (project / "tests").mkdir()
    (project / "tests" / "test_len.py").write_text(ONE_CAUSE)
    (project / "tests" / "test_ok.py").write_text(GREEN)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    base = subprocess.run(
        ["python3", "-c", "import sys; print(sys.base_prefix)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    subprocess.run(
        [
            os.path.join(base, "bin", "python3"),
            "-m",
            "venv",
            "--without-pip",
            "--system-site-packages",
            str(project / ".venv"),
        ],
        check=True,
    )
    assert (
        subprocess.run(
            [str(project / ".venv" / "bin" / "python"), "-c", "import pytest"]
        ).returncode
        == 0
    )
    return plugin


def test_plugin_form_first_session_a_red_raw_run_reaches_the_model_compact(
    claude_cli: Path, project: Path, tmp_path: Path
) -> None:
    """A plugin user's very first session: the plugin's environment is still building (its bootstrap
    never finishes here), so the hooks run on the standard library; the project's own .venv was
    never wired by `sidekit install`. The red raw run still reaches the model as the compact answer,
    and .sidekit/ and .runtime/ end up git-ignored."""
    plugin = plugin_first_session(project, tmp_path)
    run = bash_session(
        claude_cli,
        project,
        tmp_path / "home",
        [".venv/bin/python -m pytest -q"],
        plugin_dir=plugin,
        pace=1.0,
    )
    block, body, reminders = answer(run, 0)
    assert block["is_error"] is True and reminders == []
    assert (
        body.startswith("Exit code 1\nsidekit: pytest's output (") and len(body.encode()) <= 800
    ), body
    assert '"failed":30' in body and '"passed":1' in body and '"at":"lib.py:2"' in body
    assert (project / ".git" / "info" / "exclude").read_text().endswith("\n.sidekit/\n.runtime/\n")


def test_plugin_form_first_turn_a_piped_raw_run_records_while_the_setup_is_still_at_work(
    claude_cli: Path, project: Path, tmp_path: Path
) -> None:
    """The same first session, with the setup worker not done yet (it holds its lock) when the first
    call is a raw run the rewrite leaves as written (a pipe): the run is recorded all the same, and
    the model's `sidekit status` right after it (the plugin's bin/, on the standard library while
    the environment builds) tells its failures, not noRuns."""
    plugin = plugin_first_session(project, tmp_path)
    (project / ".sidekit").mkdir()
    (project / ".sidekit" / "plugin-setup.lock").write_text("4242")
    command = ".venv/bin/python -m pytest -q 2>&1 | tail -1"
    run = bash_session(
        claude_cli,
        project,
        tmp_path / "home",
        [command, "sidekit status"],
        plugin_dir=plugin,
        pace=1.0,
    )
    assert TIMING.sub(" in 0.01s", answer(run, 0)[1]) == "30 failed, 1 passed in 0.01s"
    _, status, _ = answer(run, 1)
    assert status.startswith(
        '{"generation":1,"runner":"pytest","state":"failed","passed":1,"failed":30,'
    ), status
    assert not (project / ".sidekit" / "plugin-setup.json").exists()  # the worker never finished
