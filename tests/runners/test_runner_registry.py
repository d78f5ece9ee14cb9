"""The runner registry: detection from the project's files, lazy adapters, a missing adapter
skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from sidekit_hooks import runners


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (["go.mod"], "go"),
        (["Cargo.toml"], "cargo"),
        (["pom.xml"], "junit"),
        (["build.gradle.kts"], "junit"),
        (["App.Tests.csproj"], "vstest"),
        (["App.sln"], "vstest"),
        (["go.mod", "App.slnx"], "go"),
        (["App.csproj", "pyproject.toml"], "vstest"),
        (["pyproject.toml"], "pytest"),
        (["tests/test_a.py"], "pytest"),
        (["go.mod", "pyproject.toml"], "go"),
        (["README.md"], "none"),
        ([], "none"),
    ],
)
def test_the_runner_comes_from_the_project_files(
    project: Path, monkeypatch: pytest.MonkeyPatch, files: list[str], expected: str
) -> None:
    monkeypatch.delenv("SIDEKIT_RUNNER", raising=False)
    for name in files:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("")
    assert runners.detect(str(project)) == expected


def test_sidekit_runner_names_the_runner_and_an_unknown_name_is_none(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "go.mod").write_text("module m\n")
    monkeypatch.setenv("SIDEKIT_RUNNER", "cargo")
    assert runners.detect(str(project)) == "cargo"
    monkeypatch.setenv("SIDEKIT_RUNNER", "nosuch")
    assert runners.detect(str(project)) == "none"


def test_a_registered_adapter_that_is_not_there_is_skipped(
    monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    monkeypatch.setitem(
        runners.REGISTRY, "ghost", "sidekit_hooks.runners.ghost_that_does_not_exist"
    )
    assert runners.load("ghost") is None
    monkeypatch.delenv("SIDEKIT_RUNNER", raising=False)
    assert runners.detect(str(project)) == "none"


def test_an_adapter_with_a_broken_import_is_an_error_not_a_silent_skip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(runners.REGISTRY, "broken", "sidekit_hooks.runners.go.adapter")
    monkeypatch.setattr("importlib.import_module", _raise_inner)
    with pytest.raises(ModuleNotFoundError):
        runners.load("broken")


def _raise_inner(name: str) -> None:
    raise ModuleNotFoundError("No module named 'somedependency'", name="somedependency")


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["go", "test", "./..."], "go"),
        (["/usr/local/go/bin/go", "test"], "go"),
        (["go", "build"], None),
        (["cargo", "test", "-p", "a"], "cargo"),
        (["cargo", "build"], None),
        (["mvn", "test"], None),  # left alone: no option makes Maven's console compact
        (["pytest", "-q"], None),  # pytest has its own rewrite
        (["gotest"], None),
    ],
)
def test_which_adapter_runs_a_command(words: list[str], expected: str | None) -> None:
    adapter = runners.for_words(words)
    assert (adapter.NAME if adapter is not None else None) == expected


def test_the_trigger_words_are_the_fewest_that_cover_every_runner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert runners.trigger_words() == ("test", "jest")
    monkeypatch.setitem(
        runners.TRIGGERS, "later", ("spec", "respec")
    )  # "respec" holds "spec": covered
    assert runners.trigger_words() == ("test", "jest", "spec")
    assert (runners.triggered("npx spec run"), runners.triggered("git status")) == (True, False)


def test_the_pre_tool_use_conditions_come_from_the_trigger_words() -> None:
    from sidekit_hooks.pipeline import hook_events

    assert hook_events.conditions(hook_events.EVENTS["PreToolUse"]) == tuple(
        (word, f"Bash(*{word}*)") for word in runners.trigger_words()
    )


def test_the_pending_folders_are_the_adapters_own() -> None:
    from sidekit_hooks.runners import pending

    assert pending.folders() == [
        ("go", ("spool-", "writer-"), "writer-"),
        ("cargo", ("run-",), None),
    ]


def test_what_each_runner_says_of_its_feed_and_its_graph() -> None:
    said = {
        adapter.NAME: (
            runners.feeds(adapter),
            hasattr(adapter, "feed_after"),
            hasattr(adapter, "selection"),
        )
        for adapter in runners.adapters()
    }
    assert {
        name: said.get(name) for name in EARLIER
    } == EARLIER  # a runner added later says its own
    assert set(said) == set(runners.REGISTRY)


EARLIER = {
    "go": ("wrapper", True, True),
    "cargo": ("writer", True, False),  # fed after a run that did not compile (runners/cargo/)
    "junit": ("reports", False, False),
    "mtp": ("reports", True, False),
    "vstest": ("reports", True, False),
    "vitest": ("reporter", True, False),
    "jest": ("reporter", True, False),
    "pytest": ("plugin", False, False),
}
