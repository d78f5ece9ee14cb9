"""Evidence that an added function copies a project helper, that survives a rewrite (#18).

The token comparison of `functions.best_match` sees the syntax tree in order: a copy with its branches
swapped, an `if` turned into a conditional expression, an early return or a temporary inlined scores
0.5-0.7 against its original, below any safe threshold. What such rewrites keep is what the function
does: its string and regex literals and its distinctive numbers (the same patterns, the same messages,
0xD800), and the same library calls and methods in the same order (`re.sub`, `.strip`, `.lower`).
What a look-alike with other behaviour changes is exactly these: a `-` join where the helper joins with
`_`, " or " for " and ", a union for an intersection.

So two rules, on the tokens the index already stores (no new index format):

* agreement: the added function and the helper share at least two distinctive literals and differ in
  few (one added or one dropped normalisation step still agrees; a replaced literal does not), the
  bodies are still alike (`EVIDENCE_BODY`) and their calls come in a similar order (`EVIDENCE_CALLS`);
* the same calls: without literals to compare, nearly the same calls and attributes in the same order
  (at least CALLS_ALONE_MIN of them) with a body of the shape rule's lower threshold;
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
COMMON_STRINGS = frozenset(token for token in COMMON if token[:1] in ("'", '"'))  # separators: what a join uses
EVIDENCE_LITERALS = 2  # distinctive literals both must share (a long one counts twice)
LONG_LITERAL = 14  # characters of a stored constant (quotes included; stored cut at 24): a message, a pattern
EVIDENCE_AGREEMENT = 0.6  # shared / all distinctive literals of the two (one step added or dropped: 2/3)
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
    """(shared / union, weight of the shared) of two multisets of literals; (1.0, 0) when neither has
    any. A long shared literal (an error message, a whole pattern) weighs two short ones."""
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
    """Both have distinctive literals and they mostly differ: other behaviour, whatever the shape."""
    return bool(added) and bool(existing) and agreement(added, existing)[0] < DISAGREEMENT


def telling(added: Iterable[str]) -> bool:
    """Enough distinctive literals that literal evidence could be found at all."""
    return sum(2 if len(token) >= LONG_LITERAL else 1 for token in set(added)) >= EVIDENCE_LITERALS


def literal_evidence(added: list[str], existing: list[str]) -> bool:
    """Enough distinctive literals in common, and few that differ."""
    ratio, shared = agreement(added, existing)
    return shared >= EVIDENCE_LITERALS and ratio >= EVIDENCE_AGREEMENT


def replaced_attribute(added: list[str], existing: list[str]) -> bool:
    """The added body uses an attribute or method the helper does not, and the helper one the added body
    does not (`.upper` for `.lower`, `.title` for `.replace`): a step swapped, not added or dropped."""
    mine = {token for token in added if token.startswith(".")}
    theirs = {token for token in existing if token.startswith(".")}
    return bool(mine - theirs) and bool(theirs - mine)


def replaced_separator(added: list[str], existing: list[str]) -> bool:
    """The added body has common string constants the helper has not, and the helper ones the added body
    has not (a `-` join for a `_` join, runs made a space instead of a dash): the distinctive literals
    agree, the output differs. One added or dropped step leaves extras on one side only."""
    counts: dict[str, int] = {}
    for token in added:
        if token in COMMON_STRINGS:
            counts[token] = counts.get(token, 0) + 1
    for token in existing:
        if token in COMMON_STRINGS:
            counts[token] = counts.get(token, 0) - 1
    return any(count > 0 for count in counts.values()) and any(count < 0 for count in counts.values())


def inlinable(name: str) -> bool:
    """An outside name a rewrite may replace by its own code: a function (`make_func`, `lowercase`)
    or a constant (`UNDERSCORE_RE`), not a class (`User`, `Mapping`): classes say what data it is."""
    return not name[:1].isupper() or name.isupper()
