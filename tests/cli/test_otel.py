"""`sidekit otel status|trust|list` and doctor's `otel export` line, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from sidekit_hooks.cli.commands import doctor
from testing.hooks import run_sidekit

URL = "http://127.0.0.1:4318"


@pytest.fixture
def env(project: Path, tmp_path: Path, clean_env: dict[str, str]) -> dict[str, str]:
    (project / "pyproject.toml").write_text(
        f'[project]\nname = "x"\n\n[tool.sidekit]\notel-endpoint = "{URL}"\n'
    )
    found = {k: v for k, v in clean_env.items() if not k.startswith("CLAUDE_PLUGIN_OPTION")}
    return dict(found, XDG_CONFIG_HOME=str(tmp_path / "xdg"))


def otel(
    project: Path, env: dict[str, str], *args: str, **extra: str
) -> subprocess.CompletedProcess[str]:
    return run_sidekit(
        "otel", *args, "--project", str(project), cwd=project, env=dict(env, **extra)
    )


def answer(done: subprocess.CompletedProcess[str]) -> object:
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return json.loads(done.stdout)


def test_status_names_the_untrusted_endpoint_and_the_command_that_trusts_it(
    project: Path, env: dict[str, str]
) -> None:
    assert answer(otel(project, env, "status")) == {
        "export": "off",
        "projectEndpoint": URL,
        "trust": f"sidekit otel trust --project {project} {URL}",
    }


def test_trust_then_status_then_revoke(project: Path, env: dict[str, str], tmp_path: Path) -> None:
    trust_file = tmp_path / "xdg" / "sidekit" / "trust.json"
    real = os.path.realpath(project)
    assert answer(otel(project, env, "trust", URL)) == {
        "trusted": URL,
        "project": real,
        "trustFile": str(trust_file),
    }
    assert answer(otel(project, env, "status")) == {
        "export": "on",
        "endpoint": URL,
        "source": "project",
    }
    listed = run_sidekit("otel", "list", cwd=project, env=env)
    assert answer(listed) == {
        "trustFile": str(trust_file),
        "trusted": [{"project": real, "endpoint": URL}],
    }
    assert answer(otel(project, env, "trust", "--revoke")) == {"project": real, "revoked": [URL]}
    assert answer(otel(project, env, "trust", "--revoke")) == {
        "project": real,
        "revoked": "nothing",
    }
    assert answer(otel(project, env, "status"))["export"] == "off"  # type: ignore[index]


def test_the_users_own_endpoint_wins_and_its_headers_are_named_not_shown(
    project: Path, env: dict[str, str]
) -> None:
    otel(project, env, "trust", URL)
    done = otel(
        project,
        env,
        "status",
        SIDEKIT_OTEL_ENDPOINT="http://mine:4318",
        SIDEKIT_OTEL_HEADERS="authorization=t0k",
    )
    assert answer(done) == {
        "export": "on",
        "endpoint": "http://mine:4318",
        "source": "env",
        "headers": ["authorization"],
        "projectEndpoint": URL,
        "projectEndpointTrusted": True,
    }


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ("trust",),
            "sidekit: name the endpoint you accept: {pyproject} names {url}\n"
            "  fix: check that {url} is your collector, then: sidekit otel trust --project "
            "{project} {url}\n",
        ),
        (
            ("trust", "http://elsewhere:4318"),
            "sidekit: {pyproject} names {url}, not http://elsewhere:4318; nothing was trusted\n"
            "  fix: check that {url} is your collector, then: sidekit otel trust --project "
            "{project} {url}\n",
        ),
        (
            ("trust", "--revoke", URL),
            "sidekit: --revoke takes no endpoint: it forgets the one accepted for this project\n"
            "  fix: sidekit otel trust --revoke\n",
        ),
    ],
)
def test_a_wrong_trust_is_a_clear_error_and_trusts_nothing(
    project: Path, env: dict[str, str], tmp_path: Path, args: tuple[str, ...], error: str
) -> None:
    done = otel(project, env, *args)
    pyproject = project / "pyproject.toml"
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == error.format(pyproject=pyproject, url=URL, project=project)
    assert not (tmp_path / "xdg" / "sidekit" / "trust.json").exists()


def test_nothing_to_trust_says_where_the_users_endpoint_goes(
    project: Path, env: dict[str, str]
) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n')
    done = otel(project, env, "trust", URL)
    assert (done.returncode, done.stderr) == (
        1,
        f"sidekit: {project / 'pyproject.toml'} names no [tool.sidekit] otel-endpoint: there is "
        "nothing to trust\n"
        "  fix: for your own collector set SIDEKIT_OTEL_ENDPOINT (docs/fleets.md)\n",
    )


def test_doctor_shows_the_export_and_where_it_came_from(
    project: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    check = doctor._export_check(str(project))
    assert (check.status, check.detail, check.fix) == (
        "info",
        f"off: pyproject.toml names {URL}, ignored until you trust it for this project",
        f"sidekit otel trust --project {project} {URL}",
    )
    otel(project, env, "trust", URL)
    check = doctor._export_check(str(project))
    assert (
        check.detail == f"on: to {URL}, from pyproject.toml [tool.sidekit] otel-endpoint, trusted"
    )
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT", "http://plugin:4318")
    monkeypatch.setenv("CLAUDE_PLUGIN_OPTION_OTEL_HEADERS", "x-team=web")
    check = doctor._export_check(str(project))
    assert check.detail == (
        f"on: to http://plugin:4318, from the plugin's otel_endpoint option (headers: x-team); "
        f"pyproject.toml's {URL} is not used (yours wins)"
    )
    monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", "http://env:4318")
    assert doctor._export_check(str(project)).detail.startswith(
        "on: to http://env:4318, from SIDEKIT_OTEL_ENDPOINT;"
    )
