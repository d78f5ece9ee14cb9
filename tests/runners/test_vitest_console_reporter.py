"""The vitest rewrite keeps the console reporter vitest picks by itself under Claude Code (issue
#33, item 5): naming `default` there made a short red run bigger than raw (numeral's
`tests/formats/bytes.js`: 873 B raw under `CLAUDECODE=1`, 911 B rewritten), as the `agent` reporter
hides the passing tests."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sidekit_hooks.runners.js import vitest

WORDS = ["npx", "vitest", "run", "tests/formats/bytes.js"]


def project_with(root: Path, version: str | None) -> Path:
    (root / "package.json").write_text('{"name":"p","devDependencies":{"vitest":"*"}}')
    if version is not None:
        (root / "node_modules" / "vitest").mkdir(parents=True)
        (root / "node_modules" / "vitest" / "package.json").write_text(
            json.dumps({"version": version})
        )
    return root


def console(root: Path) -> str:
    rewritten = vitest.compact_words(list(WORDS), str(root))
    assert rewritten is not None and rewritten[: len(WORDS)] == WORDS
    [chosen] = [word for word in rewritten[len(WORDS) :] if word.startswith("--reporter=")][:1]
    return chosen.removeprefix("--reporter=")


@pytest.fixture
def agent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_CODE", raising=False)
    monkeypatch.setenv("CLAUDECODE", "1")


@pytest.mark.parametrize(
    ("version", "chosen"),
    [
        ("4.1.12", "agent"),
        ("4.2.0", "agent"),
        ("5.1.2", "minimal"),
        ("4.0.18", "default"),
        ("3.2.4", "default"),
    ],
)
def test_under_claude_code_the_console_reporter_is_the_one_vitest_would_pick(
    tmp_path: Path, agent: None, version: str, chosen: str
) -> None:
    assert console(project_with(tmp_path, version)) == chosen


def test_outside_claude_code_the_console_reporter_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDECODE", raising=False)
    monkeypatch.delenv("CLAUDE_CODE", raising=False)
    assert console(project_with(tmp_path, "4.1.12")) == "default"
    monkeypatch.setenv("CLAUDE_CODE", "1")  # std-env's other name for it
    assert console(tmp_path) == "agent"


@pytest.mark.parametrize(
    "manifest", ["not json", '{"version": 4}', '{"name": "vitest"}', '{"version": "x.y"}', "[]"]
)
def test_a_version_that_cannot_be_read_keeps_the_default(
    tmp_path: Path, agent: None, manifest: str
) -> None:
    project_with(tmp_path, "4.1.12")
    (tmp_path / "node_modules" / "vitest" / "package.json").write_text(manifest)
    assert console(tmp_path) == "default"


def test_a_vitest_linked_from_outside_the_project_is_not_read(tmp_path: Path, agent: None) -> None:
    (tmp_path / "elsewhere").mkdir()
    outside = project_with(tmp_path / "elsewhere", "4.1.12")
    project = tmp_path / "project"
    project.mkdir()
    project_with(project, None)
    (project / "node_modules").symlink_to(outside / "node_modules")
    assert console(project) == "default"


def test_a_fifo_for_its_manifest_never_holds_the_hook(tmp_path: Path, agent: None) -> None:
    project_with(tmp_path, "4.1.12")
    manifest = tmp_path / "node_modules" / "vitest" / "package.json"
    manifest.unlink()
    os.mkfifo(manifest)
    assert console(tmp_path) == "default"  # refused at once (O_NONBLOCK), never read
