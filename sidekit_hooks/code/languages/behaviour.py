"""What a function does, from the normalised tokens the index stores for TypeScript, JavaScript, Go, Rust
and Java (`build`): the features and canonical body that `code.rewrites` makes of a Python function, so
that `functions.behaviour_rank` and `code.near_copies` compare every language the same way.

The tokens are the syntax tree's leaves in source order (locals `v1, v2...`, the function's own name
`<self>`, members `.name`, literals as written), so this reads them left to right, standard library only:

- `c:NAME` a call of an outside name (`b:NAME` for the language's builtins), `c:.name` a member used,
  `c:SELF` a recursive call; `n:NAME` an outside name read;
- `l:VALUE` a constant, quoted as Python quotes it (`"/"` and `'/'` alike), so `near_copies.COMMON` applies;
- `o:KIND` an operator, negations and mirrors folded (`!==` is `===`, `>` is `<`), as `rewrites` does;
- `k:KIND` a throw, a try, a yield; `r:l:VALUE` a constant returned.

The canonical body drops what a rewrite changes without changing behaviour: punctuation, declaration
keywords (`let`/`const`/`var`), `else`, the calls that fill a collection (`.push` for a `.map`), and
folds the operators as above.
"""

from __future__ import annotations

# Names every program of the language has: what a rewrite adds or removes (`len`, `Array.from`), not work.
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
        {"Some", "None", "Ok", "Err", "Vec", "String", "Option", "Result", "Box", "str", "usize", "i32", "i64", "u8"}
    ),
    "java": frozenset({"String", "Integer", "Long", "Math", "Objects", "Arrays", "List", "Map", "Set", "System"}),
}
BUILTINS["js"] = BUILTINS["ts"]
NOT_CONSTANTS = frozenset({"true", "false", "null", "nil", "undefined", "this", "self", "None", "super"})
FILLERS = frozenset({".push", ".append", ".add", ".insert", ".extend", ".unshift"})  # a loop standing for a map
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
FOLDED = {"!==": "===", "!=": "==", ">": "<", ">=": "<=", "==": "==="}  # in the canonical body
KINDS = {"throw": "Raise", "try": "Try", "yield": "Yield", "catch": "Try", "defer": "Defer", "panic": "Raise"}
DROPPED = frozenset({";", ",", "{", "}", "(", ")", "let", "const", "var", "else", "mut", ":="})
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


def features(language: str, tokens: list[str], outside: set[str]) -> list[str]:
    """Rewrite-proof evidence of what the function does, sorted, deduplicated (see the module docstring)."""
    builtins = BUILTINS.get(language, frozenset())
    found: set[str] = set()
    count = len(tokens)
    declared = False  # the first `<self>` is the function's own name where it is declared
    for at, token in enumerate(tokens):
        following = tokens[at + 1] if at + 1 < count else ""
        called = following == "(" or (following == "!" and at + 2 < count and tokens[at + 2] == "(")  # Rust macros
        if token == "<self>":
            if called and declared:
                found.add("c:SELF")
            declared = True
        elif token[:1] == "." and (token[1:2].isalpha() or token[1:2] in ("_", "$")):  # not a spread `...`
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
            value = constant(following) or ("True" if following == "true" else "False" if following == "false" else "")
            after = tokens[at + 2] if at + 2 < count else ""
            if value and after in ENDS | {""}:
                found.add("r:l:" + value)
        else:
            value = constant(token)
            if value:
                found.add("l:" + value)
    return sorted(found)


def canonical(tokens: list[str]) -> list[str]:
    """The body with what a behaviour-keeping rewrite changes taken out (see the module docstring)."""
    out: list[str] = []
    for token in tokens:
        if token in DROPPED or token in FILLERS:
            continue
        value = constant(token)
        out.append(FOLDED.get(token, "l:" + value if value else token))
    return out
