"""SECOND HELD-OUT near-copy set (#18), written blind after the matcher's rules were final and
measured once: the first held-out set (nearcopy_heldout.py) had been looked at while rules were
still being chosen (its wrong nudges were seen after the first rule set), so it is no longer blind;
this one is. Project helpers: webcolors 24.11.1 and humanfriendly 10.0 (see nearcopies.PACKAGES).
Same kinds as the first set: rewritten copies (`helper` set) and look-alikes with other behaviour
(`helper` empty).
"""

from __future__ import annotations

from nearcopies import Case

COPIES = [
    Case(
        "webcolors",
        "normalize_hex",
        """
def canonical_hex(value):
    match = re.match(r"^#([a-fA-F0-9]{3}|[a-fA-F0-9]{6})$", value)
    if match is None:
        raise ValueError(f'"{value}" is not a valid hexadecimal color value.')
    digits = match.group(1)
    digits = "".join(2 * c for c in digits) if len(digits) == 3 else digits
    return f"#{digits.lower()}"
""",
        "the pattern inlined, a conditional expression",
    ),
    Case(
        "webcolors",
        "_normalize_percent_rgb",
        """
def clamp_percent(value):
    number = value.split("%")[0]
    percent = float(number) if "." in number else int(number)
    if percent < 0:
        return "0%"
    if percent > 100:
        return "100%"
    return f"{percent}%"
""",
        "nested conditional expression as early returns",
    ),
    Case(
        "webcolors",
        "html5_serialize_simple_color",
        '''
def rgb_to_hex_string(rgb):
    """(255, 0, 16) -> '#ff0010'."""
    red, green, blue = rgb
    digits = "{:02x}".format(red) + "{:02x}".format(green) + "{:02x}".format(blue)
    return "#" + digits
''',
        "the accumulator inlined",
    ),
    Case(
        "webcolors",
        "html5_parse_simple_color",
        """
def parse_hex_color(value):
    if not isinstance(value, str) or len(value) != 7:
        raise ValueError("An HTML5 simple color must be a Unicode string seven characters long.")
    if value[0] != "#":
        raise ValueError("An HTML5 simple color must begin with the character '#' (U+0023).")
    for char in value[1:]:
        if char not in string.hexdigits:
            raise ValueError("An HTML5 simple color must contain exactly six ASCII hex digits.")
    return HTML5SimpleColor(*(int(value[i:i + 2], 16) for i in (1, 3, 5)))
""",
        "all() as a loop, the three ints as a generator",
    ),
    Case(
        "webcolors",
        "name_to_hex",
        """
def color_hex(name, spec=CSS3):
    found = _get_name_to_hex_map(spec).get(name.lower())
    if not found:
        raise ValueError(f'"{name}" is not defined as a named color in {spec}')
    return found
""",
        "condition inverted, the map inlined",
    ),
    Case(
        "webcolors",
        "hex_to_name",
        """
def color_name(hex_value, spec=CSS3):
    names = _get_hex_to_name_map(spec)
    name = names.get(normalize_hex(hex_value))
    if name is None:
        raise ValueError(f'"{hex_value}" has no defined color name in {spec}.')
    return name
""",
        "walrus removed, condition inverted",
    ),
    Case(
        "humanfriendly",
        "compact_empty_lines",
        """
def squeeze_blank_lines(text):
    lines = text.splitlines(True)
    index = 0
    while index < len(lines):
        if index and is_empty_line(lines[index - 1]) and is_empty_line(lines[index]):
            del lines[index]
            continue
        index += 1
    return "".join(lines)
""",
        "pop as del, else as continue",
    ),
    Case(
        "humanfriendly",
        "concatenate",
        """
def human_join(items, conjunction="and", serial_comma=False):
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    last = items.pop()
    head = ", ".join(items) + ("," if serial_comma else "")
    return " ".join([head, conjunction, last])
""",
        "branches reversed as early returns",
    ),
    Case(
        "humanfriendly",
        "generate_slug",
        """
def slug(text, delimiter="-"):
    result = re.sub("[^a-z0-9]+", delimiter.replace("\\\\", "\\\\\\\\"), text.lower()).strip(delimiter)
    if text and not result:
        raise ValueError(format("The provided text %r results in an empty slug!", text))
    return result
""",
        "the steps chained into one expression",
    ),
    Case(
        "humanfriendly",
        "split_paragraphs",
        '''
def paragraphs_of(text):
    """Non-empty paragraphs, blank lines around each trimmed."""
    chunks = (trim_empty_lines(chunk) for chunk in text.split("\\n\\n"))
    kept = [chunk for chunk in chunks if chunk and not chunk.isspace()]
    return kept
''',
        "the loop as two comprehensions",
    ),
    Case(
        "humanfriendly",
        "tokenize",
        """
def split_tokens(text):
    tokens = []
    for piece in re.split(r"(\\d+(?:\\.\\d+)?)", text):
        piece = piece.strip()
        if not piece:
            continue
        if re.match(r"\\d+\\.\\d+", piece):
            tokens.append(float(piece))
        else:
            tokens.append(int(piece) if piece.isdigit() else piece)
    return tokens
""",
        "empty test first with continue, a conditional expression",
    ),
    Case(
        "humanfriendly",
        "trim_empty_lines",
        """
def strip_blank_edges(text):
    lines = text.splitlines(True)
    while lines and is_empty_line(lines[-1]):
        lines.pop()
    while lines and is_empty_line(lines[0]):
        lines.pop(0)
    return "".join(lines)
""",
        "the two loops swapped",
    ),
    Case(
        "humanfriendly",
        "coerce_boolean",
        """
def to_bool(value):
    if not is_string(value):
        return bool(value)
    text = value.strip().lower()
    if text in ("1", "yes", "true", "on"):
        return True
    if text in ("0", "no", "false", "off", ""):
        return False
    raise ValueError(format("Failed to coerce string to boolean! (%r)", value))
""",
        "branches swapped, early returns, the message inlined",
    ),
    Case(
        "humanfriendly",
        "round_number",
        """
def short_number(count, keep_width=False):
    text = "%.2f" % float(count)
    if keep_width:
        return text
    return re.sub(r"\\.$", "", re.sub(r"0+$", "", text))
""",
        "an early return, the two substitutions nested",
    ),
    Case(
        "humanfriendly",
        "format_number",
        """
def thousands(number, num_decimals=2):
    integer, _, decimals = str(float(number)).partition(".")
    digits = integer.lstrip("-")[::-1]
    groups = [digits[i:i + 3] for i in range(0, len(digits), 3)]
    text = ",".join(groups)[::-1]
    extra = decimals[:num_decimals].rstrip("0")
    text = text + "." + extra if extra else text
    return "-" + text if integer.startswith("-") else text
""",
        "slicing for the while loop, conditional expressions",
    ),
    Case(
        "humanfriendly",
        "coerce_pattern",
        """
def as_regex(value, flags=0):
    if is_string(value):
        return re.compile(value, flags)
    if not isinstance(value, type(re.compile(""))):
        raise ValueError(format("Failed to coerce value to compiled regular expression! (%r)", value))
    return value
""",
        "early return, temporaries inlined",
    ),
    Case(
        "humanfriendly",
        "format_length",
        """
def human_length(num_metres, keep_width=False):
    for unit in sorted(length_size_units, key=lambda u: u["divider"], reverse=True):
        if num_metres < unit["divider"]:
            continue
        value = round_number(float(num_metres) / unit["divider"], keep_width=keep_width)
        return pluralize(value, unit["singular"], unit["plural"])
    return pluralize(num_metres, "metre")
""",
        "sorted() for reversed(), the test inverted with continue",
    ),
]

NEAR_MISSES = [
    Case(
        "webcolors",
        "",
        """
def short_hex(value):
    match = re.match(r"^#([a-fA-F0-9]{6})$", value)
    if match is None:
        raise ValueError(f'"{value}" is not a six-digit hexadecimal color.')
    digits = match.group(1).lower()
    if digits[0::2] == digits[1::2]:
        return "#" + digits[0::2]
    return "#" + digits
""",
        "normalize_hex's shape, shortens instead",
    ),
    Case(
        "webcolors",
        "",
        """
def clamp_unit(value):
    number = value.rstrip("%")
    ratio = float(number) / 100
    if ratio < 0:
        return 0.0
    if ratio > 1:
        return 1.0
    return ratio
""",
        "the percent clamp's shape, a ratio",
    ),
    Case(
        "webcolors",
        "",
        '''
def rgb_to_css(rgb):
    """(255, 0, 16) -> 'rgb(255, 0, 16)'."""
    red, green, blue = rgb
    inner = str(red) + ", " + str(green) + ", " + str(blue)
    return "rgb(" + inner + ")"
''',
        "the serializer's shape, CSS functional notation",
    ),
    Case(
        "webcolors",
        "",
        """
def parse_rgb_triplet(value):
    if not isinstance(value, str):
        raise ValueError("An RGB triplet must be a string.")
    parts = value.split(",")
    if len(parts) != 3:
        raise ValueError("An RGB triplet has exactly three comma-separated parts.")
    for part in parts:
        if not part.strip().isdigit():
            raise ValueError("Each part of an RGB triplet must be a whole number.")
    return HTML5SimpleColor(*(int(part) for part in parts))
""",
        "the parser's shape, decimal triplets",
    ),
    Case(
        "webcolors",
        "",
        """
def country_code(name, table=COUNTRIES):
    found = table.get(name.strip().title())
    if not found:
        raise ValueError(f'"{name}" is not a known country')
    return found
""",
        "name_to_hex's shape, another table",
    ),
    Case(
        "humanfriendly",
        "",
        """
def drop_comment_lines(text):
    lines = text.splitlines(True)
    index = 0
    while index < len(lines):
        if lines[index].lstrip().startswith("#"):
            del lines[index]
            continue
        index += 1
    return "".join(lines)
""",
        "compact_empty_lines's loop, drops comments",
    ),
    Case(
        "humanfriendly",
        "",
        """
def bullet_list(items, bullet="-"):
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return "\\n".join(f"{bullet} {item}" for item in items)
""",
        "concatenate's shape, a bulleted list",
    ),
    Case(
        "humanfriendly",
        "",
        """
def safe_filename(text, replacement="_"):
    name = re.sub(r"[^A-Za-z0-9._-]+", replacement, text).strip(replacement)
    if text and not name:
        raise ValueError(format("The provided text %r has no usable file name characters!", text))
    return name
""",
        "generate_slug's shape, a file name with case and dots",
    ),
    Case(
        "humanfriendly",
        "",
        '''
def article_for(word):
    """'an' before a vowel sound (roughly), else 'a'."""
    if not word:
        return "a"
    return "an" if word[0].lower() in "aeiou" else "a"
''',
        "pluralize_raw's size, an article",
    ),
    Case(
        "humanfriendly",
        "",
        '''
def sentences_of(text):
    """Non-empty sentences, stripped."""
    chunks = (chunk.strip() for chunk in re.split(r"(?<=[.!?])\\s+", text))
    kept = [chunk for chunk in chunks if chunk]
    return kept
''',
        "split_paragraphs's shape, sentences",
    ),
    Case(
        "humanfriendly",
        "",
        """
def extract_numbers(text):
    numbers = []
    for piece in re.findall(r"-?\\d+(?:\\.\\d+)?", text):
        if "." in piece:
            numbers.append(float(piece))
        else:
            numbers.append(int(piece))
    return numbers
""",
        "tokenize's shape, numbers only, signed",
    ),
    Case(
        "humanfriendly",
        "",
        """
def strip_comment_edges(text):
    lines = text.splitlines(True)
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    while lines and lines[-1].startswith("#"):
        lines.pop()
    return "".join(lines)
""",
        "trim_empty_lines's loops, comment lines",
    ),
    Case(
        "humanfriendly",
        "",
        """
def parse_level(value):
    if not is_string(value):
        return int(value)
    text = value.strip().lower()
    if text in ("low", "l"):
        return 1
    if text in ("medium", "m"):
        return 2
    if text in ("high", "h"):
        return 3
    raise ValueError(format("Unknown level! (%r)", value))
""",
        "coerce_boolean's shape, three levels",
    ),
    Case(
        "humanfriendly",
        "",
        """
def format_percent(ratio, keep_width=False):
    text = "%.1f%%" % (float(ratio) * 100)
    if keep_width:
        return text
    return re.sub(r"\\.0%$", "%", text)
""",
        "round_number's shape, a percentage",
    ),
    Case(
        "humanfriendly",
        "",
        """
def chunk_string(text, size=3, sep=" "):
    parts = []
    while text:
        parts.append(text[:size])
        text = text[size:]
    return sep.join(parts)
""",
        "format_number's grouping loop, left to right",
    ),
    Case(
        "humanfriendly",
        "",
        """
def as_path(value, base="."):
    if is_string(value):
        return os.path.join(base, value)
    if not isinstance(value, os.PathLike):
        raise ValueError(format("Failed to coerce value to a path! (%r)", value))
    return os.fspath(value)
""",
        "coerce_pattern's shape, paths",
    ),
    Case(
        "humanfriendly",
        "",
        """
def human_weight(grams, keep_width=False):
    for unit, size in (("t", 1e6), ("kg", 1e3)):
        if grams < size:
            continue
        return round_number(grams / size, keep_width=keep_width) + " " + unit
    return round_number(grams, keep_width=keep_width) + " g"
""",
        "format_length's loop, weights",
    ),
]

HELDOUT2 = COPIES + NEAR_MISSES
