"""The scope sidecar: says so, at once, when the agent touches a file outside the current task's
scope.

Reads, edits, writes, Grep/Glob searches and Bash commands that write (see `shell_writes`) are
checked against `.sidekit/scope.toml` (`sidekit scope set`). Nothing is said without a scope, for
files outside the project, or for the tool's own folders. Standard library only.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import hooklog
from sidekit_hooks.core.globs import covers, matches
from sidekit_hooks.core.hook_table import judged_by
from sidekit_hooks.detectors import rank_of
from sidekit_hooks.detectors.scope import model as scope_model
from sidekit_hooks.nudges.events import SHELL_TOOLS, relative_path
from sidekit_hooks.nudges.findings import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context

ALWAYS_IN_SCOPE = ("**/.sidekit/**", "**/.runtime/**", "**/.git/**")
FREE_TO_READ = ("**/.claude/**", "**/CLAUDE.md", "**/CLAUDE.local.md", "**/AGENTS.md")
RANK = rank_of("scope")  # its findings' place among sidecars (detectors.RANKS)
MAX_BASH_NUDGES = 3  # one Bash line can name many files; more than this says nothing new


class ScopeDetector:
    name = "scope"
    hooks = judged_by("scope")

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if event.kind not in ("write", "read", "search", "shell"):
            return []
        try:
            scope = scope_model.load(ctx.project)
        except scope_model.ScopeError as exc:
            hooklog.error(
                ctx.project,
                event.event_name,
                "detector:scope",
                f"{exc}; fix: sidekit scope set --allow GLOB...",
            )
            ctx.notify_user(
                f"sidekit: scope ignored: {exc}. Fix: sidekit scope set --allow GLOB..."
            )
            return []
        if scope is None:
            return []
        if event.kind == "write" and event.event_name == "PostToolUse":
            return _rechecked(_file_finding(scope, event.path, "write", event.tool), event, scope)
        if event.kind == "read" and event.event_name == "PostToolUse":
            return _file_finding(scope, event.path, "read", event.tool)
        if event.kind == "search":
            return _search_finding(scope, event, ctx.project)
        if event.kind == "shell":
            return _shell_findings(scope, event, ctx.project)
        return []


def _rechecked(found: list[Finding], event: Event, scope: scope_model.Scope) -> list[Finding]:
    """An out-of-scope write can be re-checked at Stop: is the file back as it was before? `again`
    is the short line a reminder says when it is not (the file and the task; the primer named the
    scope)."""
    from sidekit_hooks.nudges.recheck import before_state

    for finding in found:
        finding.recheck = {
            "kind": "scope",
            "path": finding.path,
            "before": before_state(event),
            "again": brief(scope, finding.path),
        }
    return found


def brief(scope: scope_model.Scope, path: str) -> str:
    """e.g. "README.md, outside XTD-3's scope; tell the user." (a reminder, after the full line was
    said)."""
    place = "excluded from" if scope.denied_by(path) else "outside"
    owner = f"{scope.issue}'s" if scope.issue else "this task's"
    return f"{path}, {place} {owner} scope; tell the user."


def _exempt(path: str, mode: str, is_dir: bool = False) -> bool:
    patterns = ALWAYS_IN_SCOPE + (FREE_TO_READ if mode != "write" else ())
    return any(covers(glob, path) if is_dir else matches(glob, path) for glob in patterns)


def _inside_project(path: str) -> bool:
    return (
        bool(path)
        and path != "."
        and not path.startswith("/")
        and not path.startswith("../")
        and path != ".."
    )


def _file_finding(scope: scope_model.Scope, path: str, mode: str, tool: str) -> list[Finding]:
    if not _inside_project(path) or _exempt(path, mode) or scope.contains(path):
        return []
    return [_finding(scope, path, mode, tool)]


TAILS = {
    "write": "if it must change, tell the user.",
    "read": "reading is fine, edits need the user's go-ahead.",
    "search": "looking is fine, changes there need the user's go-ahead.",
}
# one key for every read and search outside the scope: said once per session
LOOK_KEY = "scope:look"


def _finding(
    scope: scope_model.Scope, path: str, mode: str, tool: str, directory: bool = False
) -> Finding:
    """An edit outside the scope is a breach, always said (once per file); a read or a search is
    information, said gently and once per session (the agent may look anywhere). The line names the
    file and the task only: the SessionStart primer named the scope's files."""
    place = "excluded from" if scope.denied_by(path, directory) else "outside"
    where = scope.describe(path, directory)
    scoped = f"{place} this task's scope{f' ({where})' if where else ''}; {TAILS[mode]}"
    if mode == "write":
        head = f"This {tool} command writes {path}," if tool in SHELL_TOOLS else f"{path} is"
        key = f"scope:write:{path}"
        return Finding(
            "scope",
            f"{head} {scoped}",
            key=key,
            path=path,
            severity="high",
            subject=path,
            rank=RANK,
        )
    if mode == "read":
        text = f"FYI: {path} is {scoped}"
    else:
        shown = f"{path}/" if directory else path
        text = f"FYI: {tool} searched {shown}, {scoped}"
    return Finding("scope", text, key=LOOK_KEY, path=path, severity="low", subject=path, rank=RANK)


def _search_finding(scope: scope_model.Scope, event: Event, project: str) -> list[Finding]:
    """Grep/Glob: the folder searched (its `path`, plus a Glob pattern's literal leading
    folders)."""
    base = event.abs_path or project
    tool_input = event.raw.get("tool_input")
    grep_glob = (
        tool_input.get("glob") if event.tool == "Grep" and isinstance(tool_input, dict) else None
    )
    pattern = (
        event.pattern if event.tool == "Glob" else grep_glob if isinstance(grep_glob, str) else ""
    )
    if pattern:
        literal = []
        for part in pattern.replace("\\", "/").split("/"):
            if _has_wildcard(part):
                break
            if part and part != ".":
                literal.append(part)
        if literal:
            base = os.path.normpath(
                os.path.join(base, *literal)
                if not pattern.startswith("/")
                else "/" + "/".join(literal)
            )
    path = relative_path(base, project)
    is_file = os.path.isfile(base)
    if not _inside_project(path) or _exempt(path, "search", is_dir=not is_file):
        return []
    if is_file:
        if scope.contains(path):
            return []
        return [_finding(scope, path, "search", event.tool)]
    if scope.touches_dir(path):
        return []
    return [_finding(scope, path, "search", event.tool, directory=True)]


def _shell_findings(scope: scope_model.Scope, event: Event, project: str) -> list[Finding]:
    if not event.command:
        return []
    from sidekit_hooks.detectors.scope.shell_writes import write_targets

    found: list[Finding] = []
    for target in write_targets(event.command, event.cwd or project):
        path = relative_path(target, project)
        is_dir = os.path.isdir(target)
        if not _inside_project(path) or _exempt(path, "write", is_dir):
            continue
        inside = scope.touches_dir(path) if is_dir else scope.contains(path)
        if not inside:
            found.append(_finding(scope, path, "write", event.tool, directory=is_dir))
        if len(found) >= MAX_BASH_NUDGES:
            break
    return found


def _has_wildcard(part: str) -> bool:
    return any(char in "*?[{" for char in part)


DETECTOR = ScopeDetector()
