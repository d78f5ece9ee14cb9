"""One event through `runtime.run`, in-process: what it costs the shared queue folder and the
ledger."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks import detectors
from sidekit_hooks.core.workspace import queue_root, session_queue_dir
from sidekit_hooks.nudges import session_ledger
from sidekit_hooks.nudges.findings import Finding
from sidekit_hooks.pipeline import runtime
from testing.hooks import edit


class OneFinding:
    name = "one-finding"
    hooks = frozenset({"PostToolUse"})

    def detect(self, event: object, ctx: object) -> list[Finding]:
        return [Finding("scope", "a.py is outside the scope.", key="scope:a.py")]


def counting(
    real: Callable[..., Any], seen: list[Any], wanted: Callable[..., bool]
) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if wanted(*args, **kwargs):
            seen.append(args)
        return real(*args, **kwargs)

    return wrapper


def test_a_delivered_finding_lists_the_queue_folder_at_most_twice_and_appends_the_ledger_once(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    folder = os.path.realpath(session_queue_dir(queue_root(str(project)), "sess-1"))

    def names_folder(path: object = ".", *_: object) -> bool:
        return isinstance(path, (str, os.PathLike)) and os.path.realpath(path) == folder

    listings: list[Any] = []
    appends: list[Any] = []
    monkeypatch.setattr(os, "listdir", counting(os.listdir, listings, names_folder))
    monkeypatch.setattr(os, "scandir", counting(os.scandir, listings, names_folder))
    monkeypatch.setattr(
        session_ledger, "append", counting(session_ledger.append, appends, lambda *a, **k: True)
    )
    detectors.register("one-finding", OneFinding())
    try:
        outcome = runtime.run(
            "PostToolUse", json.dumps(edit(project, "a.py", "x = 1", "x = 2", "x = 1\n"))
        )
    finally:
        detectors.unregister("one-finding")
        monkeypatch.undo()
    assert json.loads(outcome.output)["hookSpecificOutput"]["additionalContext"] == (
        "[sidecar:scope] a.py is outside the scope."
    )
    # Claimed, not yet removed: the hook removes the claim once the delivery is printed.
    assert [name.partition(".claimed.")[0] for name in os.listdir(folder)] == [
        held.name for held in outcome.claims
    ]
    assert len(listings) <= 2, listings
    assert len(appends) == 1, appends
    facts = [
        json.loads(line)
        for line in Path(session_ledger.path_of(str(project), "sess-1")).read_text().splitlines()
    ]
    assert [next(iter(fact)) for fact in facts] == ["call", "admit", "deliver", "spent"]
    assert facts[0] == {"call": "a.py"} and facts[2] == {"deliver": "scope:a.py"}


def test_an_event_with_no_finding_asks_once_whether_findings_wait(
    project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sidekit_hooks.nudges import policy

    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    asked: list[Any] = []
    monkeypatch.setattr(
        policy, "has_deferred", counting(policy.has_deferred, asked, lambda *a: True)
    )
    monkeypatch.setattr(detectors, "names", lambda hook=None: [])  # no detector: no finding
    outcome = runtime.run(
        "PostToolUse", json.dumps(edit(project, "a.py", "x = 1", "x = 2", "x = 1\n"))
    )
    assert outcome.output == "" and len(asked) == 1, asked
