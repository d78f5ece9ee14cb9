"""True at delivery (#18 item 1): a finding is re-checked when it goes out, not only when it was
found.

Through the real hook entry points (subprocesses), on status caches a real pytest run wrote: the
wave-2 bug was a cooldown-deferred tests finding ("1 test that failed in the last run lives in
...number.py") delivered right after a green full-suite run, because only the file was re-checked.
The property test drives interleavings of edit, red run, green run, the cooldown passing and a
prompt, and checks every tests line any hook prints against the cache at that moment.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sidekit_hooks.detectors.scope.model import Scope, save
from sidekit_hooks.nudges import queue
from testing.acme import PACK as SPEC_PACK
from testing.examples import depths
from testing.hooks import HOOK_SCRIPTS, bash, context_of, edit, payload, write

RED = "def fmt(value):\n    raise ValueError('no format for ' + repr(value))\n"
GREEN = "def fmt(value):\n    return f'{value:.2f}'\n"
TEST = "from pkg.number import fmt\n\n\ndef test_fmt():\n    assert fmt(1) == '1.00'\n"
SOURCE = "src/pkg/number.py"
EDIT_LINE = "[sidecar:tests] 1 test that failed in the last run passes through src/pkg/number.py"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "GT_", "CLAUDE_"))}
    env.pop("TMUX_PANE", None)
    env.pop("SIDEKIT_DISABLE", None)
    return env


def _layout(root: Path, source: str) -> None:
    (root / "src" / "pkg").mkdir(parents=True, exist_ok=True)
    (root / "src" / "pkg" / "__init__.py").write_text("")
    (root / SOURCE).write_text(source)
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests" / "test_number.py").write_text(TEST)
    (root / "pytest.ini").write_text("[pytest]\npythonpath = src\n")


@pytest.fixture(scope="module")
def caches(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """The cache files (status.json, status-tests.json) of one real red run and one real green
    run."""
    out: dict[str, dict[str, str]] = {}
    for name, source in (("red", RED), ("green", GREEN)):
        root = tmp_path_factory.mktemp(name)
        _layout(root, source)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:hypothesispytest",
                "-p",
                "no:randomly",
            ],
            cwd=root,
            env=_env(),
            capture_output=True,
            check=False,
            timeout=120,
        )
        out[name] = {
            file: (root / ".sidekit" / file).read_text()
            for file in ("status.json", "status-tests.json")
        }
    assert json.loads(out["red"]["status.json"])["failing"] == 1
    assert json.loads(out["green"]["status.json"])["failing"] == 0
    return out


class Session:
    """One project and one agent session, driven hook by hook."""

    def __init__(self, root: Path, caches: dict[str, dict[str, str]]) -> None:
        self.root = root
        self.caches = caches
        self.generation = 0
        self.red = False
        self.edits = 0
        self.said: list[
            tuple[str, str, bool]
        ] = []  # (step, line, the cache was red when it was said)
        _layout(root, RED)

    def hook(self, event: str, body: dict[str, Any]) -> str:
        env = dict(
            _env(),
            CLAUDE_PROJECT_DIR=str(self.root),
            SIDEKIT_CACHE_DIR=str(self.root.parent / "cache"),
        )
        done = subprocess.run(
            [sys.executable, "-S", str(HOOK_SCRIPTS[event])],
            input=json.dumps(body).encode(),
            capture_output=True,
            env=env,
            cwd=str(self.root),
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        text = context_of(done.stdout.decode())
        self.said += [(event, line, self.red) for line in text.splitlines() if line]
        return text

    def run(self, colour: str) -> str:
        """A raw pytest run: the recorder rewrites the cache (a new generation), then the Bash hook
        fires."""
        self.generation += 1
        moment = time.time()
        folder = self.root / ".sidekit"
        folder.mkdir(exist_ok=True)
        for file, text in self.caches[colour].items():
            data = json.loads(text)
            data["generation"] = self.generation
            if "run" in data:
                data["run"].update(started=moment - 0.5, finished=moment)
            (folder / file).write_text(json.dumps(data))
        self.red = colour == "red"
        command = "python -m pytest -q"
        if self.red:
            return self.hook(
                "PostToolUseFailure",
                bash(self.root, command, error="Exit code 1\n1 failed in 0.05s"),
            )
        return self.hook("PostToolUse", bash(self.root, command, stdout="1 passed in 0.04s"))

    def edit(self) -> str:
        self.edits += 1
        before = (self.root / SOURCE).read_text()
        after = before + f"# edit {self.edits}\n"
        (self.root / SOURCE).write_text(after)
        return self.hook("PostToolUse", edit(self.root, SOURCE, before, after, before))

    def wait(self) -> str:
        """The cooldown passes: the session's clocks move back a minute (no sleeping in tests)."""
        path = self.root / ".sidekit" / "state" / "sess-1" / "policy.json"
        if path.exists():
            state = json.loads(path.read_text())
            state["last"] = {key: value - 60 for key, value in state.get("last", {}).items()}
            for item in state.get("deferred", {}).values():
                item["since"] -= 60
            path.write_text(json.dumps(state))
        return ""

    def prompt(self) -> str:
        return self.hook("UserPromptSubmit", payload("UserPromptSubmit", self.root, prompt="go on"))

    def wrong(self) -> list[tuple[str, str]]:
        """Tests lines said while the cache they speak of was green."""
        return [
            (step, line)
            for step, line, red in self.said
            if line.startswith("[sidecar:tests]") and not red
        ]


@pytest.fixture
def session(caches: dict[str, dict[str, str]], tmp_path: Path) -> Session:
    (tmp_path / "proj").mkdir()
    return Session(tmp_path / "proj", caches)


def decided(root: Path) -> list[dict[str, Any]]:
    path = root / ".sidekit" / "log" / "decisions.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_deferred_tests_finding_is_dropped_as_moot_after_a_green_run(session: Session) -> None:
    assert session.run("red").startswith(
        "[sidecar:tests] pytest: 1 failed; 1 root cause; biggest: ValueError"
    )
    assert (
        session.edit() == ""
    )  # the tests sidecar spoke a moment ago: the finding waits out its cooldown
    deferred = [row for row in decided(session.root) if row.get("by") == "deferred"]
    assert [row["text"][: len(EDIT_LINE)] for row in deferred] == [EDIT_LINE]
    session.run("green")
    session.wait()
    assert session.prompt() == ""
    assert session.wrong() == []
    moot = [row for row in decided(session.root) if row.get("by") == "moot"]
    assert [(row["sidecar"], row["key"]) for row in moot] == [("tests", deferred[0]["key"])]


def test_a_deferred_tests_finding_still_true_goes_out_after_the_cooldown(session: Session) -> None:
    session.run("red")
    session.edit()
    # the same failure again: the recorder keeps the generation (nothing changed)
    session.generation -= 1
    session.run("red")  # and a later run with the same status: the finding still holds
    session.wait()
    assert session.prompt().startswith(EDIT_LINE)


def test_a_queued_tests_finding_is_dropped_when_a_newer_run_is_green(session: Session) -> None:
    """A nudge that waited in the queue (say a delivery was full) is judged again when it is
    claimed."""
    session.run("red")
    session.wait()
    said = session.edit()
    assert said.startswith(EDIT_LINE)
    # Put the same finding back in the queue as if the delivery had had no room for it.
    decision = next(
        row
        for row in decided(session.root)
        if row.get("decision") == "fired"
        and row["sidecar"] == "tests"
        and row["key"].startswith("tests:edit:")
    )
    nudge = queue.Nudge(
        said,
        sender="sidekit/tests",
        extra={
            "sidecar": "tests",
            "rule": "",
            "finding": decision["key"],
            "recheck": json.dumps(decision["recheck"]),
        },
    )
    queue.enqueue(str(session.root / ".runtime" / "nudge_queue"), "sess-1", nudge)
    time.sleep(0.01)
    session.run("green")
    assert session.wrong() == []
    assert [row["by"] for row in decided(session.root) if row.get("by") == "moot"] == ["moot"]


def test_a_queued_scope_finding_whose_file_went_back_is_not_said(session: Session) -> None:
    save(str(session.root), Scope(["src/**"], issue="gt-7"))
    (session.root / "README.md").write_text("old\n")
    session.hook(
        "PostToolUse", write(session.root, "README.md", "new\n", original="old\n")
    )  # said at once
    record = next(row for row in decided(session.root) if row.get("decision") == "fired")
    nudge = queue.Nudge(
        "[sidecar:scope] README.md is outside this task's scope",
        sender="sidekit/scope",
        extra={
            "sidecar": "scope",
            "finding": record["key"],
            "recheck": json.dumps(record["recheck"]),
        },
    )
    queue.enqueue(str(session.root / ".runtime" / "nudge_queue"), "sess-1", nudge)
    (session.root / "README.md").write_text("new\n")
    time.sleep(0.01)
    assert (
        session.prompt() == "[sidecar:scope] README.md is outside this task's scope"
    )  # still differs: said
    queue.enqueue(str(session.root / ".runtime" / "nudge_queue"), "sess-1", nudge)
    (session.root / "README.md").write_text("old\n")  # undone
    time.sleep(0.01)
    assert session.prompt() == ""


STEPS = st.lists(
    st.sampled_from(["edit", "red", "green", "wait", "prompt"]), min_size=3, max_size=9
)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="sidekit-interleave-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("examples", depths(12, fast=4))
def test_no_tests_line_is_said_while_the_cache_is_green(
    caches: dict[str, dict[str, str]], workdir: Path, examples: int
) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(steps=STEPS)
    def said_only_while_red(steps: list[str]) -> None:
        root = Path(tempfile.mkdtemp(dir=workdir)) / "proj"
        root.mkdir()
        run = Session(root, caches)
        for step in ["red", *steps, "wait", "prompt"]:
            if step in ("red", "green"):
                run.run(step)
            else:
                getattr(run, step)()
        assert run.wrong() == [], (steps, run.said)

    said_only_while_red()


def test_a_queued_spec_finding_whose_line_is_gone_is_not_said(session: Session) -> None:
    (session.root / "sidecar_rules").mkdir()
    (session.root / "sidecar_rules" / "acme.toml").write_text(SPEC_PACK)
    (session.root / "api").mkdir()
    bad = "def reject(reason):\n    return JSONResponse({'error': reason}, status_code=400)\n"
    (session.root / "api" / "items.py").write_text(bad)
    said = session.hook("PostToolUse", write(session.root, "api/items.py", bad))
    assert said == "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400."
    record = next(row for row in decided(session.root) if row.get("decision") == "fired")
    nudge = queue.Nudge(
        said,
        sender="sidekit/specs",
        extra={
            "sidecar": "specs",
            "rule": record["rule"],
            "finding": record["key"],
            "recheck": json.dumps(record["recheck"]),
        },
    )
    root = str(session.root / ".runtime" / "nudge_queue")
    queue.enqueue(root, "sess-1", nudge)
    time.sleep(0.01)
    assert session.prompt() == said  # the line is still there
    queue.enqueue(root, "sess-1", nudge)
    (session.root / "api" / "items.py").write_text(bad.replace("400", "422"))
    time.sleep(0.01)
    assert session.prompt() == ""
    assert [
        (row["sidecar"], row["rule"]) for row in decided(session.root) if row.get("by") == "moot"
    ] == [("specs", "acme.api.status-422")]
