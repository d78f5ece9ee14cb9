"""Python source parsed once per test run. The tests that read the whole package's source (its
floors, runner names, hook events, file reads, workers) each parsed every module again, 0.7 CPU s a
time; they only walk the trees, never change them, so they share one parse of each text."""

from __future__ import annotations

import ast
import functools


@functools.cache
def parsed(source: str) -> ast.Module:
    """`ast.parse(source)`, the same tree for the same text (read it, never change it)."""
    return ast.parse(source)
