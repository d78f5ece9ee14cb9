"""Helper copies in TypeScript, JavaScript, Go, Rust and Java: an added function that repeats one
the project already has, found with the same machinery as in Python (`functions.token_match` on the
normalised tokens, then `functions.behaviour_rank` on what `languages.behaviour` makes of them).

The added function is read with tree-sitter (`languages.build`), so this runs in the background
worker only (`pipeline.finish`, reached through `budget.Later`), never in a hook; the project's
functions come from the code index (`.sidekit/code/index.sqlite`, its `funcs` table), which the
worker refreshes first so that a helper's line is the line it is on now.
"""

from __future__ import annotations

from sidekit_hooks.code import functions
from sidekit_hooks.code.languages import behaviour

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.code.parse import Function

# A language's functions are compared with its own and its family's: TypeScript copies JavaScript
# helpers.
FAMILIES = {
    "ts": ("ts", "js"),
    "js": ("ts", "js"),
    "go": ("go",),
    "rust": ("rust",),
    "java": ("java",),
}


def added_functions(language: str, path: str, text: str, added: str) -> list[Function]:
    """The functions of `text` (the file as written) that the call added whole: every line of the
    function is among the added lines (an edit inside an existing function adds none)."""
    from sidekit_hooks.code.languages import build

    lines = text.splitlines()
    added_lines = "\n" + "\n".join(line.strip() for line in added.splitlines()) + "\n"
    found = []
    for function in build.facts_of(language, path, text.encode("utf-8", "replace")).functions:
        body = "\n".join(line.strip() for line in lines[function.line - 1 : function.end])
        if (
            body.strip()
            and ("\n" + body + "\n") in added_lines
            and helper_like(function.qualname, path)
        ):
            found.append(function)
    return found


def bare(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]


GO_TESTS = ("Test", "Benchmark", "Example", "Fuzz")


def helper_like(qualname: str, path: str) -> bool:
    """Worth comparing: not a test (table-like tests resemble each other by design, and no one calls
    one), not Go's `init` or `main`. As `functions.indexable` is for Python."""
    name = bare(qualname)
    if name.lower().startswith("test") or name in ("init", "main"):
        return False
    return not (path.endswith("_test.go") and name.startswith(GO_TESTS))


def entry(
    language: str, qualname: str, line: int, end: int, sig: str, tokens: str, outside: str
) -> list[Any]:
    """An index entry as `code.functions` reads them: [name, line, signature, lines, tokens,
    outside, canonical, features, callees]."""
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


def project_functions(
    project: str, language: str, leave_out: set[tuple[str, str]]
) -> dict[str, Any]:
    """The index's functions of the language's family, as `code.functions` reads an index ({"files":
    {path: {"f": [entries]}}}), without `leave_out` ((path, qualname) of the functions just
    added)."""
    import zlib

    from sidekit_hooks.code.index import Index

    family = FAMILIES.get(language, (language,))
    files: dict[str, Any] = {}
    with Index.open(project) as index:
        marks = ",".join("?" * len(family))
        rows = index.db.execute(
            "SELECT f.path, f.lang, d.qualname, d.line, d.end, d.sig, d.body FROM funcs d JOIN "
            "files f"
            f" ON f.id = d.file WHERE f.lang IN ({marks})",
            family,
        ).fetchall()
    for path, lang, qualname, line, end, sig, body in rows:
        if (str(path), str(qualname)) in leave_out or not helper_like(str(qualname), str(path)):
            continue
        tokens, _, outside = zlib.decompress(body).decode("utf-8", "replace").partition("\n")
        record = files.setdefault(str(path), {"f": []})
        record["f"].append(
            entry(str(lang), str(qualname), int(line), int(end), str(sig), tokens, outside)
        )
    with_callees(files)
    return {"files": files}


def helpers_by_name(files: dict[str, Any]) -> dict[str, list[Any]]:
    """The project's functions by bare name (a name defined twice is no one helper: left out)."""
    found: dict[str, list[Any]] = {}
    seen: set[str] = set()
    for record in files.values():
        for item in record["f"]:
            name = bare(str(item[0]))
            if name in seen:
                found.pop(name, None)
            else:
                found[name] = item
                seen.add(name)
    return found


def called_helpers(features: set[str], helpers: dict[str, list[Any]], own: str) -> list[list[Any]]:
    """The project helpers a body calls by name (`c:name`, one definition of that name), itself
    aside."""
    return [
        helpers[f[2:]]
        for f in sorted(features)
        if f[:2] == "c:" and f[2:3] != "." and f[2:] in helpers and f[2:] != own
    ]


def with_callees(files: dict[str, Any]) -> None:
    """Each entry's CALLEES: the features of the project helpers it calls, so that a copy that
    inlined one of them is compared with what the helper does whole (`near_copies.widened`), as for
    Python."""
    helpers = helpers_by_name(files)
    for record in files.values():
        for item in record["f"]:
            callees: set[str] = set()
            for callee in called_helpers(
                set(str(item[functions.FEATURES]).split()), helpers, bare(str(item[0]))
            ):
                callees.update(str(callee[functions.FEATURES]).split())
            item[functions.CALLEES] = " ".join(sorted(callees))


def best_match(
    language: str, function: Function, index: dict[str, Any], project: str = "", source: str = ""
) -> functions.Match | None:
    """The project function that `function` repeats, by the rules `code.functions` applies to
    Python, then checks of this path's own, for precision: the two call the same functions and
    methods and read the same outside names (a copy that adds or drops a call does other work), use
    the same operators, compare in the same directions and join conditions and answer true or false
    alike, and, given `project` and the added function's `source`, their whole string literals agree
    (the index keeps literals cut at 24 characters, where two error messages that start alike look
    the same)."""
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
        theirs = next(
            e for e in index["files"][found.path]["f"] if e[0] == found.name and e[1] == found.line
        )
        existing = set(str(theirs[functions.FEATURES]).split())
        if near_copies.swapped(features, existing) or near_copies.dropped_work(
            features, existing, set()
        ):
            return None  # the shape alike, one step done otherwise
    elif shape:
        found = functions.behaviour_rank(name, features, canonical, index)
    if found is None:
        return None
    theirs = next(
        e for e in index["files"][found.path]["f"] if e[0] == found.name and e[1] == found.line
    )
    existing = set(str(theirs[functions.FEATURES]).split())
    if not same_work(features, tokens, existing, str(theirs[4]).split()):
        inlined = inlined_helpers(features, theirs, index)
        if not inlined or not same_work(
            features, tokens, *with_inlined(existing, str(theirs[4]).split(), inlined)
        ):
            return None
    if project and source:
        literals = string_literals(source, language)
        if near_copies.disagree(literals, helper_literals(project, found, theirs, language)):
            return None
    return found


def same_work(
    features: set[str], tokens: list[str], existing: set[str], their_tokens: list[str]
) -> bool:
    """The precision checks: the same calls and outside names, operators and tests of the items, and
    the same decisions (`behaviour.deciding`)."""
    if names(features) != names(existing):
        return False
    if operators(features) != operators(existing):
        return False  # `-` where the helper has none: other arithmetic
    if item_tests(features) != item_tests(existing):
        return False  # a loop that answers for some item where the helper asks it of every item
    if numbers(features) != numbers(existing):
        return False  # `slice(2)` for `slice(1)`: another edge
    if kinds(features) != kinds(existing):
        return False  # `context()` called where the helper was given `context`
    if behaviour.exits_loop(tokens) * behaviour.exits_loop(their_tokens) < 0:
        return False  # the first match returned from the loop, where the other keeps the last
    # `>` for `<`, `||` for `&&`...
    return behaviour.deciding(tokens) == behaviour.deciding(their_tokens)


def inlined_helpers(
    features: set[str], theirs: list[Any], index: dict[str, Any]
) -> list[list[Any]]:
    """The project helpers the matched function calls that the added one does not call (nor name):
    the ones a copy may have written inline."""
    helpers = helpers_by_name(index.get("files", {}))
    called = called_helpers(
        set(str(theirs[functions.FEATURES]).split()), helpers, bare(str(theirs[0]))
    )
    return [
        h
        for h in called
        if f"c:{bare(str(h[0]))}" not in features and f"n:{bare(str(h[0]))}" not in features
    ]


def with_inlined(
    existing: set[str], their_tokens: list[str], inlined: list[list[Any]]
) -> tuple[set[str], list[str]]:
    """The matched function's features and tokens as they read with `inlined` written in its body:
    their calls, names and operators join, the calls to them leave (the tokens are joined for the
    decisions)."""
    gone = {f"c:{bare(str(h[0]))}" for h in inlined}
    widened = {f for f in existing if f not in gone}
    tokens = list(their_tokens)
    for helper in inlined:
        widened |= {
            f for f in str(helper[functions.FEATURES]).split() if f[:2] in ("c:", "n:", "o:", "q:")
        }
        tokens += str(helper[4]).split()
    return widened, tokens


def names(features: set[str]) -> set[str]:
    """The functions and methods a body calls (`c:`) and the outside names it reads (`n:`:
    constants, enum members, fields): what a rewrite keeps, and what a look-alike changes
    (`END_ARRAY` for `NULL`)."""
    from sidekit_hooks.code import near_copies

    return {f for f in features if f[:2] in ("c:", "n:") and f not in near_copies.INCIDENTAL}


def operators(features: set[str]) -> set[str]:
    return {f for f in features if f.startswith("o:")}


def numbers(features: set[str]) -> set[str]:
    """The numbers a body uses (`l:1`): where a look-alike starts or stops elsewhere."""
    return {f for f in features if f[:2] == "l:" and f[2:3].isdigit()}


def kinds(features: set[str]) -> set[str]:
    """Whether the body calls a function it was given (`k:Callback`): lazy work that a body given
    a value does not do."""
    return features & {"k:Callback"}


def item_tests(features: set[str]) -> set[str]:
    return features & {"q:any", "q:all"}


STRING = r"([\"'`])((?:\\.|(?!\1)[^\\\n])*)\1"  # one quoted literal on one line, escapes kept
DOUBLE_QUOTED = r"(\")((?:\\.|[^\"\\\n])*)\""  # Rust: `'a` is a lifetime, not a string


def string_literals(source: str, language: str = "") -> list[str]:
    """The distinctive string literals of a piece of source, whole, quoted as Python quotes them."""
    import re

    from sidekit_hooks.code import near_copies

    pattern = DOUBLE_QUOTED if language == "rust" else STRING
    return near_copies.literals([repr(m.group(2)) for m in re.finditer(pattern, source)])


def helper_literals(
    project: str, match: functions.Match, entry: list[Any], language: str
) -> list[str]:
    """The string literals of the matched helper as its file holds it now (empty when
    unreadable)."""
    from sidekit_hooks.core import safepath

    data = safepath.read_project_file(project, match.path, functions.MAX_FILE_BYTES)
    if data is None:
        return []
    lines = data.decode("utf-8", "replace").splitlines()
    return string_literals(
        "\n".join(lines[match.line - 1 : match.line - 1 + int(entry[3])]), language
    )
