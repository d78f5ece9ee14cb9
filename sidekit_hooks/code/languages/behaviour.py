"""What a function does, from the normalised tokens the index stores for TypeScript, JavaScript, Go,
Rust and Java (`build`): the features and canonical body that `code.rewrites` makes of a Python
function, so that `functions.behaviour_rank` and `code.near_copies` compare every language the same
way.

The tokens are the syntax tree's leaves in source order (locals `v1, v2...`, the function's own name
`<self>`, members `.name`, literals as written), so this reads them left to right, standard library
only:

- `c:NAME` a call of an outside name (`b:NAME` for the language's builtins), `c:.name` a member
  used, `c:SELF` a recursive call; `n:NAME` an outside name read;
- `l:VALUE` a constant, quoted as Python quotes it (`"/"` and `'/'` alike), so `near_copies.COMMON`
  applies;
- `o:KIND` an operator, negations and mirrors folded (`!==` is `===`, `>` is `<`), as `rewrites`
  does;
- `k:KIND` a throw, a try, a yield; `r:l:VALUE` a constant returned;
- `q:any` / `q:all` a test of the items (`.some`, `.any()`, `anyMatch`, or a loop that returns true
  on the first item that passes, false after the last), `q:loop` items walked (`for`, `.map`,
  `.forEach`).

Before either, `rewritten` undoes the rewrites a copy makes of a comparison: `b > a` is `a < b`. The
canonical body drops what a rewrite changes without changing behaviour: punctuation, declaration
keywords (`let`/`const`/`var`) and modifiers, `else`, the calls that fill a collection (`.push` for
a `.map`), the words of a loop and of the methods that stand for one (`for ... of`, `.map`, `.some`,
`.iter()`), and folds the negated operators as above.
"""

from __future__ import annotations

# Names every program of the language has: what a rewrite adds or removes (`len`, `Array.from`), not
# work.
BUILTINS = {
    "ts": frozenset(
        {
            "Array",
            "Object",
            "String",
            "Number",
            "Boolean",
            "Math",
            "JSON",
            "Promise",
            "parseInt",
            "parseFloat",
            "isNaN",
            "encodeURIComponent",
            "decodeURIComponent",
            "console",
            "undefined",
            "string",
            "number",
            "boolean",
            "any",
            "unknown",
            "void",
            "never",
            "object",
        }
    ),
    "go": frozenset(
        {
            "len",
            "cap",
            "append",
            "make",
            "new",
            "copy",
            "delete",
            "panic",
            "recover",
            "string",
            "int",
            "int64",
            "int32",
            "uint",
            "uint64",
            "byte",
            "rune",
            "bool",
            "float64",
            "error",
            "any",
        }
    ),
    "rust": frozenset(
        {
            "Some",
            "None",
            "Ok",
            "Err",
            "Vec",
            "String",
            "Option",
            "Result",
            "Box",
            "str",
            "usize",
            "i32",
            "i64",
            "u8",
        }
    ),
    "java": frozenset(
        # and the plumbing a loop or a stream is written with (`new ArrayList<>()`,
        # `Collectors.toList()`)
        {"String", "Integer", "Long", "Math", "Objects", "Arrays", "List", "Map", "Set", "System"}
        | {"ArrayList", "LinkedList", "Collectors", "Stream"}
    ),
}
BUILTINS["js"] = BUILTINS["ts"]
NOT_CONSTANTS = frozenset(
    {"true", "false", "null", "nil", "undefined", "this", "self", "None", "super"}
)
FILLERS = frozenset(
    {".push", ".append", ".add", ".insert", ".extend", ".unshift"}
)  # a loop standing for a map
OPERATORS = {
    "===": "Eq",
    "==": "Eq",
    "!==": "Eq",
    "!=": "Eq",
    "<": "Ord",
    "<=": "Ord",
    ">": "Ord",
    ">=": "Ord",
    "+": "Add",
    "+=": "Add",
    "-": "Sub",
    "-=": "Sub",
    "*": "Mult",
    "*=": "Mult",
    "/": "Div",
    "/=": "Div",
    "%": "Mod",
    "**": "Pow",
    "<<": "LShift",
    ">>": "RShift",
    "&": "BitAnd",
    "|": "BitOr",
    "^": "BitXor",
    "??": "Coalesce",
}
FOLDED = {
    "!==": "===",
    "!=": "==",
    "==": "===",
}  # in the canonical body (`>` is mirrored by `rewritten`)
MIRRORED = {">": "<", ">=": "<="}  # `b > a` is `a < b`
# What an operand of a comparison may hold and still be mirrored (a name, a member, a literal, a
# call's or an index's brackets): anything else (an operator, a keyword) ends it.
OPERAND_STOPS = frozenset(
    set(OPERATORS)
    | {
        "&&",
        "||",
        "!",
        "=",
        ";",
        ",",
        "{",
        "}",
        "?",
        ":",
        "=>",
        "->",
        "return",
        "if",
        "while",
        "for",
    }
    | {"in", "of", "let", "const", "var", "new", "await", "typeof", "instanceof", "&", "*", "case"}
)
OPENS, CLOSES = {"(": ")", "[": "]"}, {")": "(", "]": "["}
# Methods that test every item (`.some(x => c)` is a loop that returns true on the first item
# passing c)
ANY_METHODS = frozenset({".some", ".any", ".anyMatch"})
ALL_METHODS = frozenset({".every", ".all", ".allMatch"})
# Methods that walk the items, as a loop does (the loop's `push` is a FILLER); and the plumbing that
# turns a collection into items and back (`.iter()`, `.stream()`, `.collect()`)
LOOP_METHODS = frozenset({".map", ".filter", ".forEach", ".for_each", ".flatMap", ".filter_map"})
PLUMBING = frozenset(
    {".iter", ".into_iter", ".stream", ".collect", ".toList", ".iter_mut", ".cloned", ".copied"}
)
ITEM_METHODS = LOOP_METHODS | PLUMBING | ANY_METHODS | ALL_METHODS
LOOPS = frozenset({"for", "while"})
LOOP_WORDS = frozenset({"for", "while", "of", "in", "range", "=>", "->", "|", "continue", "break"})
MODIFIERS = frozenset(
    {"public", "private", "protected", "static", "final", "pub", "export", "async", "readonly"}
)
KINDS = {
    "throw": "Raise",
    "try": "Try",
    "yield": "Yield",
    "catch": "Try",
    "defer": "Defer",
    "panic": "Raise",
}
DROPPED = (
    frozenset({";", ",", "{", "}", "(", ")", "let", "const", "var", "else", "mut", ":="})
    | MODIFIERS
)
ENDS = frozenset({";", "}", ")"})


def constant(token: str) -> str:
    """A literal token as `rewrites.constant` would write it (`"/"` -> `'/'`), or "" for none."""
    if token in NOT_CONSTANTS or not token:
        return ""
    head = token[0]
    if head in "\"'`":
        inner = token[1:-1] if len(token) >= 2 and token[-1] == head else token[1:]
        return repr(inner)
    if head.isdigit():
        return token
    return ""


def local(token: str) -> bool:
    return token[:1] == "v" and token[1:].isdigit()


# A loop over the indexes of a collection, whose index is only used to read the item: `for (let i =
# 0; i < xs.length; i++)`, Go's `for i := 0; i < len(xs); i++`, Java's `i < xs.size()`, Rust's `for
# i in 0..xs.len()` (the header without brackets and declaration words)
INDEX_LOOP = (
    r"^(v\d+) :?= 0 ; \1 < (?:len (v\d+)|(v\d+) \. \.(?:length|size|len)) ; \1 \+\+$"
    r"|^(v\d+) in 0 \.\. (v\d+) \. \.len$"
)
HEADER_WORDS = frozenset({"(", ")", "let", "const", "var", "int", "mut", "&"})


def item_loops(tokens: list[str]) -> list[str]:
    """Every loop over a collection's items written alike, `for ITEM range ITEMS`: an index loop
    whose index only reads the item (`xs[i]`, `xs.get(i)`), Go's `for _, x := range xs`,
    JavaScript's `for (const x of xs)`, Java's `for (T x : xs)`, Rust's `for x in xs`."""
    import re

    out = list(tokens)
    at = 0
    while at < len(out):
        if out[at] != "for":
            at += 1
            continue
        brace = next((i for i in range(at + 1, len(out)) if out[i] == "{"), -1)
        if brace < 0:
            break
        header = [t for t in out[at + 1 : brace] if t not in HEADER_WORDS]
        close = block_end(out, brace)
        body = out[brace:close]
        index = re.match(INDEX_LOOP, " ".join(header))
        new_header: list[str] | None = None
        if index:
            item, items = (
                index.group(1) or index.group(4),
                index.group(2) or index.group(3) or index.group(5),
            )
            reads = (
                [items, "[", item, "]"],
                [items, ".", ".get", "(", item, ")"],
                [items, ".", ".charAt", "(", item, ")"],
            )
            replaced = replace_runs(body, reads, item)
            if item not in [t for t in out[:at] + out[close:]] and replaced.count(item) == sum(
                body[i : i + len(r)] == r for i in range(len(body)) for r in reads
            ):
                body, new_header = replaced, ["for", item, "range", items]
        elif len(header) >= 5 and header[1] == "," and header[3] == ":=" and header[4] == "range":
            if (
                header[0] not in out[:at] + out[brace:]
            ):  # Go's `for _, x := range xs`: the index unused
                new_header = ["for", header[2], "range", *header[5:]]
        elif len(header) >= 3 and header[1] in ("of", "in") and local(header[0]):
            new_header = ["for", header[0], "range", *header[2:]]
        elif ":" in header and header.index(":") >= 1 and local(header[header.index(":") - 1]):
            split = header.index(":")
            new_header = ["for", header[split - 1], "range", *header[split + 1 :]]
        if new_header is None:
            at += 1
            continue
        out[at:close] = [*new_header, *body]
        at += len(new_header)
    return out


def block_end(tokens: list[str], brace: int, opening: str = "{", closing: str = "}") -> int:
    """Just past the bracket that closes the one at `brace`."""
    depth = 0
    for i in range(brace, len(tokens)):
        depth += (tokens[i] == opening) - (tokens[i] == closing)
        if depth == 0:
            return i + 1
    return len(tokens)


def replace_runs(tokens: list[str], runs: tuple[list[str], ...], by: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        run = next((r for r in runs if tokens[i : i + len(r)] == r), None)
        if run is None:
            out.append(tokens[i])
            i += 1
        else:
            out.append(by)
            i += len(run)
    return out


def renumbered(tokens: list[str]) -> list[str]:
    """The locals named again by their first use (`v1, v2...`), once a rewrite dropped one."""
    names: dict[str, str] = {}
    return [names.setdefault(t, f"v{len(names) + 1}") if local(t) else t for t in tokens]


# A search whose position only says whether it found: `xs.indexOf(x) !== -1`, `s.indexOf(x) >= 0`,
# Go's `strings.Index(s, x) >= 0` are `xs.includes(x)`, `strings.Contains(s, x)` (Java's `contains`
# reads alike)
SEARCHES = {".indexOf": ".includes", ".Index": ".Contains", ".contains": ".includes"}
FOUND_BOUNDS = (
    ["0", "<="],
    ["-", "1", "<"],
)  # mirrored: `0 <= xs.indexOf(x)`, `-1 < xs.indexOf(x)`
FOUND_TESTS = (["!==", "-", "1"], ["!=", "-", "1"])


def searches_found(tokens: list[str]) -> list[str]:
    """A search's position tested only for being found written as the test (see SEARCHES)."""
    out = list(tokens)
    at = 0
    while at < len(out):
        if out[at] in (".indexOf", ".Index") and at + 1 < len(out) and out[at + 1] == "(":
            close = block_end(out, at + 1, "(", ")")
            start = operand_start(out, at + 1)
            bound = next(
                (b for b in FOUND_BOUNDS if out[max(0, start - len(b)) : start] == b), None
            )
            if bound is not None and start >= len(bound):
                out[start - len(bound) : close] = [
                    *out[start:at],
                    SEARCHES[out[at]],
                    *out[at + 1 : close],
                ]
                at = start - len(bound)
                continue
            test = next((t for t in FOUND_TESTS if out[close : close + len(t)] == t), None)
            if test is not None:
                out[at : close + len(test)] = [SEARCHES[out[at]], *out[at + 1 : close]]
                continue
        elif out[at] == ".contains":
            out[at] = SEARCHES[".contains"]
        at += 1
    return out


def rewritten(tokens: list[str]) -> list[str]:
    """The tokens with a comparison's rewrites undone: `b > a` as `a < b` where both operands are plain
    (names, members, literals, calls), a Rust closure's `|x|` as `=>` (no `|` operator), and every loop
    over items written alike (`item_loops`)."""
    out = renumbered(item_loops(tokens))
    for at, token in enumerate(out):
        if token == "|" and at and out[at - 1] in ("(", ",", "=", "move", "return", "{", ";"):
            close = next((i for i in range(at + 1, min(len(out), at + 8)) if out[i] == "|"), 0)
            if close:
                out[at] = out[close] = "=>"
    at = 0
    while at < len(out):
        if out[at] in MIRRORED:
            start, end = operand_start(out, at), operand_end(out, at)
            if (
                start < at
                and end > at + 1
                and not typed(out[start:at])
                and not typed(out[at + 1 : end])
            ):
                out[start:end] = [*out[at + 1 : end], MIRRORED[out[at]], *out[start:at]]
                at = end
                continue
        at += 1
    return searches_found(out)


def typed(operand: list[str]) -> bool:
    """A type's name, not a value: the `<`/`>` around it are a generic's brackets (`List<String>
    xs`); a constant (`MAX_SIZE`) is a value."""
    return len(operand) == 1 and operand[0][:1].isupper() and not operand[0].isupper()


def operand_start(tokens: list[str], at: int) -> int:
    """Where the operand left of `tokens[at]` starts (`at` itself when there is none)."""
    i = at - 1
    while i >= 0:
        token = tokens[i]
        if token in CLOSES:
            depth = 0
            while i >= 0:
                depth += (tokens[i] in CLOSES) - (tokens[i] in OPENS)
                if depth == 0:
                    break
                i -= 1
            i -= 1
            continue
        if token in OPERAND_STOPS or token in OPENS or token in MIRRORED:
            break
        i -= 1
    return i + 1


def operand_end(tokens: list[str], at: int) -> int:
    """Where the operand right of `tokens[at]` ends (exclusive; `at + 1` when there is none)."""
    i = at + 1
    while i < len(tokens):
        token = tokens[i]
        if token in OPENS:
            depth = 0
            while i < len(tokens):
                depth += (tokens[i] in OPENS) - (tokens[i] in CLOSES)
                if depth == 0:
                    break
                i += 1
            i += 1
            continue
        if token in OPERAND_STOPS or token in CLOSES or token in MIRRORED:
            break
        i += 1
    return i


def item_test(tokens: list[str]) -> str:
    """`any` for a loop that returns true on an item and false after the loop (`all` the other way
    round), as `.some` / `.every` are written by hand; "" for neither."""
    loop = next((at for at, token in enumerate(tokens) if token in LOOPS), -1)
    if loop < 0:
        return ""
    truths = [
        tokens[at + 1]
        for at in range(loop, len(tokens) - 2)
        if tokens[at] == "return" and tokens[at + 1] in ("true", "false") and tokens[at + 2] in ENDS
    ]
    tail = [t for t in tokens if t not in ("}", ";")][-1:]  # Rust: the truth the body ends on
    if tail and tail[0] in ("true", "false") and (not truths or tokens[-2:] != [";", "}"]):
        truths.append(tail[0])
    if len(truths) >= 2 and truths[0] != truths[-1]:
        return "any" if truths[0] == "true" else "all"
    return ""


GUARD_ENDS = frozenset({"continue", "return", "break"})


def guards_positive(tokens: list[str]) -> list[str]:
    """A guard's joins as the test it skips: `if (!a || !b) continue;` then the work is `if (a && b) {work}`
    (De Morgan: `&&` and `||` swap where the guard skips the rest: `continue`, `break`, a bare `return`).
    Only the joins of the guard's own condition, outside any inner brackets."""
    out = list(tokens)
    for at, token in enumerate(out):
        if token != "if" or at + 1 >= len(out):
            continue
        if out[at + 1] == "(":  # TS, JS, Java: the condition in brackets
            end = block_end(out, at + 1, "(", ")")
            start, stop = at + 2, end - 1
        else:  # Go, Rust: up to the block
            end = next((i for i in range(at + 1, len(out)) if out[i] == "{"), len(out))
            start, stop = at + 1, end
        after = [t for t in out[end : end + 3] if t != "{"]
        if (
            not after
            or after[0] not in GUARD_ENDS
            or (after[0] == "return" and after[1:2] not in ([";"], ["}"]))
        ):
            continue  # a return of a value answers (`if (a && b) return true;`): no work skipped
        depth = 0
        for i in range(start, stop):
            depth += (out[i] in OPENS) - (out[i] in CLOSES)
            if depth == 0 and out[i] in ("&&", "||"):
                out[i] = "||" if out[i] == "&&" else "&&"
    return out


def body_start(tokens: list[str]) -> int:
    """Where the body starts: the block the tokens end with (`{` ... `}`), or what follows an
    arrow's `=>` (an expression body). The signature before it holds no decision: its `<` and `>`
    are a generic's brackets (`find<T>(xs: Iterable<T>)`), not comparisons."""
    if tokens[-1:] == ["}"]:
        depth = 0
        for at in range(len(tokens) - 1, -1, -1):
            depth += (tokens[at] == "}") - (tokens[at] == "{")
            if depth == 0:
                return at
    depth = 0
    for at, token in enumerate(tokens):
        depth += (token in OPENS) - (token in CLOSES)
        if depth == 0 and token == "=>":
            return at + 1
    return 0


def parameters(tokens: list[str]) -> dict[str, str]:
    """The value parameters by their place (`p1`, `p2`...): the locals that open or close an entry of
    the first bracketed list after the function's name (`(a: T, b)`, Go's `(a, b int)`, Java's
    `(List<T> a, int b)`), so a type parameter before them (`find<T>`, Go's `[T any]`) shifts
    nothing."""
    at = tokens.index("<self>") if "<self>" in tokens else 0
    start = next((i for i in range(at, len(tokens)) if tokens[i] == "("), -1)
    if start < 0:
        return {}
    end = block_end(tokens, start, "(", ")")
    entries: list[list[str]] = [[]]
    depth = 0
    for token in tokens[start + 1 : end - 1]:
        depth += (token in OPENS) - (token in CLOSES)
        if depth == 0 and token == ",":
            entries.append([])
        else:
            entries[-1].append(token)
    found: dict[str, str] = {}
    for entry in entries:
        # the name opens the entry (`a: T`, Go's `a T`, Rust's `a: T`) or closes it (Java's `T a`)
        name = entry[0] if entry and local(entry[0]) else entry[-1] if entry else ""
        if local(name) and name not in found:
            found[name] = f"p{len(found) + 1}"
    return found


def comparison(operator: str, left: list[str], right: list[str], params: dict[str, str]) -> str:
    """A comparison as the direction check knows it: the locals the body declares unnamed (a copy
    declares them in another order or inlines them), the parameters named by their place."""
    left, right = ([params.get(t, "v") if local(t) else t for t in side] for side in (left, right))
    return " ".join([operator, *left, "|", *right])


def deciding(tokens: list[str]) -> dict[str, int]:
    """How often the body makes each comparison (its operands, mirrored to `<`: `b > a` is `a < b`),
    joins conditions each way and says true or false (`.some(...)` says both, as the loop it stands
    for)."""
    tokens = guards_positive(rewritten(tokens))
    start = body_start(tokens)
    params = parameters(tokens[:start])
    counts: dict[str, int] = {}
    joined = early_answers(tokens, start)
    for at in range(start, len(tokens)):
        token = tokens[at]
        if at in joined:
            keys = [joined[at]]
        elif token in ANY_METHODS or token in ALL_METHODS:
            keys = ["true", "false"]
        elif token in ("<", "<=", ">", ">="):
            left, right = (
                tokens[operand_start(tokens, at) : at],
                tokens[at + 1 : operand_end(tokens, at)],
            )
            if not left or not right or typed(left) or typed(right):
                # a generic's brackets (`List<String>`, `new ArrayList<>()`), not a comparison
                continue
            keys = [comparison(token, left, right, params)]
        elif token in ("&&", "||", "true", "false"):
            keys = [token]
        else:
            continue
        for key in keys:
            counts[key] = counts.get(key, 0) + 1
    return counts


def exits_loop(tokens: list[str]) -> int:
    """1 when a loop over items (`for ITEM range ITEMS`, see `item_loops`) returns or breaks from
    inside (a search that stops at the first match), -1 when it has such loops and none stops, 0
    without one (a method such as `.find` or `.some`, or a counting `while`, says nothing here). A
    closure's `return` (`=>`, Rust's `|x|`) leaves only the closure: not counted."""
    tokens = rewritten(tokens)
    loops = [
        at
        for at, token in enumerate(tokens)
        if token == "for" and at + 2 < len(tokens) and tokens[at + 2] == "range"
    ]
    if not loops:
        return 0
    for at in loops:
        brace = next((i for i in range(at + 1, len(tokens)) if tokens[i] == "{"), -1)
        if brace < 0:
            continue
        body = tokens[brace : block_end(tokens, brace)]
        if ("return" in body or "break" in body) and "=>" not in body and "|" not in body:
            return 1
    return -1


def early_answers(tokens: list[str], start: int) -> dict[int, str]:
    """The `true`/`false` of an early return outside any loop (`if (c) return true;` then more) as
    the join it stands for: `c || rest` (`&&` for `false`), so an `||` chain written as early
    returns decides as the chain does. In a loop the same return is a test of the items
    (`item_test`): left alone."""
    found: dict[int, str] = {}
    loops: list[bool] = []  # for each open `{`: whether it opens a loop's body
    head_is_loop = False
    for at in range(start, len(tokens)):
        token = tokens[at]
        if token in LOOPS:
            head_is_loop = True
        elif token == "{":
            loops.append(head_is_loop)
            head_is_loop = False
        elif token == "}":
            if loops:
                loops.pop()
        elif token == ";":
            head_is_loop = False
        elif (
            token == "return"
            and not any(loops)
            and at + 2 < len(tokens)
            and tokens[at + 1] in ("true", "false")
            and tokens[at + 2] in ENDS
            and at + 3 < len(tokens) - 1  # not the body's last statement
            and any(tokens[i] == "if" for i in range(max(start, at - 40), at))
        ):
            found[at + 1] = "||" if tokens[at + 1] == "true" else "&&"
    return found


def features(language: str, tokens: list[str], outside: set[str]) -> list[str]:
    """Rewrite-proof evidence of what the function does, sorted, deduplicated (see the module
    docstring)."""
    builtins = BUILTINS.get(language, frozenset())
    found: set[str] = set()
    tokens = rewritten(tokens)
    test = item_test(tokens)
    if test:
        found.update({"q:" + test, "q:loop"})
    tail = [t for t in tokens if t not in ("}", ";")][-1:]
    if tail and tail[0] in ("true", "false") and tokens[-1:] == ["}"] and tokens[-2:-1] != [";"]:
        found.add("r:l:" + tail[0].title())  # Rust: the truth the body ends on is returned
    count = len(tokens)
    declared = False  # the first `<self>` is the function's own name where it is declared
    types = {at for at in type_positions(tokens) if tokens[at] not in builtins}
    if calls_a_parameter(tokens):
        found.add("k:Callback")
    for at, token in enumerate(tokens):
        following = tokens[at + 1] if at + 1 < count else ""
        called = following == "(" or (
            following == "!" and at + 2 < count and tokens[at + 2] == "("
        )  # Rust macros
        if at >= 2 and tokens[at - 1] == "::" and tokens[at - 2] in builtins:
            continue  # `Vec::new()`: the builtin says it all
        if at in types:
            found.add("t:" + token)  # evidence, weighed as such, but no class of its own
            continue
        if token == "<self>":
            if called and declared:
                found.add("c:SELF")
            declared = True
        elif token in ANY_METHODS or token in ALL_METHODS:
            found.update(
                {"q:any" if token in ANY_METHODS else "q:all", "q:loop", "r:l:True", "r:l:False"}
            )
        elif token in LOOP_METHODS or token in LOOPS:
            found.add("q:loop")
        elif token in PLUMBING:
            continue
        elif token[:1] == "." and (
            token[1:2].isalpha() or token[1:2] in ("_", "$")
        ):  # not a spread `...`
            if token not in FILLERS:
                found.add("c:" + token)
        elif token in outside:
            if token in builtins:
                found.add("b:" + token)
            elif called:
                found.add(("b:" if token in KINDS else "c:") + token)
            else:
                found.add("n:" + token)
        elif token in OPERATORS:
            found.add("o:" + OPERATORS[token])
        elif token in KINDS:
            found.add("k:" + KINDS[token])
        elif token == "return":
            value = constant(following) or (
                "True" if following == "true" else "False" if following == "false" else ""
            )
            after = tokens[at + 2] if at + 2 < count else ""
            if value and after in ENDS | {""}:
                found.add("r:l:" + value)
        else:
            value = constant(token)
            if value:
                found.add("l:" + value)
    return sorted(found)


def calls_a_parameter(tokens: list[str]) -> bool:
    """The body calls a function it was given (`context()`, `visit(key, value)`), or hands it to a
    method that calls it for each item (`.map(fn)`): lazy work that one given a value does not do
    (anyhow's `with_context` against `context`)."""
    start = body_start(tokens)
    params = {t for t in tokens[:start] if local(t)}
    for at in range(start, len(tokens) - 1):
        if tokens[at] in params and tokens[at + 1] == "(":
            return True
        if (
            tokens[at] in ITEM_METHODS
            and tokens[at + 1 : at + 2] == ["("]
            and tokens[at + 2 : at + 3] != []
            and tokens[at + 2] in params
            and tokens[at + 3 : at + 4] == [")"]
        ):
            return True
    return False


def type_positions(tokens: list[str]) -> set[int]:
    """Where the body names a type to annotate a local, not to use it: right after a local's `:` or
    an `as` (`const state: ImmerState`, `x as Foo`). A copy annotates otherwise, or not at all, and
    does the same work. The signature's types stay classes: a parameter of another type is other
    data (gson's `JsonReader.push` and `JsonTreeReader.push`, query-core's two `notify`)."""
    start = body_start(tokens)
    found: set[int] = set()
    for at in range(start, len(tokens) - 1):
        if (tokens[at] == "as" or (tokens[at] == ":" and at and local(tokens[at - 1]))) and typed(
            tokens[at + 1 : at + 2]
        ):
            found.add(at + 1)
    return found


def canonical(tokens: list[str]) -> list[str]:
    """The body with what a behaviour-keeping rewrite changes taken out (see the module
    docstring)."""
    out: list[str] = []
    tokens = rewritten(tokens)
    for at, token in enumerate(tokens):
        if token in DROPPED or token in FILLERS or token in LOOP_WORDS or token in ITEM_METHODS:
            continue
        if token == "." and at + 1 < len(tokens) and tokens[at + 1] in ITEM_METHODS | FILLERS:
            continue  # the member access of a method dropped
        value = constant(token)
        out.append(FOLDED.get(token, "l:" + value if value else token))
    return out
