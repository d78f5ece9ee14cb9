"""sidekit_hooks.cli.wiring.settings_merge: merge into / take out of a settings dict, and nothing
else."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from sidekit_hooks.cli.wiring import settings_merge
from sidekit_hooks.cli.wiring.settings_merge import MARKER, Change
from testing.examples import depths

PYTHON = "/opt/sk/.venv/bin/python"
HOOKS = "/opt/sk/hooks"
WANTED = settings_merge.wanted_handlers(PYTHON, HOOKS)
OURS = {event: handler["command"] for event, handler in WANTED.items()}


def roundtrip(record: dict[str, Any]) -> dict[str, Any]:
    """The record goes to disk as JSON between install and uninstall."""
    result: dict[str, Any] = json.loads(json.dumps(record))
    return result


def install_then_uninstall(data: dict[str, Any]) -> dict[str, Any]:
    installed, record, _ = settings_merge.install(data, WANTED, None)
    restored, _ = settings_merge.uninstall(installed, roundtrip(record))
    return restored


def test_command_is_pinned_quoted_and_marked() -> None:
    assert settings_merge.command_for("/a b/python", "/c/hooks/post_tool_use.py") == (
        "'/a b/python' -S /c/hooks/post_tool_use.py # sidekit-hooks"
    )
    assert WANTED["PostToolUse"] == {
        "type": "command",
        "command": "/opt/sk/.venv/bin/python -S /opt/sk/hooks/post_tool_use.py # sidekit-hooks",
        "timeout": 5,
    }


def test_install_into_empty_settings_registers_every_event() -> None:
    installed, record, changes = settings_merge.install({}, WANTED)
    assert installed == {
        "hooks": {
            "PostToolUse": [{"matcher": "*", "hooks": [WANTED["PostToolUse"]]}],
            "PostToolUseFailure": [{"matcher": "*", "hooks": [WANTED["PostToolUseFailure"]]}],
            "UserPromptSubmit": [{"hooks": [WANTED["UserPromptSubmit"]]}],
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [WANTED["PreToolUse"]]},
                {"matcher": "Bash", "hooks": [WANTED["PreToolUse:jest"]]},
            ],
            "SessionStart": [{"hooks": [WANTED["SessionStart"]]}],
            "Stop": [{"hooks": [WANTED["Stop"]]}],
            "SubagentStop": [{"hooks": [WANTED["SubagentStop"]]}],
        }
    }
    assert WANTED["PreToolUse"]["command"] == f"{PYTHON} -S {HOOKS}/pre_tool_use.py test {MARKER}"
    assert (WANTED["PreToolUse"]["if"], WANTED["PreToolUse:jest"]["if"]) == (
        "Bash(*test*)",
        "Bash(*jest*)",
    )
    assert (
        WANTED["PreToolUse:jest"]["command"] == f"{PYTHON} -S {HOOKS}/pre_tool_use.py jest {MARKER}"
    )
    assert [change.action for change in changes] == ["added"] * 8
    assert record == {
        "createdHooks": True,
        "events": {
            event: {"command": OURS[event], "createdEvent": True, "replaced": None}
            for event in settings_merge.EVENTS
        },
    }


def test_install_appends_after_foreign_entries_without_moving_them() -> None:
    foreign = {"type": "command", "command": "ruff format"}
    data: dict[str, Any] = {
        "model": "opus",
        "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [foreign]}]},
        "env": {"A": "1"},
    }
    installed, _, _ = settings_merge.install(data, WANTED)
    assert list(installed) == ["model", "hooks", "env"]
    assert installed["hooks"]["PostToolUse"] == [
        {"matcher": "Edit", "hooks": [foreign]},
        {"matcher": "*", "hooks": [WANTED["PostToolUse"]]},
    ]
    assert data["hooks"]["PostToolUse"] == [
        {"matcher": "Edit", "hooks": [foreign]}
    ]  # input untouched


def test_install_is_idempotent_and_keeps_hand_edits() -> None:
    installed, record, _ = settings_merge.install({}, WANTED)
    installed["hooks"]["PostToolUse"][0]["matcher"] = "Edit|Write"
    installed["hooks"]["PostToolUse"][0]["hooks"][0]["timeout"] = 9
    again, record_again, changes = settings_merge.install(installed, WANTED, record)
    assert again == installed
    assert record_again == record
    assert [change.describe() for change in changes] == [
        "PostToolUse: already installed",
        "PostToolUseFailure: already installed",
        "UserPromptSubmit: already installed",
        "PreToolUse: already installed",
        "PreToolUse:jest: already installed",
        "SessionStart: already installed",
        "Stop: already installed",
        "SubagentStop: already installed",
    ]


def test_install_updates_a_stale_marked_entry_in_place_and_uninstall_restores_it() -> None:
    stale: dict[str, Any] = {
        "type": "command",
        "command": f"/old/python -S /old/hooks/post_tool_use.py {MARKER}",
        "timeout": 7,
    }
    data = {
        "hooks": {
            "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "a"}, stale]}]
        }
    }
    installed, record, changes = settings_merge.install(data, WANTED)
    assert installed["hooks"]["PostToolUse"][0]["hooks"] == [
        {"type": "command", "command": "a"},
        {**stale, "command": OURS["PostToolUse"]},
    ]
    assert changes[0] == Change("PostToolUse", "replaced", OURS["PostToolUse"], stale["command"])
    restored, undone = settings_merge.uninstall(installed, roundtrip(record))
    assert restored == data
    assert undone[0] == Change("PostToolUse", "restored", stale["command"], OURS["PostToolUse"])


def test_reinstall_from_a_moved_checkout_still_restores_the_original() -> None:
    data = {
        "hooks": {
            "UserPromptSubmit": [
                {"hooks": [{"type": "command", "command": f"/x/p -S /x/u.py {MARKER}"}]}
            ]
        }
    }
    first, record, _ = settings_merge.install(data, WANTED)
    moved = settings_merge.wanted_handlers("/new/python", "/new/hooks")
    second, record, changes = settings_merge.install(first, moved, roundtrip(record))
    assert changes[2].action == "replaced"
    restored, _ = settings_merge.uninstall(second, roundtrip(record))
    assert restored == data


def test_uninstall_finds_our_entries_after_hand_edits_to_matcher_and_timeout() -> None:
    data = {
        "hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "keep-me"}]}]},
        "x": 1,
    }
    installed, record, _ = settings_merge.install(data, WANTED)
    for event in ("PostToolUse", "PostToolUseFailure"):
        installed["hooks"][event][-1]["matcher"] = "Bash"
        installed["hooks"][event][-1]["hooks"][0]["timeout"] = 60
    assert settings_merge.uninstall(installed, roundtrip(record))[0] == data


def test_uninstall_finds_an_edited_command_by_marker_and_script() -> None:
    installed, record, _ = settings_merge.install({}, WANTED)
    installed["hooks"]["PostToolUse"][0]["hooks"][0]["command"] = (
        f"nice {PYTHON} -S {HOOKS}/post_tool_use.py {MARKER}"
    )
    restored, changes = settings_merge.uninstall(installed, roundtrip(record))
    assert restored == {}
    assert changes[0].action == "removed"


def test_uninstall_leaves_marked_entries_install_did_not_write() -> None:
    theirs = {"type": "command", "command": OURS["PostToolUse"], "timeout": 30}
    data = {"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [theirs]}]}}
    installed, record, changes = settings_merge.install(data, WANTED)
    assert changes[0].action == "kept"
    assert "PostToolUse" not in record["events"]
    assert settings_merge.uninstall(installed, roundtrip(record))[0] == data


def test_uninstall_without_record_or_with_all_removes_every_marked_entry() -> None:
    data = {
        "hooks": {
            "PostToolUse": [
                {
                    "hooks": [
                        {"type": "command", "command": "a"},
                        {"type": "command", "command": f"x {MARKER}"},
                    ]
                },
                {"matcher": "*", "hooks": [{"type": "command", "command": f"y {MARKER}"}]},
            ]
        }
    }
    expected = {"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "a"}]}]}}
    assert settings_merge.uninstall(data, None)[0] == expected
    assert settings_merge.uninstall(data, {"events": {}}, everything=True)[0] == expected
    assert settings_merge.uninstall(data, {"events": {}})[0] == data


def test_uninstall_removes_our_group_not_an_identical_foreign_twin() -> None:
    twin = {"matcher": "*", "hooks": []}
    data = {"hooks": {"PostToolUse": [twin, {"matcher": "Bash", "hooks": []}]}}
    installed, record, _ = settings_merge.install(data, WANTED)
    assert settings_merge.uninstall(installed, roundtrip(record))[0] == data


@pytest.mark.parametrize(
    "data, message",
    [
        ({"hooks": []}, '"hooks" is not an object'),
        ({"hooks": {"PostToolUse": {"matcher": "*"}}}, '"hooks.PostToolUse" is not a list'),
    ],
)
def test_shapes_we_cannot_write_into_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(settings_merge.SettingsShapeError, match=message):
        settings_merge.install(data, WANTED)


def test_malformed_foreign_groups_are_carried_through() -> None:
    data = {"hooks": {"PostToolUse": ["junk", {"hooks": "nope"}, {"matcher": 3}]}}
    installed, record, _ = settings_merge.install(data, WANTED)
    assert installed["hooks"]["PostToolUse"][:3] == ["junk", {"hooks": "nope"}, {"matcher": 3}]
    assert settings_merge.uninstall(installed, roundtrip(record))[0] == data


def test_script_of_reads_the_hook_script_name() -> None:
    assert settings_merge.script_of(OURS["PostToolUseFailure"]) == "post_tool_use_failure.py"
    assert settings_merge.script_of("'unclosed") == ""


# --- property: install followed by uninstall gives back ANY settings file ------------------------

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
EVENT_NAMES = list(dict.fromkeys(settings_merge.event_of(key) for key in settings_merge.EVENTS))
events = st.sampled_from([*EVENT_NAMES, "PreToolUse", "Stop", "SessionStart"])
marked_commands = st.sampled_from(
    [
        *OURS.values(),  # exactly ours, e.g. from an earlier install whose record is gone
        f"/elsewhere/.venv/bin/python -S /elsewhere/hooks/post_tool_use.py {MARKER}",
        f"/old/python -S /old/hooks/user_prompt_submit.py {MARKER}",
        f"python3 whatever.py {MARKER}",
    ]
)
handlers = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("command"), "command": st.text(max_size=12)},
        optional={"timeout": st.integers(1, 600)},
    ),
    st.fixed_dictionaries(
        {"type": st.just("command"), "command": marked_commands},  # ours, edited by hand
        optional={"timeout": st.integers(1, 600), "statusMessage": st.text(max_size=5)},
    ),
    json_values,
)
groups = st.one_of(
    st.fixed_dictionaries(
        {"hooks": st.lists(handlers, max_size=3)},
        optional={"matcher": st.sampled_from(["*", "", "Edit|Write", "Bash"])},
    ),
    json_values,
)
hook_maps = st.dictionaries(events, st.lists(groups, max_size=3), max_size=4)
settings_files = st.dictionaries(
    st.sampled_from(["model", "env", "permissions", "statusLine", "x"]), json_values, max_size=3
).flatmap(
    lambda base: st.one_of(st.just(base), hook_maps.map(lambda hooks: {**base, "hooks": hooks}))
)


def install_then_uninstall_is_the_identity(data: dict[str, Any]) -> None:
    before = copy.deepcopy(data)
    installed, record, _ = settings_merge.install(data, WANTED, None)
    assert data == before  # pure: the input is not touched
    restored, _ = settings_merge.uninstall(installed, roundtrip(record))
    assert json.dumps(restored) == json.dumps(before)  # same values in the same order


@pytest.mark.parametrize("examples", depths(150, fast=30))
def test_property_install_then_uninstall_is_the_identity(examples: int) -> None:
    hyp_settings(max_examples=examples, deadline=None)(
        given(settings_files)(install_then_uninstall_is_the_identity)
    )()


def hand_edits_after_install_do_not_stop_a_clean_uninstall(
    data: dict[str, Any], draw: st.DataObject
) -> None:
    installed, record, _ = settings_merge.install(data, WANTED, None)
    for event in record["events"]:
        for group in installed["hooks"][settings_merge.event_of(event)]:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                for handler in group["hooks"]:
                    if isinstance(handler, dict) and handler.get("command") == OURS[event]:
                        handler["timeout"] = draw.draw(st.integers(1, 600))
                        ours_alone = (
                            record["events"][event]["replaced"] is None
                        )  # in a group install appended
                        if ours_alone and event != "UserPromptSubmit" and draw.draw(st.booleans()):
                            group["matcher"] = draw.draw(st.sampled_from(["Edit", "Bash|Write"]))
    again, record, _ = settings_merge.install(installed, WANTED, roundtrip(record))
    assert again == installed  # idempotent, hand edits kept
    restored, _ = settings_merge.uninstall(again, roundtrip(record))
    assert json.dumps(restored) == json.dumps(data)


@pytest.mark.parametrize("examples", depths(100, fast=20))
def test_property_hand_edits_after_install_do_not_stop_a_clean_uninstall(examples: int) -> None:
    hyp_settings(max_examples=examples, deadline=None)(
        given(settings_files, st.data())(hand_edits_after_install_do_not_stop_a_clean_uninstall)
    )()


def install_wires_each_event_exactly_once_and_keeps_foreign_order(
    data: dict[str, Any],
) -> None:
    installed, _, _ = settings_merge.install(data, WANTED, None)

    def copies(of: dict[str, Any], event: str) -> int:
        marked = settings_merge.marked_handlers(of)
        return [
            h.get("command") for name, h in marked if name == settings_merge.event_of(event)
        ].count(OURS[event])

    for event in OURS:  # one copy, or the copies the file already had (never one more)
        assert copies(installed, event) == max(1, copies(data, event))
    foreign_before = [
        json.dumps(group)
        for groups in (data.get("hooks") or {}).values()
        for group in groups
        if "sidekit-hooks" not in json.dumps(group)
    ]
    foreign_after = [
        json.dumps(group)
        for groups in installed["hooks"].values()
        for group in groups
        if "sidekit-hooks" not in json.dumps(group)
    ]
    assert foreign_after == foreign_before


@pytest.mark.parametrize("examples", depths(100, fast=20))
def test_property_install_wires_each_event_exactly_once_and_keeps_foreign_order(
    examples: int,
) -> None:
    hyp_settings(max_examples=examples, deadline=None)(
        given(settings_files)(install_wires_each_event_exactly_once_and_keeps_foreign_order)
    )()


def test_an_install_from_before_the_jest_handler_is_upgraded_in_place_and_still_undone() -> None:
    old = f"{PYTHON} -S {HOOKS}/pre_tool_use.py {MARKER}"  # one handler, started without a name
    data = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": old, "timeout": 5}]}
            ]
        }
    }
    record = {
        "createdHooks": True,
        "events": {"PreToolUse": {"command": old, "createdEvent": True, "replaced": None}},
    }
    wanted = {key: WANTED[key] for key in ("PreToolUse", "PreToolUse:jest")}
    installed, record, changes = settings_merge.install(data, wanted, record)
    assert installed["hooks"]["PreToolUse"] == [
        {"matcher": "Bash", "hooks": [WANTED["PreToolUse"]]},
        {"matcher": "Bash", "hooks": [WANTED["PreToolUse:jest"]]},
    ]
    assert [(change.event, change.action) for change in changes] == [
        ("PreToolUse", "replaced"),
        ("PreToolUse:jest", "added"),
    ]
    assert settings_merge.uninstall(installed, roundtrip(record))[0] == {}
