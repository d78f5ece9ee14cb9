"""`sidekit scope set|show|clear`: the current task's file scope, kept in `.sidekit/scope.toml`.

sidekit scope set --issue gt-abc12 --allow 'api/handlers/**' --deny 'api/handlers/legacy/**'
sidekit scope show
sidekit scope clear
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.core import globs, safepath, workspace
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.detectors.scope import model as scope_model

MAX_GLOB = 2_000  # characters, as for a rule pack's globs
SET_EXAMPLE = "sidekit scope set --issue ID --allow 'api/handlers/**'"
# under .sidekit/: a wider scope the agent asked for (MCP), for the user
PROPOSAL = "scope-proposal.json"
LOG = "scope.jsonl"  # under .sidekit/log/: every scope the agent set or proposed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="{set,show,clear}")
    actions.required = True
    setter = actions.add_parser(
        "set", help="replace the scope: globs the task may touch (and may not)"
    )
    setter.add_argument(
        "--issue", default="", help="the task's issue id, named in every scope nudge"
    )
    # action="extend": `--allow A --allow B` keeps both, like `--allow A B` (plain nargs kept only
    # B)
    setter.add_argument(
        "--allow",
        nargs="+",
        action="extend",
        required=True,
        metavar="GLOB",
        help="gitignore-style globs in scope",
    )
    setter.add_argument(
        "--deny",
        nargs="+",
        action="extend",
        default=[],
        metavar="GLOB",
        help="globs out of scope even if allowed",
    )
    for sub in (
        setter,
        actions.add_parser("show", help="the scope in force"),
        actions.add_parser("clear", help="remove the scope (the scope sidecar goes quiet)"),
    ):
        add_project(sub)
        add_format(sub)


def run(args: argparse.Namespace) -> int:
    project = project_of(args)
    if args.action == "set":
        render.emit(set_answer(project, args.allow, args.deny, args.issue), args.format)
    elif args.action == "show":
        render.emit(show_answer(project), args.format)
    else:
        render.emit({"scope": "cleared" if scope_model.clear(project) else "none"}, args.format)
    return 0


def set_answer(
    project: str, allow: list[str], deny: list[str], issue: str = ""
) -> dict[str, object]:
    """Replace the scope; the answer `sidekit scope set` prints and the MCP `scope_set` tool
    returns."""
    scope = scope_model.Scope(
        [normalize_glob(g, project) for g in allow],
        [normalize_glob(g, project) for g in deny],
        _issue(issue),
    )
    _save(project, scope)
    _drop_proposal(project)  # the user decided
    return _answer(scope)


def agent_set_answer(
    project: str, allow: list[str], deny: list[str], issue: str = ""
) -> dict[str, object]:
    """MCP `scope_set`: narrow the scope in force, or record a proposal the user sees; keep its
    issue id."""
    from sidekit_hooks.core import hooklog
    from sidekit_hooks.detectors.scope import narrowing

    current = _current(project)
    wanted = scope_model.Scope(
        [normalize_glob(g, project) for g in allow],
        [normalize_glob(g, project) for g in deny],
        _issue(issue),
    )
    if current is not None and current.issue:
        wanted.issue = current.issue  # the user's task stays named in every scope nudge
    why = narrowing.widening(current, wanted)
    record = {
        "by": "mcp scope_set",
        "allow": wanted.allow,
        "deny": wanted.deny,
        "issue": wanted.issue,
    }
    if why:
        workspace.atomic_write(
            os.path.join(workspace.state_dir(project), PROPOSAL),
            json.dumps({**record, "why": why, "at": round(time.time())}),
        )
        hooklog.append(project, LOG, {**record, "action": "proposed", "why": why})
        accept = shlex.join(
            [
                "sidekit",
                "scope",
                "set",
                *(["--issue", wanted.issue] if wanted.issue else []),
                "--allow",
                *wanted.allow,
                *(["--deny", *wanted.deny] if wanted.deny else []),
            ]
        )
        raise SidekitError(
            f"scope_set would widen the scope the user set ({why}); it is recorded as a proposal "
            "the user sees in `sidekit scope show` and `sidekit doctor`",
            f"ask the user to accept it ({accept}), or give a scope inside the current one",
        )
    _save(project, wanted)
    hooklog.append(project, LOG, {**record, "action": "narrowed" if current else "set"})
    return _answer(wanted)


def proposal(project: str) -> dict[str, object] | None:
    """The scope the agent proposed and the user has not decided on, if any."""
    try:
        path = safepath.check(os.path.join(workspace.state_dir(project), PROPOSAL))
        data = json.loads(safepath.read_bytes(path, 1 << 20))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _current(project: str) -> scope_model.Scope | None:
    try:
        return scope_model.load(project)
    except scope_model.ScopeError as exc:
        raise SidekitError(
            f"{exc} in {scope_model.toml_path(project)}; the agent may not replace it", SET_EXAMPLE
        ) from None


def _save(project: str, scope: scope_model.Scope) -> None:
    """Write the scope; a scope.toml that is a folder (or a full disk) is a clear error, not exit
    3."""
    try:
        scope_model.save(project, scope)
    except OSError as exc:
        path = scope_model.toml_path(project)
        aside = f"mv {shlex.quote(path)} {shlex.quote(path)}.old"
        raise SidekitError(
            f"cannot write {path}: {exc.strerror or exc}",
            f"move it out of the way ({aside}), then: {SET_EXAMPLE}",
        ) from None


def _drop_proposal(project: str) -> None:
    try:
        os.unlink(os.path.join(workspace.state_dir(project), PROPOSAL))
    except OSError:
        pass


def show_answer(project: str) -> dict[str, object]:
    """The answer `sidekit scope show` prints and the MCP `scope_show` tool returns."""
    try:
        shown = scope_model.load(project)
    except scope_model.ScopeError as exc:
        raise SidekitError(f"{exc} in {scope_model.toml_path(project)}", SET_EXAMPLE) from None
    found: dict[str, object] = _answer(shown) if shown else {"scope": "none"}
    waiting = proposal(project)
    if waiting:
        found["proposal"] = {key: waiting.get(key) for key in ("allow", "deny", "why")}
    return found


def _answer(scope: scope_model.Scope) -> dict[str, object]:
    return {
        "issue": scope.issue,
        "allow": scope.allow,
        "deny": scope.deny,
        "file": ".sidekit/scope.toml",
    }


def _issue(issue: str) -> str:
    issue = issue.strip()
    if any(char in issue for char in "\n\r"):
        raise SidekitError("the issue id holds a line break", SET_EXAMPLE)
    return issue


def normalize_glob(glob: str, project: str) -> str:
    """A project-relative glob; an absolute path inside the project is made relative; `!` is
    kept."""
    written = glob.strip()
    negation = "!" if written.startswith("!") else ""
    written = written[len(negation) :]
    text = written.replace("\\", "/")
    root = os.path.normpath(project).replace("\\", "/").rstrip("/")
    if text == root or text.startswith(root + "/"):
        text = text[len(root) :] or "/"
        text = "/" + text.lstrip("/")  # anchored at the project root
    parts = [part for part in text.split("/") if part]
    if not parts:
        raise SidekitError(f"the glob {glob!r} names no files", SET_EXAMPLE)
    if ".." in parts:
        raise SidekitError(
            f"the glob {glob!r} leaves the project (`..`)", "use a path inside the project"
        )
    outside = (
        text == written
        and os.path.exists("/" + parts[0])
        and not os.path.exists(os.path.join(project, parts[0]))
    )
    if (
        text.startswith("/") and outside
    ):  # `/api/**` anchors at the project root; `/home/me/x` is a path
        raise SidekitError(
            f"the glob {glob!r} is an absolute path outside the project",
            "use a project-relative glob",
        )
    why = globs.problem(text)  # the same check `sidekit rules lint` runs on a pack's paths
    if why:
        raise SidekitError(f"the glob {glob!r} cannot match: {why}", SET_EXAMPLE)
    if len(text) > MAX_GLOB:
        raise SidekitError(
            f"the glob {glob[:60]!r}... is over {MAX_GLOB} characters",
            "name the folder instead, e.g. --allow 'api/**'",
        )
    collapsed = globs.normalise(text)  # `**/**` matches what `**` does, at a fraction of the cost
    if collapsed != text:
        print(
            f"sidekit scope: wrote {negation + collapsed!r} for {glob!r} (consecutive ** are one "
            "**)",
            file=sys.stderr,
        )
        text = collapsed
    costly = globs.budget_problem(
        text
    )  # the same budget `sidekit rules lint` holds a pack's globs to
    if costly:
        raise SidekitError(
            f"the glob {glob[:80]!r} costs too much on every tool call: {costly}",
            "name the folder instead, e.g. --allow 'api/**'",
        )
    return negation + text
