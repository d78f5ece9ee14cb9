"""Every Claude Code hook event sidekit answers, declared once.

The entry scripts (`hooks/<script>.py`), the plugin's `hooks/hooks.json`, the settings `install`
writes, doctor's probes, playback and the tests all derive from this table (or a test holds them to
it: `tests/test_hook_events.py`). Adding an event is a row here, its handling in `runtime.py` (or
`lifecycle.py`), and the regenerated files. Standard library only; its one import is the runners'
trigger words (runners/words.py, on the same floor), which make PreToolUse's conditions.
"""

from __future__ import annotations

from sidekit_hooks.runners.words import trigger_words

DEADLINE = 0.8  # seconds: every event's hard deadline unless its row says otherwise
# `SIDEKIT_HOOK_DEADLINE=SECONDS` in the environment lengthens every event's deadline (a slow or loaded
# machine; the test suite, whose findings must not hang on the machine's load), never past MAX_DEADLINE
# (under the client's HANDLER_TIMEOUT) and never below the event's own. Nothing a repository holds sets it.
DEADLINE_ENV = "SIDEKIT_HOOK_DEADLINE"
MAX_DEADLINE = 4.0


class HookEvent:
    """One event: how Claude Code starts it, and what sidekit does on it."""

    __slots__ = (
        "name",
        "script",
        "matcher",
        "conditions",
        "drains",
        "boundary",
        "detectors",
        "lifecycle",
        "deadline",
        "probe",
    )

    def __init__(
        self,
        name: str,
        script: str,
        *,
        matcher: str | None = None,
        conditions: tuple[tuple[str, str], ...] = (),
        drains: bool = False,
        boundary: bool = False,
        detectors: tuple[str, ...] = (),
        lifecycle: bool = False,
        deadline: float = DEADLINE,
        probe: dict[str, object] | None = None,
    ) -> None:
        self.name = name  # Claude Code's hook_event_name
        self.script = script  # hooks/<script>.py (settings form) and `hooks/run <script>` (plugin form)
        self.matcher = matcher  # the handler's tool matcher; None for events without one
        # (name, `if` rule) per handler: Claude Code takes one permission rule per `if`, so an event
        # that needs two rules has two handlers; each is started with its name as its argument.
        self.conditions = conditions
        self.drains = drains  # delivers what the queue holds (when the event is the main agent's)
        self.boundary = boundary  # a delivery follows at once: deferred findings may be revived here
        self.detectors = detectors  # the sidecars that judge it, in order (detectors.REGISTRY)
        self.lifecycle = lifecycle  # handled by lifecycle.py (session edges), not by the detectors
        # Seconds of wall time; past it the hook gives up and delivers what it claimed first (PreToolUse:
        # the command runs as written). The one source of a hook's deadline (`deadline_of`).
        self.deadline = deadline
        self.probe = probe or {}  # the smallest payload of the event, for doctor (no sidecar speaks)


HANDLER_TIMEOUT = 5  # seconds Claude Code gives a handler; the hook's own deadline is well under one
TOOL_DETECTORS = ("scope", "specs", "tests", "tools", "conventions", "judge")
_TOOL_PROBE: dict[str, object] = {"tool_name": "SidekitDoctorProbe", "tool_input": {}}

EVENTS: dict[str, HookEvent] = {
    event.name: event
    for event in (
        HookEvent(
            "PostToolUse",
            "post_tool_use",
            matcher="*",
            drains=True,
            boundary=True,
            detectors=TOOL_DETECTORS,
            probe={**_TOOL_PROBE, "tool_response": {}},
        ),
        HookEvent(
            "PostToolUseFailure",
            "post_tool_use_failure",
            matcher="*",
            drains=True,
            boundary=True,
            detectors=tuple(name for name in TOOL_DETECTORS if name != "conventions"),
            probe={**_TOOL_PROBE, "error": "probe"},
        ),
        HookEvent("UserPromptSubmit", "user_prompt_submit", drains=True, boundary=True, probe={"prompt": ""}),
        # Raw test runs only (runners/dispatch.py); the conditions spare every other Bash call a hook process:
        # one handler per runner trigger word (runners.TRIGGERS). Two start for a command that says two
        # of them; the rewrite answers in one only (hook._answers), so a command is never rewritten twice.
        HookEvent(
            "PreToolUse",
            "pre_tool_use",
            matcher="Bash",
            conditions=tuple((word, f"Bash(*{word}*)") for word in trigger_words()),
            probe={"tool_name": "Bash", "tool_input": {"command": "true"}},
        ),
        HookEvent("SessionStart", "session_start", drains=True, lifecycle=True, probe={"source": "startup"}),
        HookEvent("Stop", "stop", lifecycle=True, probe={"stop_hook_active": False}),
        HookEvent("SubagentStop", "subagent_stop", lifecycle=True, probe={"stop_hook_active": False}),
    )
}


class Handler:
    """One handler of an event as the client is told to start it: `key` names it in settings records
    and doctor (the event's name for its first handler, `Event:name` for the others)."""

    __slots__ = ("key", "event", "script", "matcher", "argument", "condition")

    def __init__(self, key: str, event: HookEvent, argument: str = "", condition: str = "") -> None:
        self.key = key
        self.event = event.name
        self.script = event.script
        self.matcher = event.matcher
        self.argument = argument  # the handler's name, passed to the entry script; '' for a lone handler
        self.condition = condition


def _handlers_of(event: HookEvent) -> list[Handler]:
    if not event.conditions:
        return [Handler(event.name, event)]
    return [
        Handler(event.name if index == 0 else f"{event.name}:{name}", event, name, rule)
        for index, (name, rule) in enumerate(event.conditions)
    ]


HANDLERS: dict[str, Handler] = {h.key: h for event in EVENTS.values() for h in _handlers_of(event)}


def answers(names: tuple[str, ...], handler: str, command: str) -> bool:
    """Whether the handler `handler` (one of `names`, an event's handler names, each the word its `if`
    rule looks for) answers `command`: the last name the command contains does. Every handler whose
    rule holds is started, each with the same payload; this way one of them answers. A handler started
    without a name (a settings file written before there were two) answers everything."""
    if handler not in names:
        return True
    said = [name for name in names if name in command]
    return (said[-1] if said else names[0]) == handler


def judged_by(detector: str) -> frozenset[str]:
    """The events a sidecar judges (its `hooks`)."""
    return frozenset(name for name, event in EVENTS.items() if detector in event.detectors)


DRAINING = frozenset(name for name, event in EVENTS.items() if event.drains)
BOUNDARIES = frozenset(name for name, event in EVENTS.items() if event.boundary)
LIFECYCLE = frozenset(name for name, event in EVENTS.items() if event.lifecycle)
TOOL_CALLS = frozenset(name for name, event in EVENTS.items() if event.detectors)  # a tool call the ledger counts
AFTER_A_TOOL = frozenset({"PostToolUse", "PostToolUseFailure"})  # the tool ran (and may have written)


def deadline_of(name: str) -> float:
    """The hard deadline of the event `name` (seconds): its row's (the default for an event not in the
    table), lengthened by DEADLINE_ENV when that is set."""
    event = EVENTS.get(name)
    own = event.deadline if event is not None else DEADLINE
    import os

    try:
        wanted = float(os.environ.get(DEADLINE_ENV, "") or own)
    except ValueError:
        return own
    return min(max(own, wanted), MAX_DEADLINE) if wanted == wanted else own  # NaN: not a number of seconds


def stretch_of(name: str) -> float:
    """How much longer than its row's deadline the event `name` has (1.0 unless DEADLINE_ENV says more):
    the shares of its time (the detectors' budget) grow with it."""
    event = EVENTS.get(name)
    return deadline_of(name) / (event.deadline if event is not None else DEADLINE)


# hooks/<script>.py, for the settings form: the same two lines for every event (see hook.run_entry).
ENTRY_TEMPLATE = '''"""Claude Code {name} hook (settings form): stdin -> sidekit_hooks.pipeline.hook, always exit 0. Generated
from sidekit_hooks/pipeline/hook_events.py; `python -m sidekit_hooks.pipeline.hook_events --write` makes it again."""

import os
import sys

sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the checkout, never the cwd
from sidekit_hooks.pipeline.hook import run_entry  # noqa: E402

run_entry("{name}")
'''


def entry_script(name: str) -> str:
    return ENTRY_TEMPLATE.format(name=name)


# sidekit_hooks/<PACKAGED>/<script>.py: the same entries inside the package, for an install with no
# checkout (pip, pipx, uv tool: the wheel carries them). `sidekit install` runs them with `-I -S`:
# isolated mode puts no script folder, working folder or PYTHON* variable on the path, so the script
# adds the folder holding the package after the standard library, where nothing can shadow it.
PACKAGED = "entries"
PACKAGED_TEMPLATE = '''"""Claude Code {name} hook (settings form of an installed package, no checkout): stdin ->
sidekit_hooks.pipeline.hook, always exit 0; `sidekit install` runs it with `python -I -S`. Generated from
sidekit_hooks/pipeline/hook_events.py; `python -m sidekit_hooks.pipeline.hook_events --write` makes it again."""

import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # never the cwd
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
        table[event.name] = [{**group, "hooks": [plugin_handler(h, timeout) for h in _handlers_of(event)]}]
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


def _write(root: str) -> int:
    """Regenerate the entry scripts (hooks/ and the package's own) and hooks/hooks.json from the table
    (a developer's command)."""
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
        f"    {json.dumps(name)}: [\n" + ",\n".join(f"      {json.dumps(group)}" for group in groups) + "\n    ]"
        for name, groups in plugin_hooks().items()
    )
    with open(path, "w", encoding="utf-8") as out:
        out.write(f'{{\n  "description": {json.dumps(description)},\n  "hooks": {{\n{rows}\n  }}\n}}\n')
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
