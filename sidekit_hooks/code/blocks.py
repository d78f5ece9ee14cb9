"""A file cut into blocks, the unit of test impact (pytest-testmon's idea).

Each top-level function and each method is a block holding its body; everything else (imports,
signatures, decorators, class bodies, constants) is the file's `<module>` block. A block's checksum
is a CRC of its AST dump without positions, so moving code, comments and blank lines change nothing.
A test depends on the blocks whose lines it executed, and on `<module>` of every file it touched.
"""

from __future__ import annotations

import ast
import bisect
import functools
import zlib
from dataclasses import dataclass

MODULE = "<module>"


@dataclass(frozen=True)
class Blocks:
    checksums: dict[str, int]  # block name -> crc32 of its AST dump
    starts: list[int]  # sorted first body line of each function block
    ranges: list[tuple[int, int, str]]  # (first body line, last line, block name), sorted

    def block_at(self, line: int) -> str:
        """The block a line belongs to: the function body that holds it, else `<module>`."""
        position = bisect.bisect_right(self.starts, line) - 1
        if position >= 0:
            first, last, name = self.ranges[position]
            if first <= line <= last:
                return name
        return MODULE


def _functions(
    body: list[ast.stmt], prefix: str
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Top-level functions and methods (through nested classes), each with its qualified name."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((prefix + node.name, node))
        elif isinstance(node, ast.ClassDef):
            found.extend(_functions(node.body, f"{prefix}{node.name}."))
        elif isinstance(
            node, (ast.If, ast.Try)
        ):  # `if TYPE_CHECKING:` / `try: ... except ImportError:`
            for branch in (node.body, node.orelse, getattr(node, "finalbody", [])):
                found.extend(_functions(branch, prefix))
    return found


@functools.lru_cache(maxsize=32)  # one command often asks about the same content twice
def blocks_of(source: bytes | str) -> Blocks:
    """Raises SyntaxError/ValueError when the source does not parse. Costs a parse and an AST
    dump."""
    tree = ast.parse(source)
    checksums: dict[str, int] = {}
    ranges: list[tuple[int, int, str]] = []
    for name, node in _functions(tree.body, ""):
        body_dump = "\n".join(ast.dump(statement) for statement in node.body)
        checksums[name] = zlib.crc32(body_dump.encode())
        ranges.append((node.body[0].lineno, node.end_lineno or node.body[-1].lineno, name))
        node.body = []  # the signature and decorators stay in the module block
    checksums[MODULE] = zlib.crc32(ast.dump(tree).encode())
    ranges.sort()
    return Blocks(checksums, [first for first, _, _ in ranges], ranges)


def changed_blocks(before: bytes | str | None, after: bytes | str | None) -> set[str]:
    """Blocks whose content differs; `{MODULE}` when either side is missing or does not parse."""
    if before is None or after is None:
        return {MODULE}
    try:
        old, new = blocks_of(before).checksums, blocks_of(after).checksums
    except (SyntaxError, ValueError, RecursionError):
        return {MODULE}
    return {name for name in old.keys() | new.keys() if old.get(name) != new.get(name)}
