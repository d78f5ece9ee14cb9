"""`sidekit report`: fired, delivered and suppressed (by what), per sidecar and per rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sidekit_hooks.core import hooklog


def report(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sidekit_hooks.cli", "report", "--project", str(project), *args],
                          capture_output=True, text=True, timeout=30)


def log(project: Path, *records: dict[str, str]) -> None:
    for record in records:
        hooklog.append(str(project), hooklog.DECISIONS, record)


def seed(project: Path) -> None:
    spec = "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400."
    log(project,
        {"session": "s1", "sidecar": "specs", "rule": "acme.api.status-422", "decision": "fired", "text": spec},
        {"session": "s1", "sidecar": "specs", "decision": "delivered", "text": spec},
        {"session": "s1", "sidecar": "specs", "rule": "acme.api.status-422", "decision": "suppressed", "by": "duplicate", "text": spec},
        {"session": "s1", "sidecar": "scope", "decision": "fired", "text": "[sidecar:scope] a"},
        {"session": "s2", "sidecar": "scope", "decision": "fired", "text": "[sidecar:scope] b"},
        {"session": "s2", "sidecar": "scope", "decision": "delivered", "text": "[sidecar:scope] b"},
        {"session": "s2", "sidecar": "tools", "decision": "suppressed", "by": "cooldown", "text": "[sidecar:tools] c"},
        {"session": "s2", "sidecar": "tools", "decision": "suppressed", "by": "cap", "text": "[sidecar:tools] d"},
        {"session": "s2", "sidecar": "tools", "decision": "suppressed", "by": "cooldown", "text": "[sidecar:tools] e"})


def test_json_report(project: Path) -> None:
    seed(project)
    done = report(project, "--format", "json")
    assert json.loads(done.stdout) == {
        "decisions": 9, "sessions": 2,
        "sidecars": [
            {"sidecar": "scope", "fired": 2, "delivered": 1},
            {"sidecar": "specs", "fired": 1, "delivered": 1, "suppressed": {"duplicate": 1}},
            {"sidecar": "tools", "fired": 0, "delivered": 0, "suppressed": {"cooldown": 2, "cap": 1}},
        ],
        "rules": [{"rule": "acme.api.status-422", "sidecar": "specs", "fired": 1, "delivered": 1,
                   "suppressed": {"duplicate": 1}}],
    }


def test_text_report_and_session_filter(project: Path) -> None:
    seed(project)
    assert report(project).stdout == (
        "9 decisions in 2 session(s), from .sidekit/log/decisions.jsonl\n\n"
        "sidecar  fired  delivered  suppressed (by what)\n"
        "scope        2          1  0\n"
        "specs        1          1  1 (duplicate 1)\n"
        "tools        0          0  3 (cooldown 2, cap 1)\n\n"
        "rule                 sidecar  fired  delivered  suppressed (by what)\n"
        "acme.api.status-422    specs      1          1  1 (duplicate 1)\n"
    )
    assert json.loads(report(project, "--session", "s1", "--format", "json").stdout)["decisions"] == 4


def test_nothing_logged_says_how_to_start(project: Path) -> None:
    done = report(project)
    assert (done.returncode, done.stdout) == (0, (
        "No decisions logged yet (.sidekit/log/decisions.jsonl is empty or missing): the hooks have not run in "
        "this project.\n  fix: sidekit install --project DIR, or try `sidekit demo`\n"))
