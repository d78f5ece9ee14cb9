"""Match one event against compiled rules. Shared by the hook detector and `sidekit rules test`.

Standard library only. Cheap checks first (tool, path, is there any text at all), and `re` is
imported only when a rule that applies has a regex to run. Every regex runs under a time budget:
SIGALRM interrupts even a catastrophic backtracking match, and the hook's own hard deadline is
re-armed after.
"""

from __future__ import annotations

import _signal
import time

from sidekit_hooks.core import budget
from sidekit_hooks.core.globs import match_name, matches_any
from sidekit_hooks.rules import MATCH_BUDGET, MAX_SCAN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from re import Pattern
    from typing import Any

    from sidekit_hooks.nudges.events import Event

    Rule = dict[str, Any]

# What each condition needs from the event, and the tools whose events can carry it.
WRITE_TOOLS = ("Edit", "Write", "NotebookEdit", "MultiEdit")
SHELL_TOOLS = ("Bash", "PowerShell")
PATH_TOOLS = WRITE_TOOLS + ("Read", "Glob", "Grep")
SUPPRESS = "sidekit:"


class Hit:
    """A rule that fired: the text it matched (hashed into the finding's key) and where."""

    __slots__ = ("rule", "matched", "field")

    def __init__(self, rule: Rule, matched: str, field: str) -> None:
        self.rule = rule
        self.matched = matched
        self.field = field

    def __repr__(self) -> str:
        return f"Hit({self.rule['id']!r}, {self.field}={self.matched[:40]!r})"


class RegexTimeout(BaseException):
    """A regex ran past its budget. A BaseException so a broad `except Exception` cannot hide it."""


def match_rules(
    rules: list[Rule],
    event: Event,
    deadline: float,
    on_timeout: Callable[[Rule, str], None] | None = None,
) -> list[Hit]:
    """Every rule that fires on `event`, in order. Stops (returning what it has) once `deadline`
    passes."""
    hits = []
    for rule in rules:
        if time.monotonic() >= deadline:
            break
        budget.doing(
            f"pack {rule.get('file', '?')} rule {rule.get('id', '?')}"
        )  # named if time runs out
        try:
            hit = match_rule(rule, event, deadline)
        except RegexTimeout as exc:
            if on_timeout is not None:
                on_timeout(rule, str(exc))
            continue
        if hit is not None:
            hits.append(hit)
    return hits


def match_rule(rule: Rule, event: Event, deadline: float = float("inf")) -> Hit | None:
    """The hit when every condition of `rule` holds on `event`, else None. May raise
    RegexTimeout."""
    if not applies(rule, event):
        return None
    when = rule["when"]
    found: Hit | None = None
    if "added" in when:
        found = _first_unsuppressed(rule, "added", event.added, deadline)
        if found is None:
            return None
    if "absent" in when:
        if _search(when["absent"], event.added[:MAX_SCAN], deadline) is not None:
            return None
        if _suppressed(rule["id"], event.added):
            return None
        found = found or Hit(rule, f"absent:{event.path}", "absent")
    if "command" in when:
        found = _first_unsuppressed(rule, "command", event.command, deadline)
        if found is None:
            return None
    if "output" in when:
        text = "\n".join(part for part in (event.output, event.error) if part)
        found = _first_unsuppressed(rule, "output", text, deadline)
        if found is None:
            return None
    return found or Hit(rule, event.path or event.tool, "event")


def language_of(path: str) -> str:
    """The language id a rule's `languages` names (`py`, `ts`, `js`, `go`, `rust`, `java`), by the
    suffix: the code index's ids (TSX is `ts`, JSX `js`), with stubs and notebooks as Python."""
    from sidekit_hooks.code import languages

    if path.endswith((".pyi", ".ipynb")):
        return languages.PYTHON
    return languages.language_of(path)


def applies(rule: Rule, event: Event) -> bool:
    """The cheap part: tool, paths and whether the event has the text each condition looks at."""
    when = rule["when"]
    tools = when.get("tools")
    if tools is not None and not any(match_name(tool, event.tool) for tool in tools):
        return False
    inside = event.path and not event.path.startswith("/")  # a project file (not none, not outside)
    if "paths" in when and not (inside and matches_any(when["paths"], event.path)):
        return False
    if "exclude" in when and inside and matches_any(when["exclude"], event.path):
        return False
    if "languages" in when and not (inside and language_of(event.path) in when["languages"]):
        return False
    if ("added" in when or "absent" in when) and not event.added:
        return False
    if "command" in when and not event.command:
        return False
    return not ("output" in when and not (event.output or event.error))


def _first_unsuppressed(rule: Rule, field: str, text: str, deadline: float) -> Hit | None:
    """The first match of the rule's `field` regex whose line carries no `sidekit: ignore` for
    it."""
    text = text[:MAX_SCAN]
    pattern = rule["when"][field]
    if SUPPRESS not in text:
        found = _search(pattern, text, deadline)
        return None if found is None else Hit(rule, found[2], field)
    for start, end, matched in _finditer(pattern, text, deadline):
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        if not _suppressed(rule["id"], text[line_start : len(text) if line_end < 0 else line_end]):
            return Hit(rule, matched, field)
    return None


def _suppressed(rule_id: str, line: str) -> bool:
    """`sidekit: ignore` silences every rule on the line; `sidekit: ignore[a, b]` only those ids."""
    at = line.find(SUPPRESS)
    while at >= 0:
        rest = line[at + len(SUPPRESS) :].lstrip()
        if rest.startswith("ignore"):
            rest = rest[len("ignore") :]
            if not rest.startswith("["):
                return True
            ids = rest[1:].partition("]")[0]
            if rule_id in (part.strip() for part in ids.split(",")):
                return True
        at = line.find(SUPPRESS, at + 1)
    return False


# --- regexes, compiled on first use and bounded in time ------------------------------------------

_compiled: dict[str, Pattern[str]] = {}
_precompiled: dict[str, list[Any]] = {}
_armed = [False]


def use_precompiled(snap: dict[str, Any]) -> None:
    """Take the engine code the snapshot holds for its regexes (when this interpreter made it)."""
    from sidekit_hooks.rules import sre

    if snap.get("engine") == sre.ENGINE and isinstance(snap.get("sre"), dict):
        _precompiled.update(snap["sre"])


def regex(pattern: str) -> Pattern[str]:
    """The compiled regex (MULTILINE: `^` and `$` work per line of a multi-line text)."""
    compiled = _compiled.get(pattern)
    if compiled is None:
        if pattern in _precompiled:
            from sidekit_hooks.rules import sre

            compiled = sre.load(pattern, _precompiled[pattern])
        if compiled is None:
            import re

            compiled = re.compile(pattern, re.MULTILINE)
        _compiled[pattern] = compiled
    return compiled


def _search(pattern: str, text: str, deadline: float) -> tuple[int, int, str] | None:
    compiled = regex(pattern)

    def search() -> tuple[int, int, str] | None:
        found = compiled.search(text)
        return None if found is None else (found.start(), found.end(), found.group(0))

    result: tuple[int, int, str] | None = _bounded(search, deadline, pattern)
    return result


def _finditer(
    pattern: str, text: str, deadline: float, limit: int = 1000
) -> list[tuple[int, int, str]]:
    compiled = regex(pattern)

    def scan() -> list[tuple[int, int, str]]:
        out = []
        for found in compiled.finditer(text):
            out.append((found.start(), found.end(), found.group(0)))
            if len(out) >= limit:
                break
        return out

    found: list[tuple[int, int, str]] = _bounded(scan, deadline, pattern)
    return found


def _on_alarm(signum: int, frame: object) -> None:
    if _armed[0]:
        raise RegexTimeout()


def _bounded(call: Callable[[], Any], deadline: float, pattern: str) -> Any:
    """Run `call` for at most MATCH_BUDGET seconds (and not past `deadline`), then raise
    RegexTimeout.

    ITIMER_REAL is one timer per process and the hook already uses it for its hard deadline:
    remember what was left of it and its handler, and re-arm both afterwards (at once if it is
    already due).
    """
    budget = min(MATCH_BUDGET, deadline - time.monotonic())
    if budget <= 0:
        raise RegexTimeout(f"no time left for {pattern[:60]!r}")
    try:
        outer_handler = _signal.getsignal(_signal.SIGALRM)
        outer_left = _signal.getitimer(_signal.ITIMER_REAL)[0]
        _signal.signal(_signal.SIGALRM, _on_alarm)
    except ValueError:  # not the main thread: no alarm; MAX_SCAN bounds the text instead
        return call()
    started = time.monotonic()
    _armed[0] = True
    _signal.setitimer(_signal.ITIMER_REAL, min(budget, outer_left) if outer_left > 0 else budget)
    try:
        return call()
    except RegexTimeout:
        raise RegexTimeout(f"{pattern[:60]!r} ran past {budget * 1000:.0f} ms") from None
    finally:
        _armed[0] = False  # from here a late alarm is a no-op
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.signal(_signal.SIGALRM, outer_handler)
        if outer_left > 0:
            _signal.setitimer(
                _signal.ITIMER_REAL, max(outer_left - (time.monotonic() - started), 1e-6)
            )
