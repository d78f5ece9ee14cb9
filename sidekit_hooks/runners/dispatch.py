"""PreToolUse: a runner's own rewrite first (runners.OWN_REWRITES: pytest's), else append the options
of the adapter whose runner the command runs (`pre_tool_use`).

Only a plain command is rewritten: `[cd DIR &&] [NAME=value ...] RUNNER ARGS` with nothing else on
the line (no pipe, redirection, `;`, `||`, substitution, comment or line break), and only by
appending words. Left alone: `SIDEKIT_RAW=1 ...`, `SIDEKIT_COMPACT=0` in the hook's environment, and
whatever the adapter declines.

`answer` is the only place in the package that hands the client an `updatedInput`, and every rewrite
(pytest's, each adapter's, any runner added later) reaches the client through it: there the client's
permission rules judge the rewrite against the command as written (`permissions.rewrite_keeps_verdict`:
every settings layer, the client's own flags, wildcards, ask rules), and any difference or doubt
leaves the command as written. No runner judges permissions on its own.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import fastjson, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

RAW_ENV = "SIDEKIT_RAW"
OFF_ENV = "SIDEKIT_COMPACT"


def pre_tool_use(stdin_text: str) -> str:
    """The hook's answer for one PreToolUse payload: '' or one JSON object carrying `updatedInput`.

    A runner with its own rewrite (runners.OWN_REWRITES: pytest's) answers first; then the shared path
    appends the options of the runner the command's words run (`handle`)."""
    from sidekit_hooks import runners

    if not runners.triggered(stdin_text):
        return ""
    for name in runners.OWN_REWRITES:
        found = runners.own_rewrite(name, stdin_text)
        if found:
            return found
    return handle(stdin_text)


def handle(stdin_text: str) -> str:
    """The shared path's answer for one PreToolUse payload: '' or one JSON object carrying `updatedInput`."""
    found: list[str] = []  # the runner whose options were appended (the adapter is looked up once)

    def rewriter(command: str, cwd: str, project: str) -> str:
        rewritten, runner = compact(command, project)
        found.append(runner)
        return rewritten

    return answer(
        stdin_text, rewriter, note_build_run, lambda payload, command: note_compacted_run(payload, command, found[-1])
    )


def answer(
    stdin_text: str,
    rewriter: Callable[[str, str, str], str],
    left_alone: Callable[[dict[str, Any], str], None] | None = None,
    rewritten: Callable[[dict[str, Any], str], None] | None = None,
) -> str:
    """'' or the `updatedInput` answer with the Bash command `rewriter(command, cwd, project)` proposes
    (the pytest rewrite shares it), once the client's permission rules judge it as the command written
    (`permitted`); `left_alone(payload, command)` hears of a command it leaves as written,
    `rewritten(payload, command)` of one it rewrites."""
    payload = fastjson.loads(stdin_text)
    if not isinstance(payload, dict) or payload.get("tool_name") != "Bash":
        return ""
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict) or not isinstance(tool_input.get("command"), str):
        return ""
    cwd = str(payload.get("cwd")) if isinstance(payload.get("cwd"), str) else os.getcwd()
    written = tool_input["command"]
    project = workspace.project_dir(cwd)
    command = permitted(written, rewriter(written, cwd, project), cwd, project)
    if not command:
        if left_alone is not None:
            left_alone(payload, written)
        return ""
    if rewritten is not None:
        rewritten(payload, written)
    updated = dict(tool_input, command=command)
    return fastjson.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": updated}})


def permitted(written: str, proposed: str, cwd: str, project: str) -> str:
    """`proposed` when the client's permission rules judge it exactly as they judge `written`, else ''.

    The one permission judgment of every rewrite: a rewrite is judged again by the client, so a rule
    that tells the two apart (a deny of the command as written, an ask, a wildcard at its end) would
    otherwise be undone or turned into a prompt."""
    if not proposed or proposed == written:
        return ""
    from sidekit_hooks.runners import permissions

    return proposed if permissions.rewrite_keeps_verdict(written, proposed, cwd, project) else ""


def rewrite(command: str, cwd: str, project: str) -> str:
    """`command` with the runner's options appended, or '' to leave it alone (before the permission
    judgment, which `answer` applies to every rewrite)."""
    return compact(command, project)[0]


def compact(command: str, project: str) -> tuple[str, str]:
    """(`command` with the runner's options appended, the runner's name), or ('', '') to leave it alone."""
    if os.environ.get(OFF_ENV, "") == "0" or any(c in command for c in "#\n\\"):
        return "", ""
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

    return command.rstrip() + " " + " ".join(shlex.quote(word) for word in wanted[len(words) :]), adapter.NAME


def note_build_run(payload: dict[str, Any], command: str) -> None:
    """A test run left as written whose reports will feed the cache (an adapter's `left_alone_run`: a
    Maven or Gradle build): mark its start (runners/junit/feed.py). Only a plain command, whose exit
    status is the build tool's own."""
    words = _plain(command)
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
    """A compacted run whose failure can bypass what feeds the cache (its adapter has `feed_after`): a
    `go test` package that fails to build (no test binary, so the sh wrapper never runs), a vitest or jest
    run that stops before loading sidekit's reporter, any `dotnet test`. What the runner printed (and
    left) feeds the cache afterwards (junit_feed.feed)."""
    from sidekit_hooks import runners

    words = _plain(command) if hasattr(runners.load(runner), "feed_after") else []
    if words:
        _mark(payload, words, runner)


def _plain(command: str) -> list[str]:
    return [] if "#" in command or "\n" in command or "\\" in command else plain_words(command)


def _mark(payload: dict[str, Any], words: list[str], tool: str) -> None:
    """The call's marker (`tool`: the runner's name, or the build tool's)."""
    from sidekit_hooks.core import hooklog
    from sidekit_hooks.runners.junit import feed as junit_feed

    try:
        junit_feed.mark_started(payload, words, tool)
    except (OSError, ValueError) as exc:  # a lost marker costs this run's feed, never the command
        cwd = payload.get("cwd")
        hooklog.error(workspace.project_dir(cwd if isinstance(cwd, str) else ""), "PreToolUse", "junit-feed", exc)


def plain_words(command: str) -> list[str]:
    """The runner's words of a plain command (env assignments stripped), or [] when it is not one."""
    from sidekit_hooks.core.shell import tokenize

    parts: list[list[str]] = [[]]
    for kind, word in tokenize(command):
        if kind == "op":
            if word.text != "&&":
                return []
            parts.append([])
        elif word.unclosed or "$" in word.text or "`" in word.text:
            return []
        else:
            parts[-1].append(word.text)
    *prefix, words = parts
    if any(len(segment) != 2 or segment[0] != "cd" for segment in prefix):
        return []
    while words and "=" in words[0] and words[0].split("=", 1)[0].isidentifier():
        name, _, value = words.pop(0).partition("=")
        if name == RAW_ENV and value not in ("", "0"):
            return []
    return words
