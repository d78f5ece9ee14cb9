"""`sidekit otel status|trust|list`: the OpenTelemetry export in force, and the project endpoints you accepted.

sidekit otel status                          # what is sent where, and where that came from
sidekit otel trust http://collector:4318     # accept the endpoint this project's pyproject.toml names
sidekit otel trust --revoke                  # take it back
sidekit otel list                            # every project endpoint you accepted

A project's `[tool.sidekit] otel-endpoint` is ignored until you accept that exact endpoint for that
project (docs/settings.md); the record is user-level (core/trust.py), never in the repository.
"""

from __future__ import annotations

import argparse
import os
import shlex

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.core import exportconfig, trust
from sidekit_hooks.core.errors import SidekitError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="{status,trust,list}")
    actions.required = True
    status = actions.add_parser("status", help="the export in force and where it came from")
    accept = actions.add_parser(
        "trust", help="accept the endpoint the project's pyproject.toml names"
    )
    accept.add_argument(
        "url", nargs="?", default="", help="the endpoint, exactly as pyproject.toml names it"
    )
    accept.add_argument(
        "--revoke", action="store_true", help="forget the endpoint accepted for this project"
    )
    listed = actions.add_parser("list", help="every project endpoint you accepted")
    for sub in (status, accept):
        add_project(sub)
    for sub in (status, accept, listed):
        add_format(sub)


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        render.emit({"trustFile": trust.path(), "trusted": trusted_list()}, args.format)
        return 0
    project = project_of(args)
    if args.action == "status":
        render.emit(status_answer(project), args.format)
    elif args.revoke:
        render.emit(revoke_answer(project, args.url), args.format)
    else:
        render.emit(trust_answer(project, args.url), args.format)
    return 0


def trust_command(project: str, endpoint: str) -> str:
    """The command that accepts `endpoint` for `project` (doctor and the worker name it)."""
    return f"sidekit otel trust --project {shlex.quote(project)} {shlex.quote(endpoint)}"


def status_answer(project: str) -> dict[str, object]:
    found = exportconfig.explain(project)
    answer: dict[str, object] = {"export": "on" if found.endpoint else "off"}
    if found.endpoint:
        answer.update(endpoint=found.endpoint, source=found.source, headers=sorted(found.headers))
    if found.ignored:
        answer["projectEndpoint"] = found.ignored
        if found.trusted:
            answer["projectEndpointTrusted"] = True
        elif not found.endpoint:
            answer["trust"] = trust_command(project, found.ignored)
    return answer


def trust_answer(project: str, url: str) -> dict[str, object]:
    named = exportconfig.project_endpoint(project)
    pyproject = os.path.join(project, "pyproject.toml")
    if not named:
        raise SidekitError(
            f"{pyproject} names no [tool.sidekit] otel-endpoint: there is nothing to trust",
            "for your own collector set SIDEKIT_OTEL_ENDPOINT (docs/fleets.md)",
        )
    if not url:
        raise SidekitError(
            f"name the endpoint you accept: {pyproject} names {named}",
            f"check that {named} is your collector, then: {trust_command(project, named)}",
        )
    if url != named:
        raise SidekitError(
            f"{pyproject} names {named}, not {url}; nothing was trusted",
            f"check that {named} is your collector, then: {trust_command(project, named)}",
        )
    try:
        trust.grant(exportconfig.PROJECT_KEY, project, named)
    except OSError as exc:
        raise SidekitError(
            f"cannot write {trust.path()}: {exc.strerror or exc}",
            f"make {os.path.dirname(trust.path())} writable, then: {trust_command(project, named)}",
        ) from None
    return {"trusted": named, "project": trust.project_key(project), "trustFile": trust.path()}


def revoke_answer(project: str, url: str) -> dict[str, object]:
    if url:
        raise SidekitError(
            "--revoke takes no endpoint: it forgets the one accepted for this project",
            "sidekit otel trust --revoke",
        )
    try:
        dropped = trust.revoke(exportconfig.PROJECT_KEY, project)
    except OSError as exc:
        raise SidekitError(
            f"cannot write {trust.path()}: {exc.strerror or exc}",
            f"make {os.path.dirname(trust.path())} writable, then: sidekit otel trust --revoke",
        ) from None
    return {"project": trust.project_key(project), "revoked": dropped or "nothing"}


def trusted_list() -> list[dict[str, str]]:
    return [
        {"project": str(item["project"]), "endpoint": str(item["value"])}
        for item in trust.entries()
        if item["kind"] == exportconfig.PROJECT_KEY
    ]
