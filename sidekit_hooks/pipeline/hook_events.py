"""The handlers Claude Code starts for each event of the table (core/hook_table.py), and the files
made from them: the entry scripts (`hooks/<script>.py` and the package's own), the plugin's
`hooks/hooks.json` and the settings `install` writes. PreToolUse has one handler per runner trigger
word (runners/words.py), each under an `if` rule naming it.

    python -m sidekit_hooks.pipeline.hook_events --write    # a developer's command: regenerate them
"""

from __future__ import annotations

from sidekit_hooks.core.hook_table import (
    AFTER_A_TOOL,
    BOUNDARIES,
    DRAINING,
    EVENTS,
    FALLBACK_HANDLER,
    HANDLER_TIMEOUT,
    LIFECYCLE,
    PACKAGED,
    TOOL_EVENTS,
    WARM_KEYS,
    HookEvent,
    judged_by,
)
from sidekit_hooks.runners.words import trigger_words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "AFTER_A_TOOL",
    "BOUNDARIES",
    "DRAINING",
    "EVENTS",
    "HANDLERS",
    "HANDLER_TIMEOUT",
    "LIFECYCLE",
    "PACKAGED",
    "TOOL_EVENTS",
    "Handler",
    "HookEvent",
    "answers",
    "conditions",
    "judged_by",
]


def conditions(event: HookEvent) -> tuple[tuple[str, str], ...]:
    """(name, `if` rule) per handler of `event`: an event that needs two rules has two handlers,
    each started with its name as its argument; () for an event of one handler."""
    if not event.per_runner_word:
        return ()
    return tuple((word, f"Bash(*{word}*)") for word in trigger_words())


class Handler:
    """One handler of an event as the client is told to start it: `key` names it in settings records
    and doctor (the event's name for its first handler, `Event:name` for the others)."""

    __slots__ = ("key", "event", "script", "matcher", "argument", "condition")

    def __init__(self, key: str, event: HookEvent, argument: str = "", condition: str = "") -> None:
        self.key = key
        self.event = event.name
        self.script = event.script
        self.matcher = event.matcher
        # the handler's name, passed to the entry script; '' for a lone handler
        self.argument = argument
        self.condition = condition


def _handlers_of(event: HookEvent) -> list[Handler]:
    if not conditions(event):
        return [Handler(event.name, event)]
    return [
        Handler(event.name if index == 0 else f"{event.name}:{name}", event, name, rule)
        for index, (name, rule) in enumerate(conditions(event))
    ]


HANDLERS: dict[str, Handler] = {h.key: h for event in EVENTS.values() for h in _handlers_of(event)}


def answers(names: tuple[str, ...], handler: str, command: str) -> bool:
    """Whether the handler `handler` (one of `names`, an event's handler names, each the word its
    `if` rule looks for) answers `command`: the last name the command contains does. Every handler
    whose rule holds is started, each with the same payload; this way one of them answers. A handler
    started without a name (a settings file written before there were two) answers everything."""
    if handler not in names:
        return True
    said = [name for name in names if name in command]
    return (said[-1] if said else names[0]) == handler


# hooks/<script>.py, for the settings form: the same two lines for every event (see hook.run_entry).
ENTRY_TEMPLATE = '''"""Claude Code {name} hook (settings form): stdin -> sidekit_hooks.pipeline.hook, always exit 0. Generated
from sidekit_hooks/pipeline/hook_events.py; `python -m sidekit_hooks.pipeline.hook_events --write` makes it again."""

import os
import sys

# the checkout, never the cwd
sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from sidekit_hooks.pipeline.hook import run_entry  # noqa: E402

run_entry("{name}")
'''


def entry_script(name: str) -> str:
    return ENTRY_TEMPLATE.format(name=name)


PACKAGED_TEMPLATE = '''"""Claude Code {name} hook (settings form of an installed package, no checkout): stdin ->
sidekit_hooks.pipeline.hook, always exit 0; `sidekit install` runs it with `python -I -S`. Generated from
sidekit_hooks/pipeline/hook_events.py; `python -m sidekit_hooks.pipeline.hook_events --write` makes it again."""

import os
import sys

# never the cwd
sys.path.append(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from sidekit_hooks.pipeline.hook import run_entry  # noqa: E402

run_entry("{name}")
'''


def packaged_entry_script(name: str) -> str:
    return PACKAGED_TEMPLATE.format(name=name)


def plugin_hooks(timeout: int = HANDLER_TIMEOUT) -> dict[str, list[dict[str, object]]]:
    """`hooks/hooks.json`'s `hooks` object: every event through `hooks/run <script>`."""
    table: dict[str, list[dict[str, object]]] = {}
    for event in EVENTS.values():
        group: dict[str, object] = {"matcher": event.matcher} if event.matcher else {}
        table[event.name] = [
            {**group, "hooks": [plugin_handler(h, timeout) for h in _handlers_of(event)]}
        ]
    return table


def plugin_handler(handler: Handler, timeout: int = HANDLER_TIMEOUT) -> dict[str, object]:
    """One handler of hooks/hooks.json: `hooks/run <script> [<name>]`."""
    argument = f" {handler.argument}" if handler.argument else ""
    found: dict[str, object] = {
        "type": "command",
        "command": f'"${{CLAUDE_PLUGIN_ROOT}}/hooks/run" {handler.script}{argument}',
        "timeout": timeout,
    }
    if handler.condition:
        found["if"] = handler.condition
    return found


# The warm wiring's fallback starts its interpreter this long after the event (seconds): by then a
# connected warm server has said the event, so the fallback's start leaves the event's critical
# path and never takes a claim from a healthy server; SIGTERM (the client's exit) is ignored from
# the start, so a fallback that must act still does (docs/warm-path.md).
FALLBACK_DELAY = "0.3"
FALLBACK_PREFIX = f"trap '' TERM; sleep {FALLBACK_DELAY}; exec "


def warm_hooks(
    command_of: Callable[[Handler], str], server: str, timeout: int = HANDLER_TIMEOUT
) -> dict[str, list[dict[str, object]]]:
    """The hooks of the warm wiring (docs/warm-path.md): each event the warm path may answer
    (`WARM_KEYS`) goes to the `hook` tool of the MCP server `server` (run with `--hooks`), the
    client waiting for it, plus its command hook run in the background (`async`) with the handler
    word `fallback`, started `FALLBACK_DELAY` late; every other event is wired as usual.
    `command_of`: a handler's command line (its argument is already the handler word)."""
    table: dict[str, list[dict[str, object]]] = {}
    for event in EVENTS.values():
        group: dict[str, object] = {"matcher": event.matcher} if event.matcher else {}
        handlers: list[dict[str, object]] = []
        for handler in _handlers_of(event):
            if event.name in WARM_KEYS:
                handler = Handler(handler.key, event, FALLBACK_HANDLER, handler.condition)
            command = command_of(handler)
            found: dict[str, object] = {
                "type": "command",
                "command": FALLBACK_PREFIX + command if event.name in WARM_KEYS else command,
                "timeout": timeout,
            }
            if handler.condition:
                found["if"] = handler.condition
            if event.name in WARM_KEYS:
                found["async"] = True
            handlers.append(found)
        if event.name in WARM_KEYS:
            handlers.append(warm_tool_handler(server, timeout))
        table[event.name] = [{**group, "hooks": handlers}]
    return table


def warm_tool_handler(server: str, timeout: int = HANDLER_TIMEOUT) -> dict[str, object]:
    """The `mcp_tool` handler of an event the warm path answers: the `hook` tool of `server`, the
    event's fields templated into its input (warm.INPUT)."""
    from sidekit_hooks.pipeline import warm

    return {
        "type": "mcp_tool",
        "server": server,
        "tool": warm.TOOL,
        "input": dict(warm.INPUT),
        "timeout": timeout,
    }


def _write(root: str) -> int:
    """Regenerate the entry scripts (hooks/ and the package's own) and hooks/hooks.json from the
    table (a developer's command)."""
    import json
    import os

    hooks = os.path.join(root, "hooks")
    packaged = os.path.join(root, "sidekit_hooks", PACKAGED)
    os.makedirs(packaged, exist_ok=True)
    for event in EVENTS.values():
        with open(os.path.join(hooks, f"{event.script}.py"), "w", encoding="utf-8") as out:
            out.write(entry_script(event.name))
        with open(os.path.join(packaged, f"{event.script}.py"), "w", encoding="utf-8") as out:
            out.write(packaged_entry_script(event.name))
    path = os.path.join(hooks, "hooks.json")
    with open(path, encoding="utf-8") as current:
        description = json.load(current).get("description", "")
    rows = ",\n".join(
        f"    {json.dumps(name)}: [\n"
        + ",\n".join(f"      {json.dumps(group)}" for group in groups)
        + "\n    ]"
        for name, groups in plugin_hooks().items()
    )
    with open(path, "w", encoding="utf-8") as out:
        out.write(
            f'{{\n  "description": {json.dumps(description)},\n  "hooks": {{\n{rows}\n  }}\n}}\n'
        )
    return 0


if __name__ == "__main__":
    import os
    import sys

    if sys.argv[1:] != ["--write"]:
        print(
            "usage: python -m sidekit_hooks.pipeline.hook_events --write"
            f"   (regenerates hooks/*.py, sidekit_hooks/{PACKAGED}/*.py and hooks/hooks.json)"
        )
        sys.exit(2)
    sys.exit(_write(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
