"""`sidekit scope set|show|clear` and the scope sidecar, through the real CLI and hook entry points."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from testing import made_once
from testing.hooks import SIDEKIT, context_of, edit, payload

HookRunner = Callable[..., subprocess.CompletedProcess[str]]
X_CHANGE = ("X = 1", "X = 2", "X = 1\n")  # old, new, what the file held: every edit of these tests


def sidekit(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SIDEKIT, *args, "--project", str(project)], capture_output=True, text=True, timeout=30
    )


@pytest.fixture(scope="module")
def scoped_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project after a real `sidekit scope set`: made once, read by the tests through copies
    (`scoped`)."""
    project = made_once.new_folder(tmp_path_factory, "scoped")
    for rel in ("api/handlers/user.py", "api/handlers/legacy/old.py", "auth/middleware.py"):
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text("X = 1\n")
    with made_once.as_a_test_sees_it(tmp_path_factory):
        done = sidekit(
            project,
            "scope",
            "set",
            "--issue",
            "gt-abc12",
            "--allow",
            "api/handlers/**",
            "--deny",
            "api/handlers/legacy/**",
        )
    assert done.returncode == 0, done.stderr
    # These tests also check the notices for looking outside the scope, which a team opts into.
    (project / ".sidekit" / "rules").mkdir(parents=True, exist_ok=True)
    (project / ".sidekit" / "rules" / "reads.toml").write_text(READ_NOTICES)
    return project


@pytest.fixture
def scoped(scoped_once: Path, project: Path) -> Path:
    """This test's own copy of the scoped project (the scope's stamp keeps the file times)."""
    return made_once.copy_into(scoped_once, project)


READ_NOTICES = '[pack]\nname = "reads"\n\n[policy]\nthresholds = { scope = "low" }\n'


def test_by_default_looking_outside_is_held_back_and_every_edit_is_said(
    scoped: Path, run_hook: HookRunner
) -> None:
    (scoped / ".sidekit" / "rules" / "reads.toml").unlink()
    read = payload(
        "PostToolUse",
        scoped,
        tool_name="Read",
        tool_input={"file_path": str(scoped / "auth/middleware.py")},
    )
    assert run_hook("PostToolUse", read).stdout == ""
    assert context_of(run_hook("PostToolUse", grep(scoped, "auth")).stdout) == ""
    assert context_of(
        run_hook("PostToolUse", edit(scoped, "auth/middleware.py", *X_CHANGE)).stdout
    ).startswith("[sidecar:scope] auth/middleware.py is outside")
    decisions = (scoped / ".sidekit" / "log" / "decisions.jsonl").read_text()
    assert sum('"threshold"' in line for line in decisions.splitlines()) == 2, decisions


def test_set_writes_toml_and_answers_compactly(scoped: Path) -> None:
    assert (scoped / ".sidekit" / "scope.toml").read_text() == (
        'issue = "gt-abc12"\nallow = [\n    "api/handlers/**",\n]\ndeny = [\n    '
        '"api/handlers/legacy/**",\n]\n'
    )
    shown = sidekit(scoped, "scope", "show")
    assert shown.stdout == (
        '{"issue":"gt-abc12","allow":["api/handlers/**"],"deny":["api/handlers/legacy/**"],'
        '"file":".sidekit/scope.toml"}\n'
    )


@pytest.mark.parametrize(
    "flags",
    [
        [
            "--allow",
            "api/**",
            "--allow",
            "tests/**",
            "--deny",
            "api/legacy/**",
            "--deny",
            "api/gen/**",
        ],
        ["--allow", "api/**", "tests/**", "--deny", "api/legacy/**", "api/gen/**"],
    ],
)
def test_repeated_allow_and_deny_keep_every_glob(project: Path, flags: list[str]) -> None:
    done = sidekit(project, "scope", "set", *flags)
    assert done.stdout == (
        '{"allow":["api/**","tests/**"],"deny":["api/legacy/**","api/gen/**"],"file":".sidekit/scope.toml"}\n'
    )


def test_show_text_clear_and_nothing_set(scoped: Path) -> None:
    assert sidekit(scoped, "scope", "show", "--format", "text").stdout == (
        "issue: gt-abc12\nallow:\n  - api/handlers/**\ndeny:\n  - api/handlers/legacy/**\nfile: "
        ".sidekit/scope.toml\n"
    )
    assert sidekit(scoped, "scope", "clear").stdout == '{"scope":"cleared"}\n'
    assert sidekit(scoped, "scope", "clear").stdout == '{"scope":"none"}\n'
    assert sidekit(scoped, "scope", "show").stdout == '{"scope":"none"}\n'


@pytest.mark.parametrize(
    ("glob", "message"),
    [
        (
            "../other/**",
            "sidekit: the glob '../other/**' leaves the project (`..`)\n  fix: use a path inside "
            "the project\n",
        ),
        (
            "/etc/passwd",
            "sidekit: the glob '/etc/passwd' is an absolute path outside the project\n  fix: use "
            "a project-relative glob\n",
        ),
    ],
)
def test_bad_globs_are_refused_with_a_fix(project: Path, glob: str, message: str) -> None:
    done = sidekit(project, "scope", "set", "--allow", glob)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", message)
    assert not (project / ".sidekit" / "scope.toml").exists()


def test_an_absolute_path_inside_the_project_becomes_an_anchored_glob(project: Path) -> None:
    done = sidekit(project, "scope", "set", "--allow", str(project / "api"))
    assert done.stdout == '{"allow":["/api"],"file":".sidekit/scope.toml"}\n'


def test_edit_outside_scope_nudges_at_once(scoped: Path, run_hook: HookRunner) -> None:
    done = run_hook("PostToolUse", edit(scoped, "auth/middleware.py", *X_CHANGE))
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": (
                "[sidecar:scope] auth/middleware.py is outside this task's scope (gt-abc12); "
                "if it must change, tell the user."
            ),
        }
    }


def test_edit_inside_scope_says_nothing(scoped: Path, run_hook: HookRunner) -> None:
    done = run_hook("PostToolUse", edit(scoped, "api/handlers/user.py", *X_CHANGE))
    assert (done.returncode, done.stdout) == (0, "")


def test_denied_file_names_the_deny_glob(scoped: Path, run_hook: HookRunner) -> None:
    done = run_hook("PostToolUse", edit(scoped, "api/handlers/legacy/old.py", *X_CHANGE))
    assert context_of(done.stdout) == (
        "[sidecar:scope] api/handlers/legacy/old.py is excluded from this task's scope "
        "(gt-abc12 excludes api/handlers/legacy/**); if it must change, tell the user."
    )


def test_read_then_edit_of_the_same_file_are_two_nudges_a_second_read_none(
    scoped: Path, run_hook: HookRunner
) -> None:
    read = payload(
        "PostToolUse",
        scoped,
        tool_name="Read",
        tool_input={"file_path": str(scoped / "auth/middleware.py")},
    )
    assert context_of(run_hook("PostToolUse", read).stdout) == (
        "[sidecar:scope] FYI: auth/middleware.py is outside this task's scope (gt-abc12); "
        "reading is fine, edits need the user's go-ahead."
    )
    assert context_of(
        run_hook("PostToolUse", edit(scoped, "auth/middleware.py", *X_CHANGE)).stdout
    ).startswith("[sidecar:scope] auth/middleware.py is outside")
    assert run_hook("PostToolUse", read).stdout == ""


def test_bash_write_outside_scope(scoped: Path, run_hook: HookRunner) -> None:
    bash = payload(
        "PostToolUse",
        scoped,
        tool_name="Bash",
        tool_input={"command": "sed -i 's/1/2/' auth/middleware.py && git diff --stat"},
        tool_response={"stdout": "X = 2\n", "stderr": "", "interrupted": False, "isImage": False},
    )
    assert context_of(run_hook("PostToolUse", bash).stdout) == (
        "[sidecar:scope] This Bash command writes auth/middleware.py, outside this task's scope "
        "(gt-abc12); if it must change, tell the user."
    )


def test_hand_edited_scope_toml_is_picked_up(scoped: Path, run_hook: HookRunner) -> None:
    toml = scoped / ".sidekit" / "scope.toml"
    toml.write_text('issue = "gt-9"\nallow = ["auth/**"]\n')
    os.utime(toml, ns=(1, 1))  # a different stamp even on coarse clocks
    assert run_hook("PostToolUse", edit(scoped, "auth/middleware.py", *X_CHANGE)).stdout == ""
    assert context_of(
        run_hook("PostToolUse", edit(scoped, "api/handlers/user.py", *X_CHANGE)).stdout
    ).startswith("[sidecar:scope] api/handlers/user.py is outside this task's scope (gt-9);")
    assert json.loads((scoped / ".sidekit" / "scope.json").read_text())["issue"] == "gt-9"


def test_broken_scope_toml_tells_the_user_not_the_model(scoped: Path, run_hook: HookRunner) -> None:
    (scoped / ".sidekit" / "scope.toml").write_text("allow = [unclosed\n")
    done = run_hook("PostToolUse", edit(scoped, "auth/middleware.py", *X_CHANGE))
    assert done.returncode == 0
    out = json.loads(done.stdout)
    assert set(out) == {"systemMessage"}
    assert out["systemMessage"].startswith(
        "sidekit: scope ignored: cannot read .sidekit/scope.toml ("
    )
    assert out["systemMessage"].endswith(". Fix: sidekit scope set --allow GLOB...")
    logged = [
        json.loads(line)
        for line in (scoped / ".sidekit" / "log" / "hooks.jsonl").read_text().splitlines()
    ]
    assert [
        (r["where"], r["error"].endswith("fix: sidekit scope set --allow GLOB...")) for r in logged
    ] == [("detector:scope", True)]
    shown = sidekit(scoped, "scope", "show")
    assert shown.returncode == 1 and shown.stderr.endswith(
        "fix: sidekit scope set --issue ID --allow 'api/handlers/**'\n"
    )


def test_glob_with_an_absolute_pattern_outside_scope(scoped: Path, run_hook: HookRunner) -> None:
    glob = payload(
        "PostToolUse",
        scoped,
        tool_name="Glob",
        tool_input={"pattern": f"{scoped}/auth/**/*.py"},
        tool_response={"durationMs": 1, "numFiles": 1, "filenames": [], "truncated": False},
    )
    assert context_of(run_hook("PostToolUse", glob).stdout) == (
        "[sidecar:scope] FYI: Glob searched auth/, outside this task's scope (gt-abc12); "
        "looking is fine, changes there need the user's go-ahead."
    )


def grep(project: Path, folder: str) -> dict[str, object]:
    return payload(
        "PostToolUse",
        project,
        tool_name="Grep",
        tool_input={"pattern": "X", "path": str(project / folder)},
        tool_response={"mode": "files_with_matches", "filenames": [], "numFiles": 0},
    )


def test_grep_in_a_denied_folder_names_the_deny_glob(scoped: Path, run_hook: HookRunner) -> None:
    assert context_of(run_hook("PostToolUse", grep(scoped, "api/handlers/legacy")).stdout) == (
        "[sidecar:scope] FYI: Grep searched api/handlers/legacy/, excluded from this task's scope "
        "(gt-abc12 excludes api/handlers/legacy/**); looking is fine, changes there need the "
        "user's go-ahead."
    )


def test_looking_outside_is_said_once_per_session_but_every_edit_is_said(
    scoped: Path, run_hook: HookRunner
) -> None:
    def read(path: str) -> dict[str, object]:
        return payload(
            "PostToolUse", scoped, tool_name="Read", tool_input={"file_path": str(scoped / path)}
        )

    (scoped / "core").mkdir(exist_ok=True)
    (scoped / "core" / "models.py").write_text("class User:\n    pass\n")
    said = [
        context_of(run_hook("PostToolUse", step).stdout)
        for step in (
            read("auth/middleware.py"),
            read("core/models.py"),
            grep(scoped, "auth"),
            edit(scoped, "auth/middleware.py", *X_CHANGE),
            edit(scoped, "core/models.py", *X_CHANGE),
        )
    ]
    assert [line.split(" is outside")[0] if line else "" for line in said] == [
        "[sidecar:scope] FYI: auth/middleware.py",
        "",
        "",
        "[sidecar:scope] auth/middleware.py",
        "[sidecar:scope] core/models.py",
    ]


def test_grep_in_the_tools_own_folder_says_nothing(scoped: Path, run_hook: HookRunner) -> None:
    assert run_hook("PostToolUse", grep(scoped, ".sidekit")).stdout == ""


def test_a_bang_glob_takes_back_part_of_the_scope_as_in_gitignore(
    scoped: Path, run_hook: HookRunner
) -> None:
    done = sidekit(scoped, "scope", "set", "--allow", "api/**", "!api/handlers/legacy/**")
    assert (
        done.stdout
        == '{"allow":["api/**","!api/handlers/legacy/**"],"file":".sidekit/scope.toml"}\n'
    )
    assert run_hook("PostToolUse", edit(scoped, "api/handlers/user.py", *X_CHANGE)).stdout == ""
    assert context_of(
        run_hook("PostToolUse", edit(scoped, "api/handlers/legacy/old.py", *X_CHANGE)).stdout
    ) == (
        "[sidecar:scope] api/handlers/legacy/old.py is outside this task's scope; if it must "
        "change, tell the user."
    )


def test_a_bang_glob_in_the_deny_list_lets_one_file_back_in(
    scoped: Path, run_hook: HookRunner
) -> None:
    (scoped / "auth" / "session.py").write_text("T = 1\n")
    assert (
        sidekit(
            scoped, "scope", "set", "--allow", "auth/**", "--deny", "auth/**", "!auth/middleware.py"
        ).returncode
        == 0
    )
    assert run_hook("PostToolUse", edit(scoped, "auth/middleware.py", *X_CHANGE)).stdout == ""
    assert context_of(
        run_hook("PostToolUse", edit(scoped, "auth/session.py", *X_CHANGE)).stdout
    ) == (
        "[sidecar:scope] auth/session.py is excluded from this task's scope (the task excludes "
        "auth/**); "
        "if it must change, tell the user."
    )
    assert (
        run_hook("PostToolUse", grep(scoped, "auth")).stdout == ""
    )  # the search may need auth/middleware.py


@pytest.mark.parametrize(
    ("glob", "why"),
    [
        ("./api/**", "project-relative paths hold no . or .. segments"),
        ("api//x.py", "an empty segment (//) never matches"),
        ("src/[ab.py", "the character class in '[ab.py' is not closed with ]"),
    ],
)
def test_globs_that_cannot_match_are_refused_as_rules_lint_refuses_them(
    project: Path, glob: str, why: str
) -> None:
    done = sidekit(project, "scope", "set", "--allow", glob)
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        f"sidekit: the glob {glob!r} cannot match: {why}\n  fix: sidekit scope set --issue ID "
        "--allow 'api/handlers/**'\n",
    )
    assert not (project / ".sidekit" / "scope.toml").exists()


def test_a_hand_written_glob_that_cannot_match_is_told_to_the_user(
    scoped: Path, run_hook: HookRunner
) -> None:
    toml = scoped / ".sidekit" / "scope.toml"
    toml.write_text('allow = ["./auth/**"]\n')
    os.utime(toml, ns=(1, 1))
    done = run_hook("PostToolUse", edit(scoped, "auth/middleware.py", *X_CHANGE))
    assert json.loads(done.stdout) == {
        "systemMessage": (
            "sidekit: scope ignored: the glob './auth/**' cannot match: project-relative paths "
            "hold no . or .. segments. "
            "Fix: sidekit scope set --allow GLOB..."
        )
    }
