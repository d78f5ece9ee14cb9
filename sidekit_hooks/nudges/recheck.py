"""Is a finding still true? Stop re-checks each delivered finding against the file as it is now.

A finding carries a `recheck` record (see `Finding`): the file, what to look for, and the file's
content hash before the call that caused it (`before`; "absent" for a file the call created, "" when
the payload did not say). The outcome is one of:
  fixed  the violation is gone (for scope: the out-of-scope change was reverted);
  still  it is still there;
  moot   the file was deleted, or reverted to what it was before the call (nothing left to judge).
Standard library only (Stop is a hook); `re` is imported only when a pattern must be checked.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from sidekit_hooks.nudges.events import Event

FIXED, STILL, MOOT = "fixed", "still", "moot"
ABSENT = "absent"
MAX_READ = 2 * 1024 * 1024  # bytes of a file read for a re-check; past this it counts as changed


def line_digest(line: str) -> str:
    """What a recheck record keeps of a matched line: a checksum of it, stripped (never the text, which
    may hold a secret the rule was written to catch)."""
    import zlib

    return f"{zlib.crc32(line.strip().encode('utf-8', 'surrogateescape')):08x}"


def text_hash(data: bytes) -> str:
    """The same fingerprint as `policy.content_hash`, over bytes in hand."""
    import zlib

    return f"{len(data)}:{zlib.crc32(data):08x}"


def before_state(event: Event) -> str:
    """The written file's state before this call: "absent" (created), its hash, or "" (unknown)."""
    response = event.raw.get("tool_response")
    if isinstance(response, dict) and response.get("type") == "create":
        return ABSENT
    if event.tool == "Write" and isinstance(response, dict) and response.get("originalFile", "") is None:
        return ABSENT
    if event.old_text:
        return text_hash(event.old_text.encode("utf-8", "surrogateescape"))
    return ""


def read_file(project: str, path: str) -> bytes | None:
    """The file's bytes (None when it is gone or unreadable). Never follows a path out of the project."""
    from sidekit_hooks.core import safepath

    full = os.path.join(project, path)
    try:
        return safepath.read_bytes(safepath.check(full, project), MAX_READ)
    except OSError:  # gone, a link out of the project, or not a regular file
        return None


def outcome(project: str, record: Mapping[str, str]) -> str:
    """fixed, still or moot for one `recheck` record; "" when the record cannot be judged."""
    kind, path = record.get("kind", ""), record.get("path", "")
    if not path or (kind not in CHECKS and kind != "scope"):
        return ""
    data = read_file(project, path)
    before = record.get("before", "")
    if kind == "scope":
        return _scope(data, before)
    if data is None:
        return MOOT
    if before and before != ABSENT and text_hash(data) == before:
        return MOOT
    return CHECKS[kind](data.decode("utf-8", "replace"), record)


def _scope(data: bytes | None, before: str) -> str:
    """An out-of-scope write is fixed once the file is back as it was (or gone again, if it was new)."""
    if data is None:
        return FIXED if before == ABSENT else STILL
    return FIXED if before and before != ABSENT and text_hash(data) == before else STILL


def _match(text: str, record: Mapping[str, str]) -> str:
    """The matched line (by its digest) is still there and the pattern still matches it; without a
    digest, the pattern anywhere in the file."""
    import re

    try:
        pattern = re.compile(record.get("pattern", ""))
    except re.error:
        return ""
    digest = record.get("digest", "")
    if not digest:
        return STILL if pattern.search(text) else FIXED
    for candidate in text.splitlines():
        if pattern.search(candidate) and line_digest(candidate) == digest:
            return STILL
    return FIXED


def _absent(text: str, record: Mapping[str, str]) -> str:
    """A rule that wanted something present: fixed once its `absent` pattern matches the file."""
    import re

    try:
        return FIXED if re.search(record.get("pattern", ""), text) else STILL
    except re.error:
        return ""


def _def(text: str, record: Mapping[str, str]) -> str:
    """A named def: still there while the file still defines it (renamed or removed: fixed)."""
    symbol = record.get("symbol", "")
    if not symbol:
        return ""
    for candidate in text.splitlines():
        stripped = candidate.lstrip()
        if stripped.startswith(("def ", "async def ")) and stripped.split("def ", 1)[1].split("(", 1)[0].strip() == symbol:
            return STILL
    return FIXED


def _hints(text: str, record: Mapping[str, str]) -> str:
    """A def that lacked type hints: fixed once every parameter (but self/cls) and the return are annotated;
    moot when the def is gone; "" when the file does not parse (nothing can be said)."""
    import _ast

    symbol = record.get("symbol", "")
    try:
        tree = compile(text, "<sidekit>", "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError):
        return ""
    stack = list(getattr(tree, "body", []))
    while stack:
        node = stack.pop()
        if isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef)) and node.name == symbol:
            params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            typed = node.returns is not None and all(a.annotation is not None for a in params if a.arg not in ("self", "cls"))
            return FIXED if typed else STILL
        stack.extend(getattr(node, "body", []))
    return MOOT


CHECKS = {"match": _match, "absent": _absent, "def": _def, "hints": _hints}
