"""PreToolUse: the Bash command a raw test run becomes. A runner's own rewrite first
(runners.OWN_REWRITES: pytest's), else the options of the adapter whose runner the command runs,
appended (`compact`).

Only a plain command is rewritten (`plain_run`): `[cd DIR &&] [NAME=value ...] RUNNER ARGS` with nothing
else on the line (no pipe, redirection, `;`, `||`, substitution, comment or line break), and only by
appending words. Left alone: `SIDEKIT_RAW=1 ...`, `SIDEKIT_COMPACT=0` in the hook's environment (every
runner's rewrite; a runner may keep an older switch of its own), and whatever the adapter declines.

`pre_tool_use` is the only place in the package that hands the client an `updatedInput`, and every
rewrite (pytest's, each adapter's, any runner added later) reaches the client through it: there the
client's permission rules judge the rewrite against the command as written
(`permissions.rewrite_keeps_verdict`: every settings layer, the client's own flags, wildcards, ask
rules), and any difference or doubt leaves the command as written. No runner judges permissions on
its own.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import fastjson, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RAW_ENV = "SIDEKIT_RAW"  # `SIDEKIT_RAW=1 <command>`: that command runs raw
# `SIDEKIT_COMPACT=0` in the hook's environment: no command is rewritten
OFF_ENV = "SIDEKIT_COMPACT"
UNPLAIN = "#\n\\"  # a comment, a line break or a backslash: never a plain command


def pre_tool_use(payload: dict[str, Any]) -> str:
    """The hook's answer for one parsed PreToolUse payload: '' or one JSON object carrying
    `updatedInput`.

    A runner with its own rewrite (runners.OWN_REWRITES: pytest's) proposes first; then the shared
    path appends the options of the runner the command's words run. Each proposal is judged by the
    client's permission rules (`permitted`) before it becomes the answer."""
    tool_input = payload.get("tool_input")
    if payload.get("tool_name") != "Bash" or not isinstance(tool_input, dict):
        return ""
    written = tool_input.get("command")
    if not isinstance(written, str):
        return ""
    from sidekit_hooks import runners

    if not runners.triggered(written):
        return ""
    cwd = payload["cwd"] if isinstance(payload.get("cwd"), str) else os.getcwd()
    project = workspace.project_dir(cwd)
    off = (
        os.environ.get(OFF_ENV, "") == "0"
    )  # what a run left as written needs (its feed, its wiring) still happens
    for name in runners.OWN_REWRITES:
        if any(word in written for word in runners.TRIGGERS.get(name, ())):
            proposed = runners.own_rewrite(name, written, cwd, project)
            command = "" if off else permitted(written, proposed, cwd, project)
            if command:
                return _updated(tool_input, command)
    proposed, runner = ("", "") if off else compact(written, project)
    command = permitted(written, proposed, cwd, project)
    if not command:
        note_build_run(payload, written)
        return ""
    note_compacted_run(payload, written, runner)
    return _updated(tool_input, command)


def _updated(tool_input: dict[str, Any], command: str) -> str:
    """The answer: the call's input as written, with the rewritten command."""
    updated = dict(tool_input, command=command)
    return fastjson.dumps(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": updated}}
    )


def permitted(written: str, proposed: str, cwd: str, project: str) -> str:
    """`proposed` when the client's permission rules judge it exactly as they judge `written`, else
    ''.

    The one permission judgment of every rewrite: a rewrite is judged again by the client, so a rule
    that tells the two apart (a deny of the command as written, an ask, a wildcard at its end) would
    otherwise be undone or turned into a prompt."""
    if not proposed or proposed == written:
        return ""
    from sidekit_hooks.runners import permissions

    return proposed if permissions.rewrite_keeps_verdict(written, proposed, cwd, project) else ""


def compact(command: str, project: str) -> tuple[str, str]:
    """(`command` with the runner's options appended, the runner's name), or ('', '') to leave it
    alone."""
    words = plain_words(command)
    if not words:
        return "", ""
    from sidekit_hooks import runners

    adapter = runners.for_words(words)
    if adapter is None:
        return "", ""
    try:
        wanted = adapter.compact_words(list(words), project)
    except Exception:  # noqa: BLE001 - an adapter's bug leaves the command as written
        return "", ""
    if not wanted or wanted[: len(words)] != words or len(wanted) == len(words):
        return "", ""
    import shlex

    return command.rstrip() + " " + " ".join(
        shlex.quote(word) for word in wanted[len(words) :]
    ), adapter.NAME


def note_build_run(payload: dict[str, Any], command: str) -> None:
    """A test run left as written whose reports will feed the cache (an adapter's `left_alone_run`:
    a Maven or Gradle build): mark its start (runners/junit/feed.py). Only a plain command, whose
    exit status is the build tool's own."""
    words = plain_words(command)
    if not words:
        return
    from sidekit_hooks import runners

    for adapter in runners.adapters():
        tool = _left_alone_run(adapter, words)
        if tool:
            _mark(payload, words, tool)
            return


def _left_alone_run(adapter: Any, words: list[str]) -> str:
    try:
        return str(adapter.left_alone_run(words)) if hasattr(adapter, "left_alone_run") else ""
    except Exception:  # noqa: BLE001 - an adapter's bug costs its feed, never the command
        return ""


def note_compacted_run(payload: dict[str, Any], command: str, runner: str) -> None:
    """A compacted run whose failure can bypass what feeds the cache (its adapter has `feed_after`):
    a `go test` package that fails to build (no test binary, so the sh wrapper never runs), a vitest
    or jest run that stops before loading sidekit's reporter, any `dotnet test`. What the runner
    printed (and left) feeds the cache afterwards (junit_feed.feed)."""
    from sidekit_hooks import runners

    words = plain_words(command) if hasattr(runners.load(runner), "feed_after") else []
    if words:
        _mark(payload, words, runner)


def _mark(payload: dict[str, Any], words: list[str], tool: str) -> None:
    """The call's marker (`tool`: the runner's name, or the build tool's)."""
    from sidekit_hooks.core import hooklog
    from sidekit_hooks.runners.junit import feed as junit_feed

    try:
        junit_feed.mark_started(payload, words, tool)
    except (OSError, ValueError) as exc:  # a lost marker costs this run's feed, never the command
        cwd = payload.get("cwd")
        hooklog.error(
            workspace.project_dir(cwd if isinstance(cwd, str) else ""),
            "PreToolUse",
            "junit-feed",
            exc,
        )


def plain_words(command: str) -> list[str]:
    """The runner's words of a plain command (env assignments stripped), or [] when it is not
    one."""
    run = plain_run(command)
    return run[2] if run else []


def plain_run(command: str) -> tuple[list[str], list[tuple[str, str]], list[str]] | None:
    """A plain command's parts: (the folders of its `cd DIR &&` prefixes, its `NAME=value`
    assignments, the runner's words), or None when it is not plain or says `SIDEKIT_RAW=1`. The one
    reading of a command every runner's rewrite shares."""
    if any(char in command for char in UNPLAIN):
        return None
    from sidekit_hooks.core.shell import tokenize

    parts: list[list[str]] = [[]]
    for kind, word in tokenize(command):
        if kind == "op":
            if word.text != "&&":
                return None
            parts.append([])
        elif word.unclosed or "$" in word.text or "`" in word.text:
            return None
        else:
            parts[-1].append(word.text)
    *prefix, words = parts
    if any(len(segment) != 2 or segment[0] != "cd" for segment in prefix):
        return None
    assignments: list[tuple[str, str]] = []
    while words and "=" in words[0] and words[0].split("=", 1)[0].isidentifier():
        name, _, value = words.pop(0).partition("=")
        if name == RAW_ENV and value not in ("", "0"):
            return None
        assignments.append((name, value))
    return [segment[1] for segment in prefix], assignments, words
