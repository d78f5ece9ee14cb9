"""Helper copies in TypeScript, JavaScript, Go, Rust and Java: an added function that repeats one the
project already has, found with the same machinery as in Python (`functions.token_match` on the
normalised tokens, then `functions.behaviour_rank` on what `languages.behaviour` makes of them).

The added function is read with tree-sitter (`languages.build`), so this runs in the background worker
only (`pipeline.finish`, reached through `budget.Later`), never in a hook; the project's functions come
from the code index (`.sidekit/code/index.sqlite`, its `funcs` table), which the worker refreshes first
so that a helper's line is the line it is on now.
"""

from __future__ import annotations

from sidekit_hooks.code import functions
from sidekit_hooks.code.languages import behaviour

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.code.parse import Function

# A language's functions are compared with its own and its family's: TypeScript copies JavaScript helpers.
FAMILIES = {"ts": ("ts", "js"), "js": ("ts", "js"), "go": ("go",), "rust": ("rust",), "java": ("java",)}


def added_functions(language: str, path: str, text: str, added: str) -> list[Function]:
    """The functions of `text` (the file as written) that the call added whole: every line of the
    function is among the added lines (an edit inside an existing function adds none)."""
    from sidekit_hooks.code.languages import build

    lines = text.splitlines()
    added_lines = "\n" + "\n".join(line.strip() for line in added.splitlines()) + "\n"
    found = []
    for function in build.facts_of(language, path, text.encode("utf-8", "replace")).functions:
        body = "\n".join(line.strip() for line in lines[function.line - 1 : function.end])
        if body.strip() and ("\n" + body + "\n") in added_lines:
            found.append(function)
    return found


def bare(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]


def entry(language: str, qualname: str, line: int, end: int, sig: str, tokens: str, outside: str) -> list[Any]:
    """An index entry as `code.functions` reads them: [name, line, signature, lines, tokens, outside,
    canonical, features, callees]."""
    split = tokens.split()
    return [
        qualname,
        line,
        bare(qualname) + sig,
        end - line + 1,
        tokens,
        outside,
        " ".join(behaviour.canonical(split)),
        " ".join(behaviour.features(language, split, set(outside.split()))),
        "",
    ]


def project_functions(project: str, language: str, leave_out: set[tuple[str, str]]) -> dict[str, Any]:
    """The index's functions of the language's family, as `code.functions` reads an index ({"files":
    {path: {"f": [entries]}}}), without `leave_out` ((path, qualname) of the functions just added)."""
    import zlib

    from sidekit_hooks.code.index import Index

    family = FAMILIES.get(language, (language,))
    files: dict[str, Any] = {}
    with Index.open(project) as index:
        marks = ",".join("?" * len(family))
        rows = index.db.execute(
            "SELECT f.path, f.lang, d.qualname, d.line, d.end, d.sig, d.body FROM funcs d JOIN files f"
            f" ON f.id = d.file WHERE f.lang IN ({marks})",
            family,
        ).fetchall()
    for path, lang, qualname, line, end, sig, body in rows:
        if (str(path), str(qualname)) in leave_out:
            continue
        tokens, _, outside = zlib.decompress(body).decode("utf-8", "replace").partition("\n")
        record = files.setdefault(str(path), {"f": []})
        record["f"].append(entry(str(lang), str(qualname), int(line), int(end), str(sig), tokens, outside))
    return {"files": files}


def best_match(language: str, function: Function, index: dict[str, Any]) -> functions.Match | None:
    """The project function that `function` repeats, by the rules `code.functions` applies to Python."""
    from sidekit_hooks.code import near_copies

    mine = entry(
        language,
        function.qualname,
        function.line,
        function.end,
        function.signature,
        function.tokens,
        function.outside,
    )
    tokens, outside = function.tokens.split(), function.outside.split()
    name = bare(function.qualname)
    shape = mine[3] >= functions.MIN_LINES
    found = functions.token_match(name, tokens, index, outside=outside, shape=shape)
    features, canonical = set(str(mine[7]).split()), str(mine[6]).split()
    if found is not None:
        theirs = next(e for e in index["files"][found.path]["f"] if e[0] == found.name)
        existing = set(str(theirs[functions.FEATURES]).split())
        if near_copies.swapped(features, existing) or near_copies.dropped_work(features, existing, set()):
            return None  # the shape alike, one step done otherwise
        return found
    return functions.behaviour_rank(name, features, canonical, index) if shape else None
