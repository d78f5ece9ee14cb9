"""`sidekit report --fleet DIR...` (logs of several projects or machines merged) and `--export
otlp`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from sidekit_hooks.core import hooklog
from testing.otlp import Receiver

SPEC = "[sidecar:specs] Spec 4.1: 422, not 400."


def report(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", "report", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=env,
    )


def machine(root: Path, name: str, session: str, outcome: str) -> Path:
    project = root / name
    project.mkdir(parents=True)
    for record in (
        {
            "session": session,
            "sidecar": "specs",
            "rule": "acme.422",
            "key": "k",
            "decision": "fired",
            "text": SPEC,
        },
        {
            "session": session,
            "sidecar": "specs",
            "rule": "acme.422",
            "key": "k",
            "decision": "delivered",
            "text": SPEC,
        },
        {
            "session": session,
            "sidecar": "specs",
            "rule": "acme.422",
            "key": "k",
            "decision": "rechecked",
            "outcome": outcome,
            "text": SPEC,
        },
    ):
        hooklog.append(str(project), hooklog.DECISIONS, record)
    return project


def test_fleet_merges_projects_and_copied_log_folders(tmp_path: Path) -> None:
    first = machine(tmp_path / "a", "api", "s1", "fixed")
    second = machine(tmp_path / "b", "web", "s1", "still")  # the same session id on another machine
    copies = tmp_path / "copies" / "box-3"
    shutil.copytree(second / ".sidekit" / "log", copies / "log")
    done = report(tmp_path, "--fleet", str(first), str(tmp_path / "copies"), "--format", "json")
    answer = json.loads(done.stdout)
    assert (answer["decisions"], answer["sessions"]) == (6, 2)
    assert answer["fleet"] == [
        {"source": "api", "decisions": 3, "sessions": 1},
        {"source": "box-3", "decisions": 3, "sessions": 1},
    ]
    (rule,) = answer["rules"]
    assert (rule["fired"], rule["delivered"], rule["fixed"], rule["ignored"], rule["uptake"]) == (
        2,
        2,
        1,
        1,
        0.5,
    )
    text = report(tmp_path, "--fleet", str(first), str(second)).stdout
    assert text.splitlines()[:10] == [
        f"6 decisions in 2 session(s), from 2 log folder(s): {first}/.sidekit/log, "
        f"{second}/.sidekit/log",
        "Saved: no test run was compacted; the nudges added 78 B (~19 tokens) in 2 nudge(s).",
        "",
        "session  runs  raw B  answer B  saved B  ~tokens saved  nudges  nudge B",
        # one session per machine
        "api:s1      0      0         0        0              0       1       39",
        "web:s1      0      0         0        0              0       1       39",
        "",
        "source  decisions  sessions",
        "api             3  1",
        "web             3  1",
    ]
    html = report(tmp_path, "--fleet", str(first), str(second), "--format", "html").stdout
    assert html.startswith("<!DOCTYPE html>") and '"fleet":[{"source":"api"' in html.replace(
        " ", ""
    )


def test_fleet_without_logs_says_what_it_wants(tmp_path: Path) -> None:
    done = report(tmp_path, "--fleet", str(tmp_path))
    assert done.returncode != 0 and f"no decisions.jsonl under {tmp_path}" in done.stderr


def test_export_otlp_ships_and_says_so(tmp_path: Path, clean_env: dict[str, str]) -> None:
    project = machine(tmp_path, "api", "s1", "fixed")
    with Receiver() as rx:
        env = dict(clean_env, SIDEKIT_OTEL_ENDPOINT=rx.endpoint)
        done = report(project, "--export", "otlp", "--project", str(project), env=env)
        again = report(project, "--export", "otlp", "--project", str(project), env=env)
    assert (done.returncode, done.stdout) == (0, f"shipped 3 record(s) to {rx.endpoint}\n")
    assert again.stdout == f"shipped 0 record(s) to {rx.endpoint}\n"
    assert [r["attributes"]["sidekit.outcome"] for r in rx.logs] == ["fired", "delivered", "fixed"]
