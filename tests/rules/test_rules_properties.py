"""Property tests: the hook's stdlib compile agrees with the validated pydantic models, and never
crashes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from sidekit_hooks.core import fastjson
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.rules import compiler, match, snapshot
from sidekit_hooks.rules.authoring import lint, schema
from testing.examples import depths

ORIGIN = {"file": "sidecar_rules/p.toml", "layer": "project"}
TOOLS = ["Edit", "Write", "Bash", "Read", "Grep", "NotebookEdit", "mcp__*", "W*"]
GLOBS = ["*.py", "api/**", "src/**/*.py", "!src/gen/**", "docs/", "/setup.py", "tests", "*.md"]
TEXT_REGEXES = ["x", r"\bfoo\b", "^import", "bar$", "(?i)todo", "a|b", r"\d+", r"^\s*print\("]
COMMANDS = ["^pytest", r"\bgit\b", "rm -rf", "make"]
OUTPUTS = ["Error", "Traceback", "x", "(?m)^FAILED"]
WORDS = [
    "x",
    "foo",
    "import os",
    "bar",
    "TODO",
    "123",
    "  print(1)",
    "# sidekit: ignore[p.r1]",
    "# sidekit: ignore",
    "Error: boom",
    "FAILED tests/t.py",
]
PATHS = [
    "api/a.py",
    "src/x/y.py",
    "src/gen/z.py",
    "tests/t.py",
    "docs/i.md",
    "setup.py",
    "pkg/setup.py",
]
SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@st.composite
def rules(draw: st.DrawFn, index: int) -> dict[str, Any]:
    when: dict[str, Any] = {}
    if draw(st.integers(0, 2)) == 0:
        when["tools"] = draw(st.lists(st.sampled_from(TOOLS), min_size=1, max_size=3, unique=True))
    for key in ("paths", "exclude"):
        if draw(st.integers(0, 3)) == 0:
            when[key] = draw(st.lists(st.sampled_from(GLOBS), min_size=1, max_size=3, unique=True))
    kind = draw(st.sampled_from(["added", "absent", "both", "command", "output", "none"]))
    if kind in ("added", "both"):
        when["added"] = draw(st.sampled_from(TEXT_REGEXES))
    if kind in ("absent", "both"):
        when["absent"] = draw(st.sampled_from(TEXT_REGEXES))
    if kind in ("command", "output"):
        when[kind] = draw(st.sampled_from(COMMANDS if kind == "command" else OUTPUTS))
    rule: dict[str, Any] = {"id": f"p.r{index}", "message": f"message {index}", "when": when}
    if draw(st.booleans()):
        rule["sidecar"] = draw(st.sampled_from(["specs", "tools", "conventions"]))
    if draw(st.booleans()):
        rule["severity"] = draw(st.sampled_from(["low", "medium", "high"]))
    if draw(st.integers(0, 4)) == 0:
        rule["enabled"] = False
    if draw(st.booleans()):
        rule["see"] = "https://example.invalid/spec#" + str(index)
    if draw(st.integers(0, 4)) == 0:
        rule["metadata"] = {"prevalence": draw(st.floats(0, 1)), "learned": True}
    return rule


@st.composite
def packs(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(1, 6))
    data: dict[str, Any] = {"pack": {"name": "p"}, "rules": [draw(rules(i)) for i in range(count)]}
    if draw(st.booleans()):
        data["policy"] = {"cooldown": "5m"}
    return data


@st.composite
def events(draw: st.DrawFn) -> Any:
    tool = draw(
        st.sampled_from(
            ["Edit", "Write", "Bash"] * 3
            + ["Read", "Grep", "NotebookEdit", "mcp__gh__issue", "WebFetch"]
        )
    )
    path = "/proj/" + draw(st.sampled_from(PATHS))
    text = "\n".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5)))
    before = "\n".join(draw(st.lists(st.sampled_from(WORDS), max_size=3)))
    failed = draw(st.booleans()) and tool == "Bash"
    payload: dict[str, Any] = {"tool_name": tool}
    if tool in ("Edit", "Write"):
        payload["tool_input"] = {
            "file_path": path,
            "content": text,
            "old_string": before,
            "new_string": text,
        }
        payload["tool_response"] = {
            "filePath": path,
            "content": text,
            "originalFile": before or None,
            "structuredPatch": [],
        }
    elif tool == "NotebookEdit":
        payload["tool_input"] = {"notebook_path": path, "new_source": text}
        payload["tool_response"] = {"old_source": before}
    elif tool == "Bash":
        payload["tool_input"] = {
            "command": draw(st.sampled_from(["pytest -x", "git commit", "make test", "ls"]))
        }
        if failed:
            payload["error"] = text
        else:
            payload["tool_response"] = {"stdout": text, "stderr": ""}
    elif tool in ("Read", "Grep"):
        payload["tool_input"] = {"file_path": path, "path": path, "pattern": "x"}
        payload["tool_response"] = {"content": text}
    else:
        payload["tool_response"] = text
    return parse_event("PostToolUseFailure" if failed else "PostToolUse", payload, "/proj")


def pack_record(rules: list[dict[str, Any]], policy: dict[str, Any]) -> snapshot.PackRecord:
    """A compiled pack as the snapshot holds it (merge reads its rules, policy and error)."""
    return {
        "path": "p.toml",
        "file": "p.toml",
        "layer": "project",
        "stat": None,
        "name": "p",
        "error": "",
        "rules": rules,
        "policy": policy,
    }


def outcome(rules: list[dict[str, Any]], event: Any) -> list[tuple[str, str, str, str]]:
    return [
        (h.rule["id"], h.rule["sidecar"], h.field, h.matched)
        for h in match.match_rules(rules, event, float("inf"))
    ]


def snapshot_matching_equals_matching_with_the_validated_models(
    data: dict[str, Any], evts: list[Any]
) -> None:
    assume(not [p for p in lint.check_data(data) if p.level == "error"])
    # The hook's path: stdlib compile -> JSON snapshot text -> fastjson -> merge.
    compiled = compiler.compile_pack(data, ORIGIN)
    saved = fastjson.loads(
        fastjson.dumps({"name": "p", "rules": compiled["rules"], "policy": compiled["policy"]})
    )
    hook_rules, hook_policy = snapshot.merge([pack_record(saved["rules"], saved["policy"])])
    # The linter's path: the pydantic models.
    model = schema.Pack.model_validate(data)
    model_rules, model_policy = snapshot.merge(
        [pack_record(model.compiled_rules(ORIGIN), model.policy)]
    )
    assert hook_rules == model_rules and hook_policy == model_policy
    for evt in evts:
        expected = outcome(model_rules, evt)
        event("some rule fired" if expected else "no rule fired")
        assert outcome(hook_rules, evt) == expected


@pytest.mark.parametrize("examples", depths(80, fast=20))
def test_snapshot_matching_equals_matching_with_the_validated_models(examples: int) -> None:
    settings(SETTINGS, max_examples=examples)(
        given(packs(), st.lists(events(), min_size=3, max_size=6))(
            snapshot_matching_equals_matching_with_the_validated_models
        )
    )()


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=5)
    | st.sampled_from(["(", "*.py", "Edit", "x", "../a"]),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "pack",
                    "name",
                    "rules",
                    "id",
                    "message",
                    "when",
                    "tools",
                    "paths",
                    "added",
                    "enabled",
                    "severity",
                    "policy",
                    "examples",
                    "requires",
                    "command",
                    "exclude",
                ]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@SETTINGS
@given(st.dictionaries(st.sampled_from(["pack", "rules", "policy", "extra"]), JSONISH, max_size=3))
def test_the_hook_compiler_never_crashes_on_any_shape(data: dict[str, Any]) -> None:
    try:
        compiler.compile_pack(data, ORIGIN)
    except compiler.PackError as exc:
        assert exc.problems and all(p.fix for p in exc.problems)
