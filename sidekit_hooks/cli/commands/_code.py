"""What the code-navigation commands share: opening the index and saying how much was searched."""

from __future__ import annotations

import argparse
from typing import Any

from sidekit_hooks.cli.commands._shared import add_format, add_project
from sidekit_hooks.code.index import Coverage


def add_common(parser: argparse.ArgumentParser) -> None:
    add_project(parser)
    add_format(parser)


def searched(coverage: Coverage) -> dict[str, Any]:
    """`searched` (Python files looked at) and, when any, `unparsable` (skipped: they do not parse)."""
    return {"searched": coverage.files, "unparsable": coverage.unparsable or None}
