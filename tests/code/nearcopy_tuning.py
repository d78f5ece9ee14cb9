"""TUNING near-copy cases (#18): the matcher's features and thresholds were chosen on these (and on
tests/code/labelled_functions.py). Project helpers: stringcase 1.2.0, humanize 4.17.0, and `probe`
(`sidekit demo`'s utils/text.py with a second slug helper). The held-out set is nearcopy_heldout.py.
"""

from __future__ import annotations

from nearcopies import Case

TO_SNAKE = """
def to_snake(value):
    value = re.sub(r"[\\-\\.\\s]", '_', str(value))
    return value and value[0].lower() + re.sub(r"[A-Z]", lambda m: '_' + m.group(0).lower(), value[1:])
"""  # a short copy of snakecase; with dashes for underscores, a near miss

COPIES = [
    Case(
        "probe",
        "slugify",
        """
def make_slug(name):
    name = name.strip().lower()
    name = re.sub(r"[^a-z0-9]+", "-", name)
    name = re.sub(r"-{2,}", "-", name)
    return name.strip("-")
""",
        "the demo's copy: renamed only",
    ),
    Case(
        "probe",
        "slugify",
        '''
def slug_for(title):
    """URL slug of a title."""
    if not title:
        return ""
    collapsed = re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", title.strip().lower()))
    return collapsed.strip("-")
''',
        "the issue's probe: restructured, same two regex literals",
    ),
    Case(
        "probe",
        "slugify",
        """
def to_slug(text):
    text = re.sub(r"[^a-z0-9]+", "-", text.lower())
    text = re.sub(r"-{2,}", "-", text)
    text = text.strip("-")
    return text
""",
        "one normalisation step (strip) left out",
    ),
    Case(
        "probe",
        "slug_ascii",
        """
def ascii_slug(text):
    text = unicodedata.normalize("NFKD", text)
    text = text.encode("ascii", "ignore").decode()
    text = re.sub(r"[^\\w\\s-]", "", text).strip().lower()
    return re.sub(r"[-\\s]+", "-", text)
""",
        "a chain split, the last temporary inlined",
    ),
    Case(
        "stringcase",
        "snakecase",
        """
def to_snake(text):
    text = re.sub(r"[\\-\\.\\s]", "_", str(text))
    if text:
        return text[0].lower() + re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), text[1:])
    return text
""",
        "branches swapped, lowercase() inlined",
    ),
    Case(
        "stringcase",
        "camelcase",
        '''
def camel_case(value):
    """foo_bar -> fooBar."""
    value = re.sub(r"\\w[\\s\\W]+\\w", "", str(value))
    return value[0].lower() + re.sub(r"[\\-_\\.\\s]([a-z])", lambda m: m.group(1).upper(),
                                      value[1:]) if value else value
''',
        "a conditional expression, helpers inlined",
    ),
    Case(
        "stringcase",
        "sentencecase",
        """
def sentence_case(value):
    value = re.sub(r"[\\-_\\.\\s]", " ", str(value))
    if not value:
        return value
    spaced = re.sub(r"[A-Z]", lambda m: " " + m.group(0).lower(), value).strip()
    return spaced[:1].upper() + spaced[1:]
""",
        "capitalcase/trimcase inlined",
    ),
    Case(
        "stringcase",
        "capitalcase",
        """
def capitalize_first(value):
    value = str(value)
    if value:
        return value[0].upper() + value[1:]
    return value
""",
        "branches swapped",
    ),
    Case(
        "humanize",
        "natural_list",
        """
def join_naturally(items):
    words = [str(item) for item in items]
    if len(words) > 2:
        return ", ".join(words[:-1]) + f" and {words[-1]}"
    if len(words) == 2:
        return f"{words[0]} and {words[1]}"
    return words[0] if words else ""
""",
        "order reversed, early returns",
    ),
    Case(
        "humanize",
        "_format_not_finite",
        """
def non_finite_label(value):
    import math
    if math.isinf(value):
        return "-Inf" if value < 0 else "+Inf"
    return "NaN" if math.isnan(value) else ""
""",
        "conditions merged into conditional expressions",
    ),
    Case(
        "humanize",
        "_suppress_lower_units",
        """
def units_below(min_unit, suppress):
    hidden = set(suppress)
    for unit in Unit:
        if unit != min_unit:
            hidden.add(unit)
            continue
        break
    return hidden
""",
        "the break moved",
    ),
    Case(
        "humanize",
        "apnumber",
        """
def number_word(value):
    import math
    try:
        if not math.isfinite(float(value)):
            return _format_not_finite(float(value))
        value = int(value)
    except (TypeError, ValueError):
        return str(value)
    return _(_APNUMBER_WORDS[value]) if 0 <= value < 10 else str(value)
""",
        "the range test as a conditional expression",
    ),
    Case(
        "humanize",
        "naturalsize",
        """
def human_size(value, binary=False, gnu=False, format="%.1f"):
    suffix = suffixes["gnu"] if gnu else suffixes["binary"] if binary else suffixes["decimal"]
    base = 1024 if gnu or binary else 1000
    size = float(value)
    if abs(size) == 1 and not gnu:
        return _("%d Byte") % int(size)
    if abs(size) < base:
        return f"{int(size)}B" if gnu else _("%d Bytes") % int(size)
    from math import log
    exp = int(min(log(abs(size), base), len(suffix)))
    if exp < len(suffix) and abs(float(format % (abs(size) / base ** exp))) >= base:
        exp += 1
    return format % (size / base ** exp) + ("" if gnu else " ") + _(suffix[exp - 1])
""",
        "an if chain as nested conditional expressions, temporaries inlined",
    ),
    Case(
        "humanize",
        "_convert_aware_datetime",
        """
def naive_local(value):
    import datetime as dt
    if value is not None and isinstance(value, dt.datetime) and value.tzinfo is not None:
        return dt.datetime.fromtimestamp(value.timestamp())
    return value
""",
        "guards merged",
    ),
    Case(
        "humanize",
        "_rounding_by_fmt",
        '''
def round_as_formatted(fmt, value):
    """The value as `fmt` shows it, as an int when it has no fraction."""
    text = fmt % value
    try:
        return int(text)
    except ValueError:
        return float(text)
''',
        "temporaries inlined into returns",
    ),
    Case(
        "humanize",
        "naturalday",
        """
def day_label(value, format="%b %d"):
    import datetime as dt
    try:
        aware = isinstance(value, dt.datetime) and value.tzinfo is not None
        today = dt.datetime.now(value.tzinfo).date() if aware else dt.date.today()
        value = dt.date(value.year, value.month, value.day)
    except (AttributeError, OverflowError, ValueError):
        return str(value)
    days = (value - today).days
    if days == 0:
        return _("today")
    if days == 1:
        return _("tomorrow")
    if days == -1:
        return _("yesterday")
    return value.strftime(format)
""",
        "an if as a conditional expression, handlers merged, a temporary",
    ),
    Case(
        "humanize",
        "_suitable_minimum_unit",
        """
def usable_min_unit(min_unit, suppress):
    if min_unit not in suppress:
        return min_unit
    for unit in Unit:
        if unit > min_unit and unit not in suppress:
            return unit
    raise ValueError("Minimum unit is suppressed and no suitable replacement was found")
""",
        "an early return, the message inlined",
    ),
    Case(
        "humanize",
        "scientific",
        """
def sci_notation(value, precision=2):
    import math
    try:
        value = float(value)
    except (ValueError, TypeError):
        return str(value)
    if not math.isfinite(value):
        return _format_not_finite(value)
    mantissa, exponent = f"{{:.{int(precision)}e}}".format(value).split("e")
    return mantissa + " x 10" + str(int(exponent)).translate(_SUPERSCRIPT_TRANS)
""",
        "the finiteness test moved out of the try, temporaries inlined",
    ),
    # Under the 5-line floor (#18, cachetools/inflection sessions): compared by literal evidence
    # alone.
    Case(
        "probe",
        "slugify",
        """
def make_short_slug(s):
    return re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9]+", "-", s.strip().lower())).strip("-")
""",
        "every temporary inlined: one statement",
    ),
    Case(
        "probe",
        "slug_ascii",
        '''
def ascii_slug_short(text):
    """ASCII slug."""
    text = re.sub(r"[^\\w\\s-]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode())
    return re.sub(r"[-\\s]+", "-", text.strip().lower())
''',
        "two statements and a docstring",
    ),
    Case(
        "stringcase",
        "snakecase",
        TO_SNAKE,
        "the `if not` as an `and`, lowercase() inlined",
    ),
    Case(
        "stringcase",
        "camelcase",
        """
def camelize_short(s):
    s = re.sub(r"\\w[\\s\\W]+\\w", '', str(s))
    return s and s[0].lower() + re.sub(r"[\\-_\\.\\s]([a-z])", lambda m: m.group(1).upper(), s[1:])
""",
        "the `if not` as an `and`, helpers inlined",
    ),
]

NEAR_MISSES = [
    Case(
        "probe",
        "",
        """
def snake_name(value):
    value = value.strip().lower()
    value = re.sub(r"[^a-z0-9]+", "_", value)
    value = re.sub(r"_{2,}", "_", value)
    return value.strip("_")
""",
        "slugify's shape, underscores",
    ),
    Case(
        "probe",
        "",
        """
def normalize_spaces(value):
    value = value.strip()
    value = re.sub(r"[\\t\\r\\f\\v]+", " ", value)
    value = re.sub(r" {2,}", " ", value)
    return value
""",
        "slugify's shape, whitespace",
    ),
    Case(
        "probe",
        "",
        '''
def strip_accents(value):
    """ASCII letters only, case kept."""
    value = unicodedata.normalize("NFKD", value)
    value = value.encode("ascii", "ignore").decode()
    return value
''',
        "slug_ascii's first step only",
    ),
    Case(
        "stringcase",
        "",
        """
def kebab(text):
    text = re.sub(r"[_\\.\\s]", "-", str(text))
    if not text:
        return text
    return text[0].lower() + re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), text[1:])
""",
        "snakecase's shape, dashes",
    ),
    Case(
        "stringcase",
        "",
        """
def upper_first_word(value):
    value = str(value).strip()
    if not value:
        return value
    head, _, tail = value.partition(" ")
    return head.upper() + (" " + tail if tail else "")
""",
        "capitalcase's shape, a whole word",
    ),
    Case(
        "stringcase",
        "",
        """
def camel_to_words(value):
    value = str(value)
    if not value:
        return value
    return re.sub(r"(?<!^)([A-Z])", r" \\1", value).lower()
""",
        "sentencecase's regex idea, no capital",
    ),
    Case(
        "stringcase",
        "",
        '''
def only_letters(value):
    """Drop everything but letters."""
    value = str(value)
    value = re.sub(r"[^A-Za-z]+", "", value)
    return value
''',
        "alphanumcase's shape, digits dropped too",
    ),
    Case(
        "humanize",
        "",
        """
def natural_or(items):
    words = [str(item) for item in items]
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    elif len(words) == 2:
        return f"{words[0]} or {words[1]}"
    else:
        return ", ".join(words[:-1]) + f" or {words[-1]}"
""",
        "natural_list's shape, 'or'",
    ),
    Case(
        "humanize",
        "",
        """
def sign_label(value):
    import math
    if math.isnan(value):
        return "?"
    if value < 0:
        return "negative"
    if value > 0:
        return "positive"
    return "zero"
""",
        "_format_not_finite's shape, a sign",
    ),
    Case(
        "humanize",
        "",
        """
def units_from(min_unit, units):
    kept = []
    for unit in units:
        if unit == min_unit:
            kept.append(unit)
        elif kept:
            kept.append(unit)
    return kept
""",
        "_suppress_lower_units's loop, keeps the others",
    ),
    Case(
        "humanize",
        "",
        """
def digit_word(value):
    try:
        value = int(value)
    except (TypeError, ValueError):
        return str(value)
    if not 0 <= value < 10:
        return str(value)
    return DIGIT_NAMES[value].upper()
""",
        "apnumber's shape, upper-case names, no translation",
    ),
    Case(
        "humanize",
        "",
        """
def size_in_blocks(value, block=512):
    size = float(value)
    if size <= 0:
        return "0 blocks"
    count = int(size // block) + (1 if size % block else 0)
    return f"{count} block" if count == 1 else f"{count} blocks"
""",
        "naturalsize's input, blocks",
    ),
    Case(
        "humanize",
        "",
        """
def utc_now_or(value):
    import datetime as dt
    if value is None:
        return dt.datetime.now(dt.timezone.utc)
    if isinstance(value, dt.datetime) and value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    return value
""",
        "_convert_aware_datetime's shape, the other way",
    ),
    Case(
        "humanize",
        "",
        """
def weekday_label(value):
    import datetime as dt
    try:
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            today = dt.datetime.now(value.tzinfo).date()
        else:
            today = dt.date.today()
        value = dt.date(value.year, value.month, value.day)
    except (AttributeError, OverflowError, ValueError):
        return str(value)
    if value == today:
        return "this day"
    return value.strftime("%A")
""",
        "naturalday's start, a weekday name",
    ),
    Case(
        "humanize",
        "",
        '''
def parse_number(text):
    """An int if the text is one, else a float."""
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return float(text)
''',
        "_rounding_by_fmt's try, parses text",
    ),
    Case(
        "humanize",
        "",
        """
def split_minutes(value, unit, minimum_unit, suppress):
    if unit == minimum_unit:
        return round(value / 60), 0
    if unit in suppress:
        return 0, value
    q, r = divmod(value, 60)
    return q, int(r)
""",
        "_quotient_and_remainder's shape, fixed to minutes and plain rounding",
    ),
    Case(
        "humanize",
        "",
        """
def largest_kept_unit(max_unit, suppress):
    if max_unit in suppress:
        for unit in reversed(list(Unit)):
            if unit < max_unit and unit not in suppress:
                return unit
        raise ValueError("Maximum unit is suppressed and nothing smaller is kept")
    return max_unit
""",
        "_suitable_minimum_unit's shape, the other direction",
    ),
    Case(
        "humanize",
        "",
        """
def engineering(value, precision=2):
    import math
    try:
        value = float(value)
        if not math.isfinite(value):
            return _format_not_finite(value)
    except (ValueError, TypeError):
        return str(value)
    exponent = int(math.floor(math.log10(abs(value)) / 3) * 3) if value else 0
    return f"{value / 10 ** exponent:.{int(precision)}f}e{exponent}"
""",
        "scientific's start, exponents in steps of three",
    ),
    # Under the 5-line floor, and the separator rule (a `-` join for a `_` one is other behaviour).
    Case(
        "probe",
        "",
        """
def is_slug(s):
    return not re.search(r"[^a-z0-9]+", s) and not re.search(r"-{2,}", s)
""",
        "slugify's two patterns, searched: a predicate",
    ),
    Case(
        "probe",
        "",
        """
def dashes_to_space(s):
    return re.sub(r"-{2,}", " ", re.sub(r"[^a-z0-9]+", "-", s)).strip()
""",
        "slugify's patterns, runs become a space, no lower-casing (one statement)",
    ),
    Case(
        "probe",
        "",
        """
def spaced_slug(s):
    s = re.sub(r"[^a-z0-9]+", "-", s)
    s = re.sub(r"-{2,}", " ", s)
    s = s.strip()
    return s
""",
        "the same, in five lines",
    ),
    Case(
        "stringcase",
        "",
        TO_SNAKE.replace("'_'", "'-'").replace("to_snake", "kebab"),
        "snakecase's shape joined with dashes (spinalcase's job; one statement)",
    ),
    Case(
        "stringcase",
        "",
        """
def has_separators(value):
    return bool(re.search(r"[\\-\\.\\s]", value)) or bool(re.search(r"[A-Z]", value[1:]))
""",
        "snakecase's patterns as a test",
    ),
]

TUNING = COPIES + NEAR_MISSES
