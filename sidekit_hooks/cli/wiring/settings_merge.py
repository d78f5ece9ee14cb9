"""Merge sidekit's hook entries into a Claude Code settings dict, and take exactly them out again.

Pure logic: dicts in, dicts out; reading and writing files is `wiring.py`'s job.

Our handlers are marked by a trailing shell comment (`# sidekit-hooks`) in their command, which `sh -c`
ignores, so they stay recognisable after a user edits their timeout or matcher by hand. Marked
handlers can also exist without our having written them (copied from a colleague, an older checkout),
so `install` returns a *record* of what it wrote and `uninstall` undoes exactly that record:
install followed by uninstall gives back the settings it started from.

A record (JSON-ready)::

    {"createdHooks": bool,                     # we added the top-level "hooks" object
     "events": {"PostToolUse": {"command": str,          # the command we wrote
                                "createdEvent": bool,    # we added hooks["PostToolUse"]
                                "replaced": {...}}}}     # the marked handler we overwrote, if any
"""

from __future__ import annotations

import copy
import os
import shlex
from dataclasses import dataclass
from typing import Any

from sidekit_hooks.hook_events import EVENTS as TABLE
from sidekit_hooks.hook_events import HANDLER_TIMEOUT

MARKER = "# sidekit-hooks"
TIMEOUT = HANDLER_TIMEOUT
# event -> (script under hooks/, matcher or None for events without matchers), from the one table
EVENTS: dict[str, tuple[str, str | None]] = {
    name: (f"{event.script}.py", event.matcher) for name, event in TABLE.items()
}
# A permission-rule condition per handler: the client spawns the hook only when it holds (Claude Code
# >= 2.1.85; checked per subcommand in 2.1.328), so a Bash call that cannot be pytest costs nothing.
CONDITIONS: dict[str, str] = {name: event.condition for name, event in TABLE.items() if event.condition}

Settings = dict[str, Any]
Record = dict[str, Any]


class SettingsShapeError(ValueError):
    """The settings hold something other than what Claude Code documents where we must write."""


@dataclass(frozen=True)
class Change:
    """One thing install/uninstall did (or found), for the report the command prints."""

    event: str
    action: str  # added | replaced | kept | removed | restored | not-found
    command: str
    previous: str = ""  # for `replaced`: the command that was there

    def describe(self) -> str:
        if self.action == "kept":
            return f"{self.event}: already installed"
        if self.action == "replaced":
            return f"{self.event}: replaced {self.previous}\n    with {self.command}"
        if self.action == "restored":
            return f"{self.event}: restored {self.command}\n    (in place of {self.previous})"
        if self.action == "not-found":
            return f"{self.event}: not found, nothing to remove (was: {self.command})"
        return f"{self.event}: {self.action} {self.command}"


def command_for(python: str, script: str) -> str:
    """`'<python>' -S '<script>' # sidekit-hooks`: run through `sh -c`, where the comment is inert."""
    return f"{shlex.quote(python)} -S {shlex.quote(script)} {MARKER}"


def wanted_handlers(python: str, hooks_dir: str) -> dict[str, dict[str, Any]]:
    """The handler we want for each event, pinned to this interpreter and this checkout's scripts."""
    return {
        event: {
            "type": "command",
            "command": command_for(python, os.path.join(hooks_dir, script)),
            "timeout": TIMEOUT,
            **({"if": CONDITIONS[event]} if event in CONDITIONS else {}),
        }
        for event, (script, _matcher) in EVENTS.items()
    }


def is_ours(handler: object) -> bool:
    """A handler carrying our marker (whoever wrote it)."""
    if not isinstance(handler, dict):
        return False
    command = handler.get("command")
    return isinstance(command, str) and command.rstrip().endswith(MARKER)


def script_of(command: str) -> str:
    """The hook script a marked command runs (its file name), or '' when it cannot be read."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return ""
    scripts = [word for word in words if word.endswith(".py")]
    return os.path.basename(scripts[-1]) if scripts else ""


def marked_handlers(settings: Settings) -> list[tuple[str, dict[str, Any]]]:
    """Every (event, handler) carrying our marker, in file order."""
    found: list[tuple[str, dict[str, Any]]] = []
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return found
    for event, groups in hooks.items():
        for _group, handler in _handlers(groups):
            if is_ours(handler):
                found.append((event, handler))
    return found


def install(
    settings: Settings, wanted: dict[str, dict[str, Any]], record: Record | None = None
) -> tuple[Settings, Record, list[Change]]:
    """Return new settings with our handlers in place, the updated record, and what changed.

    Nothing foreign moves: a new matcher group is appended at the end of its event's list; a marked
    handler that runs something else (another checkout, an old interpreter) is updated in place.
    """
    if not isinstance(settings, dict):
        raise SettingsShapeError("the file holds JSON but not an object")
    new = copy.deepcopy(settings)
    record = copy.deepcopy(record) if record else {"createdHooks": False, "events": {}}
    record.setdefault("events", {})
    hooks = new.get("hooks")
    if hooks is None:
        hooks = new["hooks"] = {}
        record["createdHooks"] = True
    elif not isinstance(hooks, dict):
        raise SettingsShapeError('"hooks" is not an object')
    changes = [_install_event(hooks, event, handler, record["events"]) for event, handler in wanted.items()]
    if all(change.action == "kept" for change in changes):
        return copy.deepcopy(settings), record, changes
    return new, record, changes


def _install_event(hooks: dict[str, Any], event: str, handler: dict[str, Any], events: Record) -> Change:
    command = handler["command"]
    groups = hooks.get(event)
    created = False
    if groups is None:
        groups = hooks[event] = []
        created = True
    elif not isinstance(groups, list):
        raise SettingsShapeError(f'"hooks.{event}" is not a list')
    marked = [(group, item) for group, item in _handlers(groups) if is_ours(item)]
    if any(item.get("command") == command for _group, item in marked):
        return Change(event, "kept", command)
    previous = events.get(event, {})
    if marked:
        group, old = marked[0]
        group["hooks"][_index(group["hooks"], old)] = {**old, "command": command}
        # Overwriting our own earlier write keeps the record of what was there before us.
        replaced = previous.get("replaced") if old.get("command") == previous.get("command") else old
        events[event] = {"command": command, "createdEvent": bool(previous.get("createdEvent")), "replaced": replaced}
        return Change(event, "replaced", command, str(old.get("command")))
    matcher = EVENTS.get(event, ("", "*"))[1]
    group = {"matcher": matcher, "hooks": [handler]} if matcher is not None else {"hooks": [handler]}
    groups.append(copy.deepcopy(group))
    events[event] = {
        "command": command,
        "createdEvent": created or bool(previous.get("createdEvent")),
        "replaced": None,
    }
    return Change(event, "added", command)


def uninstall(settings: Settings, record: Record | None, everything: bool = False) -> tuple[Settings, list[Change]]:
    """Return settings without what `record` says install wrote (every marked handler when `everything`
    or when there is no record), and what changed."""
    if not isinstance(settings, dict):
        raise SettingsShapeError("the file holds JSON but not an object")
    new = copy.deepcopy(settings)
    hooks = new.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise SettingsShapeError('"hooks" is not an object')
    changes: list[Change] = []
    if isinstance(hooks, dict):
        if everything or record is None:
            changes = _remove_all_marked(hooks)
        else:
            for event, entry in record.get("events", {}).items():
                changes.append(_uninstall_event(hooks, event, entry))
        if record and record.get("createdHooks") and not hooks:
            del new["hooks"]
    if not any(change.action != "not-found" for change in changes):
        return copy.deepcopy(settings), changes
    return new, changes


def _uninstall_event(hooks: dict[str, Any], event: str, entry: Record) -> Change:
    command = str(entry.get("command", ""))
    groups = hooks.get(event)
    if not isinstance(groups, list):
        return Change(event, "not-found", command)
    found = _find(groups, command)
    if found is None:
        return Change(event, "not-found", command)
    group, handler = found
    index = _index(group["hooks"], handler)
    replaced = entry.get("replaced")
    if isinstance(replaced, dict):
        group["hooks"][index] = copy.deepcopy(replaced)
        return Change(event, "restored", str(replaced.get("command")), str(handler.get("command")))
    del group["hooks"][index]
    if not group["hooks"]:
        del groups[_index(groups, group)]  # a group we appended; any matcher edit goes with it
    if entry.get("createdEvent") and not groups:
        del hooks[event]
    return Change(event, "removed", str(handler.get("command")))


def _find(groups: list[Any], command: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Our handler: the exact command we wrote, else the one marked handler running the same script
    (a user edited the command itself); never a guess between several."""
    marked = [(group, item) for group, item in _handlers(groups) if is_ours(item)]
    for group, item in marked:
        if item.get("command") == command:
            return group, item
    script = script_of(command)
    same_script = [(group, item) for group, item in marked if script and script_of(str(item.get("command"))) == script]
    return same_script[0] if len(same_script) == 1 else None


def _remove_all_marked(hooks: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    for event in list(hooks):
        groups = hooks[event]
        for group, handler in list(_handlers(groups)):
            if not is_ours(handler):
                continue
            del group["hooks"][_index(group["hooks"], handler)]
            changes.append(Change(event, "removed", str(handler.get("command"))))
            if not group["hooks"]:
                del groups[_index(groups, group)]
        if isinstance(groups, list) and not groups and any(change.event == event for change in changes):
            del hooks[event]
    return changes


def _handlers(groups: object) -> list[tuple[dict[str, Any], Any]]:
    """(group, handler) pairs of an event's list, skipping malformed parts (Claude Code skips them too)."""
    pairs: list[tuple[dict[str, Any], Any]] = []
    if not isinstance(groups, list):
        return pairs
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            pairs.extend((group, handler) for handler in group["hooks"])
    return pairs


def _index(items: list[Any], item: object) -> int:
    """Position of this very object (`list.index` compares by value and could pick a foreign twin)."""
    return next(position for position, candidate in enumerate(items) if candidate is item)
