"""Redaction everywhere (#19 Deliver 6): generated secrets planted in every field of every hook
payload never reach disk (logs, ledger, queue, caches) nor any output (hook answers, report,
queue)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from testing.examples import depths
from testing.hostile import ROOT, cli, env_for, payload

UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
ALNUM = "abcdefghijklmnopqrstuvwxyz" + UPPER
GLUE = ALNUM + "_-./:=\"' "

# (the planted text, the part that must never be seen again)
aws = st.builds(
    lambda head, body: (head + body, head + body),
    st.sampled_from(["AKIA", "ASIA", "AROA"]),
    st.text(UPPER, min_size=16, max_size=16),
)
github = st.builds(
    lambda kind, body: (f"gh{kind}_{body}", body),
    st.sampled_from("pousr"),
    st.text(ALNUM, min_size=36, max_size=40),
)
gitlab = st.builds(
    lambda body: ("glpat-" + body, body), st.text(ALNUM + "_-", min_size=20, max_size=24)
)
slack = st.builds(
    lambda kind, body: (f"xox{kind}-{body}", body),
    st.sampled_from("abposr"),
    st.text(ALNUM + "-", min_size=10, max_size=20).filter(lambda s: s.strip("-")),
)
assignment = st.builds(
    lambda key, value: (f"{key}={value}", value),
    st.sampled_from(["password", "DB_PASSWORD", "api_key", "client_secret", "AUTH_TOKEN"]),
    st.text(ALNUM, min_size=8, max_size=16),
)
SECRETS = st.one_of(aws, github, gitlab, slack, assignment)


def _redact_of_root() -> Any:
    """`redact` of the checkout under test (SIDEKIT_HOSTILE_ROOT too): the module stands alone."""
    spec = importlib.util.spec_from_file_location(
        "hostile_redact", ROOT / "sidekit_hooks" / "core" / "redact.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.redact


redact = _redact_of_root()


def no_secret_survives_redaction_whatever_surrounds_it(
    secret: tuple[str, str], before: str, after: str
) -> None:
    planted, hidden = secret
    kept = (
        before + planted.split(hidden)[0]
    )  # what stays of the text (`password=`): may not spell the secret
    assume(hidden not in kept and hidden not in after)
    assert hidden not in redact(before + planted + after)


@pytest.mark.parametrize("examples", depths(400, fast=80))
def test_no_secret_survives_redaction_whatever_surrounds_it(examples: int) -> None:
    settings(max_examples=examples, deadline=None)(
        given(SECRETS, st.text(GLUE, max_size=8), st.text(GLUE, max_size=8))(
            no_secret_survives_redaction_whatever_surrounds_it
        )
    )()


SCRIPTS = {
    "PostToolUse": "post_tool_use.py",
    "UserPromptSubmit": "user_prompt_submit.py",
    "Stop": "stop.py",
    "PreToolUse": "pre_tool_use.py",
}


def run_hook(event: str, project: Path, **fields: Any) -> str:
    """The hook's answer (stdout and stderr) to the event's payload in session sess-1, with
    `fields`."""
    import json

    data = payload(event, project, session_id="sess-1", **fields)
    done = subprocess.run(
        [sys.executable, "-S", str(ROOT / "hooks" / SCRIPTS[event])],
        input=json.dumps(data).encode(),
        capture_output=True,
        env=env_for(project),
        cwd=str(project),
        timeout=60,
    )
    return (done.stdout + done.stderr).decode("utf-8", "replace")


def everything_written(*folders: Path) -> str:
    """Every name and text sidekit wrote, but its code indexes: they list the repository's own file
    names (a file named like a secret is the user's), which `symbol` and `usages` must answer
    with."""
    seen = []
    for folder in folders:
        for base, dirs, files in os.walk(folder):
            if (Path(base).name == "code" and Path(base).parent.name == ".sidekit") or Path(
                base
            ).name == "functions":
                continue
            seen.extend(dirs)
            for name in files:
                seen.append(name)
                path = Path(base, name)
                if path.is_file() and not path.is_symlink() and path.suffix not in (".py",):
                    seen.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(seen)


@settings(
    max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), phases=(Phase.generate,)
)
@given(secrets=st.lists(SECRETS, min_size=8, max_size=8))
def test_secrets_planted_in_every_field_reach_no_disk_and_no_output(
    tmp_path_factory: pytest.TempPathFactory, secrets: list[tuple[str, str]]
) -> None:
    base = tmp_path_factory.mktemp("redaction")
    project = base / "proj"
    project.mkdir()
    plant = [s[0] for s in secrets]
    assert (
        cli(
            "scope",
            "set",
            "--allow",
            "api/**",
            "--project",
            str(project),
            project=project,
            cwd=base,
        ).returncode
        == 0
    )
    outside = (
        project / "other" / f"{plant[0]}.py"
    )  # a path that holds a secret, outside the scope: nudged
    outside.parent.mkdir()
    outside.write_text(f"TOKEN = '{plant[1]}'\n")
    session = "sess-1"
    edited = {
        "file_path": str(outside),
        "old_string": plant[4],
        "new_string": f"KEY = '{plant[5]}'",
    }
    grepped = {"command": f"grep -rn {plant[7]} other/{plant[0]}.py"}
    outputs = [
        run_hook("UserPromptSubmit", project, prompt=f"use {plant[2]}"),
        run_hook(
            "PreToolUse",
            project,
            tool_name="Bash",
            tool_input={"command": f"curl -H 'Authorization: {plant[3]}' x"},
        ),
        run_hook(
            "PostToolUse",
            project,
            tool_name="Edit",
            tool_use_id="t1",
            tool_input=edited,
            tool_response={"filePath": str(outside), "note": plant[6]},
        ),
        run_hook(
            "PostToolUse",
            project,
            tool_name="Bash",
            tool_use_id="t2",
            tool_input=grepped,
            tool_response={"stdout": plant[1], "stderr": ""},
        ),
        run_hook("Stop", project),
    ]
    for args in (
        ["report"],
        ["report", "--format", "json"],
        ["report", "--format", "html"],
        ["queue", "--session", session],
    ):
        done = cli(*args, "--project", str(project), project=project, cwd=base, timeout=180)
        outputs.append(done.stdout + done.stderr)
    (
        outside
    ).unlink()  # the user's own file holds the secrets, as planted; everything else must not
    written = everything_written(project, base / "cache") + "\n".join(outputs)
    for planted, hidden in secrets:
        assert hidden not in written, f"{planted!r} leaked"
