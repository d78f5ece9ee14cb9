"""Printing a played session for people: each step, what the agent was told, why, and what was held
back."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sidekit_hooks.cli.playback.steps import StepResult, sidecar_of

WIDTH = 76


def title(payload: dict[str, Any]) -> str:
    """A one-line description of the call a payload reports."""
    if payload.get("hook_event_name") == "UserPromptSubmit":
        return f"user: {_short(str(payload.get('prompt', '')))}"
    tool = str(payload.get("tool_name", "?"))
    data = payload.get("tool_input")
    tool_input: dict[str, Any] = data if isinstance(data, dict) else {}
    cwd = str(payload.get("cwd") or "")
    if tool in ("Bash", "PowerShell"):
        text = f"{tool}: {_short(str(tool_input.get('command', '')))}"
    elif tool in ("Grep", "Glob"):
        where = _rel(str(tool_input.get("path") or ""), cwd)
        text = f"{tool} {tool_input.get('pattern', '')!r}" + (f" in {where}" if where else "")
    else:
        path = tool_input.get("file_path") or tool_input.get("notebook_path")
        text = f"{tool} {_rel(str(path), cwd)}" if path else tool
    if payload.get("hook_event_name") == "PostToolUseFailure":
        text += " (failed)"
    if payload.get("agent_id"):
        text += f" [subagent {payload['agent_id']}]"
    return text


def step_lines(number: int, result: StepResult, note: str = "") -> list[str]:
    lines = [f"{number:>3}. {title(result.payload)}"]
    if note:
        lines.append(f"     {note}")
    nudges = result.nudges
    if nudges:
        for line in nudges:
            lines.append(f"     -> agent told: {line}")
            lines.extend(f"        why: {why}" for why in _why(result, line))
    else:
        lines.append("     -> agent told nothing")
    for record in result.suppressed():
        rule = f" {record['rule']}" if record.get("rule") else ""
        lines.append(
            f"     .. held back ({record.get('by')}): {record.get('sidecar')}{rule}: "
            f"{_short(str(record.get('text', '')), 90)}"
        )
    if result.notices:
        lines.append(f"     !! user notice (not the model): {_short(result.notices, 120)}")
    return lines


def _why(result: StepResult, line: str) -> list[str]:
    sidecar = sidecar_of(line)
    for record in result.fired():
        if record.get("text") == line:
            rule = f", rule {record['rule']}" if record.get("rule") else ""
            return [f"the {sidecar} sidecar fired{rule}; the policy let it through"]
    if sidecar == "policy":
        return ["the policy's per-session cap"]
    return ["queued earlier, delivered at this turn boundary"]


class Summary:
    def __init__(self) -> None:
        self.steps = 0
        self.told: Counter[str] = Counter()
        self.held: Counter[str] = Counter()

    def add(self, result: StepResult) -> None:
        self.steps += 1
        self.told.update(result.sidecars())
        self.held.update(str(r.get("by")) for r in result.suppressed())

    def lines(self) -> list[str]:
        told = ", ".join(f"{name} {count}" for name, count in sorted(self.told.items())) or "none"
        held = ", ".join(f"{why} {count}" for why, count in sorted(self.held.items())) or "none"
        return [
            f"{self.steps} steps; nudges delivered: {sum(self.told.values())} ({told}); "
            f"held back by the policy: {sum(self.held.values())} ({held})"
        ]


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rel(path: str, cwd: str) -> str:
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path
