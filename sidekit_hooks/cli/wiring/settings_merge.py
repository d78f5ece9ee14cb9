"""Merge sidekit's hook entries into a Claude Code settings dict, and take exactly them out again.

Pure logic: dicts in, dicts out; reading and writing files is `wiring.py`'s job.

Our handlers are marked by a trailing shell comment (`# sidekit-hooks`) in their command, which `sh
-c` ignores, so they stay recognisable after a user edits their timeout or matcher by hand. Marked
handlers can also exist without our having written them (copied from a colleague, an older
checkout), so `install` returns a *record* of what it wrote and `uninstall` undoes exactly that
record: install followed by uninstall gives back the settings it started from.

A record (JSON-ready), by handler key (hook_events.HANDLERS: the event's name, or `Event:name` for
an event's second handler, such as `PreToolUse:jest`)::

    {"createdHooks": bool,                     # we added the top-level "hooks" object
     "events": {"PostToolUse": {"command": str,          # the command we wrote
                                "createdEvent": bool,    # we added hooks["PostToolUse"]
                                "replaced": {...}}}}     # the marked handler we overwrote, if any

A marked handler fills the slot of the handler its command names (`pre_tool_use.py jest` ->
`PreToolUse:jest`); one that names no handler (written before an event had two) fills the event's
first.
"""

from __future__ import annotations

import copy
import os
import shlex
from dataclasses import dataclass
from typing import Any

from sidekit_hooks.cli.mcpserver.config import SERVER  # whose `hook` tool `--warm` wires
from sidekit_hooks.core.hook_table import FALLBACK_HANDLER, WARM_KEYS
from sidekit_hooks.pipeline.hook_events import (
    FALLBACK_PREFIX,
    HANDLER_TIMEOUT,
    HANDLERS,
    warm_tool_handler,
)

MARKER = "# sidekit-hooks"
WARM_TOOL_LINE = f"mcp_tool: the '{SERVER}' server's hook tool (the warm path)"
TIMEOUT = HANDLER_TIMEOUT
# handler key -> (script under hooks/, matcher or None for events without matchers), from the one
# table
EVENTS: dict[str, tuple[str, str | None]] = {
    key: (f"{h.script}.py", h.matcher) for key, h in HANDLERS.items()
}
# A permission-rule condition per handler: the client spawns the hook only when it holds (Claude
# Code >= 2.1.85; checked per subcommand in 2.1.328), so a Bash call that cannot be a test run costs
# nothing.
CONDITIONS: dict[str, str] = {key: h.condition for key, h in HANDLERS.items() if h.condition}

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


def command_for(python: str, script: str, handler: str = "", flags: str = "-S") -> str:
    """`'<python>' <flags> '<script>' [handler] # sidekit-hooks`: run through `sh -c`, where the
    comment is inert. `flags`: `-S` for a checkout's hooks/, `-I -S` for the package's own entries
    (files.hook_scripts)."""
    return f"{shlex.quote(python)} {flags} {shlex.quote(script)}{' ' + handler if handler else ''} {MARKER}"


def wanted_handlers(
    python: str, hooks_dir: str, flags: str = "-S", warm: bool = False
) -> dict[str, dict[str, Any]]:
    """The handler we want in each slot (hook_events.HANDLERS), pinned to this interpreter and
    scripts. `warm`: the events the warm path answers get the async `fallback` command hook of the
    warm wiring (docs/warm-path.md; `set_warm_tools` adds their `mcp_tool` handlers)."""
    wanted: dict[str, dict[str, Any]] = {}
    for key, h in HANDLERS.items():
        script = os.path.join(hooks_dir, f"{h.script}.py")
        if warm and h.event in WARM_KEYS:
            command = FALLBACK_PREFIX + command_for(python, script, FALLBACK_HANDLER, flags)
            wanted[key] = {"type": "command", "command": command, "timeout": TIMEOUT, "async": True}
            continue
        wanted[key] = {
            "type": "command",
            "command": command_for(python, script, h.argument, flags),
            "timeout": TIMEOUT,
            **({"if": h.condition} if h.condition else {}),
        }
    return wanted


def event_of(key: str) -> str:
    """The event a handler key belongs to (`PreToolUse:jest` -> `PreToolUse`)."""
    return key.partition(":")[0]


def key_of(event: str, command: str) -> str:
    """The slot a marked command fills: the handler it names after its script, else the event's
    first."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return event
    scripts = [index for index, word in enumerate(words) if word.endswith(".py")]
    named = words[scripts[-1] + 1 : scripts[-1] + 2] if scripts else []
    if not named or named[0] == FALLBACK_HANDLER:
        return (
            event  # the event's first handler's key is the event's name (the warm fallback's too)
        )
    return next(
        (k for k, h in HANDLERS.items() if h.event == event and h.argument == named[0]),
        f"{event}:{named[0]}",
    )


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
    changes = [
        _install_event(hooks, event, handler, record["events"]) for event, handler in wanted.items()
    ]
    if all(change.action == "kept" for change in changes):
        return copy.deepcopy(settings), record, changes
    return new, record, changes


def _install_event(
    hooks: dict[str, Any], key: str, handler: dict[str, Any], events: Record
) -> Change:
    command = handler["command"]
    event = event_of(key)
    groups = hooks.get(event)
    # The event's list is ours to remove when we added it for another of its handlers
    # (PreToolUse:jest).
    created = any(
        entry.get("createdEvent")
        for k, entry in events.items()
        if k != key and event_of(k) == event
    )
    if groups is None:
        groups = hooks[event] = []
        created = True
    elif not isinstance(groups, list):
        raise SettingsShapeError(f'"hooks.{event}" is not a list')
    marked = [
        (group, item)
        for group, item in _handlers(groups)
        if is_ours(item) and _slot(event, item) == key
    ]
    if any(item.get("command") == command for _group, item in marked):
        return Change(key, "kept", command)
    previous = events.get(key, {})
    if marked:
        group, old = marked[0]
        # The warm wiring's fallback runs `async`; going back to the plain hook drops that again.
        kept = {k: v for k, v in old.items() if k != "async" or not _is_fallback(old)}
        group["hooks"][_index(group["hooks"], old)] = {
            **kept,
            "command": command,
            **_condition(handler),
            **({"async": True} if handler.get("async") else {}),
        }
        # Overwriting our own earlier write keeps the record of what was there before us.
        replaced = (
            previous.get("replaced") if old.get("command") == previous.get("command") else old
        )
        events[key] = {
            "command": command,
            "createdEvent": bool(previous.get("createdEvent")),
            "replaced": replaced,
        }
        return Change(key, "replaced", command, str(old.get("command")))
    matcher = EVENTS.get(key, ("", "*"))[1]
    group = (
        {"matcher": matcher, "hooks": [handler]} if matcher is not None else {"hooks": [handler]}
    )
    groups.append(copy.deepcopy(group))
    events[key] = {
        "command": command,
        "createdEvent": created or bool(previous.get("createdEvent")),
        "replaced": None,
    }
    return Change(key, "added", command)


def _is_fallback(handler: dict[str, Any]) -> bool:
    return str(handler.get("command", "")).startswith(FALLBACK_PREFIX)


def is_warm_tool(handler: object) -> bool:
    """The warm server's `hook` handler (`install --mcp --warm` writes it)."""
    wanted = warm_tool_handler(SERVER)
    return isinstance(handler, dict) and all(
        handler.get(field) == wanted[field] for field in ("type", "server", "tool")
    )


def set_warm_tools(
    settings: Settings, record: Record, warm: bool
) -> tuple[Settings, Record, list[Change]]:
    """With `warm`: the warm server's `hook` handler in the group of our command handler of each
    event the warm path answers (docs/warm-path.md). Without: the ones install put there taken out
    again (uninstall does this too). The record's `warmTools` lists the events install wrote one
    for."""
    new, record = copy.deepcopy(settings), copy.deepcopy(record)
    hooks = new.get("hooks")
    written = record.get("warmTools")
    ours = set(written) if isinstance(written, list) else set()
    changes: list[Change] = []
    for event in WARM_KEYS:
        groups = hooks.get(event) if isinstance(hooks, dict) else None
        present = [(group, item) for group, item in _handlers(groups) if is_warm_tool(item)]
        if warm and not present:
            home = next((g for g, item in _handlers(groups) if _is_ours_in(event, item)), None)
            if home is None:
                continue
            home["hooks"].append(warm_tool_handler(SERVER, TIMEOUT))
            ours.add(event)
            changes.append(Change(f"{event}:{SERVER}", "added", WARM_TOOL_LINE))
        elif not warm and event in ours:
            for group, item in present:
                del group["hooks"][_index(group["hooks"], item)]
                if not group["hooks"] and isinstance(groups, list):
                    del groups[_index(groups, group)]
            ours.discard(event)
            changes.append(Change(f"{event}:{SERVER}", "removed", WARM_TOOL_LINE))
    record["warmTools"] = sorted(ours)
    if not record["warmTools"]:
        del record["warmTools"]
    return (new if changes else copy.deepcopy(settings)), record, changes


def _is_ours_in(event: str, handler: object) -> bool:
    return is_ours(handler) and isinstance(handler, dict) and _slot(event, handler) == event


def _slot(event: str, handler: dict[str, Any]) -> str:
    return key_of(event, str(handler.get("command", "")))


def _condition(handler: dict[str, Any]) -> dict[str, Any]:
    """The `if` a replaced handler takes from ours (an older one may have had another rule, or
    none)."""
    return {"if": handler["if"]} if "if" in handler else {}


def uninstall(
    settings: Settings, record: Record | None, everything: bool = False
) -> tuple[Settings, list[Change]]:
    """Return settings without what `record` says install wrote (every marked handler when
    `everything` or when there is no record), and what changed."""
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


def _uninstall_event(hooks: dict[str, Any], key: str, entry: Record) -> Change:
    command = str(entry.get("command", ""))
    event = event_of(key)
    groups = hooks.get(event)
    if not isinstance(groups, list):
        return Change(key, "not-found", command)
    found = _find(groups, command, event)
    if found is None:
        return Change(key, "not-found", command)
    group, handler = found
    index = _index(group["hooks"], handler)
    replaced = entry.get("replaced")
    if isinstance(replaced, dict):
        group["hooks"][index] = copy.deepcopy(replaced)
        return Change(key, "restored", str(replaced.get("command")), str(handler.get("command")))
    del group["hooks"][index]
    if not group["hooks"]:
        del groups[_index(groups, group)]  # a group we appended; any matcher edit goes with it
    if entry.get("createdEvent") and not groups:
        del hooks[event]
    return Change(key, "removed", str(handler.get("command")))


def _find(
    groups: list[Any], command: str, event: str
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Our handler: the exact command we wrote, else the one marked handler running the same script
    in the same slot (a user edited the command itself); never a guess between several."""
    marked = [(group, item) for group, item in _handlers(groups) if is_ours(item)]
    for group, item in marked:
        if item.get("command") == command:
            return group, item
    script, slot = script_of(command), key_of(event, command)
    same_script = [
        (group, item)
        for group, item in marked
        if script and script_of(str(item.get("command"))) == script and _slot(event, item) == slot
    ]
    return same_script[0] if len(same_script) == 1 else None


def _remove_all_marked(hooks: dict[str, Any]) -> list[Change]:
    changes: list[Change] = []
    for event in list(hooks):
        groups = hooks[event]
        for group, handler in list(_handlers(groups)):
            if not is_ours(handler):
                continue
            del group["hooks"][_index(group["hooks"], handler)]
            changes.append(Change(_slot(event, handler), "removed", str(handler.get("command"))))
            if not group["hooks"]:
                del groups[_index(groups, group)]
        if (
            isinstance(groups, list)
            and not groups
            and any(change.event == event for change in changes)
        ):
            del hooks[event]
    return changes


def _handlers(groups: object) -> list[tuple[dict[str, Any], Any]]:
    """(group, handler) pairs of an event's list, skipping malformed parts (Claude Code skips them
    too)."""
    pairs: list[tuple[dict[str, Any], Any]] = []
    if not isinstance(groups, list):
        return pairs
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            pairs.extend((group, handler) for handler in group["hooks"])
    return pairs


def _index(items: list[Any], item: object) -> int:
    """Position of this very object (`list.index` compares by value and could pick a foreign
    twin)."""
    return next(position for position, candidate in enumerate(items) if candidate is item)
