"""Is a finding still true? Stop re-checks each delivered finding against the file as it is now.

A finding carries a `recheck` record (see `Finding`): the file, what to look for, and the file's
content hash before the call that caused it (`before`; "absent" for a file the call created, "" when
the payload did not say). The outcome is one of:
  fixed  the violation is gone (for scope: the out-of-scope change was reverted);
  still  it is still there;
  moot   the file was deleted, or reverted to what it was before the call (nothing left to judge).
Kind "tests" judges a tests finding against the newest recorded run instead of a file (see
`_tests`). Delivery uses the same records (`holds`): a deferred or queued finding that is no longer
true is dropped as moot before it is said (policy.revive, runtime.true_now). Standard library only
(Stop is a hook); `re` is imported only when a pattern must be checked.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from sidekit_hooks.nudges.events import Event

FIXED, STILL, MOOT = "fixed", "still", "moot"
UNTRUE = "untrue"  # Stop's verdict on a finding that was already not so when it was delivered
ABSENT = "absent"
MAX_READ = 2 * 1024 * 1024  # bytes of a file read for a re-check; past this it counts as changed


def line_digest(line: str) -> str:
    """What a recheck record keeps of a matched line: a checksum of it, stripped (never the text,
    which may hold a secret the rule was written to catch)."""
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
    if (
        event.tool == "Write"
        and isinstance(response, dict)
        and response.get("originalFile", "") is None
    ):
        return ABSENT
    if event.old_text:
        return text_hash(event.old_text.encode("utf-8", "surrogateescape"))
    return ""


def read_file(project: str, path: str) -> bytes | None:
    """The file's bytes (None when it is gone or unreadable). Never follows a path out of the
    project."""
    from sidekit_hooks.core import safepath

    full = os.path.join(project, path)
    try:
        return safepath.read_bytes(safepath.check(full, project), MAX_READ)
    except OSError:  # gone, a link out of the project, or not a regular file
        return None


def outcome(project: str, record: Mapping[str, str]) -> str:
    """fixed, still or moot for one `recheck` record; "" when the record cannot be judged."""
    kind, path = record.get("kind", ""), record.get("path", "")
    if kind == "tests":
        return _tests(project, record)
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
    verdict = CHECKS[kind](data.decode("utf-8", "replace"), record)
    # A helper copy holds while both definitions exist: the project's helper gone makes it moot.
    return (
        MOOT
        if verdict == STILL and kind == "def" and helper_line(project, record) is None
        else verdict
    )


def holds(project: str, record: Mapping[str, str]) -> bool:
    """Still true at delivery: still there, or not judgeable (a finding is never dropped on a
    guess)."""
    return outcome(project, record) not in (FIXED, MOOT)


def untrue_when_said(project: str, record: Mapping[str, str]) -> bool:
    """A tests finding about to be delivered that is already not so: none or only some of the tests
    it names fail in the cache as it is now (judged by test, never by the cache's generation, which
    a finding made from an older run's failures can share). Logged with its delivery, so the report
    counts it apart and never as fixed; any other finding, or one that cannot be judged, is taken as
    true."""
    if record.get("kind") != "tests":
        return False
    named = [test for test in record.get("tests", "").split("\n") if test]
    if not named:
        return False
    from sidekit_hooks.status import cache

    root = cache.workspace_root(project)
    summary = cache.read(cache.summary_path(root)).data
    if not summary:
        return False
    return len(_failing_among(root, summary, named, record.get("path", ""))) < len(named)


def _tests(project: str, record: Mapping[str, str]) -> str:
    """A tests finding against the newest recorded run. One that states the newest run's status
    holds while no outcome changed (the same generation), the newest run has that status and it
    failed every test the line names; else it is moot. Any other: the same cache generation: nothing
    changed (one small read). A newer one: still while every test it named fails there (and, for a
    count through a file, that count is the same), fixed when none does, moot when some do (its
    count is off) or it named none (a report of one run, which is no longer the last)."""
    from sidekit_hooks.status import cache

    root = cache.workspace_root(project)
    summary = cache.read(cache.summary_path(root)).data
    if not summary:
        return ""
    same_generation = str(summary.get("generation", 0)) == record.get("generation")
    if "status" in record:  # every outcome as it was, and the newest run as the line states it
        return STILL if same_generation and _same_newest_run(summary, record) else MOOT
    if same_generation:
        return STILL
    named = [test for test in record.get("tests", "").split("\n") if test]
    if not named:
        return MOOT
    if record.get(
        "spot"
    ):  # "N tests that failed pass through PATH": the newest count there must be N
        spot = (summary.get("files") or {}).get(record.get("path", ""))
        if not spot:
            return FIXED
        if str(spot[0]) != record["spot"]:
            return MOOT
    failing = _failing_among(root, summary, named, record.get("path", ""))
    if len(failing) == len(named):
        return STILL
    return MOOT if failing else FIXED


def _same_newest_run(summary: Mapping[str, Any], record: Mapping[str, str]) -> bool:
    """A line that states the newest run's status (and that its tests failed in that run) holds only
    while the newest run, whichever it is now, has that status and failed every test it names."""
    from sidekit_hooks.status.line import stale_tests, status_line

    if status_line(summary) != record["status"]:
        return False
    stale = stale_tests(summary)
    named = {test for test in record.get("tests", "").split("\n") if test}
    return stale is not None and not stale & named


TABLE_READ_LIMIT = (
    256 * 1024
)  # bytes of the per-test table read at delivery (as the tests sidecar does)


def _failing_among(root: str, summary: Mapping[str, Any], named: list[str], path: str) -> set[str]:
    """Which of `named` fail in the cache: the summary's clusters when they list every failing test,
    else the per-test table when it is small, else (a huge suite) the summary's index of failing
    files."""
    if not summary.get("failing") and not summary.get("collectErrors"):
        return set()
    listed = {
        str(test)
        for cluster in summary.get("clusters") or ()
        for test in cluster.get("tests") or ()
    }
    if set(named) <= listed or (
        len(listed) >= int(summary.get("failing", 0)) and not summary.get("moreClusters")
    ):
        return set(named) & listed
    from sidekit_hooks.status import cache

    table_path = cache.table_path(root)
    try:
        small = os.path.getsize(table_path) <= TABLE_READ_LIMIT
    except OSError:
        small = False
    table = cache.read(table_path).data.get("tests") if small else None
    if isinstance(table, dict):
        from sidekit_hooks.status.vocabulary import FAILING

        return {
            test
            for test in named
            if isinstance(table.get(test), dict) and table[test].get("o") in FAILING
        }
    files = summary.get("files") or {}
    return set(named) if path and path in files else set(named) & listed


def _scope(data: bytes | None, before: str) -> str:
    """An out-of-scope write is fixed once the file is back as it was (or gone again, if it was
    new)."""
    if data is None:
        return FIXED if before == ABSENT else STILL
    return FIXED if before and before != ABSENT and text_hash(data) == before else STILL


def _match(text: str, record: Mapping[str, str]) -> str:
    """The matched line (by its digest) is still there; without a digest, the pattern anywhere in
    the file. The same line matches the pattern it matched before, so the digest alone decides, and
    `re` (~3.5 ms to import) is not needed on a delivery's hot path."""
    digest = record.get("digest", "")
    if digest:
        return (
            STILL
            if any(line_digest(candidate) == digest for candidate in text.splitlines())
            else FIXED
        )
    import re

    try:
        return STILL if re.search(record.get("pattern", ""), text) else FIXED
    except re.error:
        return ""


def _absent(text: str, record: Mapping[str, str]) -> str:
    """A rule that wanted something present: fixed once its `absent` pattern matches the file."""
    import re

    try:
        return FIXED if re.search(record.get("pattern", ""), text) else STILL
    except re.error:
        return ""


def _def(text: str, record: Mapping[str, str]) -> str:
    """A named def: still there while the file still defines it (renamed or removed: fixed). A
    helper copy is fixed too once its body calls the helper it copied (the copy became a thin
    wrapper)."""
    symbol = record.get("symbol", "")
    if not symbol:
        return ""
    body = _body_of(text.splitlines(), symbol)
    if body is None:
        return FIXED
    helper = record.get("other_symbol", "")
    return FIXED if helper and _calls(body, helper, qualified=helper == symbol) else STILL


def helper_line(project: str, record: Mapping[str, str]) -> int | None:
    """The line the helper a copy duplicates (`other`, `other_symbol`) is defined on now (the one
    nearest `other_line`), or None when it is gone; 0 for a record that names no helper (nothing to
    judge)."""
    other, symbol = record.get("other", ""), record.get("other_symbol", "")
    if not (other and symbol):
        return 0
    data = read_file(project, other)
    if data is None:
        return None
    found = [
        number
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1)
        if _heads(line, symbol)
    ]
    near = (
        int(record.get("other_line", "0") or 0)
        if str(record.get("other_line", "")).isdigit()
        else 0
    )
    return min(found, key=lambda number: abs(number - near)) if found else None


def again(project: str, record: Mapping[str, str]) -> str:
    """The short form a reminder says of a finding ("" for none). A helper copy's names the helper's
    line as it is now (an edit above it moves it): "_as_text() copies _convert_value_to_string()
    (x.py:373)."."""
    text = record.get("again", "")
    if not text or record.get("kind") != "def":
        return text
    line = helper_line(project, record)
    return f"{text} ({record.get('at') or record.get('other', '')}:{line})." if line else ""


def _heads(line: str, symbol: str) -> bool:
    stripped = line.lstrip()
    return (
        stripped.startswith(("def ", "async def "))
        and stripped.split("def ", 1)[1].split("(", 1)[0].strip() == symbol
    )


def _body_of(lines: list[str], symbol: str) -> list[str] | None:
    """The lines of the first def of `symbol` after its head (by indentation), or None when none is
    defined."""
    for start, line in enumerate(lines):
        if not _heads(line, symbol):
            continue
        indent = len(line) - len(line.lstrip())
        body = []
        for follower in lines[start + 1 :]:
            stripped = follower.lstrip()
            if (
                stripped
                and len(follower) - len(stripped) <= indent
                and not stripped.startswith(")")
            ):
                break  # (a multi-line signature closes with ")" at the def's indentation)
            body.append(follower)
        return body
    return None


def _calls(body: list[str], name: str, qualified: bool) -> bool:
    """`name(` is called in these lines; `qualified`: only as `module.name(` (a copy named as its
    helper calling itself is recursion, not reuse)."""
    call = f"{name}("
    for line in body:
        code = line.split("#", 1)[0]
        at = code.find(call)
        while at >= 0:
            before = code[at - 1] if at else " "
            if before == "." or (not qualified and not (before.isalnum() or before == "_")):
                return True
            at = code.find(call, at + 1)
    return False


def _hints(text: str, record: Mapping[str, str]) -> str:
    """A def that lacked type hints: fixed once every parameter (but self/cls) and the return are
    annotated; moot when the def is gone; "" when the file does not parse (nothing can be said)."""
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
            typed = node.returns is not None and all(
                a.annotation is not None for a in params if a.arg not in ("self", "cls")
            )
            return FIXED if typed else STILL
        stack.extend(getattr(node, "body", []))
    return MOOT


CHECKS = {"match": _match, "absent": _absent, "def": _def, "hints": _hints}
