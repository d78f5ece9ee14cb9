"""Arguments and look-ups several commands share."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

from sidekit_hooks.core import workspace
from sidekit_hooks.core.errors import SidekitError


def add_project(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--project",
        metavar="DIR",
        default=None,
        help="project folder (default: $CLAUDE_PROJECT_DIR or the cwd)",
    )


def add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=("json", "text"),
        default="json",
        help="json for agents, text for people",
    )


def project_of(args: argparse.Namespace) -> str:
    """The project folder, which must exist: no command creates a missing project folder."""
    given = getattr(args, "project", None)
    project = os.path.abspath(given or workspace.project_dir())
    if not os.path.isdir(project):
        what = "is not a folder" if os.path.exists(project) else "does not exist"
        flag = "--project" if given else "$CLAUDE_PROJECT_DIR (or the cwd)"
        raise SidekitError(
            f"the project folder {project} {what} (from {flag}); nothing was done",
            "pass --project DIR with the project's folder (mkdir -p DIR first for a new one)",
        )
    return project


def session_of(args: argparse.Namespace) -> str:
    """--session, else the Claude session of this process, else the Gas Town tmux session."""
    session = (
        getattr(args, "session", None)
        or os.environ.get("CLAUDE_CODE_SESSION_ID")
        or workspace.gastown_session()
    )
    if not session:
        raise SidekitError(
            "no session given and none found in the environment", "add --session SESSION_ID"
        )
    try:
        workspace.safe_session_name(session)
    except workspace.UnsafeSessionName as exc:
        raise SidekitError(
            str(exc), "pass the Claude session_id or the tmux session name"
        ) from None
    return session


def recorder_envs(project: str, remove: bool = False) -> None:
    """The pytest recorder wired into (or, `remove`, out of) the project's own environments (#10), a
    line each; a failure is said, not raised: the rest of the install goes on."""
    from sidekit_hooks.runners.pytest import environments

    try:
        for line in environments.unwire(project) if remove else environments.wire(project):
            print(f"  {line}")
    except OSError as exc:
        if remove:
            print(f"  could not remove the pytest recorder: {exc}; see sidekit doctor")
        else:
            print(
                f"  pytest in the project's environment will not record: {exc}; see sidekit doctor"
            )


class ScratchProject:
    """`with ScratchProject(prefix, keep) as project:` a throw-away project folder, removed
    afterwards unless `keep` (a class, not contextlib: every command imports this module)."""

    def __init__(self, prefix: str, keep: bool) -> None:
        self.prefix, self.keep, self.path = prefix, keep, ""

    def __enter__(self) -> str:
        import tempfile

        self.path = tempfile.mkdtemp(prefix=self.prefix)
        return self.path

    def __exit__(self, *exc: object) -> None:
        if not self.keep:
            import shutil

            shutil.rmtree(self.path, ignore_errors=True)


def explicit_python(value: str | None, command: str) -> str | None:
    """`--python` once it is known to be an interpreter that can start: an executable file, a bare
    name looked up on PATH (returned as found there). SidekitError, ending with the fix, for
    anything else."""
    import shutil

    if not value:
        return value
    found = shutil.which(value)
    if not found:
        what = (
            "is a folder"
            if os.path.isdir(value)
            else "is not executable"
            if os.path.exists(value)
            else "does not exist"
        )
        raise SidekitError(
            f"--python {value}: no such interpreter ({what})",
            f"pass the project's interpreter (without --python, the one `sidekit doctor` shows): "
            f"sidekit {command} --python .venv/bin/python",
        )
    return found


def without_graph(adapter: object, runner: str, then: str) -> dict[str, str] | None:
    """The answer for a runner whose tests no graph selects yet (its adapter has no IMPORT_GRAPH):
    every test, and why; None when a graph can select them."""
    if adapter is None or getattr(adapter, "IMPORT_GRAPH", False):
        return None
    return {"runner": runner, "basis": "all", "why": f"no selection graph for {runner} yet: {then}"}
