"""What a session saved reaches the OpenTelemetry collector: a compacted run's raw output bytes and
the bytes the model got instead, on its log record and as two counters."""

from __future__ import annotations

from pathlib import Path

import pytest

from sidekit_hooks.core import hooklog
from sidekit_hooks.telemetry import worker
from testing.otlp import Receiver


def test_a_compacted_run_ships_its_raw_and_answer_bytes(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    compacted = {
        "session": "s1",
        "hook": "PostToolUseFailure",
        "sidecar": "tests",
        "decision": "compacted",
    }
    hooklog.append(
        str(project),
        hooklog.DECISIONS,
        {**compacted, "runner": "pytest", "runs": 1, "raw": 45922, "answer": 612},
    )
    hooklog.append(
        str(project),
        hooklog.DECISIONS,
        {**compacted, "runner": "go test", "runs": 2, "raw": 3751, "answer": 700},
    )
    with Receiver() as rx:
        monkeypatch.setenv("SIDEKIT_OTEL_ENDPOINT", rx.endpoint)
        result = worker.export(str(project))
    assert (result.ok, result.shipped) == (True, 2)
    assert [
        (
            r["attributes"]["sidekit.outcome"],
            r["attributes"]["sidekit.raw_bytes"],
            r["attributes"]["sidekit.answer_bytes"],
        )
        for r in rx.logs
    ] == [("compacted", 45922, 612), ("compacted", 3751, 700)]
    assert sum(v for _, v in rx.metrics["sidekit.tests.raw_bytes"]) == 45922 + 3751
    assert sum(v for _, v in rx.metrics["sidekit.tests.answer_bytes"]) == 612 + 700
    assert [a for a, _ in rx.metrics["sidekit.tests.raw_bytes"]] == [
        {"sidekit.sidecar": "tests", "sidekit.outcome": "compacted"}
    ]
