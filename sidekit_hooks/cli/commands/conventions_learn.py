"""`sidekit conventions learn`: measure the repo's conventions into
`sidecar_rules/conventions.toml`.

The file is an ordinary rule pack (sidecar "conventions") for the team to read, edit and commit; a
rule someone set `enabled = false` stays disabled when the pack is learned again.
"""

from __future__ import annotations

import argparse
import os
import tomllib
from typing import Any

from sidekit_hooks.answers import render
from sidekit_hooks.cli.commands._shared import add_format, add_project, project_of
from sidekit_hooks.core import safepath, workspace
from sidekit_hooks.rules import MAX_PACK_BYTES

OUTPUT = os.path.join("sidecar_rules", "conventions.toml")
HEADER = (
    "# Learned by `sidekit conventions learn` from this repository's own code: one rule per "
    "convention it\n"
    "# follows in >= 90% of cases, with the figures in [rules.metadata]. Commit it; edit or "
    "disable rules\n"
    "# freely (enabled = false survives re-learning); check it with `sidekit rules test`.\n\n"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action", choices=("learn",), help="learn: measure the repo and write the rule pack"
    )
    parser.add_argument(
        "--output", metavar="PATH", help=f"where to write the pack (default: {OUTPUT})"
    )
    parser.add_argument("--dry-run", action="store_true", help="measure and report; write nothing")
    add_project(parser)
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    from sidekit_hooks.rules.authoring import learn, learn_languages

    project = project_of(args)  # a missing folder is a clear error there
    rules, measures = learn_languages.learn_all(project)
    output = os.path.abspath(os.path.join(project, args.output or OUTPUT))
    document = learn.pack(rules)
    keep_disabled(document, output)
    if not args.dry_run:
        import tomli_w

        workspace.atomic_write(output, HEADER + tomli_w.dumps(document, multiline_strings=True))
    shown = (
        os.path.relpath(output, project)
        if output.startswith(project.rstrip(os.sep) + os.sep)
        else output
    )
    render.emit(summary(measures, shown, args.dry_run), args.format)
    return 0


def keep_disabled(document: dict[str, Any], output: str) -> None:
    """Carry `enabled = false` over from the pack being replaced, by rule id."""
    try:
        previous = tomllib.loads(safepath.read_regular(output, MAX_PACK_BYTES).decode("utf-8"))
    except (OSError, ValueError):  # TOMLDecodeError, UnicodeDecodeError; a FIFO, a file too large
        return
    disabled = {
        r.get("id")
        for r in previous.get("rules", [])
        if isinstance(r, dict) and r.get("enabled") is False
    }
    for rule in document["rules"]:
        if rule["id"] in disabled:
            rule["enabled"] = False


def summary(measures: list[Any], output: str, dry_run: bool) -> dict[str, Any]:
    kept = [m for m in measures if m.kept]
    skipped = [m for m in measures if not m.kept]
    return {
        "wrote": None if dry_run else output,
        "rules": len(kept),
        "kept": [{"id": m.id, "prevalence": round(m.prevalence, 2), "of": m.total} for m in kept],
        "skipped": [
            {
                "id": m.id,
                "prevalence": round(m.prevalence, 2),
                "of": m.total,
                "why": "fewCases" if m.total < m.minimum else "belowThreshold",
            }
            for m in skipped
        ],
    }
