"""What the code-navigation commands share: opening the index and saying how much was searched."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # (a warm `symbol` or `usages` is parsed without argparse: see `fast_arguments`)
    import argparse
    from typing import Any

from sidekit_hooks.cli.commands._shared import add_format, add_project
from sidekit_hooks.code.index import Coverage


def fast_arguments(argv: list[str]) -> Any:
    """`NAME [--project DIR] [--format json|text]` read without argparse (its import, with re and
    shutil, is a fifth of a warm query); None for anything else, which argparse then reads and explains."""
    from types import SimpleNamespace

    values: dict[str, str | None] = {"name": None, "project": None, "format": "json"}
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        key, equals, inline = arg.partition("=")
        if key in ("--project", "--format") and (equals or rest):
            values[key[2:]] = inline if equals else rest.pop(0)
        elif arg.startswith("-") or values["name"] is not None or not arg:
            return None
        else:
            values["name"] = arg
    if (
        values["name"] is None
        or values["format"] not in ("json", "text")
        or values["project"] == ""
    ):
        return None
    return SimpleNamespace(**values)


def add_common(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    add_format(parser)


NOT_INDEXED_WHY = "grammar missing: sidekit doctor"


def searched(coverage: Coverage) -> dict[str, Any]:
    """`searched` (source files looked at), when any `unparsable` (skipped: they do not parse), and
    when a language's grammar is not installed, `notIndexed` (its files were not read: an empty
    answer says nothing about them) with `why` and where the fix is."""
    missing = coverage.not_indexed.split()
    return {
        "searched": coverage.files,
        "unparsable": coverage.unparsable or None,
        "notIndexed": missing or None,
        "why": NOT_INDEXED_WHY if missing else None,
    }
