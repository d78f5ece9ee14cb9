"""Every `sidekit` command: its help, a bad argument and a bug in it end cleanly, never in a
traceback."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from sidekit_hooks import cli
from testing.hooks import SIDEKIT

NAMES = sorted(cli.COMMANDS)


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as stop:  # argparse ends --help and bad arguments this way
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_every_command_in_the_table_has_a_module() -> None:
    assert sorted(cli._available()) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_help_exits_0_and_names_the_command(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, name, "--help")
    assert (code, err) == (0, "")
    assert out.startswith(f"usage: sidekit {name}")
    assert cli.COMMANDS[name][1] in " ".join(
        out.split()
    )  # the one-line summary, as `sidekit --help` lists it


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_argument_exits_2_with_the_usage(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(capsys, name, "--no-such-option")
    assert (code, out) == (2, "")
    assert err.startswith(f"usage: sidekit {name}")
    wrong, fix = err.splitlines()[-2:]
    assert wrong.startswith(f"sidekit {name}: error: ")
    # what is wrong: the option, or first the argument or sub-command the command cannot run without
    assert "--no-such-option" in wrong or "required" in wrong or "invalid choice" in wrong, wrong
    assert fix == f"  fix: sidekit {name} --help"  # ends with the command that shows what it takes
    assert "Traceback" not in err


def test_an_unknown_command_names_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_main(capsys, "nosuch") == (
        2,
        "",
        "sidekit: unknown command 'nosuch'\n  fix: sidekit --help\n",
    )


class Broken:
    @staticmethod
    def run(args: argparse.Namespace) -> int:
        raise ZeroDivisionError("a bug in sidekit")


def test_a_bug_exits_3_names_its_log_and_keeps_the_traceback_there(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.run_command(Broken, argparse.Namespace(project=str(project)))
    log = project / ".sidekit" / "log" / "cli-errors.log"
    assert code == 3
    assert capsys.readouterr().err == (
        "sidekit: unexpected error: ZeroDivisionError: a bug in sidekit\n"
        f"  details: {log}\n  fix: sidekit doctor, then report the details file\n"
    )
    assert "Traceback (most recent call last)" in log.read_text()
    assert 'raise ZeroDivisionError("a bug in sidekit")' in log.read_text()


def test_a_bug_never_creates_a_missing_project_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    missing = tmp_path / "no-such-project"
    assert cli.run_command(Broken, argparse.Namespace(project=str(missing))) == 3
    assert not missing.exists()
    assert (
        f"details: {tmp_path / 'state' / 'sidekit' / 'cli-errors.log'}" in capsys.readouterr().err
    )


def test_the_real_command_line_says_the_same(project: Path) -> None:
    done = subprocess.run(
        [*SIDEKIT, "status", "--no-such-option"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=project,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("usage: sidekit status") and "Traceback" not in done.stderr
    assert [sys.executable, "-m", "sidekit_hooks.cli"] == SIDEKIT
