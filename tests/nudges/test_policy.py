"""The injection policy: thresholds, dedup (and back-and-forth), cooldown, cap, merge order,
lengths."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks import detectors
from sidekit_hooks.core import hooklog
from sidekit_hooks.detectors.scope.model import Scope, save
from sidekit_hooks.nudges import policy
from sidekit_hooks.nudges.events import Event, parse_event
from sidekit_hooks.nudges.findings import HABIT, Context, Finding
from sidekit_hooks.pipeline import runtime
from testing.hooks import REPO, context_of, payload

SESSION = "sess-1"


@pytest.fixture
def here(project: Path, clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    (project / "api").mkdir()
    (project / "api" / "users.py").write_text("A = 1\n")
    return project


def configure(monkeypatch: pytest.MonkeyPatch, **table: Any) -> None:
    monkeypatch.setattr(runtime, "policy_config", lambda ctx: policy.Config(table))


def edit_event(
    project: Path, path: str = "api/users.py", tool: str = "Edit", session: str = SESSION
) -> Event:
    raw = payload(
        "PostToolUse",
        project,
        session_id=session,
        tool_name=tool,
        tool_input={"file_path": str(project / path), "old_string": "A = 1", "new_string": "A = 2"},
    )
    return parse_event("PostToolUse", raw, str(project))


def ctx_of(project: Path) -> Context:
    return Context(str(project), SESSION, float("inf"))


def finding(
    sidecar: str = "specs", message: str = "Spec 4.1: validation errors return HTTP 422.", **kw: Any
) -> Finding:
    kw.setdefault("path", "api/users.py")
    kw.setdefault("key", f"{sidecar}:{kw.get('rule_id', 'r')}:{kw['path']}")
    kw.setdefault("rank", detectors.rank_of(sidecar))  # as the sidecar's detector ranks it
    return Finding(sidecar, message, **kw)


def admit(
    project: Path, findings: list[Finding], now: float = 1000.0, event: Event | None = None
) -> list[str]:
    config = runtime.policy_config(ctx_of(project))
    return [
        line
        for line, _ in policy.admit(
            findings, event or edit_event(project), ctx_of(project), config, now=now
        )
    ]


def decisions(project: Path) -> list[tuple[str, str, str]]:
    """The findings' decisions (a hook cut off by a loaded machine also logs its job as
    `finished-later`)."""
    records = hooklog.read(str(project), hooklog.DECISIONS)
    return [(r["sidecar"], r["decision"], r.get("by", "")) for r in records if "sidecar" in r]


# --- dedup
# -----------------------------------------------------------------------------------------


def test_a_finding_fires_once_and_its_decision_is_logged(here: Path) -> None:
    assert admit(here, [finding(rule_id="acme.422")]) == [
        "[sidecar:specs] Spec 4.1: validation errors return HTTP 422."
    ]
    record = hooklog.read(str(here), hooklog.DECISIONS)[-1]
    del record["ts"]
    assert record == {
        "session": SESSION,
        "hook": "PostToolUse",
        "tool": "Edit",
        "sidecar": "specs",
        "rule": "acme.422",
        "key": "specs:acme.422:api/users.py",
        "path": "api/users.py",
        "severity": "medium",
        "decision": "fired",
        "text": "[sidecar:specs] Spec 4.1: validation errors return HTTP 422.",
    }


def test_the_same_finding_is_suppressed_as_a_duplicate(here: Path) -> None:
    assert len(admit(here, [finding()], now=1000)) == 1
    assert admit(here, [finding()], now=5000) == []
    assert decisions(here) == [("specs", "fired", ""), ("specs", "suppressed", "duplicate")]


def test_a_duplicate_in_another_session_fires(here: Path) -> None:
    assert len(admit(here, [finding()])) == 1
    other = edit_event(here, session="sess-2")
    assert len(admit(here, [finding()], event=other)) == 1


def test_back_and_forth_refires_only_when_the_file_returns_to_a_state_where_it_fired(
    here: Path,
) -> None:
    target = here / "api" / "users.py"
    target.write_text("status_code = 400\n")
    assert len(admit(here, [finding()], now=1000)) == 1
    target.write_text("status_code = 422\n")  # fixed: an event on the file with no finding -> clean
    assert admit(here, [], now=1100) == []
    target.write_text("status_code = 400\n")  # reverted to the very state it fired on
    assert len(admit(here, [finding()], now=1200)) == 1
    target.write_text(
        "status_code = 400  # again\n"
    )  # fires on a state it never fired on, not clean: duplicate
    assert admit(here, [finding()], now=1300) == []
    assert [d[1:] for d in decisions(here)] == [
        ("fired", ""),
        ("fired", ""),
        ("suppressed", "duplicate"),
    ]


def test_same_content_without_a_clean_state_in_between_stays_a_duplicate(here: Path) -> None:
    assert len(admit(here, [finding()], now=1000)) == 1
    assert admit(here, [], now=1050) == []  # an event on the same, unchanged content: not clean
    assert admit(here, [finding()], now=1100) == []


# --- cooldown
# --------------------------------------------------------------------------------------


def test_cooldown_holds_a_sidecar_for_30_seconds_but_not_scope(here: Path) -> None:
    tools = [finding("tools", f"tool {n}", key=f"tools:{n}") for n in range(3)]
    assert admit(here, [tools[0]], now=1000) == ["[sidecar:tools] tool 0"]
    assert admit(here, [tools[1]], now=1029.9) == []
    assert admit(here, [tools[2]], now=1030.0) == ["[sidecar:tools] tool 2"]
    scope = [finding("scope", f"scope {n}", key=f"scope:{n}", severity="high") for n in range(2)]
    assert admit(here, scope, now=1030.5) == ["[sidecar:scope] scope 0", "[sidecar:scope] scope 1"]
    assert decisions(here)[1] == (
        "tools",
        "suppressed",
        "deferred",
    )  # held back, kept for a later boundary
    assert admit(here, [], now=1060.0) == [
        "[sidecar:tools] tool 1"
    ]  # the cooldown of tool 2 is over


# --- value and deferral
# ----------------------------------------------------------------------------

CAP_LINE = (
    "[sidecar:policy] Nudge cap reached ({n} this session): further sidecar findings are held "
    "back; "
    "`sidekit report` lists them."
)
GREP_HINT = "Searching code text for `make_str`: `sidekit usages make_str` lists its real uses."
HELPER = "src/utils.py:12 make_str(value) already does this; reuse it instead of _decode_text()."


def test_a_habit_hint_never_holds_back_a_concrete_finding(here: Path) -> None:
    """The click session: a grep hint spoke 25 s before the helper finding; the helper must still go
    out."""
    hint = finding(
        "tools",
        GREP_HINT,
        key="tools:grep-name",
        rule_id="tools.grep-for-name",
        path="",
        kind=HABIT,
    )
    helper = finding("tools", HELPER, key="tools:reinvent:make_str", rule_id="tools.helper-exists")
    assert admit(here, [hint], now=1000) == [f"[sidecar:tools] {GREP_HINT}"]
    assert admit(here, [helper], now=1025) == [f"[sidecar:tools] {HELPER}"]


def test_a_concrete_finding_ranks_before_a_habit_hint_and_holds_it_back(here: Path) -> None:
    hint = finding(
        "tools",
        GREP_HINT,
        key="tools:grep-name",
        rule_id="tools.grep-for-name",
        path="",
        severity="high",
        kind=HABIT,
    )
    helper = finding("tools", HELPER, key="tools:reinvent:make_str", rule_id="tools.helper-exists")
    assert admit(here, [hint, helper], now=1000) == [f"[sidecar:tools] {HELPER}"]
    assert decisions(here)[-1] == ("tools", "suppressed", "deferred")  # the hint waits for its turn
    assert admit(here, [], now=1031) == [f"[sidecar:tools] {GREP_HINT}"]


def test_a_habit_hint_is_known_by_its_kind_not_its_rule_id(here: Path) -> None:
    """A team's rule may call itself anything: what makes a hint a habit is the kind its detector
    gave it."""
    hint = finding(
        "tools",
        "use Glob",
        key="tools:any",
        rule_id="acme.glob-please",
        path="",
        severity="high",
        kind=HABIT,
    )
    named = finding(
        "tools",
        "not a hint",
        key="tools:named",
        rule_id="tools.grep-for-name",
        path="",
        severity="low",
    )
    assert admit(here, [hint, named], now=1000) == [
        "[sidecar:tools] not a hint"
    ]  # value before severity
    assert [d[2] for d in decisions(here)] == [
        "",
        "deferred",
    ]  # and the concrete finding held the hint back


def test_a_deferred_habit_hint_stays_a_habit_hint_when_said(here: Path) -> None:
    hint = finding("tools", GREP_HINT, key="tools:grep-name", path="", kind=HABIT)
    first = finding("tools", "helper one exists", key="tools:one")
    assert admit(here, [first, hint], now=1000) == ["[sidecar:tools] helper one exists"]
    assert admit(here, [], now=1031) == [
        f"[sidecar:tools] {GREP_HINT}"
    ]  # revived from the state file
    # Said as a hint, it starts only the hint clock: a concrete finding right after still goes out.
    assert admit(here, [finding("tools", HELPER, key="tools:two")], now=1040) == [
        f"[sidecar:tools] {HELPER}"
    ]


def test_the_deferred_finding_is_delivered_at_the_next_boundary_once(here: Path) -> None:
    first = finding("tools", "helper one exists", key="tools:one")
    second = finding("tools", HELPER, key="tools:two")
    assert admit(here, [first], now=1000) == ["[sidecar:tools] helper one exists"]
    assert admit(here, [second], now=1010) == []  # cooling: deferred
    assert admit(here, [], now=1020) == []  # a boundary inside the cooldown: still waiting
    assert admit(here, [], now=1031) == [f"[sidecar:tools] {HELPER}"]  # the next boundary after it
    assert admit(here, [], now=1100) == []
    assert admit(here, [second], now=1200) == []  # once per finding still holds
    assert [d[2] for d in decisions(here)] == ["", "deferred", "", "duplicate"]


def test_a_deferred_finding_waits_through_a_stop_for_a_boundary_that_delivers(here: Path) -> None:
    assert len(admit(here, [finding("tools", "one", key="tools:one")], now=1000)) == 1
    assert admit(here, [finding("tools", "two", key="tools:two")], now=1010) == []
    stop = parse_event(
        "Stop", payload("Stop", here, session_id=SESSION, stop_hook_active=False), str(here)
    )
    assert (
        admit(here, [], now=1040, event=stop) == []
    )  # Stop delivers nothing: the finding keeps waiting
    assert admit(here, [], now=1041) == ["[sidecar:tools] two"]


def test_a_deferred_finding_whose_file_changed_is_dropped_as_stale(here: Path) -> None:
    assert len(admit(here, [finding("tools", "one", key="tools:one")], now=1000)) == 1
    assert admit(here, [finding("tools", "two", key="tools:two")], now=1010) == []
    (here / "api" / "users.py").write_text(
        "A = 3\n"
    )  # the code it spoke of is gone: it may no longer hold
    assert admit(here, [], now=1040) == []
    assert decisions(here)[-1] == ("tools", "suppressed", "stale")


def test_a_deferred_finding_expires(here: Path) -> None:
    assert len(admit(here, [finding("tools", "one", key="tools:one")], now=1000)) == 1
    assert admit(here, [finding("tools", "two", key="tools:two")], now=1010) == []
    assert admit(here, [], now=1010 + policy.DEFER_TTL + 1) == []
    assert decisions(here)[-1] == ("tools", "suppressed", "expired")


def test_a_deferred_finding_respects_the_cap(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configure(monkeypatch, max_nudges=2)
    assert len(admit(here, [finding("tools", "one", key="tools:one")], now=1000)) == 1
    assert admit(here, [finding("tools", "two", key="tools:two")], now=1010) == []
    assert admit(here, [finding("scope", "out", key="scope:x", severity="high")], now=1011) == [
        "[sidecar:scope] out"
    ]
    assert admit(here, [], now=1041) == [CAP_LINE.format(n=2)]  # the cap holds for what waited too
    assert admit(here, [], now=1100) == []
    assert not (Path(policy.state_folder(str(here), SESSION)) / policy.DEFER_MARK).exists()


def test_a_finding_about_no_file_is_not_deferred(here: Path) -> None:
    assert len(admit(here, [finding("tests", "3 fail", key="tests:a", path="")], now=1000)) == 1
    assert admit(here, [finding("tests", "4 fail", key="tests:b", path="")], now=1010) == []
    assert admit(here, [], now=1100) == []  # what the tests said was about that moment
    assert decisions(here)[-1] == ("tests", "suppressed", "cooldown")


def test_cooldowns_are_configurable_per_sidecar(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(monkeypatch, cooldown=5, cooldowns={"tools": 0})
    assert (
        len(admit(here, [finding("specs", "a", key="a"), finding("specs", "b", key="b")], now=1000))
        == 1
    )
    assert len(admit(here, [finding("specs", "c", key="c")], now=1005)) == 1
    assert (
        len(admit(here, [finding("tools", "d", key="d"), finding("tools", "e", key="e")], now=1005))
        == 2
    )


# --- cap
# -------------------------------------------------------------------------------------------


def test_ten_nudges_per_session_then_one_cap_line(here: Path) -> None:
    said = []
    for n in range(12):
        said += admit(
            here,
            [finding("scope", f"outside {n}", key=f"scope:{n}", severity="high")],
            now=1000 + n,
        )
    assert said == [f"[sidecar:scope] outside {n}" for n in range(10)] + [
        "[sidecar:policy] Nudge cap reached (10 this session): further sidecar findings are held "
        "back; "
        "`sidekit report` lists them."
    ]
    assert [d for d in decisions(here) if d[2] == "cap"] == [("scope", "suppressed", "cap")] * 2


def test_the_cap_is_configurable(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configure(monkeypatch, max_nudges=1)
    lines = admit(here, [finding("scope", "a", key="a"), finding("scope", "b", key="b")])
    assert lines == [
        "[sidecar:scope] a",
        "[sidecar:policy] Nudge cap reached (1 this session): further sidecar "
        "findings are held back; `sidekit report` lists them.",
    ]


# --- thresholds and mute
# ---------------------------------------------------------------------------


def test_severity_floor_is_set_globally_and_per_sidecar(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert admit(here, [finding("conventions", "low one", key="l", severity="low")]) == [
        "[sidecar:conventions] low one"
    ]
    configure(monkeypatch, threshold="medium", thresholds={"tools": "high", "specs": "low"})
    lines = admit(
        here,
        [
            finding("tools", "medium tool", key="t"),
            finding("tools", "high tool", key="h", severity="high"),
            finding("specs", "low spec", key="s", severity="low"),
        ],
    )
    assert lines == ["[sidecar:tools] high tool", "[sidecar:specs] low spec"]
    assert ("tools", "suppressed", "threshold") in decisions(here)


def test_mute_by_sidecar_or_rule_id(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configure(monkeypatch, mute=["tools", "acme.noisy"])
    lines = admit(
        here,
        [
            finding("tools", "t", key="t"),
            finding("specs", "noisy", key="n", rule_id="acme.noisy"),
            finding("specs", "kept", key="k", rule_id="acme.kept"),
        ],
    )
    assert lines == ["[sidecar:specs] kept"]
    assert sorted(d[2] for d in decisions(here)) == ["", "muted", "muted"]


def test_bad_config_values_fall_back_to_defaults() -> None:
    config = policy.Config(
        {
            "cooldown": "soon",
            "max_nudges": -1,
            "threshold": "urgent",
            "dedup": "yes",
            "cooldowns": {"tools": 5, "specs": "x"},
            "thresholds": {"tools": "bad"},
            "mute": "tools",
        }
    )
    assert (config.cooldown, config.max_nudges, config.threshold, config.dedup) == (
        30.0,
        10,
        "low",
        True,
    )
    assert config.cooldowns == {"scope": 0.0, "tools": 5}
    assert (config.thresholds, config.mute) == ({"scope": "medium"}, frozenset())


def test_policy_table_comes_from_the_rule_pack_snapshot(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = types.ModuleType("sidekit_hooks.rules.snapshot")
    reads: list[str] = []

    def current(
        project: str, notify: object = None, event_name: str = "", compile_budget: float = 0.0
    ) -> dict[str, Any]:
        reads.append(project)
        return {"rules": [], "policy": {"max_nudges": 3, "cooldown": 0}}

    fake.current = current  # type: ignore[attr-defined]
    fake.COMPILE_BUDGET = 0.2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sidekit_hooks.rules.snapshot", fake)
    event = edit_event(here)
    ctx = Context(
        str(here),
        SESSION,
        float("inf"),
        read_snapshot=lambda ctx: runtime.read_snapshot(event, ctx),
    )
    context, claims = runtime.respond(runtime.Call(event, ctx))
    config = runtime.policy_config(ctx)
    assert (config.max_nudges, config.cooldown) == (3, 0.0)
    assert reads == [str(here)]  # one read per event, shared by the rules sidecar and the policy


# --- merge order and lengths
# -----------------------------------------------------------------------


def test_merge_order_is_urgent_then_severity_then_sidecar_rank(here: Path) -> None:
    found = [
        finding("conventions", "conv", key="c"),
        finding("tools", "tool", key="t"),
        finding("specs", "spec", key="s", severity="high"),
        finding("scope", "scope", key="o", severity="high"),
        finding("tests", "tests", key="x", priority="urgent"),
        finding("mypack", "custom", key="m", severity="high"),
        finding("otherpack", "other", key="p"),
        finding("judge", "opinion", key="j"),
    ]
    lines = admit(here, found)
    assert lines == [
        "[sidecar:tests] tests",
        "[sidecar:scope] scope",
        "[sidecar:specs] spec",
        "[sidecar:mypack] custom",
        "[sidecar:tools] tool",
        "[sidecar:conventions] conv",
        "[sidecar:judge] opinion",  # ranked by its detector, before a sidecar nobody ranked
        "[sidecar:otherpack] other",
    ]


def test_a_teams_order_replaces_the_detectors_ranks(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(monkeypatch, order=["conventions", "judge"])
    found = [
        finding("scope", "scope", key="o"),
        finding("judge", "opinion", key="j"),
        finding("conventions", "conv", key="c"),
        finding("specs", "spec", key="s"),
    ]
    assert admit(here, found) == [
        "[sidecar:conventions] conv",
        "[sidecar:judge] opinion",
        "[sidecar:scope] scope",  # the sidecars it leaves out keep the order they were found in
        "[sidecar:specs] spec",
    ]


def test_each_nudge_is_one_line_under_300_characters() -> None:
    line = policy.clip("[sidecar:specs] " + "word\nword " * 100)
    assert "\n" not in line and len(line) == 299 and line.endswith(" …")
    assert policy.clip("[sidecar:x]  short \n text ") == "[sidecar:x] short text"


class Say:
    """A test sidecar that says fixed findings on every PostToolUse."""

    hooks = frozenset({"PostToolUse"})

    def __init__(self, name: str, findings: list[Finding]) -> None:
        self.name = name
        self.findings = findings

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        return list(self.findings)


@pytest.fixture
def sidecars(here: Path) -> Any:
    added: list[str] = []

    def add(name: str, *found: Finding) -> None:
        detectors.register(name, Say(name, list(found)))
        added.append(name)

    yield add
    for name in added:
        detectors.unregister(name)


def run_edit(project: Path) -> str:
    raw = payload(
        "PostToolUse",
        project,
        session_id=SESSION,
        tool_name="Edit",
        tool_input={
            "file_path": str(project / "api/users.py"),
            "old_string": "A",
            "new_string": "B",
        },
    )
    outcome = runtime.run("PostToolUse", json.dumps(raw))
    from sidekit_hooks.nudges import queue

    queue.commit(outcome.claims)
    return context_of(outcome.output)


def test_several_sidecars_at_one_boundary_become_one_delivery_most_important_first(
    here: Path, sidecars: Any
) -> None:
    sidecars("t_tools", finding("tools", "Use `sidekit test` instead of raw pytest.", key="t1"))
    sidecars(
        "t_specs",
        finding(
            "specs", "Spec 4.1: 422, not 400. See docs/api.md#errors", key="s1", severity="high"
        ),
    )
    assert run_edit(here) == (
        "[sidecar:specs] Spec 4.1: 422, not 400. See docs/api.md#errors\n"
        "[sidecar:tools] Use `sidekit test` instead of raw pytest."
    )
    assert run_edit(here) == ""  # both are duplicates now
    delivered = [
        r["text"]
        for r in hooklog.read(str(here), hooklog.DECISIONS)
        if r["decision"] == "delivered"
    ]
    assert delivered == [
        "[sidecar:specs] Spec 4.1: 422, not 400. See docs/api.md#errors",
        "[sidecar:tools] Use `sidekit test` instead of raw pytest.",
    ]


def test_a_delivery_stays_under_1000_characters_and_counts_the_rest(
    here: Path, sidecars: Any
) -> None:
    sidecars(
        "t_many",
        *[finding("scope", f"{n} " + "x" * 400, key=f"k{n}", severity="high") for n in range(5)],
    )
    text = run_edit(here)
    lines = text.split("\n")
    assert len(text) <= 1000
    assert [len(line) for line in lines[:-1]] == [299, 299, 299] and lines[-1] == "(+2 more queued)"
    assert run_edit(here).split("\n")[-1] == "[sidecar:scope] 4 " + "x" * 279 + " …"


# --- concurrency, through the real entry point
# -----------------------------------------------------


def test_concurrent_hooks_say_a_finding_exactly_once(here: Path, clean_env: dict[str, str]) -> None:
    save(str(here), Scope(["api/**"], issue="gt-1"))
    (here / "auth").mkdir()
    (here / "auth" / "x.py").write_text("X = 1\n")
    (here / ".sidekit" / "rules").mkdir(
        parents=True, exist_ok=True
    )  # read notices on (held back by default)
    (here / ".sidekit" / "rules" / "reads.toml").write_text(
        '[pack]\nname = "reads"\n[policy]\nthresholds = { scope = "low" }\n'
    )
    body = json.dumps(
        payload(
            "PostToolUse", here, tool_name="Read", tool_input={"file_path": str(here / "auth/x.py")}
        )
    )
    script = REPO / "hooks" / "post_tool_use.py"
    env = dict(clean_env, CLAUDE_PROJECT_DIR=str(here))
    warm = json.dumps(
        payload(
            "PostToolUse",
            here,
            tool_name="Read",
            tool_input={"file_path": str(here / "api/users.py")},
        )
    )
    subprocess.run(
        [sys.executable, "-S", str(script)],
        input=warm.encode(),
        env=env,
        cwd=str(here),
        timeout=30,
        check=True,
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-S", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=str(here),
        )
        for _ in range(6)
    ]
    outputs = [p.communicate(body.encode(), timeout=30)[0].decode() for p in procs]
    said = [context_of(out) for out in outputs if out.strip()]
    assert said == [
        "[sidecar:scope] FYI: auth/x.py is outside this task's scope (gt-1); "
        "reading is fine, edits need the user's go-ahead."
    ]
    made = decisions(here)
    assert (made.count(("scope", "fired", "")), made.count(("scope", "delivered", ""))) == (1, 1)
    # Every other hook that reached the policy (all 5, unless a loaded machine hit the hook's hard
    # deadline first) held it back as a duplicate; none said it again.
    assert set(made) - {("scope", "fired", ""), ("scope", "delivered", "")} <= {
        ("scope", "suppressed", "duplicate")
    }
    assert all(p.returncode == 0 for p in procs)


def test_max_chars_lowers_the_line_limit(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configure(monkeypatch, max_chars=100)
    (line,) = admit(here, [finding("specs", "y" * 200, key="long")])
    assert len(line) == 99 and line.endswith(" …")
    assert (
        policy.Config({"max_chars": 1000}).max_chars == 300
        and policy.Config({"max_chars": 10}).max_chars == 300
    )


def test_subagent_findings_are_said_directly_and_logged_as_delivered(
    here: Path, sidecars: Any
) -> None:
    sidecars("t_sub", finding("specs", "Spec 4.1: 422.", key="sub"))
    raw = payload(
        "PostToolUse",
        here,
        session_id=SESSION,
        tool_name="Edit",
        agent_id="ag-7",
        agent_type="Explore",
        tool_input={"file_path": str(here / "api/users.py"), "old_string": "A", "new_string": "B"},
    )
    outcome = runtime.run("PostToolUse", json.dumps(raw))
    assert context_of(outcome.output) == "[sidecar:specs] Spec 4.1: 422."
    assert decisions(here) == [("specs", "fired", ""), ("specs", "delivered", "")]
    assert hooklog.read(str(here), hooklog.DECISIONS)[-1]["agent"] == "ag-7"


def test_state_of_sessions_untouched_for_two_weeks_is_pruned_when_a_new_one_starts(
    here: Path,
) -> None:
    import os

    admit(here, [finding()], event=edit_event(here, session="old"))
    old_state = here / ".sidekit" / "state" / "old" / "policy.json"
    stale = old_state.stat().st_mtime - policy.STALE_SESSION - 60
    os.utime(old_state, (stale, stale))
    admit(here, [finding()], event=edit_event(here, session="new"))
    assert sorted(p.name for p in (here / ".sidekit" / "state").iterdir()) == ["new"]


def test_a_corrupt_state_file_starts_the_session_afresh(here: Path) -> None:
    folder = here / ".sidekit" / "state" / SESSION
    folder.mkdir(parents=True)
    (folder / "policy.json").write_text("{not json")
    assert admit(here, [finding()]) == [
        "[sidecar:specs] Spec 4.1: validation errors return HTTP 422."
    ]
    assert json.loads((folder / "policy.json").read_text())["count"] == 1


def test_an_unusable_state_folder_still_lets_findings_through_and_is_logged(here: Path) -> None:
    (here / ".sidekit").mkdir()
    (here / ".sidekit" / "state").write_text("a file where a folder should be")
    assert admit(here, [finding()]) == [
        "[sidecar:specs] Spec 4.1: validation errors return HTTP 422."
    ]
    (error,) = hooklog.read(str(here), hooklog.ERRORS)
    assert (error["hook"], error["where"], error["error"].split(":")[0]) == (
        "PostToolUse",
        "policy",
        "NotADirectoryError",
    )


def test_docs_list_every_policy_key_with_its_default() -> None:
    doc = (REPO / "docs" / "policy.md").read_text()
    keys = [
        line.split("=")[0].strip()
        for line in doc.split("[policy]\n", 1)[1].split("```")[0].splitlines()
        if "=" in line
    ]
    assert keys == list(policy.Config.__slots__)
    assert "cooldown = 30 " in doc and "max_nudges = 10 " in doc and 'threshold = "low" ' in doc
    assert "max_chars = 300 " in doc and "dedup = true " in doc


# --- through the real hooks: the click session's lost finding
# ---------------------------------------

MAKE_STR = '''def make_str(value):
    """Converts a value into a valid string."""
    if isinstance(value, bytes):
        try:
            return value.decode(sys.getfilesystemencoding())
        except UnicodeError:
            return value.decode("utf-8", "replace")
    return str(value)
'''
DECODE_TEXT = MAKE_STR.replace("make_str", "_decode_text").replace(
    "Converts a value into a valid string.", "Text."
)
SPLIT_WORDS = """def split_words(text):
    words = []
    for part in text.split():
        part = part.strip()
        if part:
            words.append(part.lower())
    return words
"""


LONG_GREP = "".join(
    f"pkg/mod{n}.py:{n}: value = make_str(item)  # a long listing\n" for n in range(60)
)  # >= 2 KB


def test_the_helper_finding_arrives_after_a_grep_hint_and_a_deferred_one_at_the_next_boundary(
    project: Path, run_hook: Any
) -> None:
    from sidekit_hooks.code import function_index
    from sidekit_hooks.code.index import Index
    from testing.hooks import bash, write

    (project / "pyproject.toml").write_text('[project]\nname = "app"\n')
    (project / "app").mkdir()
    (project / "app" / "utils.py").write_text("import sys\n\n\n" + MAKE_STR + "\n\n" + SPLIT_WORDS)
    function_index.main(["build", str(project)])
    with Index.open(str(project)):
        pass
    hint = context_of(
        run_hook("PostToolUse", bash(project, "grep -rn make_str .", LONG_GREP)).stdout
    )
    assert hint.startswith("[sidecar:tools] Searching code text for `make_str`")
    # Seconds later the agent copies make_str: a habit hint must not cost the session this finding.
    (project / "app" / "termui.py").write_text(
        "import sys\n\n\n" + DECODE_TEXT
    )  # the Write happened
    copied = run_hook(
        "PostToolUse", write(project, "app/termui.py", "import sys\n\n\n" + DECODE_TEXT)
    )
    assert context_of(copied.stdout) == (
        "[sidecar:tools] app/utils.py:4 make_str(value) already does this; reuse it instead of "
        "_decode_text()."
    )
    # A second concrete finding inside the cooldown waits for the next boundary instead of being
    # lost.
    (project / ".sidekit" / "rules").mkdir(parents=True, exist_ok=True)
    (project / ".sidekit" / "rules" / "pace.toml").write_text(
        '[pack]\nname = "pace"\n\n[policy]\ncooldown = 3\n'
    )
    (project / "app" / "text.py").write_text(SPLIT_WORDS.replace("split_words", "words_of"))
    words = run_hook(
        "PostToolUse", write(project, "app/text.py", SPLIT_WORDS.replace("split_words", "words_of"))
    )
    assert context_of(words.stdout) == ""
    time.sleep(3.1)
    later = run_hook("PostToolUse", bash(project, "ls"))
    assert context_of(later.stdout) == (
        "[sidecar:tools] app/utils.py:14 split_words(text) already does this; reuse it instead of "
        "words_of()."
    )
    assert context_of(run_hook("PostToolUse", bash(project, "ls")).stdout) == ""  # said once
