"""Never outside: links committed under .runtime/ or .sidekit/ lead sidekit nowhere (#15, deliver
1)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from testing.hostile import (
    QUEUE,
    cli,
    context_of,
    hook,
    log_text,
    payload,
    put,
    queue_dir,
    queued_name,
    tree,
)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def test_a_symlinked_session_folder_is_neither_drained_nor_cleaned(
    project: Path, outside: Path
) -> None:
    put(outside, "secret from outside")
    (outside / queued_name(age=3600)).write_text("not json at all")  # "malformed", and old
    before = tree(outside)
    (project / QUEUE).mkdir(parents=True)
    (project / QUEUE / "sess-1").symlink_to(outside)
    done = hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="hi"), project)
    assert done.returncode == 0
    assert "secret from outside" not in done.stdout
    assert tree(outside) == before
    assert "leads outside" in log_text(project)


def test_a_symlinked_runtime_folder_gets_no_nudge_written_through_it(
    project: Path, outside: Path
) -> None:
    (project / ".runtime").symlink_to(outside)
    done = cli("nudge", "--project", str(project), "--session", "s1", "hello", project=project)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "leads outside" in done.stderr
    assert list(outside.iterdir()) == []


def test_a_symlinked_queue_file_is_not_followed(project: Path, outside: Path) -> None:
    target = outside / "private.json"
    target.write_text(json.dumps({"sender": "x", "message": "private data from outside"}))
    before = tree(outside)
    folder = queue_dir(project)
    folder.mkdir(parents=True)
    (folder / queued_name(age=10)).symlink_to(target)
    put(folder, "the real one")
    done = hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="hi"), project)
    assert context_of(done.stdout) == "[from mayor] the real one"
    assert tree(outside) == before
    quarantined = [p.name for p in (folder / ".quarantine").iterdir()]
    assert len(quarantined) == 1 and quarantined[0].endswith(".json.not-a-regular-file")


def test_files_not_in_the_queue_format_are_never_deleted(project: Path) -> None:
    folder = queue_dir(project)
    folder.mkdir(parents=True)
    keep = folder / "notes.json"
    keep.write_text("{ my own notes, not a nudge")
    os.utime(keep, (1, 1))
    hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="hi"), project)
    assert keep.read_text() == "{ my own notes, not a nudge"


def test_a_symlinked_log_file_gets_nothing_appended(project: Path, outside: Path) -> None:
    victim = outside / "victim.txt"
    victim.write_text("keep me\n")
    (project / ".sidekit" / "log").mkdir(parents=True)
    (project / ".sidekit" / "log" / "hooks.jsonl").symlink_to(victim)
    done = hook("PostToolUse", "{not json", project)  # a failure the hook logs
    assert done.returncode == 0 and done.stdout == ""
    assert victim.read_text() == "keep me\n"


def write_a_py(project: Path) -> None:
    """The hook after a Write of a.py (x = 2)."""
    data = {"file_path": str(project / "a.py"), "content": "x = 2\n"}
    hook(
        "PostToolUse", payload("PostToolUse", project, tool_name="Write", tool_input=data), project
    )


def test_a_symlinked_sidekit_folder_gets_no_state_written_into_it(
    project: Path, outside: Path
) -> None:
    (project / ".sidekit").symlink_to(outside)
    (project / "a.py").write_text("x = 1\n")
    for prompt in ("one", "two"):
        hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt=prompt), project)
    write_a_py(project)
    hook("PostToolUse", "{not json", project)
    assert list(outside.iterdir()) == []


def test_log_lines_hold_data_not_shell_commands(project: Path) -> None:
    rules = project / "sidecar_rules"
    rules.mkdir()
    (rules / "$(touch${IFS}x).toml").write_text(
        "[pack\nbroken = "
    )  # a broken pack is logged by its name
    (project / "a.py").write_text("x = 1\n")
    write_a_py(project)
    text = log_text(project)
    assert "touch" in text  # it was logged...
    assert "$(" not in text and "`" not in text  # ...as data: nothing a shell would expand
    assert any(
        "$(touch${IFS}x).toml" in json.loads(line).get("where", "") for line in text.splitlines()
    )


def test_doctor_reports_links_that_lead_out(project: Path, outside: Path) -> None:
    (project / QUEUE).mkdir(parents=True)
    (project / QUEUE / "sess-1").symlink_to(outside)
    done = cli("doctor", "--project", str(project), project=project)
    assert "PROBLEM  paths: .runtime/nudge_queue/sess-1 -> " in done.stdout
    assert list(outside.iterdir()) == []


def test_a_scope_file_linked_out_of_the_project_is_not_read(project: Path, outside: Path) -> None:
    (outside / "scope.toml").write_text('issue = "x"\nallow = ["nothing/**"]\ndeny = []\n')
    (project / ".sidekit").mkdir()
    (project / ".sidekit" / "scope.toml").symlink_to(outside / "scope.toml")
    (project / "a.py").write_text("x = 1\n")
    done = hook(
        "PostToolUse",
        payload(
            "PostToolUse",
            project,
            tool_name="Write",
            tool_use_id="t1",
            tool_input={"file_path": str(project / "a.py"), "content": "x = 2\n"},
        ),
        project,
    )
    assert "[sidecar:scope]" not in done.stdout  # the outside file's scope never applied
    assert "leads outside" in log_text(project)
