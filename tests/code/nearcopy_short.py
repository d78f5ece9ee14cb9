"""SHORT near-copy cases (#18): functions under the 5-line floor, which the sidecar compares by
literal evidence only (an inlined rewrite of a helper is short). Written blind, once the rules were
final, and measured once: no rule was changed after seeing the result. One case was dropped after
that run: a copy of generate_slug that had 5 lines (not short) and repeated a case of
nearcopy_heldout2.py; it was named right, so dropping it lowered the figures (from 0.86 (6/7) / 0.67
(6/9) to 0.83 (5/6) / 0.62 (5/8)). Helpers of held-out packages only (inflection, pyhumps,
humanfriendly, webcolors).
"""

from __future__ import annotations

from nearcopies import Case

COPIES = [
    Case(
        "inflection",
        "ordinal",
        """
def suffix_for(n):
    n = abs(int(n))
    return "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
""",
        "the if/else as a conditional expression",
    ),
    Case(
        "inflection",
        "humanize",
        """
def humanish(word):
    word = re.sub(r"_id$", "", word).replace("_", " ")
    return re.sub(r"^\\w", lambda m: m.group(0).upper(), re.sub(r"(?i)([a-z\\d]*)", lambda m: m.group(1).lower(), word))
""",
        "four steps in two statements",
    ),
    Case(
        "inflection",
        "transliterate",
        """
def to_ascii(s):
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode("ascii")
""",
        "the temporary inlined",
    ),
    Case(
        "humanfriendly",
        "join_lines",
        '''
def unwrap(text):
    """Join lines that were wrapped."""
    return re.sub(r"(\\S)\\n(\\S)", r"\\1 \\2", text)
''',
        "the same one-liner, renamed",
    ),
    Case(
        "humanfriendly",
        "pluralize_raw",
        """
def plural_of(count, singular, plural=None):
    return singular if float(count) == 1.0 else (plural or singular + "s")
""",
        "the default folded into an `or`; one short literal only",
    ),
    Case(
        "humps",
        "_is_none",
        """
def strip_ws(value):
    return re.sub(r"\\s+", "", str(value)) if value is not None else ""
""",
        "the conditional turned around; one short literal only",
    ),
    Case(
        "webcolors",
        "_percent_to_integer",
        """
def pct_to_int(p):
    return int(round(float(p.split("%")[0]) / 100 * 255))
""",
        "the same one-liner, renamed",
    ),
    Case(
        "webcolors",
        "_normalize_integer_rgb",
        """
def clip(v):
    return min(255, max(0, v))
""",
        "the chained conditional as min/max; one number only",
    ),
]

NEAR_MISSES = [
    Case(
        "inflection",
        "",
        """
def is_teen(n):
    return abs(int(n)) % 100 in (11, 12, 13)
""",
        "ordinal's numbers, a predicate",
    ),
    Case(
        "inflection",
        "",
        """
def label(word):
    word = re.sub(r"_id$", "", word).replace("_", " ")
    return re.sub(r"^\\w", lambda m: m.group(0).lower(), word)
""",
        "humanize's first steps, the first letter lower-cased instead of the words",
    ),
    Case(
        "inflection",
        "",
        """
def compose(s):
    return unicodedata.normalize("NFKC", s).encode("utf-8", "replace").decode("utf-8")
""",
        "transliterate's shape, another form and error policy",
    ),
    Case(
        "humanfriendly",
        "",
        """
def split_wrapped(text):
    return re.split(r"(\\S)\\n(\\S)", text)
""",
        "join_lines' pattern, split on",
    ),
    Case(
        "humanfriendly",
        "",
        """
def check_slug(text):
    if text and not re.sub("[^a-z0-9]+", "-", text.lower()).strip("-"):
        raise ValueError(format("The provided text %r results in an empty slug!", text))
    return text
""",
        "generate_slug's check only: returns the text, not a slug",
    ),
    Case(
        "humanfriendly",
        "",
        """
def numbers_in(text):
    return [float(t) for t in re.findall(r"\\d+(?:\\.\\d+)?", text)]
""",
        "tokenize's number pattern, numbers only",
    ),
    Case(
        "webcolors",
        "",
        """
def int_to_pct(value):
    return "%d%%" % round(int(value) / 255 * 100)
""",
        "_percent_to_integer's inverse",
    ),
    Case(
        "humps",
        "",
        """
def squash(value):
    return "" if value is None else re.sub(r"\\s+", " ", str(value))
""",
        "_is_none's shape, whitespace collapsed to one space, not removed",
    ),
]

SHORT = COPIES + NEAR_MISSES
