"""SessionStart, Stop and SubagentStop through the real hook entry points
(sidekit_hooks/pipeline/lifecycle.py)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.detectors.scope.model import Scope, save
from sidekit_hooks.nudges.recheck import line_digest
from testing.acme import BAD, GOOD, PACK
from testing.hooks import HookRunner, context_of, edit, payload, run_sidekit, write
from testing.near_copy import SLUGIFY, VIEWS, indexed_project, new_slug_edit

SCOPE_NUDGE = "[sidecar:scope] docs/notes.md is outside this task's scope (gt-7); if it must change, tell the user."
PRIMER = "[sidecar:scope] This task's scope (gt-7): edit only api/**."


def decisions(project: Path, kind: str) -> list[dict[str, Any]]:
    path = project / ".sidekit" / "log" / "decisions.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return [row for row in rows if row.get("decision") == kind]


def stop(active: bool = False, **fields: Any) -> dict[str, Any]:
    return {
        "stop_hook_active": active,
        "last_assistant_message": "done",
        "background_tasks": [],
        "session_crons": [],
        **fields,
    }


@pytest.fixture
def armed(project: Path) -> Path:
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "acme.toml").write_text(PACK)
    (project / "api").mkdir()
    (project / "docs").mkdir()
    save(str(project), Scope(["api/**"], issue="gt-7"))
    return project


def put(project: Path, rel: str, text: str) -> None:
    """What the tool itself did before the hook runs: the file on disk."""
    (project / rel).write_text(text)


def session_with_a_fix_and_an_open_scope_edit(armed: Path, run_hook: HookRunner) -> list[str]:
    said = []
    put(armed, "api/items.py", BAD)
    said.append(context_of(run_hook("PostToolUse", write(armed, "api/items.py", BAD)).stdout))
    put(armed, "docs/notes.md", "notes\n")
    said.append(
        context_of(run_hook("PostToolUse", write(armed, "docs/notes.md", "notes\n")).stdout)
    )
    put(armed, "api/items.py", GOOD)
    said.append(
        context_of(
            run_hook(
                "PostToolUse",
                edit(armed, "api/items.py", "status_code=400", "status_code=422", BAD),
            ).stdout
        )
    )
    return said


def test_stop_rechecks_each_delivered_finding_and_reminds_once(
    armed: Path, run_hook: HookRunner
) -> None:
    said = session_with_a_fix_and_an_open_scope_edit(armed, run_hook)
    assert said == [
        "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400.",
        SCOPE_NUDGE,
        "",
    ]
    first = run_hook("Stop", payload("Stop", armed, **stop()))
    assert (first.returncode, context_of(first.stdout)) == (
        0,
        "[sidecar:scope] Still there as you finish: docs/notes.md, outside gt-7's scope; tell the "
        "user.",
    )
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop(active=True))).stdout) == ""
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == ""
    outcomes = [
        (row["rule"] or row["sidecar"], row["outcome"], row.get("calls"))
        for row in decisions(armed, "rechecked")
    ]
    assert outcomes == [("acme.api.status-422", "fixed", 2), ("scope", "still", None)]
    assert [row["sidecar"] for row in decisions(armed, "reminded")] == ["scope"]
    report = run_sidekit("report", "--project", str(armed), "--format", "json")
    answer = json.loads(report.stdout)
    rule = answer["rules"][0]
    scope = next(row for row in answer["sidecars"] if row["sidecar"] == "scope")
    assert (rule["rule"], rule["fixed"], rule["ignored"], rule["medianCallsToFix"]) == (
        "acme.api.status-422",
        1,
        0,
        2.0,
    )
    assert (scope["fixed"], scope["ignored"], scope["uptake"]) == (0, 1, 0.0)


def test_a_reverted_scope_edit_is_fixed_and_not_reminded(armed: Path, run_hook: HookRunner) -> None:
    put(armed, "docs/notes.md", "old\n")
    put(armed, "docs/notes.md", "new\n")
    assert context_of(
        run_hook("PostToolUse", write(armed, "docs/notes.md", "new\n", original="old\n")).stdout
    )
    put(armed, "docs/notes.md", "old\n")
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == ""
    assert [(row["sidecar"], row["outcome"]) for row in decisions(armed, "rechecked")] == [
        ("scope", "fixed")
    ]


def test_a_deleted_file_makes_its_finding_moot(armed: Path, run_hook: HookRunner) -> None:
    put(armed, "api/items.py", BAD)
    assert context_of(run_hook("PostToolUse", write(armed, "api/items.py", BAD)).stdout)
    (armed / "api" / "items.py").unlink()
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == ""
    assert [row["outcome"] for row in decisions(armed, "rechecked")] == ["moot"]


def test_remind_follows_the_policy(armed: Path, run_hook: HookRunner) -> None:
    (armed / ".sidekit" / "rules").mkdir(parents=True)
    (armed / ".sidekit" / "rules" / "local.toml").write_text(
        '[pack]\nname = "local"\n\n[policy]\nremind = []\n'
    )
    session_with_a_fix_and_an_open_scope_edit(armed, run_hook)
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == ""
    assert [row["outcome"] for row in decisions(armed, "rechecked")] == ["fixed", "still"]


def test_subagent_stop_rechecks_only_that_agents_findings(
    armed: Path, run_hook: HookRunner
) -> None:
    put(armed, "docs/notes.md", "notes\n")
    said = run_hook(
        "PostToolUse",
        write(armed, "docs/notes.md", "notes\n", agent_id="ag-1", agent_type="Explore"),
    )
    assert context_of(said.stdout) == SCOPE_NUDGE
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == ""
    done = run_hook(
        "SubagentStop",
        payload("SubagentStop", armed, agent_id="ag-1", agent_type="Explore", **stop()),
    )
    assert context_of(done.stdout).startswith(
        "[sidecar:scope] Still there as you finish: docs/notes.md"
    )
    assert json.loads(done.stdout)["hookSpecificOutput"]["hookEventName"] == "SubagentStop"


@pytest.mark.parametrize("source", ["startup", "clear", "compact"])
def test_session_start_primes_the_scope(armed: Path, run_hook: HookRunner, source: str) -> None:
    done = run_hook("SessionStart", payload("SessionStart", armed, source=source))
    assert (done.returncode, context_of(done.stdout)) == (0, PRIMER)
    assert json.loads(done.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert len(PRIMER) <= 300


def test_session_start_without_scope_or_queue_says_nothing(
    project: Path, run_hook: HookRunner
) -> None:
    done = run_hook("SessionStart", payload("SessionStart", project, source="compact"))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_session_start_delivers_what_waits_in_the_queue(
    armed: Path, run_hook: HookRunner, clean_env: dict[str, str]
) -> None:
    queued = run_sidekit(
        "nudge",
        "--session",
        "sess-1",
        "--sender",
        "mayor",
        "rebase before you push",
        cwd=armed,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(armed)),
    )
    assert queued.returncode == 0, queued.stderr
    done = run_hook("SessionStart", payload("SessionStart", armed, source="resume"))
    assert (
        context_of(done.stdout) == "[from mayor] rebase before you push"
    )  # resume: the primer is still there
    assert (
        context_of(
            run_hook("SessionStart", payload("SessionStart", armed, source="startup")).stdout
        )
        == PRIMER
    )


def test_session_start_indexes_a_tiny_project_before_the_first_call(
    project: Path, run_hook: HookRunner, sidekit_cache: Path
) -> None:
    (project / "util.py").write_text(
        "def slugify(text):\n    out = text.lower().strip()\n    out = out.replace(' ', '-')\n"
        "    out = out.replace('_', '-')\n    return out\n"
    )
    assert run_hook("SessionStart", payload("SessionStart", project, source="startup")).stdout == ""
    from sidekit_hooks.code.functions import project_key

    built = sidekit_cache / "functions" / f"{project_key(str(project))}.json"
    assert (
        "slugify" in built.read_text()
    )  # there when the hook returned: not left to a background race


def test_session_start_refreshes_only_an_outdated_index(project: Path) -> None:
    from sidekit_hooks.pipeline.lifecycle import STALE_AT_START, outdated

    built = 1_000_000.0
    assert not outdated(str(project), built, now=built + 60)
    assert outdated(str(project), built, now=built + STALE_AT_START + 1)
    (project / ".git").mkdir()
    (project / ".git" / "HEAD").write_text(
        "ref: refs/heads/main\n"
    )  # mtime: now, long after `built`
    assert outdated(str(project), built, now=built + 60)


def test_a_bigger_project_is_indexed_in_the_background_not_inline(
    project: Path, run_hook: HookRunner, sidekit_cache: Path
) -> None:
    from sidekit_hooks.pipeline.lifecycle import TINY_FILES

    for index in range(TINY_FILES + 1):
        (project / f"m{index}.py").write_text(f"def f{index}():\n    return {index}\n")
    started = time.monotonic()
    assert run_hook("SessionStart", payload("SessionStart", project, source="startup")).stdout == ""
    assert time.monotonic() - started < 5
    from sidekit_hooks.code.functions import project_key

    built = sidekit_cache / "functions" / f"{project_key(str(project))}.json"
    deadline = time.monotonic() + 20
    while (
        not built.exists() and time.monotonic() < deadline
    ):  # the detached refresh, not the hook, builds it
        time.sleep(0.1)
    assert "f0" in built.read_text()


HEAVY = (
    "re",
    "json",
    "tomllib",
    "typing",
    "enum",
    "dataclasses",
    "pathlib",
    "ast",
    "subprocess",
    "sqlite3",
)
PROBE = (
    "import sys; sys.path.insert(0, sys.argv[1]); from sidekit_hooks.pipeline import runtime;"
    "o = runtime.run(sys.argv[2], sys.stdin.read());"
    f"print(sorted(m for m in {HEAVY!r} if m in sys.modules)); print(o.output)"
)


def probe(
    project: Path, clean_env: dict[str, str], event: str, body: dict[str, Any]
) -> tuple[str, str]:
    import subprocess
    import sys

    from testing.hooks import REPO

    done = subprocess.run(
        [sys.executable, "-S", "-c", PROBE, str(REPO), event],
        input=json.dumps(body),
        text=True,
        capture_output=True,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
        timeout=30,
        cwd=str(project),
        check=True,
    )
    heavy, output = done.stdout.splitlines()[:2]
    return heavy, output


def test_session_start_and_stop_stay_on_the_cheap_side_of_the_stdlib(
    armed: Path, run_hook: HookRunner, clean_env: dict[str, str]
) -> None:
    run_hook(
        "SessionStart", payload("SessionStart", armed, source="startup")
    )  # builds the index, compiles packs
    assert probe(
        armed, clean_env, "SessionStart", payload("SessionStart", armed, source="compact")
    ) == (
        "[]",
        json.dumps(
            {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": PRIMER}},
            separators=(",", ":"),
        ),
    )
    put(armed, "docs/notes.md", "notes\n")
    run_hook("PostToolUse", write(armed, "docs/notes.md", "notes\n"))
    heavy, output = probe(armed, clean_env, "Stop", payload("Stop", armed, **stop()))
    assert heavy == "[]" and "Still there as you finish" in output


def test_reminders_that_do_not_fit_wait_for_the_next_stop(
    armed: Path, run_hook: HookRunner
) -> None:
    names = [f"docs/{'n' * 150}{index}.md" for index in range(5)]
    for name in names:
        put(armed, name, "x\n")
        assert context_of(run_hook("PostToolUse", write(armed, name, "x\n")).stdout).startswith(
            "[sidecar:scope] docs/"
        )
    first = context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout).split("\n")
    assert len("\n".join(first)) <= 1000 and first[-1] == f"(+{5 - (len(first) - 1)} more)"
    second = context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout).split("\n")
    said = [line for line in first + second if line.startswith("[sidecar:scope]")]
    assert sorted(line.split("finish: ")[1].split(", outside ")[0] for line in said) == sorted(
        names
    )
    assert len(decisions(armed, "reminded")) == 5


def test_policy_decides_which_findings_are_reminded() -> None:
    from sidekit_hooks.nudges.policy import Config

    default = Config()
    assert default.reminds("scope", "", "high") and not default.reminds("scope", "", "medium")
    assert not default.reminds("specs", "acme.api.status-422", "high")
    custom = Config({"remind": ["acme.api.status-422"], "remind_threshold": "medium"})
    assert custom.reminds("specs", "acme.api.status-422", "medium") and not custom.reminds(
        "scope", "", "high"
    )
    assert not Config({"mute": ["scope"]}).reminds("scope", "", "high")
    # A helper copy (medium) is reminded by default: its rule is listed by id, which no threshold
    # filters.
    assert default.reminds("tools", "tools.helper-exists", "medium")
    assert not default.reminds("tools", "tools.raw-pytest", "medium")  # a habit hint is never
    assert not Config({"mute": ["tools.helper-exists"]}).reminds(
        "tools", "tools.helper-exists", "medium"
    )
    assert not Config({"remind": ["tools"]}).reminds(
        "tools", "tools.helper-exists", "medium"
    )  # below the floor


COPY_NUDGE = "[sidecar:tools] utils/text.py:5 slugify(value) already does this; reuse it instead of new_slug()."


def test_stop_reminds_once_of_a_helper_copy_that_still_ships(
    project: Path, run_hook: HookRunner
) -> None:
    indexed_project(project)
    assert context_of(run_hook("PostToolUse", new_slug_edit(project)).stdout) == COPY_NUDGE
    (project / "utils" / "text.py").write_text(
        "import re\n\n\n" + SLUGIFY
    )  # the helper moved 3 lines down
    first = run_hook("Stop", payload("Stop", project, **stop()))
    assert (first.returncode, context_of(first.stdout)) == (
        0,
        "[sidecar:tools] Still there as you finish: new_slug() copies slugify() (utils/text.py:8).",
    )
    assert (
        context_of(run_hook("Stop", payload("Stop", project, **stop())).stdout) == ""
    )  # once only
    assert [(row["rule"], row["outcome"]) for row in decisions(project, "rechecked")] == [
        ("tools.helper-exists", "still")
    ]


def test_a_helper_copy_is_reminded_once_even_across_a_compaction(
    project: Path, run_hook: HookRunner
) -> None:
    """Only findings at least `remind_threshold` severe (scope writes) are named after `compact` and
    may be reminded once more; a copy (medium) is said at delivery and at one Stop."""
    indexed_project(project)
    assert context_of(run_hook("PostToolUse", new_slug_edit(project)).stdout) == COPY_NUDGE
    reminder = (
        "[sidecar:tools] Still there as you finish: new_slug() copies slugify() (utils/text.py:5)."
    )
    assert context_of(run_hook("Stop", payload("Stop", project, **stop())).stdout) == reminder
    assert (
        context_of(
            run_hook("SessionStart", payload("SessionStart", project, source="compact")).stdout
        )
        == ""
    )
    assert context_of(run_hook("Stop", payload("Stop", project, **stop())).stdout) == ""
    assert [row["hook"] for row in decisions(project, "reminded")] == ["Stop"]


@pytest.mark.parametrize(
    ("views", "outcome"),
    [
        (
            VIEWS
            + "from utils.text import slugify\n\n\ndef new_slug(text):\n    return slugify(text)\n",
            "fixed",
        ),
        (VIEWS, "moot"),  # the file is back as it was: nothing left to judge
    ],
)
def test_a_copy_replaced_by_a_call_or_removed_is_not_reminded(
    project: Path, run_hook: HookRunner, views: str, outcome: str
) -> None:
    indexed_project(project)
    assert context_of(run_hook("PostToolUse", new_slug_edit(project)).stdout) == COPY_NUDGE
    (project / "app" / "views.py").write_text(views)
    done = run_hook("Stop", payload("Stop", project, **stop()))
    assert (done.returncode, context_of(done.stdout)) == (0, "")
    assert [row["outcome"] for row in decisions(project, "rechecked")] == [outcome]
    assert decisions(project, "reminded") == []


def test_a_copy_whose_helper_is_gone_is_moot_at_stop(project: Path, run_hook: HookRunner) -> None:
    indexed_project(project)
    assert context_of(run_hook("PostToolUse", new_slug_edit(project)).stdout) == COPY_NUDGE
    (project / "utils" / "text.py").write_text("import re\n")
    assert context_of(run_hook("Stop", payload("Stop", project, **stop())).stdout) == ""
    assert [row["outcome"] for row in decisions(project, "rechecked")] == ["moot"]


def test_a_session_with_only_a_ledger_is_pruned_after_two_weeks_too(
    armed: Path, run_hook: HookRunner
) -> None:
    import os

    from sidekit_hooks.nudges import policy

    run_hook(
        "PostToolUse",
        payload(
            "PostToolUse",
            armed,
            session_id="quiet",
            tool_name="Bash",
            tool_input={"command": "true"},
            tool_response={"stdout": ""},
        ),
    )
    ledger_file = armed / ".sidekit" / "state" / "quiet" / "ledger.jsonl"
    assert (
        ledger_file.read_text() == '{"call":""}\n'
        and not (ledger_file.parent / "policy.json").exists()
    )
    stale = ledger_file.stat().st_mtime - policy.STALE_SESSION - 60
    os.utime(ledger_file, (stale, stale))
    put(armed, "docs/notes.md", "x\n")
    run_hook(
        "PostToolUse", write(armed, "docs/notes.md", "x\n", session="new")
    )  # a new session's first finding
    assert sorted(p.name for p in (armed / ".sidekit" / "state").iterdir()) == ["new"]


def test_each_fired_decision_names_its_subject_and_how_to_recheck_it(
    armed: Path, run_hook: HookRunner
) -> None:
    session_with_a_fix_and_an_open_scope_edit(armed, run_hook)
    fired = [
        (row["sidecar"], row.get("subject"), row.get("recheck"))
        for row in decisions(armed, "fired")
    ]
    assert fired == [
        (
            "specs",
            "return JSONResponse({'error': reason}, status_code=400)",
            {
                "kind": "match",
                "path": "api/items.py",
                "pattern": "status_code\\s*=\\s*400\\b",
                "digest": line_digest("return JSONResponse({'error': reason}, status_code=400)"),
                "before": "absent",
            },
        ),
        (
            "scope",
            "docs/notes.md",
            {
                "kind": "scope",
                "path": "docs/notes.md",
                "before": "absent",
                "again": "docs/notes.md, outside gt-7's scope; tell the user.",
            },
        ),
    ]


def test_a_standing_finding_is_said_again_once_at_the_first_stop_or_compaction(
    armed: Path, run_hook: HookRunner
) -> None:
    """Issue #35: the out-of-scope edit was said at the edit, the Stop of leg 1, after the
    compaction and at the final Stop. Now: at the first of those boundaries only, then once more
    only if the file changed."""
    session_with_a_fix_and_an_open_scope_edit(armed, run_hook)
    reminder = "[sidecar:scope] Still there as you finish: docs/notes.md, outside gt-7's scope; tell the user."
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == reminder
    compacted = context_of(
        run_hook("SessionStart", payload("SessionStart", armed, source="compact")).stdout
    )
    assert compacted == PRIMER
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == ""
    put(armed, "docs/notes.md", "notes, edited again\n")  # the file changed since it was said again
    again = "[sidecar:scope] Still open from before the compaction: docs/notes.md, outside gt-7's scope; tell the user."
    compacted = context_of(
        run_hook("SessionStart", payload("SessionStart", armed, source="compact")).stdout
    )
    assert compacted == PRIMER + "\n" + again
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == ""
    assert [row["hook"] for row in decisions(armed, "reminded")] == ["Stop", "SessionStart"]


def test_a_compaction_before_any_stop_is_the_one_repeat(armed: Path, run_hook: HookRunner) -> None:
    session_with_a_fix_and_an_open_scope_edit(armed, run_hook)
    compacted = context_of(
        run_hook("SessionStart", payload("SessionStart", armed, source="compact")).stdout
    )
    assert compacted == PRIMER + (
        "\n[sidecar:scope] Still open from before the compaction: docs/notes.md, outside gt-7's "
        "scope; tell the user."
    )
    assert context_of(run_hook("Stop", payload("Stop", armed, **stop())).stdout) == ""
    put(armed, "docs/notes.md", "")
    (armed / "docs" / "notes.md").unlink()  # undone: a new file removed again
    assert (
        context_of(
            run_hook("SessionStart", payload("SessionStart", armed, source="compact")).stdout
        )
        == PRIMER
    )
    assert [row["hook"] for row in decisions(armed, "reminded")] == ["SessionStart"]


def test_a_fresh_start_or_resume_does_not_repeat_standing_findings(
    armed: Path, run_hook: HookRunner
) -> None:
    session_with_a_fix_and_an_open_scope_edit(armed, run_hook)
    assert (
        context_of(run_hook("SessionStart", payload("SessionStart", armed, source="clear")).stdout)
        == PRIMER
    )
    assert (
        context_of(run_hook("SessionStart", payload("SessionStart", armed, source="resume")).stdout)
        == ""
    )
