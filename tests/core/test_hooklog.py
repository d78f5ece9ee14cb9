from __future__ import annotations

import os
from pathlib import Path

import pytest

from sidekit_hooks.core import hooklog


def test_the_decisions_log_keeps_its_rolled_over_files_and_reads_them_all(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hooklog, "MAX_BYTES", 2000)
    for number in range(300):
        hooklog.append(
            str(project), hooklog.DECISIONS, {"session": f"s{number:03d}", "decision": "fired"}
        )
    folder = project / ".sidekit" / "log"
    rolled = sorted(name for name in os.listdir(folder) if name.startswith("decisions.jsonl."))
    assert len(rolled) == 8  # 300 lines of about 60 bytes, rolled at 2,000 bytes
    records = hooklog.read(str(project), hooklog.DECISIONS, limit=1_000_000)
    assert [r["session"] for r in records] == [
        f"s{n:03d}" for n in range(300)
    ]  # none lost, oldest first


def test_the_error_log_keeps_one_older_file(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hooklog, "MAX_BYTES", 2000)
    for number in range(300):
        hooklog.append(str(project), hooklog.ERRORS, {"n": number})
    assert sorted(os.listdir(project / ".sidekit" / "log")) == ["hooks.jsonl", "hooks.jsonl.1"]
    records = hooklog.read(str(project), hooklog.ERRORS, limit=1_000_000)
    assert records[-1]["n"] == 299 and len(records) < 100
