"""The `tests` sidecar: what the shared test cache knows, at the moment it matters.

(a) After an Edit/Write to a file that failing tests of the last run live in or pass through (their
test file or an in-project frame of their traceback). (b) After a raw pytest run through Bash that
left failures (the plugin has just rewritten the cache): the clustered status, which raw output
buries. A green run says nothing: pytest's last line already did. Standard library only; the cache
summary is one small JSON file.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.detectors import Finding
from sidekit_hooks.status import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.detectors import Context
    from sidekit_hooks.events import Event

RECENT = 900  # seconds: a Bash call lasts at most 10 minutes, plus slack
MAX_ID = 110  # a longer test id is named by its cluster id instead
SEPARATORS = ("&&", "||", ";", "|", "\n", "(", ")")
WRAPPERS = frozenset({"uv", "run", "poetry", "pipenv", "hatch", "pdm", "rye", "exec", "time", "nice", "env", "command"})
COUNT_WORDS = (("failed", "failed"), ("error", "errors"), ("passed", "passed"), ("skipped", "skipped"))


class TestsSidecar:
    name = "tests"
    hooks = frozenset({"PostToolUse", "PostToolUseFailure"})

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if event.kind == "write" and event.path:
            summary = _summary(ctx)
            return after_edit(event.path, summary) if summary else []
        if event.kind == "shell" and runs_pytest(event.command):
            summary = _summary(ctx)
            return after_run(summary, time.time()) if summary else []
        return []


DETECTOR = TestsSidecar()


def after_edit(path: str, summary: dict[str, Any]) -> list[Finding]:
    spot = (summary.get("files") or {}).get(path)
    if not spot:
        return []
    count, cluster, first = int(spot[0]), str(spot[1]), str(spot[2])
    handle = first if first and len(first) <= MAX_ID else cluster
    where = f"{count} test{'s' if count > 1 else ''} that failed in the last run"
    relation = "live in" if first.split("::")[0] == path else "pass through"
    if count == 1:  # "1 test ... passes through", not "pass through"
        relation = {"live in": "lives in", "pass through": "passes through"}[relation]
    rerun = f"; re-run: sidekit test {first.split('::')[0]}" if first else ""
    message = f"{where} {relation} {path} ({status_line(summary)}); details: sidekit failures {handle}{rerun}"
    generation = summary.get("generation", 0)
    return [Finding("tests", message, key=f"tests:edit:{path}:{generation}", path=path)]


def after_run(summary: dict[str, Any], now: float) -> list[Finding]:
    run = summary.get("run") or {}
    counts = run.get("counts") or {}
    if now - float(run.get("finished", 0)) > RECENT or not (counts.get("failed") or counts.get("error")
                                                           or summary.get("collectErrors")):
        return []
    clusters = summary.get("clusters") or []
    top = ""
    if clusters:
        biggest = clusters[0]
        handle = biggest["tests"][0] if biggest.get("affected", 1) == 1 and len(biggest["tests"][0]) <= MAX_ID \
            else biggest["id"]
        top = (f"; biggest: {biggest.get('type', 'Error')} at {biggest.get('at', '?')} "
               f"({biggest.get('affected', 1)} tests): sidekit failures {handle}")
    message = f"pytest: {status_line(summary)}{top}. Next time `sidekit test` answers in one JSON line"
    return [Finding("tests", message, key=f"tests:run:{summary.get('generation', 0)}:{run.get('finished', 0)}")]


def status_line(summary: dict[str, Any]) -> str:
    """e.g. "6 failed, 3 errors, 1 passed; 5 root causes" for the last run."""
    counts = (summary.get("run") or {}).get("counts") or {}
    parts = [f"{counts[key]} {word}" for key, word in COUNT_WORDS if counts.get(key)]
    if summary.get("collectErrors"):
        errors = int(summary["collectErrors"])
        parts.append(f"{errors} collection error{'s' if errors > 1 else ''}")
    causes = len(summary.get("clusters") or ()) + int(summary.get("moreClusters", 0))
    text = ", ".join(parts) or "no tests ran"
    if causes:
        text += f"; {causes} root cause{'s' if causes > 1 else ''}"
    return text


def runs_pytest(command: str) -> bool:
    """Whether a shell command runs pytest itself (not `sidekit test`, not a grep for the word)."""
    if "pytest" not in command and "py.test" not in command:
        return False
    for separator in SEPARATORS:
        command = command.replace(separator, "\x00")
    for segment in command.split("\x00"):
        words = [w for w in segment.split() if "=" not in w or w.startswith("-")]
        while words and (os.path.basename(words[0]) in WRAPPERS or words[0].isdigit() or words[0] == "timeout"):
            words = words[1:]
        if not words:
            continue
        program = os.path.basename(words[0])
        if program in ("pytest", "py.test"):
            return True
        if program.startswith("python") and words[1:3] == ["-m", "pytest"]:
            return True
    return False


def _summary(ctx: Context) -> dict[str, Any]:
    if "tests:summary" not in ctx.memo:
        loaded = cache.read(cache.summary_path(cache.workspace_root(ctx.project)))
        ctx.memo["tests:summary"] = loaded.data
    summary: dict[str, Any] = ctx.memo["tests:summary"]
    return summary
