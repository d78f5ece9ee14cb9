"""The rules sidecar through the real hook entry points, with real payload shapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sidekit_hooks.core import hooklog
from testing.acme import pack, status_422_rule
from testing.hooks import HOOK_SCRIPTS, HookRunner, bash, context_of, edit, payload, write

SPEC_PACK = "\n" + pack("acme-api", status_422_rule(see=True, boundary=False))

SPEC_LINE = "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400. (see docs/api-spec.md#validation-errors)"
BREAKPOINT_LINE = "[sidecar:conventions] A debugger breakpoint was added; remove it before you finish (it hangs test runs and CI)."


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CONFIG_HOME": str(tmp_path / "config")}


def write_pack(project: Path, name: str, text: str, folder: str = "sidecar_rules") -> Path:
    path = project / folder / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_edit_that_adds_a_breakpoint_gets_the_builtin_nudge(
    run_hook: HookRunner, project: Path, env: dict[str, str]
) -> None:
    done = run_hook(
        "PostToolUse",
        edit(
            project,
            "app/views.py",
            "    return 1",
            "    breakpoint()\n    return 1",
            "def f():\n    return 1\n",
        ),
        env=env,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert context_of(done.stdout) == BREAKPOINT_LINE


def test_project_rule_cites_see_and_ignores_what_was_already_there(
    run_hook: HookRunner, project: Path, env: dict[str, str]
) -> None:
    write_pack(project, "acme", SPEC_PACK)
    before = "def create():\n    return Response(status_code=400)\n"
    done = run_hook(
        "PostToolUse", write(project, "api/users.py", before + "x = 1\n", original=before), env=env
    )
    assert done.stdout == ""
    done = run_hook(
        "PostToolUse",
        write(
            project,
            "api/users.py",
            before + "    return Response(status_code = 400)\n",
            original=before,
            session="sess-2",
        ),
        env=env,
    )
    assert context_of(done.stdout) == SPEC_LINE
    done = run_hook(
        "PostToolUse",
        write(project, "web/users.py", "status_code=400\n", session="sess-3"),
        env=env,
    )
    assert done.stdout == ""


def test_an_edited_pack_applies_to_the_very_next_event(
    run_hook: HookRunner, project: Path, env: dict[str, str]
) -> None:
    path = write_pack(project, "acme", SPEC_PACK)
    run_hook("PostToolUse", write(project, "api/a.py", "x = 1\n"), env=env)
    path.write_text(SPEC_PACK.replace("HTTP 422, not 400", "HTTP 422 (never 400)"))
    done = run_hook("PostToolUse", write(project, "api/a.py", "status_code=400\n"), env=env)
    assert context_of(done.stdout) == SPEC_LINE.replace("HTTP 422, not 400", "HTTP 422 (never 400)")


def test_a_broken_pack_tells_the_user_once_and_the_rest_still_fire(
    run_hook: HookRunner, project: Path, env: dict[str, str]
) -> None:
    write_pack(project, "acme", SPEC_PACK)
    write_pack(
        project,
        "broken",
        '[pack]\nname = "broken"\n[[rules]]\nid = "b"\nmessage = "m"\nwhen = { tools = "Edit" }\n',
    )
    first = run_hook("PostToolUse", write(project, "api/a.py", "status_code=400\n"), env=env)
    out = json.loads(first.stdout)
    assert out["systemMessage"] == (
        "sidekit: a broken rule pack was skipped (the others still apply): "
        "sidecar_rules/broken.toml:6: "
        'rules[0].when.tools: expected an array, got a string ("Edit"); details: sidekit rules '
        "lint sidecar_rules/broken.toml"
    )
    assert out["hookSpecificOutput"]["additionalContext"] == SPEC_LINE
    second = run_hook(
        "PostToolUse", write(project, "api/b.py", "status_code=400\n", session="sess-2"), env=env
    )
    assert "systemMessage" not in json.loads(second.stdout)
    assert context_of(second.stdout) == SPEC_LINE
    assert [r["where"] for r in hooklog.read(str(project), hooklog.ERRORS)] == [
        "rules:sidecar_rules/broken.toml"
    ]


def test_a_catastrophic_regex_cannot_stall_the_hook(
    run_hook: HookRunner, project: Path, env: dict[str, str]
) -> None:
    write_pack(
        project,
        "evil",
        '[pack]\nname = "evil"\n[[rules]]\nid = "evil.redos"\nmessage = "m"\n[rules.when]\nadded '
        "= '^(a+)+$'\n",
        folder=".sidekit/rules",
    )
    write_pack(project, "acme", SPEC_PACK)
    done = run_hook(
        "PostToolUse",
        write(project, "api/a.py", "a" * 40 + "!\nstatus_code=400\nimport pdb\n"),
        env=env,
    )
    # The policy merges one boundary's nudges most important first: the high-severity spec, then the
    # rest.
    assert (done.returncode, context_of(done.stdout)) == (0, f"{SPEC_LINE}\n{BREAKPOINT_LINE}")
    # On a busy machine a later detector may also find the shared budget spent (its own line): not
    # the regex's doing.
    logged = [
        r
        for r in hooklog.read(str(project), hooklog.ERRORS)
        if r["error"] != "skipped: detector budget spent"
    ]
    assert [(r["where"], r["error"]) for r in logged] == [
        ("rules:.sidekit/rules/evil.toml", "rule evil.redos skipped: '^(a+)+$' ran past 50 ms")
    ]


def test_failed_bash_output_rule(run_hook: HookRunner, project: Path, env: dict[str, str]) -> None:
    write_pack(
        project,
        "tooling",
        '[pack]\nname = "tooling"\n[[rules]]\nid = "t.deps"\nsidecar = "tools"\n'
        'message = "Run ./install.sh --dev for missing dev dependencies."\n'
        "[rules.when]\noutput = 'ModuleNotFoundError'\n",
    )
    failure = bash(project, "pytest", error="Exit code 1\nModuleNotFoundError: No module named 'x'")
    done = run_hook("PostToolUseFailure", failure, env=env)
    assert (
        context_of(done.stdout)
        == "[sidecar:tools] Run ./install.sh --dev for missing dev dependencies."
    )


def test_the_hook_never_imports_pydantic_nor_toml_on_an_unchanged_project(
    run_hook: HookRunner, project: Path, env: dict[str, str], clean_env: dict[str, str]
) -> None:
    write_pack(project, "acme", SPEC_PACK)
    data = json.dumps(write(project, "api/a.py", "status_code=400\n")).encode()
    full_env = dict(clean_env, CLAUDE_PROJECT_DIR=str(project), **env)

    def imported() -> set[str]:
        done = subprocess.run(
            [sys.executable, "-S", "-X", "importtime", str(HOOK_SCRIPTS["PostToolUse"])],
            input=data,
            capture_output=True,
            env=full_env,
            cwd=str(project),
            timeout=20,
        )
        return {
            line.split("|")[-1].strip() for line in done.stderr.decode().splitlines() if "|" in line
        }

    first = imported()
    assert "tomllib" in first and not any(name.startswith("pydantic") for name in first)
    second = imported()
    assert "tomllib" not in second and not any(name.startswith("pydantic") for name in second)
    assert "sidekit_hooks.rules.match" in second


def test_user_prompt_submit_does_not_touch_the_packs(
    run_hook: HookRunner, project: Path, env: dict[str, str]
) -> None:
    done = run_hook(
        "UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on"), env=env
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert not (project / ".sidekit" / "rules-snapshot.json").exists()


def test_a_rule_matching_the_start_of_a_def_names_the_whole_def(
    run_hook: HookRunner, project: Path, env: dict[str, str]
) -> None:
    write_pack(
        project,
        "house",
        '[pack]\nname = "house"\n[[rules]]\nid = "house.doctest"\nsidecar = "specs"\n'
        "message = \"Public helpers show a doctest.\"\n[rules.when]\nadded = '^def [a-z]'\nabsent "
        '= ">>>"\n',
    )
    done = run_hook(
        "PostToolUse",
        write(project, "lib/text.py", "def summarize(text, limit=10):\n    return text\n"),
        env=env,
    )
    assert (
        context_of(done.stdout)
        == "[sidecar:specs] Public helpers show a doctest. (`summarize` in lib/text.py)"
    )
