"""Evidence that an added function copies a project helper, that survives a rewrite (#18).

The token comparison of `functions.best_match` sees the syntax tree in order: a copy with its
branches swapped, an `if` turned into a conditional expression, an early return or a temporary
inlined scores 0.5-0.7 against its original, below any safe threshold. What such rewrites keep is
what the function does: its string and regex literals and its distinctive numbers (the same
patterns, the same messages, 0xD800), and the same library calls and methods in the same order
(`re.sub`, `.strip`, `.lower`). What a look-alike with other behaviour changes is exactly these: a
`-` join where the helper joins with `_`, " or " for " and ", a union for an intersection.

So two rules, on the tokens the index already stores (no new index format):

* agreement: the added function and the helper share at least two distinctive literals and differ in
  few (one added or one dropped normalisation step still agrees; a replaced literal does not), the
  bodies are still alike (`EVIDENCE_BODY`) and their calls come in a similar order
  (`EVIDENCE_CALLS`);
* the same calls: without literals to compare, nearly the same calls and attributes in the same
  order (at least CALLS_ALONE_MIN of them) with a body of the shape rule's lower threshold;
* disagreement: when both have distinctive literals and they mostly differ, or when a method or
  attribute of the helper is swapped for another, or a separator (`'-'` for `'_'`, `' '` for `'-'`),
  no body score makes them copies (the look-alike with other literals or another last step is the
  wrong nudge the tools sidecar must not give).

An added function under the 5-line floor is compared by literal evidence only: inlining a helper's
temporaries makes a short copy, and its literals survive; the shape of so short a body says little.

Pure Python on lists of tokens; rapidfuzz is used by the caller only once a candidate exists.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

# Constants too common to tell two functions apart: separators, empty values, small numbers.
COMMON = frozenset(
    {
        "''",
        "' '",
        "'_'",
        "'-'",
        "'.'",
        "','",
        "':'",
        "'/'",
        "'\\n'",
        '""',
        "'utf-8'",
        "'ascii'",
        "0",
        "1",
        "2",
        "-1",
        "None",
        "True",
        "False",
        "0.0",
        "1.0",
    }
)
COMMON_STRINGS = frozenset(
    token for token in COMMON if token[:1] in ("'", '"')
)  # separators: what a join uses
EVIDENCE_LITERALS = 2  # distinctive literals both must share (a long one counts twice)
# characters of a stored constant (quotes included; stored cut at 24): a message, a pattern
LONG_LITERAL = 14
# shared / all distinctive literals of the two (one step added or dropped: 2/3)
EVIDENCE_AGREEMENT = 0.6
EVIDENCE_BODY = 0.45  # token similarity still required with literal agreement
EVIDENCE_CALLS = 0.5  # similarity of the ordered calls and attributes
CALLS_ALONE = 0.9  # without shared literals: nearly the same calls in the same order...
CALLS_ALONE_MIN = 4  # ...and enough of them to say something (`set`, `.add` alone says nothing)
DISAGREEMENT = 0.5  # below this literal agreement (both having literals), never a copy


def literals(tokens: Iterable[str]) -> list[str]:
    """The distinctive constants among a body's tokens: strings (regex patterns, messages, formats)
    and numbers other than the common ones."""
    found: list[str] = []
    for token in tokens:
        if token in COMMON:
            continue
        head = token[:1]
        if head in ("'", '"') or token[:2] in ("b'", 'b"') or head.isdigit():
            found.append(token)
    return found


def calls(tokens: Iterable[str], outside: Iterable[str]) -> list[str]:
    """The body's attributes and outside names in order: `re .sub`, `.strip`, `defaultdict`..."""
    names = set(outside)
    return [token for token in tokens if token.startswith(".") or token in names]


def agreement(added: list[str], existing: list[str]) -> tuple[float, int]:
    """(shared / union, weight of the shared) of two multisets of literals; (1.0, 0) when neither
    has any. A long shared literal (an error message, a whole pattern) weighs two short ones."""
    counts: dict[str, int] = {}
    for token in added:
        counts[token] = counts.get(token, 0) + 1
    shared = weight = 0
    for token in existing:
        if counts.get(token, 0) > 0:
            counts[token] -= 1
            shared += 1
            weight += 2 if len(token) >= LONG_LITERAL else 1
    union = len(added) + len(existing) - shared
    return (shared / union if union else 1.0), weight


def disagree(added: list[str], existing: list[str]) -> bool:
    """Both have distinctive literals and they mostly differ: other behaviour, whatever the
    shape."""
    return bool(added) and bool(existing) and agreement(added, existing)[0] < DISAGREEMENT


def telling(added: Iterable[str]) -> bool:
    """Enough distinctive literals that literal evidence could be found at all."""
    return sum(2 if len(token) >= LONG_LITERAL else 1 for token in set(added)) >= EVIDENCE_LITERALS


def literal_evidence(added: list[str], existing: list[str]) -> bool:
    """Enough distinctive literals in common, and few that differ."""
    ratio, shared = agreement(added, existing)
    return shared >= EVIDENCE_LITERALS and ratio >= EVIDENCE_AGREEMENT


def replaced_attribute(added: list[str], existing: list[str]) -> bool:
    """The added body uses an attribute or method the helper does not, and the helper one the added
    body does not (`.upper` for `.lower`, `.title` for `.replace`): a step swapped, not added or
    dropped."""
    mine = {token for token in added if token.startswith(".")}
    theirs = {token for token in existing if token.startswith(".")}
    return bool(mine - theirs) and bool(theirs - mine)


def replaced_separator(added: list[str], existing: list[str]) -> bool:
    """The added body has common string constants the helper has not, and the helper ones the added
    body has not (a `-` join for a `_` join, runs made a space instead of a dash): the distinctive
    literals agree, the output differs. One added or dropped step leaves extras on one side only."""
    counts: dict[str, int] = {}
    for token in added:
        if token in COMMON_STRINGS:
            counts[token] = counts.get(token, 0) + 1
    for token in existing:
        if token in COMMON_STRINGS:
            counts[token] = counts.get(token, 0) - 1
    return any(count > 0 for count in counts.values()) and any(
        count < 0 for count in counts.values()
    )


def inlinable(name: str) -> bool:
    """An outside name a rewrite may replace by its own code: a function (`make_func`, `lowercase`)
    or a constant (`UNDERSCORE_RE`), not a class (`User`, `Mapping`): classes say what data it
    is."""
    return not name[:1].isupper() or name.isupper()


# ---------------------------------------------------------------------------------------------
# Restructured copies (#35): compare what two functions do, from the canonical tokens and the
# features the index build prepared (`code.rewrites` for Python; any language's normaliser may fill
# them). First rank the index by the features they share (recall), then confirm the best few
# (precision): the canonical bodies must still be alike, and no called method, constant, operator or
# returned constant of one may be swapped for another in the other.

WEIGHTS = {
    "b": 1.0,
    "k": 1.0,
    "c": 2.0,
    "n": 2.0,
    "l": 2.0,
    "o": 0.5,
    "f": 1.5,
    "r": 1.0,
    "d": 1.0,
    "p": 0.0,
}
DOC_WEIGHT = 3.0  # the docstring, however long, weighs as much as a call and a half
COMMON_WEIGHT = 0.5  # a common constant (`0`, `''`, `'-'`) says less than a distinctive one
RANK_FLOOR = 0.45  # weighted overlap of the features for a helper to be a candidate at all
MIN_FEATURES = 4  # fewer features than this say too little to call a function a copy
CANDIDATES = 10  # how many of the best-ranked are confirmed
CONFIRM = 0.72  # mean of the feature overlap and the canonical body similarity, to be a copy
CANONICAL_FLOOR = 0.65  # canonical body similarity below which nothing is a copy
EVIDENCE_WEIGHT = 5.0  # weighted features in common to confirm a copy by its features...
ALIKE_BODY = 1.1  # canonical bodies this alike confirm a candidate that ranked at all
CLOSE_BODY = 0.85  # ...unless the canonical bodies are this close
# What a rewrite adds or drops on its own: small numbers (`range(0, n)`, `[-1]`), the collecting
# calls of a loop that stands for a comprehension. Never taken for a replaced step.
INCIDENTAL = frozenset({"l:0", "l:1", "l:-1", "l:2", "c:.append", "c:.add", "c:.extend"})
SWAPS = (
    "c:.",
    "l:",
    "o:",
    "r:l:",
    "r:tuple",
    "k:",
)  # kinds of evidence whose replacement changes behaviour
# Evidence no rewrite adds or drops on its own: builtins that order, bound or round the values (each
# a group: a rewrite may sort in reverse for `reversed(sorted(...))`), and output made where an
# exception is caught. Not an identity test (`is None`): a copy may leave out a mode its caller
# never uses (boltons' `unwrap_text(ending=None)` returning the list), though a truth test for `is
# not None` slips through.
ONE_SIDED = tuple(
    frozenset(group)
    for group in (
        {"b:sorted", "b:reversed"},
        {"b:min", "b:max"},
        {"b:abs"},
        {"b:round"},
        {"k:Yield@except"},
    )
)


def one_sided(added: set[str], existing: set[str], widened: set[str]) -> bool:
    """One function alone orders, bounds or rounds values, or makes output in a handler
    (`ONE_SIDED`): other behaviour. The helper's evidence counts with or without the helpers it
    calls (`widened`): a copy may inline them."""
    for group in ONE_SIDED:
        mine = bool(group & added)
        if mine != bool(group & existing) and mine != bool(group & widened):
            return True
    mine = any(
        f.startswith("r:@") for f in added
    )  # gives back what a function passed in returns (a map)
    return mine != any(f.startswith("r:@") for f in existing) and mine != any(
        f.startswith("r:@") for f in widened
    )


def weight(feature: str) -> float:
    kind = feature[:1]
    if kind == "l" and feature[2:] in COMMON:
        return COMMON_WEIGHT
    return WEIGHTS.get(kind, 1.0)


INLINED = ("c:", "l:", "o:", "n:")  # what an inlined helper brings into its caller's body


def overlap(added: set[str], existing: set[str]) -> float:
    """Weighted share of the two functions' features that both have (0..1). The docstrings' words
    count as DOC_WEIGHT features, by the share of words in common, and only when both have a
    docstring (an agent's copy often has none, or one of its own words)."""
    code_added = {f for f in added if not f.startswith("d:")}
    code_existing = {f for f in existing if not f.startswith("d:")}
    union = code_added | code_existing
    total = sum(weight(feature) for feature in union)
    shared = sum(weight(feature) for feature in code_added & code_existing)
    doc_added, doc_existing = added - code_added, existing - code_existing
    if doc_added and doc_existing:
        total += DOC_WEIGHT
        shared += DOC_WEIGHT * len(doc_added & doc_existing) / len(doc_added | doc_existing)
    return shared / total if total else 0.0


def swapped(added: set[str], existing: set[str]) -> bool:
    """One side has a method, constant, operator or returned constant of a kind that the other
    lacks, and the other one of its own: a step replaced (`.upper` for `.lower`, `'zero '` for `'No
    '`, `<` for `==`), not added or dropped as a rewrite does."""
    for kind in SWAPS:
        mine = {f for f in added - existing if f.startswith(kind) and f not in INCIDENTAL}
        theirs = {f for f in existing - added if f.startswith(kind) and f not in INCIDENTAL}
        if mine and theirs:
            return True
    return False


def other_classes(added: set[str], existing: set[str]) -> bool:
    """Either uses a class (a capitalised outside name) the other does not use: other data, other
    work (`User` for `Order`); exception classes raised aside."""

    def classes(features: set[str]) -> set[str]:
        return {
            f[2:]
            for f in features
            if f[:2] in ("c:", "n:")
            and f[2:3].isupper()
            and not f[2:].isupper()
            and not f.endswith(("Error", "Exception"))
        }

    return bool(classes(added) ^ classes(existing))


def widened(existing: set[str], callees: set[str], added: set[str]) -> set[str]:
    """The helper's features as they read with the project helpers it calls inlined: their calls,
    constants and operators join, the calls to the helpers the added function does not make
    leave."""
    inlined = {f for f in callees if f.startswith(INLINED)}
    gone = {
        f[2:]
        for f in existing
        if f.startswith("c:")
        and not f.startswith("c:.")
        and f not in added
        and ("n:" + f[2:]) not in added
    }
    kept = {
        f
        for f in existing
        if not (f.startswith("c:") and f[2:] in gone) and f.rsplit(">", 1)[-1] not in gone
    }
    return kept | inlined


def dropped_work(added: set[str], existing: set[str], callees: set[str]) -> bool:
    """The helper calls a function (its own name included: recursion) that the added one neither
    calls nor names, and the added one did not inline the helpers it calls either: part of the work
    is left out (`yield from item` for `yield from flatten(item)`, a check without the escaping it
    guards)."""
    names = {f[2:] for f in added if f[:2] in ("c:", "n:")}
    coercions = {
        f[2:] for f in existing if f.startswith("p:")
    }  # `func = make_func(func)`: may be left out
    missing = {
        f
        for f in existing
        if f.startswith("c:")
        and not f.startswith("c:.")
        and f[2:] not in names
        and f[2:] not in coercions
    }
    theirs = {f[2:] for f in existing if f[:2] in ("c:", "n:")} | {
        f[2:] for f in callees if f[:2] in ("c:", "n:")
    }
    if any(f.startswith("c:") and not f.startswith("c:.") and f[2:] not in theirs for f in added):
        return True  # the added function does work the helper does not (`reversed`, another helper)
    if not missing:
        return False
    if not callees:
        return True
    return overlap(added, widened(existing, callees, added)) <= overlap(added, existing)


def shared_weight(added: set[str], existing: set[str]) -> float:
    """Weight of the evidence both share, generic builtins (`iter`, `next`, `len`) and statement
    kinds (a try, a yield) aside: any two small generators share those."""
    return sum(weight(feature) for feature in added & existing if feature[:2] not in GENERIC)


GENERIC = ("d:", "b:", "k:")


def confirmed(rank: float, body: float, shared: float) -> bool:
    """A copy: the canonical bodies alike, the features and bodies together close, and enough
    evidence in common (two generic calls, `iter` and `next`, say little unless the bodies are
    near-identical)."""
    if body < CANONICAL_FLOOR:
        return False
    if (rank + body) / 2 < CONFIRM and body < ALIKE_BODY:
        return False  # neither close overall nor alike in body (the rank floor already holds)
    return shared >= EVIDENCE_WEIGHT or body >= CLOSE_BODY


AGGREGATES = frozenset(
    {"Any", "All", "Count", "Collect"}
)  # what a canonical loop makes of its items


def other_aggregate(added: list[str], existing: list[str]) -> bool:
    """The canonical bodies' loops make something else of their items: `any` where the helper has
    `all`, a count where it collects (`sum(1 for ...)` for `filter(...)`). The normaliser already
    wrote every loop that collects, counts or tests as the comprehension it stands for, so a rewrite
    keeps these."""
    mine = AGGREGATES.intersection(added)
    theirs = AGGREGATES.intersection(existing)
    return bool(mine - theirs) and bool(theirs - mine)


POSITIVE = {"NotEq": "Eq", "IsNot": "Is", "NotIn": "In"}  # a negated comparison's positive form


def other_condition(added: list[str], existing: list[str]) -> bool:
    """The canonical bodies differ only in the polarity of tests (`is None` for `is not None`, `if
    p(x)` for `if not p(x)`) or in their comparisons (`<` for `<=`): the normaliser already made the
    tests a rewrite negates positive (swapped branches, guards, `any`/`all`) and mirrored (`>` as
    `<`), so what is left is another condition."""

    def positive(tokens: list[str]) -> list[str]:
        out: list[str] = []
        for token in tokens:
            if token == "Not" and out and out[-1] == "UnaryOp":
                out.pop()
                continue
            out.append(POSITIVE.get(token, token))
        return out

    if added == existing:
        return False
    mine, theirs = positive(added), positive(existing)
    if len(mine) != len(theirs):
        return False
    # or a comparison made strict or loose (`<` for `<=`): the same test at another boundary
    return all(
        a == b or (a in COMPARISONS and b in COMPARISONS) for a, b in zip(mine, theirs, strict=True)
    )


COMPARISONS = frozenset({"Eq", "Lt", "LtE", "Is", "In"})  # the canonical comparisons, made positive
