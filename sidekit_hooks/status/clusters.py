"""Root-cause clusters: failures from one cause become one entry with an `affected` count.

The key is the exception type, the phase, the crash location, the deepest in-project frame when the
crash is outside the project, and the type of the chained cause; for runners other than pytest also
the message's shape (`shape`: values taken out), as their failures carry no exception types to tell
causes apart. Otherwise the message is not part of the key (a parametrized test fails with twenty
messages); normalized messages are kept as counted variants. A failing assert whose text reports
another cluster's exception (a test asserting on a captured exception) joins that cluster as
`reported`, when type and normalized message both match.
"""

from __future__ import annotations

from sidekit_hooks.core import textscan
from sidekit_hooks.status.vocabulary import FAILING as FAILING

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

MIN_PREFIX = 20  # a cut-off repr matches a message only when this much of it agrees
MAX_VARIANTS = 5
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")

_NORMALIZED: dict[
    str, str
] = {}  # one run's messages are normalized for its shapes, its clusters and variants
NORMALIZED_KEPT = 4096


def normalize(message: str) -> str:
    r"""The message with addresses, quoted values and numbers replaced, so variants can be counted: in
    turn what `re.sub` makes of `0x[0-9a-fA-F]+` -> `0x…`, `'(?:[^'\\\n]|\\.)*'` -> `'…'`, the same
    in double quotes -> `"…"`, and `(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?!\w)` -> `N`
    (scanned without `re`: a compacted go or cargo run starts a Python that clusters)."""
    found = _NORMALIZED.get(message)
    if found is not None:
        return found
    found = _numbers(_quoted(_quoted(_addresses(message), "'"), '"'))
    if len(_NORMALIZED) < NORMALIZED_KEPT:
        _NORMALIZED[message] = found
    return found


def _addresses(text: str) -> str:
    index = text.find("0x")
    if index < 0:
        return text
    parts: list[str] = []
    kept = 0
    while index >= 0:
        end = index + 2
        while end < len(text) and text[end] in HEX_DIGITS:
            end += 1
        if end > index + 2:
            parts += (text[kept:index], "0x…")
            kept = end
        index = text.find("0x", kept if kept > index else index + 1)
    return "".join(parts) + text[kept:]


def _quoted(text: str, quote: str) -> str:
    index = text.find(quote)
    if index < 0:
        return text
    if "\\" not in text and "\n" not in text:  # no escapes, one line: each quote closes at the next
        pieces = text.split(quote)
        kept_pieces = [pieces[0]]
        for inside in range(1, len(pieces) - 1, 2):
            kept_pieces += (quote + "…" + quote, pieces[inside + 1])
        if len(pieces) % 2 == 0:  # a last quote that nothing closes: left as it is
            kept_pieces.append(quote + pieces[-1])
        return "".join(kept_pieces)
    parts: list[str] = []
    kept = 0
    while index >= 0:
        end = textscan.quoted_end(text, index, newline_ends=True)
        if end > 0:
            parts += (text[kept:index], quote + "…" + quote)
            kept = end
        index = text.find(quote, kept if kept > index else index + 1)
    return "".join(parts) + text[kept:]


def _numbers(text: str) -> str:
    parts: list[str] = []
    kept = 0
    for digits, _ in textscan.digit_runs(text):
        if digits < kept or _after_word(text, digits):
            continue  # inside the number before, or the tail of a word (`v2`) or of a number (`.5`)
        end = _number_end(text, digits)
        if end > 0:
            signed = text[digits - 1 : digits] in ("+", "-") and not _after_word(text, digits - 1)
            parts += (text[kept : digits - signed], "N")
            kept = end
    return "".join(parts) + text[kept:] if parts else text


def _after_word(text: str, index: int) -> bool:
    r"""`index` is not where `(?<![\w.])` lets a number start."""
    return index > 0 and (text[index - 1] == "." or textscan.is_word(text[index - 1]))


def _number_end(text: str, start: int) -> int:
    """Where the number whose digits start at `start` ends, as the regex's backtracking finds it:
    with its fraction and exponent when present, else shorter, never followed by a word character;
    or -1."""
    whole = textscan.decimal_end(text, start)
    bases = [whole]
    if text[whole : whole + 1] == "." and text[whole + 1 : whole + 2].isdecimal():
        bases.insert(0, textscan.decimal_end(text, whole + 1))
    for base in bases:
        exponent = _exponent_end(text, base)
        for end in (exponent, base) if exponent else (base,):
            if end == len(text) or not textscan.is_word(text[end]):
                return end
    return -1


def _exponent_end(text: str, start: int) -> int:
    r"""The end of `e[-+]?\d+` at `start`, or 0."""
    if text[start : start + 1] != "e":
        return 0
    digits = start + 2 if text[start + 1 : start + 2] in ("-", "+") else start + 1
    end = textscan.decimal_end(text, digits)
    return end if end > digits else 0


def key_of(failure: dict[str, Any], phase: str) -> tuple[str, ...]:
    at = str(failure.get("at", ""))
    frame = str(failure.get("frame", ""))
    cause = str(failure.get("cause", "")).partition(":")[0]
    kind = ".".join(filter(None, (failure.get("module"), str(failure.get("type", "Error")))))
    key = (kind, phase, at, "" if frame == at else frame, cause)
    shape = failure.get(
        "shape"
    )  # other runners: the message's shape joins the key (pytest's keys unchanged)
    if shape and at and not in_test_code(at):
        return (
            key  # the code that broke is under test: one cause there, whatever each assertion said
        )
    return (*key, str(shape)) if shape else key


TEST_FOLDERS = ("test", "tests", "__tests__", "spec", "testdata")
TEST_NAME_ENDS = (
    "_test.go",
    "_test.py",
    "Test.java",
    "Tests.java",
    "IT.java",
    "Test.kt",
    "Tests.cs",
    "Test.cs",
)


def in_test_code(at: str) -> bool:
    """`at` (`path:line`) lies in test code by the usual layouts of every runner: a test folder, a
    go or Python test file, a `*.test.*`/`*.spec.*` script, a JVM or .NET test class; else in code
    under test."""
    path = at.rpartition(":")[0] if at.rpartition(":")[2].isdigit() else at
    folders, _, name = path.replace("\\", "/").rpartition("/")
    if any(part in TEST_FOLDERS for part in folders.split("/")):
        return True
    return (
        name.endswith(TEST_NAME_ENDS)
        or name.startswith("test_")
        or ".test." in name
        or ".spec." in name
    )


def cluster_id(key: tuple[str, ...]) -> str:
    return sha1_hex("\x1f".join(key).encode("utf-8", "surrogatepass"))[:8]


def sha1_hex(data: bytes) -> str:
    """SHA-1 in hex, by the built-in module: no hashlib and its OpenSSL start-up (a compacted go or
    cargo run starts a Python that clusters)."""
    try:
        from _sha1 import sha1
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import sha1
    return str(sha1(data).hexdigest())


def natural(test: str) -> list[Any]:
    r"""Sort key that puts test[2] before test[10]: the parts `re.split(r"(\d+)", test)` makes (each
    test's key made once per process: a run sorts its failures for the table's clusters and its
    own)."""
    found = _NATURAL.get(test)
    if found is None:
        found = _natural(test)
        if len(_NATURAL) < NORMALIZED_KEPT:
            _NATURAL[test] = found
    return found


_NATURAL: dict[str, list[Any]] = {}


def _natural(test: str) -> list[Any]:
    parts: list[str] = []
    kept = 0
    for start, end in textscan.digit_runs(test):
        parts += (test[kept:start], test[start:end])
        kept = end
    parts.append(test[kept:])
    return [int(part) if part.isdigit() else part for part in parts]


class Member:
    """One failing test (or a module that failed to collect) as clustering sees it."""

    __slots__ = ("test", "failure", "phase", "new")

    def __init__(
        self, test: str, failure: dict[str, Any], phase: str = "call", new: bool = False
    ) -> None:
        self.test = test
        self.failure = failure
        self.phase = phase
        self.new = new


def of_table(
    tests: dict[str, dict[str, Any]], errors: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The clusters of a per-test table (test id -> entry) and its collection errors (path ->
    failure)."""
    members = [
        Member(t, e.get("f") or {}, e.get("p", "call"), bool(e.get("new")))
        for t, e in tests.items()
        if e.get("o") in FAILING
    ]
    members += [Member(p, f, "collect", bool(f.get("new"))) for p, f in errors.items()]
    return build(members)


def build(members: Iterable[Member]) -> list[dict[str, Any]]:
    """Clusters, biggest first; each names its tests (sorted, so xdist order never matters)."""
    groups: dict[tuple[str, ...], list[Member]] = {}
    for member in sorted(members, key=lambda m: natural(m.test)):
        groups.setdefault(key_of(member.failure, member.phase), []).append(member)
    reported = _join_reporters(groups)
    clusters = [
        _summarize(key, items, reported.get(key, [])) for key, items in groups.items() if items
    ]
    clusters.sort(
        key=lambda c: (c.get("type") not in CUT_SHORT, -c["affected"], c.get("at", ""), c["id"])
    )
    return clusters


# Failures that ended their whole test binary (go: a panic, a timeout): the tests after them never
# ran, so they come first, whatever their size.
CUT_SHORT = ("panic", "timeout")


def _join_reporters(
    groups: dict[tuple[str, ...], list[Member]],
) -> dict[tuple[str, ...], list[Member]]:
    """Move failing asserts that report another cluster's exception into that cluster."""
    signatures: list[tuple[str, str, tuple[str, ...], int]] = []
    for key, items in groups.items():
        if not key[0].endswith("AssertionError"):
            for member in items:
                kind = str(member.failure.get("type", ""))
                signatures.append(
                    (
                        kind,
                        normalize(_bare(str(member.failure.get("message", "")))),
                        key,
                        len(items),
                    )
                )
    joined: dict[tuple[str, ...], list[Member]] = {}
    if not signatures:
        return joined
    for key, items in list(groups.items()):
        if not key[0].endswith("AssertionError"):
            continue
        for member in list(items):
            target = _cause_of(member, signatures)
            if target is not None:
                items.remove(member)
                groups[target].append(member)
                joined.setdefault(target, []).append(member)
    return joined


def _cause_of(
    member: Member, signatures: list[tuple[str, str, tuple[str, ...], int]]
) -> tuple[str, ...] | None:
    best: tuple[int, tuple[str, ...]] | None = None
    for mention in member.failure.get("mentions", ()):
        kind, _, message = str(mention).partition(": ")
        norm = normalize(_bare(message))
        for sig_kind, sig_norm, key, size in signatures:
            if (
                sig_kind == kind
                and _same_message(norm, sig_norm)
                and (best is None or size > best[0])
            ):
                best = (size, key)
    return best[1] if best else None


def _bare(message: str) -> str:
    """Without one layer of enclosing quotes: str(KeyError("x")) is '"x"', its repr shows "x"."""
    message = message.strip()
    if len(message) >= 2 and message[0] == message[-1] and message[0] in "'\"":
        return message[1:-1]
    return message


def _same_message(a: str, b: str) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= MIN_PREFIX and long.startswith(short.rstrip("…'\" "))


def _summarize(key: tuple[str, ...], items: list[Member], reported: list[Member]) -> dict[str, Any]:
    items.sort(key=lambda m: natural(m.test))
    first = next((m for m in items if m not in reported), items[0])
    failure = first.failure
    variants: dict[str, int] = {}
    for member in items:
        if member not in reported:
            norm = normalize(str(member.failure.get("message", "")))
            variants[norm] = variants.get(norm, 0) + 1
    cluster: dict[str, Any] = {
        "id": cluster_id(key),
        "type": str(failure.get("type", "Error")),
        "phase": key[1],
        "at": key[2],
        "frame": key[3],
        "message": str(failure.get("message", "")),
        "cause": str(failure.get("cause", "")),
        "affected": len(items),
        "reported": len(reported),
        "new": sum(1 for m in items if m.new),
        "tests": [m.test for m in items],
    }
    if failure.get(
        "checks"
    ):  # where the test asserted it (runners/go/subject.py); `at` is the function
        cluster["checks"] = str(failure["checks"])
    if len(variants) > 1:
        ranked = sorted(variants.items(), key=lambda kv: (-kv[1], kv[0]))
        cluster["variants"] = [[text, count] for text, count in ranked[:MAX_VARIANTS]]
        cluster["moreVariants"] = max(0, len(ranked) - MAX_VARIANTS)
    return cluster
