"""Every Claude Code hook event sidekit answers, declared once: the table every floor reads.

The sidecars read which events they judge (`judged_by`), the policy where a delivery follows
(`BOUNDARIES`); the pipeline (pipeline/hook_events.py) turns the table into the handlers Claude Code
starts, the entry scripts, the plugin's `hooks/hooks.json`, the settings `install` writes, doctor's
probes and playback (`tests/pipeline/test_hook_events.py` holds them to it). Adding an event is a row here,
its handling in `pipeline/runtime.py` (or `pipeline/lifecycle.py`), and the regenerated files.
Standard library only, and no import at its top (`os`, for the deadline a user may lengthen, inside
`deadline_of`): it sits on the ground floor.
"""

from __future__ import annotations

DEADLINE = 0.8  # seconds: every event's hard deadline unless its row says otherwise
# `SIDEKIT_HOOK_DEADLINE=SECONDS` in the environment lengthens every event's deadline (a slow or
# loaded machine; the test suite, whose findings must not hang on the machine's load), never past
# MAX_DEADLINE (under the client's HANDLER_TIMEOUT) and never below the event's own. Nothing a
# repository holds sets it.
DEADLINE_ENV = "SIDEKIT_HOOK_DEADLINE"
MAX_DEADLINE = 4.0
# The handler argument of an event wired twice, to the command hook and to the warm server's `hook`
# tool (docs/warm-path.md): `warm` when the client waits for the command hook, `fallback` when it runs
# it in the background (`"async": true`), where its output may reach the model a request late or
# never, so when it acts it only queues what it finds (runtime `Call.deferred`).
WARM_HANDLER = "warm"
FALLBACK_HANDLER = "fallback"
CLAIMING_HANDLERS = (WARM_HANDLER, FALLBACK_HANDLER)


class HookEvent:
    """One event: how Claude Code starts it, and what sidekit does on it."""

    __slots__ = (
        "name",
        "script",
        "matcher",
        "per_runner_word",
        "drains",
        "boundary",
        "detectors",
        "lifecycle",
        "deadline",
        "probe",
        "warm_key",
    )

    def __init__(
        self,
        name: str,
        script: str,
        *,
        matcher: str | None = None,
        per_runner_word: bool = False,
        drains: bool = False,
        boundary: bool = False,
        detectors: tuple[str, ...] = (),
        lifecycle: bool = False,
        deadline: float = DEADLINE,
        probe: dict[str, object] | None = None,
        warm_key: str = "",
    ) -> None:
        self.name = name  # Claude Code's hook_event_name
        # hooks/<script>.py (settings form) and `hooks/run <script>` (plugin form)
        self.script = script
        self.matcher = matcher  # the handler's tool matcher; None for events without one
        # one handler per runner trigger word, each under an `if` rule naming it
        # (pipeline/hook_events.py makes them from the runners' words): Claude Code takes one
        # permission rule per `if`.
        self.per_runner_word = per_runner_word
        self.drains = drains  # delivers what the queue holds (when the event is the main agent's)
        # a delivery follows at once: deferred findings may be revived here
        self.boundary = boundary
        self.detectors = detectors  # the sidecars that judge it, in order (detectors.REGISTRY)
        self.lifecycle = lifecycle  # handled by lifecycle.py (session edges), not by the detectors
        # Seconds of wall time; past it the hook gives up and delivers what it claimed first
        # (PreToolUse: the command runs as written). The one source of a hook's deadline
        # (`deadline_of`).
        self.deadline = deadline
        self.probe = (
            probe or {}
        )  # the smallest payload of the event, for doctor (no sidecar speaks)
        # the payload field naming one occurrence of the event, when the warm server may answer it
        # (pipeline/claim.py); "" for an event only the command hook answers
        self.warm_key = warm_key


# seconds Claude Code gives a handler; the hook's own deadline is well under one
HANDLER_TIMEOUT = 5
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
            warm_key="tool_use_id",
        ),
        HookEvent(
            "PostToolUseFailure",
            "post_tool_use_failure",
            matcher="*",
            drains=True,
            boundary=True,
            detectors=tuple(name for name in TOOL_DETECTORS if name != "conventions"),
            probe={**_TOOL_PROBE, "error": "probe"},
            warm_key="tool_use_id",
        ),
        HookEvent(
            "UserPromptSubmit",
            "user_prompt_submit",
            drains=True,
            boundary=True,
            probe={"prompt": ""},
            warm_key="prompt_id",
        ),
        # Raw test runs only (runners/dispatch.py); the conditions spare every other Bash call a
        # hook process: one handler per runner trigger word (runners/words.py). Two start for a
        # command that says two of them; the rewrite answers in one only (hook._answers), so a
        # command is never rewritten twice.
        HookEvent(
            "PreToolUse",
            "pre_tool_use",
            matcher="Bash",
            per_runner_word=True,
            probe={"tool_name": "Bash", "tool_input": {"command": "true"}},
        ),
        HookEvent(
            "SessionStart",
            "session_start",
            drains=True,
            lifecycle=True,
            probe={"source": "startup"},
        ),
        HookEvent("Stop", "stop", lifecycle=True, probe={"stop_hook_active": False}),
        HookEvent(
            "SubagentStop", "subagent_stop", lifecycle=True, probe={"stop_hook_active": False}
        ),
    )
}


def judged_by(detector: str) -> frozenset[str]:
    """The events a sidecar judges (its `hooks`)."""
    return frozenset(name for name, event in EVENTS.items() if detector in event.detectors)


def deadline_of(name: str) -> float:
    """The hard deadline of the event `name` (seconds): its row's (the default for an event not in
    the table), lengthened by DEADLINE_ENV when that is set."""
    event = EVENTS.get(name)
    own = event.deadline if event is not None else DEADLINE
    import os

    try:
        wanted = float(os.environ.get(DEADLINE_ENV, "") or own)
    except ValueError:
        return own
    return (
        min(max(own, wanted), MAX_DEADLINE) if wanted == wanted else own
    )  # NaN: not a number of seconds


def stretch_of(name: str) -> float:
    """How much longer than its row's deadline the event `name` has (1.0 unless DEADLINE_ENV says
    more): the shares of its time (the detectors' budget) grow with it."""
    event = EVENTS.get(name)
    return deadline_of(name) / (event.deadline if event is not None else DEADLINE)


DRAINING = frozenset(name for name, event in EVENTS.items() if event.drains)
BOUNDARIES = frozenset(name for name, event in EVENTS.items() if event.boundary)
LIFECYCLE = frozenset(name for name, event in EVENTS.items() if event.lifecycle)
# the events the warm path may answer, each with the field that names one occurrence of it
WARM_KEYS = {name: event.warm_key for name, event in EVENTS.items() if event.warm_key}
TOOL_EVENTS = frozenset(
    name for name, event in EVENTS.items() if event.detectors
)  # a tool call the ledger counts
AFTER_A_TOOL = frozenset(
    {"PostToolUse", "PostToolUseFailure"}
)  # the tool ran (and may have written)

# sidekit_hooks/<PACKAGED>/<script>.py: the same entries inside the package, for an install with no
# checkout (pip, pipx, uv tool: the wheel carries them). `sidekit install` runs them with `-I -S`:
# isolated mode puts no script folder, working folder or PYTHON* variable on the path, so the script
# adds the folder holding the package after the standard library, where nothing can shadow it.
PACKAGED = "entries"
