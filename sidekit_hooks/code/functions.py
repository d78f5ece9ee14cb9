"""An on-disk index of the project's functions, to notice when the agent rewrites a helper that
exists.

Per Python file (keyed by mtime and size, so a refresh re-reads only what changed) the index holds
each module-level function's name, line, signature, outside names and normalized body (see
`analyze`).

The index is built OUTSIDE the hook: a hook that finds it missing or stale starts `python -S -m
sidekit_hooks.code.functions refresh PROJECT` detached and goes on (`ensure_fresh`). That worker
never creates anything inside the project (a throw-away project may be deleted while it runs): it
writes to the project's `.sidekit/index/functions.json` only when `.sidekit/index/` already exists
(made by `build`, or seeded by a fixture), else to the user cache (`$SIDEKIT_CACHE_DIR`, else
`$XDG_CACHE_HOME/sidekit`, else `~/.cache/sidekit`), keyed by project path. Only cheap parts run on
every hook (stat, spawn, a line scan for added `def`s). When a function of 5+ lines was added (or a
shorter one with distinctive literals), the hook parses it with the C parser (`_ast`, not the slower
`ast` module), reads the index, and imports rapidfuzz only if some entry could match at all.
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import background, fastjson, safepath, workspace
from sidekit_hooks.core.textscan import identifier_words

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from typing import Any

    Entry = list[
        Any
    ]  # [name, line, signature, lines, tokens, outside names, canonical, features, callees']

VERSION = 3  # 2: entries carry the function's outside names; 3: tokens from the syntax tree
# The entries' last three fields (#35, optional: an index without them is still read): the canonical
# body and the features of `code.rewrites`, and the features of the project helpers the function
# calls. Bumped when the normaliser changes, so that a refresh redoes every entry.
BEHAVIOUR = 2  # 2: the second #35 normaliser (tuple parts, generators, handlers...)
CANONICAL, FEATURES, CALLEES = 6, 7, 8
INDEX_FILE = "functions.json"
PRUNE_AFTER = 30 * 86400  # seconds; cache entries unused this long are deleted by the next refresh
ORPHAN_AFTER = 3600  # seconds; an entry idle this long is checked for a project that is gone
ORPHAN_MAX_BYTES = (
    64 * 1024
)  # only small entries are read for that check (throw-away projects are small)
# seconds; a write to a .py file older than the index by this much starts a refresh
REFRESH_AFTER = 10.0
# a function shorter than this (def line included, blank lines not) is not compared by its shape...
MIN_LINES = 5
# ...but from here by literal evidence alone: inlining a helper's temporaries makes it short
SHORT_LINES = 2
# a refresh stops here: a monorepo must not turn the background build into a crawl
MAX_FILES = 20_000
MAX_FILE_BYTES = 1_000_000  # generated or vendored giants are skipped
MAX_STRING = 24  # string constants are cut here in the normalized body
SKIP_DIRS = frozenset(
    {
        "node_modules",
        "__pycache__",
        "site-packages",
        "venv",
        "env",
        "build",
        "dist",
        "htmlcov",
    }
)

# Similarity thresholds (0..1), tuned on tests/code/labelled_functions.py (10 duplicates, 9 near
# misses). Medium: the normalized body must be close (BODY_ALONE), or fairly close with a name that
# says the same (BODY_WITH_NAME + NAME_CLOSE); and the added function must use every outside name
# the existing one uses (`analyze`). Measured: duplicates on body alone >= 0.86 (fetch_user vs
# get_user), with a name score of 1.0 down to 0.77 (split_into_chunks vs chunked); near misses <=
# 0.81 body with names <= 0.67 (duplicates vs dedupe, env_int vs env_flag, parse_size vs
# parse_duration); get_order vs get_user scores 0.97 but reads Order, not User. Rewritten copies
# (#18) are matched by evidence instead (`code.near_copies`), measured on tests/code/nearcopy_*.py:
# real helpers of packages from the index.
BODY_ALONE = 0.85
BODY_WITH_NAME = 0.72
NAME_CLOSE = 0.8
AMBIGUOUS = 0.05  # two helpers of other names within this rank of each other: name neither...
SAME_BODY = 0.99  # ...unless one's body is the added function's and the other's is not


def cache_dir() -> str:
    base = os.environ.get("SIDEKIT_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "sidekit",
    )
    return os.path.join(base, "functions")


def project_key(project: str) -> str:
    """A cache file name for a project: its folder name and a checksum of its absolute path."""
    import zlib

    path = os.path.abspath(project)
    name = (
        "".join(c if c.isalnum() or c in "-_." else "_" for c in os.path.basename(path))[:40]
        or "root"
    )
    return f"{name}-{zlib.crc32(path.encode('utf-8', 'surrogateescape')):08x}"


def local_index_dir(project: str) -> str:
    return os.path.join(workspace.state_dir(project), "index")


def index_path(project: str) -> str:
    """`.sidekit/index/functions.json` when that folder exists, else the project's user-cache
    file."""
    local = local_index_dir(project)
    if os.path.isdir(local):
        return os.path.join(local, INDEX_FILE)
    return os.path.join(cache_dir(), project_key(project) + ".json")


def lock_path(project: str) -> str:
    """The refresh lock: always in the cache, never inside the project."""
    return os.path.join(cache_dir(), project_key(project) + ".lock")


# ---------------------------------------------------------------------------------------------
# Hot path: freshness, the background refresh, and the cheap scan for added functions.


def ensure_fresh(project: str, touched_python: bool) -> bool:
    """Start a detached refresh when the index is missing, or older than a write to a .py file.

    Returns True when a refresh was started. Costs two stats on the usual path; never waits.
    """
    try:
        built = os.stat(index_path(project)).st_mtime
    except OSError:
        built = 0.0
    if built and not (touched_python and time.time() - built > REFRESH_AFTER):
        return False
    if not background.lock_is_stale(lock_path(project)):
        return False  # a refresh is already running
    try:
        background.spawn_module("sidekit_hooks.code.function_index", ["refresh", project])
    except OSError:
        return False
    return True


def added_blocks(text: str, min_lines: int = MIN_LINES) -> list[tuple[str, str]]:
    """(name, source) of every `def` in `text` spanning `min_lines`+ non-blank lines. Stdlib, no
    `re`.

    The block runs from the `def` line to the first non-blank line indented no deeper than it.
    """
    lines = text.splitlines()
    blocks: list[tuple[str, str]] = []
    for start, line in enumerate(lines):
        stripped = line.lstrip()
        if not stripped.startswith(("def ", "async def ")):
            continue
        indent = len(line) - len(stripped)
        body = [line]
        for follower in lines[start + 1 :]:
            if follower.strip() and len(follower) - len(follower.lstrip()) <= indent:
                if not follower.lstrip().startswith((")", "]", "}")):
                    break
            body.append(follower)
        code = [b for b in body if b.strip() and not b.lstrip().startswith("#")]
        if len(code) >= min_lines:
            name = stripped.split("def ", 1)[1].split("(", 1)[0].strip()
            blocks.append(
                (
                    name,
                    "\n".join(b[indent:] if not b[:indent].strip() else b.lstrip() for b in body),
                )
            )
    return blocks


def code_lines(source: str) -> int:
    """Lines that are not blank and not comments (the size the floors above count)."""
    return sum(
        1 for line in source.splitlines() if line.strip() and not line.lstrip().startswith("#")
    )


def load(project: str) -> dict[str, Any] | None:
    """The index as stored, or None when it is missing, unreadable or of another version."""
    try:
        data = fastjson.loads(
            safepath.read_bytes(safepath.check(index_path(project)), safepath.MAX_STATE).decode()
        )
    except (OSError, ValueError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("version") != VERSION
        or not isinstance(data.get("files"), dict)
    ):
        return None
    return data


def indexable(name: str) -> bool:
    """Helpers worth pointing at: not tests, not dunders."""
    return not name.startswith("test") and not (name.startswith("__") and name.endswith("__"))


def normalize(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The body's tokens: docstring dropped, locals renamed v1, v2... by first use, long strings
    cut."""
    return analyze(node)[0]


def analyze(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[list[str], list[str]]:
    """(normalized body tokens, outside names) of a function.

    The tokens are the body's syntax tree in depth-first order (node kinds, names, attributes,
    constants), docstring dropped, local names renamed v1, v2... by first use, long strings cut: a
    copy with other local names or other formatting gives the same tokens. The outside names are the
    module-level names the body reads (not locals, not builtins, not the function itself), e.g.
    `User`, `json`, `slugify`: two bodies of one shape over different collaborators (`User` vs
    `Order`) are not duplicates. Only the C `_ast` module is used: `ast` costs a hook ~3 ms more.
    Renames in place: `node` is a fresh parse, used for nothing else afterwards.
    """
    import _ast
    import builtins

    body = list(node.body)
    if (
        body
        and isinstance(body[0], _ast.Expr)
        and isinstance(body[0].value, _ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    nodes = walk(body)
    local = {a.arg for a in walk(node.args) if isinstance(a, _ast.arg)}
    for sub in nodes:
        if isinstance(sub, _ast.Name) and isinstance(sub.ctx, _ast.Store):
            local.add(sub.id)
        elif isinstance(sub, _ast.arg):
            local.add(sub.arg)
        elif isinstance(sub, _ast.ExceptHandler) and sub.name:
            local.add(sub.name)
    outside = sorted(
        {
            n.id
            for n in nodes
            if isinstance(n, _ast.Name)
            and n.id not in local
            and n.id != node.name
            and not hasattr(builtins, n.id)
        }
    )
    names = sorted(
        (n for n in nodes if isinstance(n, _ast.Name) and n.id in local),
        key=lambda n: (n.lineno, n.col_offset),
    )
    numbering: dict[str, str] = {}
    for name_node in names:
        name_node.id = numbering.setdefault(name_node.id, f"v{len(numbering) + 1}")
    for sub in nodes:
        if isinstance(sub, _ast.arg):
            sub.arg = numbering.setdefault(sub.arg, f"v{len(numbering) + 1}")
        elif isinstance(sub, _ast.ExceptHandler) and sub.name:
            sub.name = numbering.setdefault(sub.name, f"v{len(numbering) + 1}")
    tokens: list[str] = []
    serialize(body, tokens)
    return tokens, outside


def walk(root: object) -> list[ast.AST]:
    """Every syntax node under `root` (a node or a list of them), depth first, in source order."""
    import _ast

    found: list[ast.AST] = []
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, _ast.AST):
            found.append(item)
            stack.extend(reversed([getattr(item, field, None) for field in item._fields]))
    return found


def serialize(item: object, out: list[str]) -> None:
    """Tokens of a syntax tree: node kinds, names, `.attributes`, constants (strings cut)."""
    import _ast

    if isinstance(item, list):
        for element in item:
            serialize(element, out)
        return
    if isinstance(item, _ast.Name):
        out.append(item.id)
    elif isinstance(item, _ast.Constant):
        value = item.value
        text = repr(value[:MAX_STRING] if isinstance(value, str) else value)
        out.append(
            "_".join(text.split())
        )  # tokens are stored space-separated: none may hold a space
    elif isinstance(item, _ast.Attribute):
        serialize(item.value, out)
        out.append("." + item.attr)
    elif isinstance(item, _ast.arg):
        out.append(item.arg)
    elif isinstance(item, _ast.AST) and not isinstance(item, _ast.expr_context):
        out.append(type(item).__name__)
        for field in item._fields:
            value = getattr(item, field, None)
            if isinstance(value, str):
                out.append(value)  # a def's or keyword's name, an import's module
            elif field != "type_comment":
                serialize(value, out)


# ---------------------------------------------------------------------------------------------
# Matching an added function against the index (rare path: a 5+ line function was added).


class Match:
    """An existing function the added one duplicates."""

    __slots__ = ("path", "line", "signature", "name", "body", "name_score")

    def __init__(
        self, path: str, line: int, signature: str, name: str, body: float, name_score: float
    ) -> None:
        self.path = path
        self.line = line
        self.signature = signature
        self.name = name
        self.body = body
        self.name_score = name_score

    def __repr__(self) -> str:
        return f"Match({self.path}:{self.line} {self.signature}, body={self.body:.2f}, name={self.name_score:.2f})"


def parse(source: str) -> ast.Module | None:
    """The syntax tree of `source`, through the C parser only (no `ast` module), or None."""
    import _ast

    try:
        tree = compile(source, "<sidekit>", "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
    except (
        SyntaxError,
        ValueError,
        RecursionError,
    ):  # RecursionError: nesting too deep to build a tree
        return None
    return tree if isinstance(tree, _ast.Module) else None


def parse_function(source: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The first function defined in `source` (a block cut from added text), or None."""
    import _ast

    tree = parse(source)
    node = tree.body[0] if tree is not None and tree.body else None
    return node if isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef)) else None


def name_words(name: str) -> str:
    """`newSlug` / `new_slug` -> "new slug": words for comparing names across styles."""
    return " ".join(stem(word) for word in identifier_words(name))


def stem(word: str) -> str:
    """A crude stem, enough for names: `chunked`/`chunks` -> `chunk`, `slugify` -> `slug`."""
    for suffix in ("ified", "ify", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def best_match(
    name: str,
    tokens: list[str],
    index: dict[str, Any],
    skip: tuple[str, str] = ("", ""),
    outside: list[str] | None = None,
    shape: bool = True,
    node: ast.FunctionDef | ast.AsyncFunctionDef | None = None,
) -> Match | None:
    """The indexed function the added one copies: by its tokens (`token_match`), else, given its
    syntax tree `node` and MIN_LINES+ lines, by what it does once the rewrites agents make are
    undone (`behaviour_match`, #35). The cheap rules run first: most copies are found without
    normalising."""
    found = token_match(name, tokens, index, skip, outside, shape)
    if node is None:
        return found
    if found is not None and not replaced_step(node, found, index):
        return found
    return (
        behaviour_match(node, index, skip) if shape else None
    )  # which vetoes the replaced step too


def replaced_step(
    node: ast.FunctionDef | ast.AsyncFunctionDef, match: Match, index: dict[str, Any]
) -> bool:
    """A token match whose helper does one step otherwise (`near_copies.swapped` on the features the
    index prepared): the shape alike, the behaviour not. False when the entry has no features (an
    older index)."""
    from sidekit_hooks.code import near_copies, rewrites

    record = index.get("files", {}).get(match.path)
    entry = (
        next((e for e in record.get("f", []) if e[0] == match.name), None)
        if isinstance(record, dict)
        else None
    )
    if entry is None or len(entry) <= CALLEES:
        return False
    try:
        features = set(rewrites.features(node))
        canonical = rewrites.canonical(node)
    except RecursionError:
        return False
    if near_copies.other_condition(canonical, str(entry[CANONICAL]).split()):
        return True  # the same code with a test negated or made strict: another condition
    existing = set(str(entry[FEATURES]).split())
    callees = set(str(entry[CALLEES]).split())
    if near_copies.dropped_work(features, existing, callees):
        return True
    own = existing
    if callees:
        existing = near_copies.widened(existing, callees, features)
    return near_copies.swapped(features, existing) or near_copies.one_sided(features, own, existing)


def token_match(
    name: str,
    tokens: list[str],
    index: dict[str, Any],
    skip: tuple[str, str] = ("", ""),
    outside: list[str] | None = None,
    shape: bool = True,
) -> Match | None:
    """The indexed function the added one most resembles, if it is a copy by one of two rules.

    Shape: the normalized bodies are close (BODY_ALONE), or fairly close with a name that says the
    same (BODY_WITH_NAME + NAME_CLOSE), and the added function uses every outside name the existing
    one uses. Evidence (`code.near_copies`, for rewritten copies): the same distinctive literals,
    the same calls in a similar order and a body still alike; outside names the rewrite may have
    inlined (functions, constants) need not be used. Either way, a candidate whose literals mostly
    differ from the added function's, or one of whose methods the added function swapped for
    another, is never a copy; and when two helpers of other names are nearly tied, neither is named.

    `skip` is (path, name) of the function being edited itself, which always resembles its old self.
    `shape=False` (an added function under MIN_LINES): the shape of a body that short says little,
    so only literal evidence may make it a copy. Helpers with the same body (twins) count as one
    helper. rapidfuzz (about 20 ms to import) loads only when some entry passes a cheap upper bound.
    """
    from sidekit_hooks.code import near_copies

    added_literals = near_copies.literals(tokens)
    if not shape and not near_copies.telling(added_literals):
        return None
    candidates = plausible(
        tokens, index, skip, None if outside is None else set(outside), added_literals
    )
    if not candidates:
        return None
    from sidekit_hooks.core.thirdparty import enable_site_packages

    enable_site_packages()
    try:
        from rapidfuzz import fuzz
        from rapidfuzz.distance import Indel
    except (
        ImportError
    ):  # the plugin's environment is still building: its worker answers once it is ready
        from sidekit_hooks.core import budget

        raise budget.Later("rapidfuzz is not installed yet") from None

    words = name_words(name)
    added_calls = near_copies.calls(tokens, outside or ())
    ranked: list[tuple[float, Match, str]] = []
    for path, entry, candidate, shape_allowed in candidates:
        other_name, line, sig = entry[0], entry[1], entry[2]
        existing_literals = near_copies.literals(candidate)
        if (
            near_copies.disagree(added_literals, existing_literals)
            or near_copies.replaced_attribute(tokens, candidate)
            or near_copies.replaced_separator(tokens, candidate)
        ):
            continue  # same shape, other patterns, messages, steps or separators: other behaviour
        body = Indel.normalized_similarity(tokens, candidate)
        if body < near_copies.EVIDENCE_BODY:
            continue
        name_score = fuzz.token_set_ratio(words, name_words(other_name)) / 100
        alike = (
            shape
            and shape_allowed
            and (body >= BODY_ALONE or (body >= BODY_WITH_NAME and name_score >= NAME_CLOSE))
        )
        if not alike and not evidence(
            added_literals, existing_literals, added_calls, candidate, entry, body
        ):
            continue
        rank = body + near_copies.agreement(added_literals, existing_literals)[0]
        ranked.append(
            (rank, Match(path, line, sig, other_name, body, name_score), f"{entry[4]}|{entry[5]}")
        )
    return unambiguous(one_per_body(ranked))


def behaviour_match(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    index: dict[str, Any],
    skip: tuple[str, str] = ("", ""),
) -> Match | None:
    """The helper a restructured copy repeats (#35), from what the index build prepared
    (`code.rewrites`): the helpers are ranked by the features they share with the added function (a
    helper it no longer calls counts with the features of the helpers it called: inlined), then the
    best CANDIDATES are confirmed on their canonical bodies and on no replaced step
    (`near_copies.swapped`). Entries of an index built before #35 have no features and are left out.
    Normalises the added function only."""
    from sidekit_hooks.code import rewrites

    try:
        features = set(rewrites.features(node))
        canonical = rewrites.canonical(node)
    except RecursionError:  # a pathologically nested body: not compared this way
        return None
    return behaviour_rank(node.name, features, canonical, index, skip)


def behaviour_rank(
    name: str,
    features: set[str],
    canonical: list[str],
    index: dict[str, Any],
    skip: tuple[str, str] = ("", ""),
) -> Match | None:
    """`behaviour_match` on what any language's normaliser made of the added function (its features
    and canonical tokens), against index entries that carry the same (`code.languages.behaviour` for
    the tree-sitter languages)."""
    from sidekit_hooks.code import near_copies

    if len(features) < near_copies.MIN_FEATURES:
        return None
    ranked: list[tuple[float, str, list[Any], set[str]]] = []
    code = [(f, near_copies.weight(f)) for f in features if not f.startswith("d:")]
    doc = near_copies.DOC_WEIGHT if len(code) < len(features) else 0.0
    whole = sum(w for _f, w in code) + doc
    for path, record in index.get("files", {}).items():
        for entry in record.get("f", []) if isinstance(record, dict) else []:
            if len(entry) <= CALLEES or (path, entry[0]) == skip or entry[3] < MIN_LINES - 1:
                continue
            # An upper bound first, by substring tests on the stored text (no split, no set): most
            # of the index is ruled out here, which keeps a hook's cost to a few milliseconds.
            text, extra = entry[FEATURES], entry[CALLEES]
            present = sum(w for f, w in code if f in text or (extra and f in extra))
            if (present + doc) / whole < near_copies.RANK_FLOOR:
                continue
            existing = set(str(entry[FEATURES]).split())
            best, checked = near_copies.overlap(features, existing), existing
            if entry[
                CALLEES
            ]:  # checked with what its helpers do, whether the copy inlined them or not
                checked = near_copies.widened(existing, set(str(entry[CALLEES]).split()), features)
                best = max(best, near_copies.overlap(features, checked))
            if best >= near_copies.RANK_FLOOR:
                ranked.append((best, path, entry, checked))
    if not ranked:
        return None
    ranked.sort(key=lambda item: -item[0])
    counts: dict[str, int] = {}
    for token in canonical:
        counts[token] = counts.get(token, 0) + 1
    survivors: list[tuple[float, str, list[Any], set[str], list[str]]] = []
    for rank, path, entry, existing in ranked[: near_copies.CANDIDATES]:
        if near_copies.swapped(features, existing) or near_copies.other_classes(features, existing):
            continue
        if near_copies.one_sided(features, set(str(entry[FEATURES]).split()), existing):
            continue
        if near_copies.dropped_work(
            features, set(str(entry[FEATURES]).split()), set(str(entry[CALLEES]).split())
        ):
            continue
        other = str(entry[CANONICAL]).split()
        if near_copies.other_aggregate(canonical, other) or near_copies.other_condition(
            canonical, other
        ):
            continue
        # Indel similarity is at most the share of the two token multisets in common: below what
        # could confirm, rapidfuzz (about 20 ms to import in a hook) is not needed at all
        seen: dict[str, int] = {}
        common = 0
        for token in other:
            used = seen.get(token, 0)
            common += used < counts.get(token, 0)
            seen[token] = used + 1
        if 2 * common / max(1, len(canonical) + len(other)) >= near_copies.CANONICAL_FLOOR:
            survivors.append((rank, path, entry, existing, other))
    if not survivors:
        return None
    from sidekit_hooks.core.thirdparty import enable_site_packages

    enable_site_packages()
    try:
        from rapidfuzz import fuzz
        from rapidfuzz.distance import Indel
    except ImportError:
        from sidekit_hooks.core import budget

        raise budget.Later("rapidfuzz is not installed yet") from None
    words = name_words(name)
    found: list[tuple[float, Match, str]] = []
    for rank, path, entry, existing, other in survivors:
        body = Indel.normalized_similarity(canonical, other)
        if not near_copies.confirmed(rank, body, near_copies.shared_weight(features, existing)):
            continue
        name_score = fuzz.token_set_ratio(words, name_words(entry[0])) / 100
        match = Match(path, entry[1], entry[2], entry[0], body, name_score)
        found.append(((rank + body) / 2, match, f"{entry[CANONICAL]}|{entry[FEATURES]}"))
    return unambiguous(one_per_body(found))


def one_per_body(ranked: list[tuple[float, Match, str]]) -> list[tuple[float, Match]]:
    """One match per body: helpers with the same normalized body and collaborators (cachetools'
    `hashkey` and `methodkey`, the second with a `self` first) do the same thing, so either is the
    right one to name and they are no rivals. The one whose name is closest to the added function's
    stays (then the first in the index)."""
    kept: dict[str, tuple[float, Match]] = {}
    for rank, match, body in ranked:
        best = kept.get(body)
        if best is None or (rank, match.name_score) > (best[0], best[1].name_score):
            kept[body] = (rank, match)
    return list(kept.values())


def unambiguous(ranked: list[tuple[float, Match]]) -> Match | None:
    """The best match, unless another helper of another name is nearly as good (two look-alike
    helpers, `get_in` and `has_path`): naming the wrong one is worse than naming none."""
    ranked.sort(key=lambda item: -item[0])
    if not ranked:
        return None
    best_rank, best = ranked[0]
    rivals = [(rank, match) for rank, match in ranked[1:] if match.name != best.name]
    if best.body >= SAME_BODY and all(match.body < SAME_BODY for _rank, match in rivals):
        return (
            best  # the same body as the added function's, the others not: no look-alike rivals it
        )
    rival = rivals[0][0] if rivals else None
    return None if rival is not None and best_rank - rival < AMBIGUOUS else best


def evidence(
    added_literals: list[str],
    existing_literals: list[str],
    added_calls: list[str],
    candidate: list[str],
    entry: list[Any],
    body: float,
) -> bool:
    """The rewrite-proof rules of `code.near_copies`: shared literals and calls in a similar order,
    or without literals, nearly the same calls with a fairly close body."""
    from rapidfuzz.distance import Indel

    from sidekit_hooks.code import near_copies

    existing_calls = near_copies.calls(candidate, str(entry[5]).split())
    similar = Indel.normalized_similarity(added_calls, existing_calls)
    if near_copies.literal_evidence(added_literals, existing_literals):
        return bool(similar >= near_copies.EVIDENCE_CALLS)
    return (
        body >= BODY_WITH_NAME
        and len(existing_calls) >= near_copies.CALLS_ALONE_MIN
        and similar >= near_copies.CALLS_ALONE
    )


def plausible(
    tokens: list[str],
    index: dict[str, Any],
    skip: tuple[str, str],
    outside: set[str] | None = None,
    added_literals: list[str] | None = None,
) -> list[tuple[str, list[Any], list[str], bool]]:
    """Entries that could be copies: (path, entry, tokens, whether the shape rule may apply).

    Indel similarity is 2*LCS/(m+n), and the LCS is at most the size of the two token multisets'
    intersection: an entry whose bound is under BODY_WITH_NAME can only be a copy by literal
    evidence (then its bound must still reach EVIDENCE_BODY). Pure Python, no imports but
    `code.near_copies`."""
    from sidekit_hooks.code import near_copies

    counts: dict[str, int] = {}
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    # Literal evidence needs EVIDENCE_LITERALS distinctive literals in both: a substring test on the
    # stored token text rules most entries out before any split (the index may hold thousands).
    strong = set(added_literals or ())
    if not near_copies.telling(strong):
        strong = set()
    found: list[tuple[str, list[Any], list[str], bool]] = []
    for path, record in index.get("files", {}).items():
        for entry in record.get("f", []) if isinstance(record, dict) else []:
            if (path, entry[0]) == skip or entry[3] < MIN_LINES - 1:
                continue
            text = entry[4]
            missing: list[str] = []
            if outside is not None and not outside.issuperset(entry[5].split()):
                if not strong:
                    # other collaborators, and no literals that could say it is a copy all the same
                    continue
                missing = [n for n in entry[5].split() if n not in outside]
                if any(not near_copies.inlinable(n) for n in missing):
                    continue  # other classes (User vs Order): same shape, different work
            hits = (
                sum(2 if len(t) >= near_copies.LONG_LITERAL else 1 for t in strong if t in text)
                if strong
                else 0
            )
            literal_hint = hits >= near_copies.EVIDENCE_LITERALS
            if missing and not literal_hint:
                continue  # helpers or constants inlined: only literal evidence can make it a copy
            candidate = text.split()
            total = len(tokens) + len(candidate)
            if not 0.5 <= len(candidate) / max(1, len(tokens)) <= 2.0:
                continue
            seen: dict[str, int] = {}
            common = 0
            for token in candidate:
                used = seen.get(token, 0)
                if used < counts.get(token, 0):
                    common += 1
                seen[token] = used + 1
            bound = 2 * common / total
            if bound >= BODY_WITH_NAME and not missing:
                found.append((path, entry, candidate, True))
            elif (
                literal_hint
                and bound >= near_copies.EVIDENCE_BODY
                and near_copies.literal_evidence(
                    added_literals or [], near_copies.literals(candidate)
                )
            ):
                found.append((path, entry, candidate, False))
    return found


def defined_at(project: str, match: Match) -> int | None:
    """The line where the matched function is defined now (the one nearest the index's line), or
    None when it is gone: the index may be older than an edit that moved or removed it (an Edit that
    adds a copy above its helper moves the helper down)."""
    from sidekit_hooks.core import safepath

    data = safepath.read_project_file(project, match.path, MAX_FILE_BYTES)
    if data is None or f"def {match.name}(".encode() not in data:
        return None
    heads = (f"def {match.name}(", f"async def {match.name}(")
    lines = data.decode("utf-8", "replace").splitlines()
    found = [number for number, line in enumerate(lines, 1) if line.lstrip().startswith(heads)]
    return min(found, key=lambda number: abs(number - match.line)) if found else None


def still_defined(project: str, match: Match) -> bool:
    """Guards against a stale index: the matched function is still defined in its file."""
    return defined_at(project, match) is not None


if (
    __name__ == "__main__"
):  # `python -m sidekit_hooks.code.functions refresh|build PROJECT` goes on working
    import runpy

    runpy.run_module("sidekit_hooks.code.function_index", run_name="__main__", alter_sys=True)
