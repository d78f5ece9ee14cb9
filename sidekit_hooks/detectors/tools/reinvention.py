"""Helper reinvention: an added function that matches one the project already has (function
index)."""

from __future__ import annotations

import time

from sidekit_hooks.core import budget
from sidekit_hooks.detectors.tools.common import RANK, SIDECAR, short
from sidekit_hooks.nudges.findings import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context

INDEX_WAIT_MARGIN = 0.5  # seconds of the worker's budget kept for the comparison itself


def function_index_for(ctx: Context) -> dict[str, Any] | None:
    """The function index. In a hook, while it is missing (being built, on a loaded machine often
    past the first writes) the question goes to the background (`budget.Later`), not unanswered;
    there the worker waits for the build, or builds it, within its budget."""
    from sidekit_hooks.code import functions

    index = functions.load(ctx.project)
    if index is not None:
        return index
    if not ctx.memo.get("background"):
        raise budget.Later("tools: the function index is not built yet")
    from sidekit_hooks.code import function_index
    from sidekit_hooks.core import background

    while time.monotonic() < ctx.deadline - INDEX_WAIT_MARGIN:
        if background.lock_is_stale(
            functions.lock_path(ctx.project)
        ):  # nobody is building it: build it here
            function_index.refresh(ctx.project, prune=False)
            return functions.load(ctx.project)
        time.sleep(0.1)
        index = functions.load(ctx.project)
        if index is not None:
            return index
    return None


def added_functions(
    added: str,
) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, list[str], list[str], bool]]:
    """(syntax tree, normalized tokens, outside names, small) of each added function worth
    comparing: of MIN_LINES+ lines, or shorter with distinctive literals (an inlined rewrite of a
    helper is short; its regexes and messages still say what it copies). Parsing a few lines costs
    microseconds; the index is read only when something here could match."""
    from sidekit_hooks.code import functions, near_copies

    found = []
    for name, source in functions.added_blocks(added, functions.SHORT_LINES):
        node = functions.parse_function(source) if functions.indexable(name) else None
        if node is None:
            continue
        try:
            tokens, outside = functions.analyze(node)  # renames the body's locals in place...
        except RecursionError:  # nested thousands deep: nothing an agent copies
            continue
        small = functions.code_lines(source) < functions.MIN_LINES
        if not small or near_copies.telling(near_copies.literals(tokens)):
            found.append(
                (functions.parse_function(source) or node, tokens, outside, small)
            )  # ...so a fresh tree
    return found


def reinvention_finding(event: Event, ctx: Context) -> Finding | None:
    """An added function (`added_functions`) that matches one the project already has."""
    from sidekit_hooks.code import functions
    from sidekit_hooks.nudges.recheck import before_state

    blocks = added_functions(event.added)
    if not blocks:
        return None
    index = function_index_for(ctx)
    if not index:
        return None
    for node, tokens, outside, small in blocks:
        if time.monotonic() > ctx.deadline:
            raise budget.Later(
                "tools: out of time comparing added functions"
            )  # finished in the background
        skip = (event.path, node.name)
        match = functions.best_match(
            node.name, tokens, index, skip=skip, outside=outside, shape=not small, node=node
        )
        line = functions.defined_at(ctx.project, match) if match is not None else None
        if match is None or line is None:
            continue
        return Finding(
            SIDECAR,
            f"{short(match.path)}:{line} {match.signature} already does this; reuse it instead of "
            f"{short(node.name)}().",
            key=f"tools:reinvent:{match.path}:{match.name}:{node.name}",
            rule_id="tools.helper-exists",
            rank=RANK,
            path=event.path,
            subject=node.name,
            recheck={
                "kind": "def",
                "path": event.path,
                "symbol": node.name,
                "before": before_state(event),
                "other": match.path,
                "other_symbol": match.name,
                "other_line": str(line),
                "at": short(match.path),
                # + the helper's line, at Stop
                "again": f"{short(node.name)}() copies {short(match.name)}()",
            },  # both must still exist (and the copy not call the helper) to be said
        )
    return None


# ---------------------------------------------------------------------------------------------
# TypeScript, JavaScript, Go, Rust, Java: read with tree-sitter, so in the background worker only.

# What a function's first line holds in each language (Java and a TypeScript method: a method head)
FUNCTION_WORDS = {
    "ts": ("function", "=>"),
    "js": ("function", "=>"),
    "go": ("func ",),
    "rust": ("fn ",),
    "java": (),
}


def may_add_function(language: str, added: str) -> bool:
    """A cheap look at the added text (standard library, in the hook): could it hold a whole
    function worth comparing? Most edits change a line or two, and no worker is started for them."""
    from sidekit_hooks.code import functions

    if (
        language not in FUNCTION_WORDS
        or functions.code_lines(added) < functions.SHORT_LINES + 1
        or "{" not in added
    ):
        return False
    if any(word in added for word in FUNCTION_WORDS[language]):
        return True
    return language in ("ts", "js", "java") and any(
        method_head(line) for line in added.splitlines()
    )


STATEMENTS = frozenset(
    {"if", "for", "while", "switch", "catch", "else", "do", "return", "try", "synchronized", "new"}
)


def method_head(line: str) -> bool:
    """`name(args) {`, `async name(a: T): R {`, `public static int count(List<X> xs) {`: a method's
    first line, not a statement's (`if (x) {`, `} else if (y) {`)."""
    text = line.strip()
    if not text.endswith("{") or "(" not in text or text.startswith(("}", "//", "*")):
        return False
    words = text.split("(", 1)[0].split()
    return (
        bool(words)
        and words[-1] not in STATEMENTS
        and words[0] not in STATEMENTS
        and "=" not in words
    )


def language_finding(event: Event, ctx: Context, language: str) -> Finding | None:
    """An added function of another language that repeats a project helper (`code.language_copies`).
    In a hook this asks for the background (`budget.Later`); the worker parses and compares."""
    if not ctx.memo.get("background"):
        raise budget.Later("tools: a function in another language is compared in the background")
    from sidekit_hooks.code import functions, language_copies
    from sidekit_hooks.core import safepath
    from sidekit_hooks.core.thirdparty import enable_site_packages

    data = safepath.read_project_file(ctx.project, event.path, functions.MAX_FILE_BYTES)
    if data is None:
        return None
    # tree-sitter and its grammars (the worker runs without site, as hooks do)
    enable_site_packages()
    from sidekit_hooks.code.languages.build import GrammarMissing

    text = data.decode("utf-8", "replace")
    try:
        added = language_copies.added_functions(language, event.path, text, event.added)
    except GrammarMissing:
        return None  # `sidekit doctor` says why the language is not indexed
    if not added:
        return None
    index = language_copies.project_functions(
        ctx.project, language, {(event.path, f.qualname) for f in added}
    )
    for function in added:
        if time.monotonic() > ctx.deadline:
            return None
        source = "\n".join(text.splitlines()[function.line - 1 : function.end])
        match = language_copies.best_match(language, function, index, ctx.project, source)
        if match is None:
            continue
        name = language_copies.bare(function.qualname)
        return Finding(
            SIDECAR,
            f"{short(match.path)}:{match.line} {short(match.signature)} already does this; reuse "
            "it instead of "
            f"{short(name)}().",
            key=f"tools:reinvent:{match.path}:{match.name}:{name}",
            rule_id="tools.helper-exists",
            rank=RANK,
            path=event.path,
            subject=name,
        )
    return None
