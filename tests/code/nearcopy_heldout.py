"""HELD-OUT near-copy cases (#18): never used to choose a feature or a threshold.

Written before the matcher was changed, then only measured (before/after figures: the commit that
added them and CHANGELOG-free notes in bench/rows_tools.py). The project helpers are the real ones
of inflection 0.5.1, pyhumps 3.8.0, python-slugify 9.2.0 and funcy 2.0 (see nearcopies.PACKAGES).

Copies (`helper` set): what an agent writes when it re-implements that helper without looking: names
changed, branches swapped, an `if` turned into a conditional expression, an early return,
temporaries inlined or added, the package's own constants and small helpers replaced by literals and
inline code, sometimes one normalisation step added or left out. Near misses (`helper` empty):
functions of the same shape as a helper of the package that do something else; naming any helper for
them is a wrong nudge.
"""

from __future__ import annotations

from nearcopies import Case

COPIES = [
    Case(
        "inflection",
        "humanize",
        '''
def human_label(text):
    """Field name -> label: employee_salary -> Employee salary."""
    text = re.sub(r"_id$", "", text).replace("_", " ")
    text = re.sub(r"(?i)([a-z\\d]*)", lambda m: m.group(1).lower(), text)
    return re.sub(r"^\\w", lambda m: m.group(0).upper(), text)
''',
        "temporaries inlined",
    ),
    Case(
        "inflection",
        "underscore",
        '''
def to_snake(name):
    """DeviceType -> device_type."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1_\\2", name)
    name = re.sub(r"([a-z\\d])([A-Z])", r"\\1_\\2", name)
    return name.replace("-", "_").lower()
''',
        "renamed, last two steps merged",
    ),
    Case(
        "inflection",
        "underscore",
        """
def snake_case(identifier):
    if not identifier:
        return identifier
    first_pass = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1_\\2", identifier)
    return re.sub(r"([a-z\\d])([A-Z])", r"\\1_\\2", first_pass).lower()
""",
        "early return added, the dash step left out",
    ),
    Case(
        "inflection",
        "parameterize",
        """
def url_slug(value, sep="-"):
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"(?i)[^a-z0-9\\-_]+", sep, value)
    if not sep:
        return value.lower()
    escaped = re.escape(sep)
    value = re.sub(r"%s{2,}" % escaped, sep, value)
    value = re.sub(r"(?i)^{sep}|{sep}$".format(sep=escaped), "", value)
    return value.lower()
""",
        "transliterate inlined, early return for an empty separator",
    ),
    Case(
        "inflection",
        "ordinal",
        """
def ordinal_suffix(n):
    n = abs(int(n))
    if n % 100 not in (11, 12, 13):
        return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "th"
""",
        "branches swapped, else dropped",
    ),
    Case(
        "inflection",
        "pluralize",
        """
def plural_of(word):
    if word and word.lower() not in UNCOUNTABLES:
        for pattern, repl in PLURALS:
            if re.search(pattern, word):
                return re.sub(pattern, repl, word)
    return word
""",
        "condition inverted into a guard block",
    ),
    Case(
        "inflection",
        "singularize",
        """
def singular_of(word):
    for term in UNCOUNTABLES:
        if re.search(r"(?i)\\b(%s)\\Z" % term, word):
            return word
    matches = (re.sub(rule, repl, word) for rule, repl in SINGULARS if re.search(rule, word))
    return next(matches, word)
""",
        "second loop as a generator",
    ),
    Case(
        "inflection",
        "camelize",
        '''
def camel(text, upper_first=True):
    """device_type -> DeviceType (or deviceType)."""
    if not upper_first:
        return text[0].lower() + camel(text)[1:]
    return re.sub(r"(?:^|_)(.)", lambda match: match.group(1).upper(), text)
''',
        "branches swapped",
    ),
    Case(
        "humps",
        "camelize",
        """
def lower_camel(text):
    text = re.sub(r"\\s+", "", str(text)) if text is not None else ""
    if text.isupper() or text.isnumeric():
        return text
    if text and not text[:2].isupper():
        text = text[0].lower() + text[1:]
    return re.sub(r"(?<=[^\\-_])[\\-_]+[^\\-_]", lambda m: m.group(0)[-1].upper(), text)
""",
        "no list/dict handling, _is_none and UNDERSCORE_RE inlined",
    ),
    Case(
        "humps",
        "camelize",
        """
def camel_keys(data):
    if isinstance(data, (list, Mapping)):
        return _process_keys(data, camel_keys)
    s = _is_none(data)
    if s.isupper() or s.isnumeric():
        return data
    s = s[0].lower() + s[1:] if s and not s[:2].isupper() else s
    return UNDERSCORE_RE.sub(lambda m: m.group(0)[-1].upper(), s)
""",
        "an if as a conditional expression",
    ),
    Case(
        "humps",
        "decamelize",
        """
def snake_keys(data):
    if isinstance(data, (list, Mapping)):
        return _process_keys(data, snake_keys)
    text = _is_none(data)
    if not (text.isupper() or text.isnumeric()):
        return _separate_words(_fix_abbreviations(text)).lower()
    return data
""",
        "branches swapped",
    ),
    Case(
        "humps",
        "kebabize",
        """
def kebab_case(data):
    if isinstance(data, (list, Mapping)):
        return _process_keys(data, kebab_case)
    text = _is_none(data)
    if text.isnumeric():
        return data
    camel_like = not text.isupper() and (is_camelcase(text) or is_pascalcase(text))
    if camel_like:
        return _separate_words(string=_fix_abbreviations(text), separator="-").lower()
    return UNDERSCORE_RE.sub(lambda m: "-" + m.group(0)[-1], text)
""",
        "a temporary added",
    ),
    Case(
        "humps",
        "dekebabize",
        """
def kebab_to_snake(value):
    if isinstance(value, (list, Mapping)):
        return _process_keys(value, kebab_to_snake)
    text = "" if value is None else re.sub(r"\\s+", "", str(value))
    return value if text.isnumeric() else text.replace("-", "_")
""",
        "_is_none inlined, a conditional expression",
    ),
    Case(
        "humps",
        "_process_keys",
        """
def map_keys_deep(obj, fn):
    if isinstance(obj, Mapping):
        return {fn(key): map_keys_deep(val, fn) for key, val in obj.items()}
    if isinstance(obj, list):
        return [map_keys_deep(item, fn) for item in obj]
    return obj
""",
        "the two branches swapped",
    ),
    Case(
        "slugify",
        "_numeric_reference",
        """
def numeric_entity(match, base):
    try:
        code = int(match.group(1), base)
    except (ValueError, OverflowError):
        return match.group(0)
    return match.group(0) if 0xD800 <= code <= 0xDFFF else chr(code)
""",
        "try narrowed, a conditional expression",
    ),
    Case(
        "slugify",
        "_decode_entities",
        """
def decode_html_entities(text, named=True, dec=True, hexa=True):
    if named:
        text = CHAR_ENTITY_PATTERN.sub(lambda m: chr(name2codepoint[m.group(1)]), text)
    if dec:
        text = DECIMAL_PATTERN.sub(lambda m: numeric_entity(m, 10), text)
    if hexa:
        text = MODERN_HEX_PATTERN.sub(lambda m: numeric_entity(m, 16), text)
    return text
""",
        "calls its own copy of _numeric_reference",
    ),
    Case(
        "slugify",
        "smart_truncate",
        """
def truncate_words(text, limit=0, whole_words=False, sep=" ", keep_order=False):
    text = text.strip(sep)
    if not limit or len(text) < limit:
        return text
    if not whole_words:
        return text[:limit].strip(sep)
    if sep not in text:
        return text[:limit]
    out = ""
    for word in filter(None, text.split(sep)):
        size = len(out) + len(word)
        if size < limit:
            out += f"{word}{sep}"
        elif size == limit:
            out += word
            break
        elif keep_order:
            break
    return (out or text[:limit]).strip(sep)
""",
        "guards merged, filter() for the empty-word test, f-strings",
    ),
    Case(
        "slugify",
        "_replace_disallowed_unicode",
        """
def dash_non_word(text):
    if text.isascii():
        return re.sub(r"[\\W_]+", "-", text)
    out = []
    inside = False
    for i, ch in enumerate(text):
        if ch.isalnum():
            inside = True
        elif inside and _is_combining_mark(ch):
            pass
        elif inside and ch in WORD_JOINERS and i < len(text) - 1 and (
                text[i + 1].isalnum() or _is_combining_mark(text[i + 1])):
            pass
        else:
            inside = False
            ch = "-"
        out.append(ch)
    return "".join(out)
""",
        "the pattern and the separator as literals, `last` inlined",
    ),
    Case(
        "slugify",
        "_transliterate",
        """
def to_ascii(text, backend):
    if text.isascii():
        return text
    if backend != "auto":
        module = import_module(backend.replace("-", "_"))
    else:
        try:
            module = import_module("unidecode")
        except ModuleNotFoundError as exc:
            if exc.name != "unidecode":
                raise
            module = import_module("text_unidecode")
    return getattr(module, "anyascii" if backend == "anyascii" else "unidecode")(text)
""",
        "branches swapped, the result temporary inlined",
    ),
    Case(
        "funcy",
        "get_in",
        '''
def dig(data, keys, fallback=None):
    """data[k1][k2]... or fallback."""
    current = data
    for key in keys:
        try:
            current = current[key]
        except (KeyError, IndexError):
            return fallback
    return current
''',
        "a temporary added",
    ),
    Case(
        "funcy",
        "has_path",
        '''
def path_exists(tree, keys):
    """Whether tree[k1][k2]... can be reached."""
    for key in keys:
        try:
            tree = tree[key]
        except (KeyError, IndexError):
            break
    else:
        return True
    return False
''',
        "for/else instead of two returns",
    ),
    Case(
        "funcy",
        "update_in",
        """
def change_in(data, keys, fn, default=None):
    if not keys:
        return fn(data)
    if not isinstance(data, list):
        result = data.copy()
        fallback = {} if len(keys) > 1 else default
        result[keys[0]] = change_in(result.get(keys[0], fallback), keys[1:], fn, default)
        return result
    result = data[:]
    result[keys[0]] = change_in(result[keys[0]], keys[1:], fn, default)
    return result
""",
        "branches swapped, elif chain as early returns",
    ),
    Case(
        "funcy",
        "del_in",
        """
def without_path(data, keys):
    if not keys:
        return data
    try:
        child = data[keys[0]]
    except (KeyError, IndexError):
        return data
    result = copy(data)
    if len(keys) > 1:
        result[keys[0]] = without_path(child, keys[1:])
    else:
        del result[keys[0]]
    return result
""",
        "branches swapped",
    ),
    Case(
        "funcy",
        "zip_dicts",
        """
def zip_common(*mappings):
    if len(mappings) < 1:
        raise TypeError("zip_dicts expects at least one argument")
    shared = set.intersection(*(set(m) for m in mappings))
    for key in shared:
        yield key, tuple(m[key] for m in mappings)
""",
        "map() as a generator",
    ),
    Case(
        "funcy",
        "join_with",
        """
def combine_dicts(fn, dicts, strict=False):
    dicts = list(dicts)
    if not dicts:
        return {}
    if len(dicts) == 1 and not strict:
        return dicts[0]
    collected = {}
    for d in dicts:
        for key, value in d.items():
            collected.setdefault(key, []).append(value)
    if fn is not list:
        collected = {key: fn(values) for key, values in collected.items()}
    return collected
""",
        "setdefault for the if/else, a comprehension for the last loop",
    ),
    Case(
        "funcy",
        "last",
        """
def last_item(seq):
    try:
        return seq[-1]
    except IndexError:
        return None
    except TypeError:
        found = None
        for found in seq:
            pass
        return found
""",
        "renamed",
    ),
    Case(
        "funcy",
        "nth",
        '''
def item_at(n, seq):
    """seq[n] for sequences and iterators alike; None past the end."""
    try:
        return seq[n]
    except IndexError:
        return None
    except TypeError:
        return next(islice(seq, n, None), None)
''',
        "a docstring added",
    ),
    Case(
        "funcy",
        "butlast",
        """
def all_but_last(seq):
    it = iter(seq)
    try:
        previous = next(it)
    except StopIteration:
        return
    for item in it:
        yield previous
        previous = item
""",
        "try/else as an early return",
    ),
    Case(
        "funcy",
        "distinct",
        """
def unique(seq, key=None):
    seen = set()
    for item in seq:
        marker = item if key is None else key(item)
        if marker in seen:
            continue
        seen.add(marker)
        yield item
""",
        "two loops merged, a conditional expression, continue",
    ),
    Case(
        "funcy",
        "count_by",
        """
def tally(key, items):
    counts = defaultdict(int)
    for item in items:
        counts[key(item)] += 1
    return counts
""",
        "make_func dropped",
    ),
    Case(
        "funcy",
        "group_by",
        '''
def bucket(key_fn, items):
    """Group items by key_fn(item)."""
    groups = defaultdict(list)
    for item in items:
        groups[key_fn(item)].append(item)
    return groups
''',
        "make_func dropped, a docstring",
    ),
    Case(
        "funcy",
        "format_time",
        """
def human_seconds(sec):
    if sec >= 1:
        return "%8.2f s" % sec
    if sec >= 1e-3:
        return "%8.2f ms" % (sec * 1e3)
    if sec >= 1e-6:
        return "%8.2f mks" % (sec * 1e6)
    return "%8.2f ns" % (sec * 1e9)
""",
        "order reversed, early returns",
    ),
    Case(
        "funcy",
        "smart_repr",
        """
def short_repr(value, max_len=REPR_LEN):
    text = repr(value) if isinstance(value, (bytes, str)) else str(value)
    text = re.sub(r"\\s+", " ", text)
    if max_len and len(text) > max_len:
        return text[:max_len - 3] + "..."
    return text
""",
        "an if as a conditional expression, early return",
    ),
    Case(
        "funcy",
        "tree_leaves",
        """
def leaves(root, follow=is_seqcont, children=iter):
    stack = deque([[root]])
    while stack:
        it = iter(stack.pop())
        for node in it:
            if not follow(node):
                yield node
                continue
            stack.append(it)
            stack.append(children(node))
            break
""",
        "branches swapped with continue",
    ),
]

NEAR_MISSES = [
    Case(
        "inflection",
        "",
        '''
def kebab(name):
    """DeviceType -> device-type."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1-\\2", name)
    name = re.sub(r"([a-z\\d])([A-Z])", r"\\1-\\2", name)
    return name.replace("_", "-").lower()
''',
        "underscore's patterns, dashes instead",
    ),
    Case(
        "inflection",
        "",
        '''
def shout_label(word):
    """employee_salary -> EMPLOYEE SALARY."""
    word = re.sub(r"_id$", "", word)
    word = word.replace("_", " ")
    return word.upper()
''',
        "humanize's first steps, upper-cased",
    ),
    Case(
        "inflection",
        "",
        """
def plural_form(n):
    n = abs(int(n))
    if n % 100 in (11, 12, 13, 14):
        return "many"
    else:
        return {1: "one", 2: "few", 3: "few", 4: "few"}.get(n % 10, "many")
""",
        "ordinal's shape, plural categories",
    ),
    Case(
        "inflection",
        "",
        """
def stem_word(word):
    if not word or word.lower() in STOPWORDS:
        return word
    for suffix in ("ing", "ed", "ly"):
        if word.endswith(suffix):
            return word[: -len(suffix)]
    return word
""",
        "pluralize's shape, suffix stripping",
    ),
    Case(
        "inflection",
        "",
        """
def to_identifier(text):
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^0-9a-zA-Z_]+", "_", text)
    if text and text[0].isdigit():
        text = "_" + text
    return text.lower()
""",
        "parameterize's first steps, a Python identifier",
    ),
    Case(
        "inflection",
        "",
        '''
def capitalize_words(text, first=True):
    """Upper-case each word's first letter."""
    if not first:
        return text[:1] + capitalize_words(text)[1:]
    return re.sub(r"(^|\\s)(\\w)", lambda m: m.group(1) + m.group(2).upper(), text)
''',
        "camelize's shape, spaces kept",
    ),
    Case(
        "inflection",
        "",
        """
def sentence(word):
    word = word.replace("_", " ").strip()
    word = re.sub(r"\\s+", " ", word)
    word = word[:1].upper() + word[1:]
    return word if word.endswith(".") else word + "."
""",
        "humanize's shape, a sentence",
    ),
    Case(
        "humps",
        "",
        """
def stringify_keys(obj):
    if isinstance(obj, list):
        return [stringify_keys(item) for item in obj]
    if isinstance(obj, Mapping):
        return {str(k): stringify_keys(v) for k, v in obj.items()}
    return obj
""",
        "_process_keys's shape, str() of every key",
    ),
    Case(
        "humps",
        "",
        """
def kebab_to_title(value):
    if isinstance(value, (list, Mapping)):
        return _process_keys(value, kebab_to_title)
    text = _is_none(value)
    if text.isnumeric():
        return value
    return text.replace("-", " ").title()
""",
        "dekebabize's shape, a title",
    ),
    Case(
        "humps",
        "",
        """
def squash(value):
    text = "" if value is None else str(value)
    if text.isnumeric():
        return text
    return re.sub(r"\\s+", " ", text).strip()
""",
        "whitespace collapsed, not removed",
    ),
    Case(
        "humps",
        "",
        """
def camel_words(value):
    if value is None:
        return []
    text = re.sub(r"\\s+", "", str(value))
    if text.isupper() or text.isnumeric():
        return [text]
    return [w for w in re.split(r"(?<=[a-z])(?=[A-Z])", text) if w]
""",
        "decamelize's shape, a list of words",
    ),
    Case(
        "humps",
        "",
        """
def screaming_snake(data):
    if isinstance(data, (list, Mapping)):
        return _process_keys(data, screaming_snake)
    text = _is_none(data)
    if text.isnumeric():
        return data
    return _separate_words(_fix_abbreviations(text)).upper()
""",
        "decamelize's calls, upper-cased constants",
    ),
    Case(
        "slugify",
        "",
        """
def char_to_entity(match):
    char = match.group(0)
    try:
        code = ord(char)
    except TypeError:
        return char
    return f"&#{code};" if code > 127 else char
""",
        "_numeric_reference's shape, the other direction",
    ),
    Case(
        "slugify",
        "",
        """
def wrap_words(text, width=72, sep=" "):
    text = text.strip(sep)
    if len(text) <= width:
        return [text]
    lines, current = [], ""
    for word in text.split(sep):
        if not word:
            continue
        if len(current) + len(word) < width:
            current += word + sep
        else:
            lines.append(current.strip(sep))
            current = word + sep
    if current:
        lines.append(current.strip(sep))
    return lines
""",
        "smart_truncate's loop, wraps into lines",
    ),
    Case(
        "slugify",
        "",
        """
def first_module(*names):
    for name in names:
        try:
            return import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
    raise ModuleNotFoundError(names[-1])
""",
        "_transliterate's import fallback, nothing transliterated",
    ),
    Case(
        "slugify",
        "",
        """
def escape_markup(text, amp=True, angle=True, quotes=False):
    if amp:
        text = text.replace("&", "&amp;")
    if angle:
        text = text.replace("<", "&lt;").replace(">", "&gt;")
    if quotes:
        text = text.replace('"', "&quot;")
    return text
""",
        "_decode_entities's shape, encodes instead",
    ),
    Case(
        "slugify",
        "",
        """
def mask_digits(text, mask="#"):
    if text.isascii():
        return re.sub(r"\\d", mask, text)
    chars = []
    for char in text:
        chars.append(mask if char.isdigit() else char)
    return "".join(chars)
""",
        "_replace_disallowed_unicode's shape, digits masked",
    ),
    Case(
        "funcy",
        "",
        """
def put_in(data, path, value):
    node = data
    for key in path[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError):
            node = node.setdefault(key, {})
    node[path[-1]] = value
    return data
""",
        "get_in's loop, writes",
    ),
    Case(
        "funcy",
        "",
        """
def reachable_depth(coll, path):
    depth = 0
    for key in path:
        try:
            coll = coll[key]
        except (KeyError, IndexError):
            return depth
        depth += 1
    return depth
""",
        "has_path's loop, counts",
    ),
    Case(
        "funcy",
        "",
        '''
def index_by(key, items):
    """The last item for each key(item)."""
    result = {}
    for item in items:
        result[key(item)] = item
    return result
''',
        "group_by's shape, one item per key",
    ),
    Case(
        "funcy",
        "",
        """
def total_by(key, items, amount):
    totals = defaultdict(int)
    for item in items:
        totals[key(item)] += amount(item)
    return totals
""",
        "count_by's shape, sums amounts",
    ),
    Case(
        "funcy",
        "",
        """
def repeated(seq, key=None):
    seen = set()
    for item in seq:
        marker = key(item) if key else item
        if marker in seen:
            yield item
        else:
            seen.add(marker)
""",
        "distinct's shape, yields the repeats",
    ),
    Case(
        "funcy",
        "",
        """
def first_or_none(seq):
    try:
        return seq[0]
    except IndexError:
        return None
    except TypeError:
        return next(iter(seq), None)
""",
        "last's and nth's shape, the first item",
    ),
    Case(
        "funcy",
        "",
        """
def rest(seq):
    it = iter(seq)
    try:
        next(it)
    except StopIteration:
        return
    for item in it:
        yield item
""",
        "butlast's shape, drops the first",
    ),
    Case(
        "funcy",
        "",
        """
def merge_values(*dicts):
    if len(dicts) < 1:
        raise TypeError("merge_values expects at least one argument")
    keys = set.union(*map(set, dicts))
    for key in keys:
        yield key, tuple(d.get(key) for d in dicts)
""",
        "zip_dicts's shape, a union",
    ),
    Case(
        "funcy",
        "",
        """
def format_size(size):
    if size < 1024:
        return "%8.2f B" % size
    elif size < 1024 ** 2:
        return "%8.2f KB" % (size / 1024)
    elif size < 1024 ** 3:
        return "%8.2f MB" % (size / 1024 ** 2)
    else:
        return "%8.2f GB" % (size / 1024 ** 3)
""",
        "format_time's shape, bytes",
    ),
    Case(
        "funcy",
        "",
        """
def duration_label(seconds):
    if seconds < 60:
        return "%d s" % seconds
    elif seconds < 3600:
        return "%d min" % (seconds / 60)
    elif seconds < 86400:
        return "%d h" % (seconds / 3600)
    else:
        return "%d d" % (seconds / 86400)
""",
        "format_time's shape, coarse units",
    ),
    Case(
        "funcy",
        "",
        """
def describe_value(value, width=40):
    if isinstance(value, (list, tuple)):
        text = "[%d items]" % len(value)
    else:
        text = type(value).__name__
    if width and len(text) > width:
        text = text[:width]
    return text
""",
        "smart_repr's shape, a type description",
    ),
    Case(
        "funcy",
        "",
        """
def walk_depths(root, follow=is_seqcont):
    stack = deque([(root, 0)])
    while stack:
        node, depth = stack.pop()
        if follow(node):
            for child in node:
                stack.append((child, depth + 1))
        else:
            yield depth
""",
        "tree_leaves's shape, depths",
    ),
    Case(
        "funcy",
        "",
        '''
def join_lines(sep, seq=None):
    """Join stripped lines."""
    if seq is None:
        return join_lines("\\n", sep)
    return sep.join(line.rstrip() for line in seq)
''',
        "str_join's shape, strips lines",
    ),
    Case(
        "funcy",
        "",
        """
def invert(mapping):
    inverted = {}
    for key, values in mapping.items():
        for value in values:
            if value in inverted:
                inverted[value].append(key)
            else:
                inverted[value] = [key]
    return inverted
""",
        "join_with's inner loop, inverts a multimap",
    ),
    Case(
        "funcy",
        "",
        """
def position(item, seq):
    try:
        return seq.index(item)
    except ValueError:
        return None
    except AttributeError:
        return next((i for i, x in enumerate(seq) if x == item), None)
""",
        "nth's shape, an index",
    ),
]

HELDOUT = COPIES + NEAR_MISSES
