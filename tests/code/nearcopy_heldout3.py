"""THIRD HELD-OUT near-copy set (#35), written by a helper who never read the matcher, its rewrites or
its vetoes, and committed before any rule change: measure it, never tune on it. Project helpers:
werkzeug 3.0.6 (http.py), jinja2 3.1.4 (filters.py, utils.py) and packaging 24.1 (utils.py), packages no
other near-copy set, session or scenario uses.

To plug in, add PACKAGES below to nearcopies.PACKAGES (same shape: pinned requirement, wheel
members).

Copies (`helper` set) are rewritten the way coding agents re-implement a helper a project already
has: a comprehension turned into a loop with `append` (or back), `any`/`all` into a loop that
returns, a private helper or module constant inlined, independent branches and operands reordered,
locals renamed, early returns for `else` branches (or back), a new name and docstring. Each `why`
starts with the original's file. Near misses (`helper` empty) look like one of those helpers and
behave otherwise (another condition, another separator, another answer on an edge case); each `why`
names the helper it resembles and the difference.
"""

from __future__ import annotations

from nearcopies import Case

PACKAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "werkzeug": ("werkzeug==3.0.6", ("werkzeug/http.py",)),
    "jinja2": ("jinja2==3.1.4", ("jinja2/filters.py", "jinja2/utils.py")),
    "packaging": ("packaging==24.1", ("packaging/utils.py",)),
}

COPIES = [
    # -- werkzeug/http.py ------------------------------------------------------------------------------
    Case(
        "werkzeug",
        "quote_header_value",
        '''
def header_quote(raw, token_ok=True):
    """Quote a header value unless it is a plain token."""
    text = str(raw)
    if text == "":
        return '""'
    if token_ok and _token_chars.issuperset(text):
        return text
    escaped = text.replace("\\\\", "\\\\\\\\")
    escaped = escaped.replace('"', '\\\\"')
    return '"' + escaped + '"'
''',
        "werkzeug/http.py: the nested ifs joined with and, the local alias of _token_chars dropped",
    ),
    Case(
        "werkzeug",
        "unquote_header_value",
        """
def strip_header_quotes(value):
    if len(value) < 2 or value[0] != '"' or value[-1] != '"':
        return value
    inner = value[1:-1]
    inner = inner.replace("\\\\\\\\", "\\\\")
    inner = inner.replace('\\\\"', '"')
    return inner
""",
        "werkzeug/http.py: the condition negated into an early return, the chained replace split",
    ),
    Case(
        "werkzeug",
        "dump_options_header",
        """
def format_options_header(main, params):
    parts = [] if main is None else [main]
    for name, val in params.items():
        if val is None:
            continue
        if name.endswith("*"):
            parts.append(name + "=" + str(val))
            continue
        parts.append(name + "=" + quote_header_value(val))
    return "; ".join(parts)
""",
        "werkzeug/http.py: a conditional list for the first append, else as continue, endswith "
        "for [-1]",
    ),
    Case(
        "werkzeug",
        "dump_header",
        """
def serialize_header(values):
    if not isinstance(values, dict):
        out = []
        for v in values:
            out.append(quote_header_value(v))
        return ", ".join(out)
    out = []
    for k, v in values.items():
        if v is None:
            out.append(k)
        elif k[-1] == "*":
            out.append(f"{k}={v}")
        else:
            out.append(f"{k}={quote_header_value(v)}")
    return ", ".join(out)
""",
        "werkzeug/http.py: branches swapped (list first, as an early return), the comprehension "
        "as a loop",
    ),
    Case(
        "werkzeug",
        "parse_list_header",
        '''
def split_header_list(header):
    """Items of a comma separated header, quotes removed."""
    return [
        part[1:-1] if len(part) >= 2 and part[0] == part[-1] == '"' else part
        for part in _parse_list_header(header)
    ]
''',
        "werkzeug/http.py: the loop with append as a comprehension with a conditional expression",
    ),
    Case(
        "werkzeug",
        "quote_etag",
        """
def make_etag_header(tag, weak=False):
    if '"' in tag:
        raise ValueError("invalid etag")
    quoted = '"' + tag + '"'
    if not weak:
        return quoted
    return "W/" + quoted
""",
        "werkzeug/http.py: the weak branch as an early return of the strong case",
    ),
    Case(
        "werkzeug",
        "unquote_etag",
        """
def split_etag(raw):
    if not raw:
        return None, None
    raw = raw.strip()
    is_weak = raw.startswith("W/") or raw.startswith("w/")
    if is_weak:
        raw = raw[2:]
    if raw[:1] == raw[-1:] == '"':
        raw = raw[1:-1]
    return raw, is_weak
""",
        "werkzeug/http.py: the flag computed at once (startswith of a tuple as or), locals renamed",
    ),
    Case(
        "werkzeug",
        "parse_age",
        """
def age_header_to_delta(header=None):
    if not header:
        return None
    try:
        secs = int(header)
    except ValueError:
        return None
    if secs >= 0:
        try:
            return timedelta(seconds=secs)
        except OverflowError:
            pass
    return None
""",
        "werkzeug/http.py: the negative check inverted around the try, the overflow falling "
        "through",
    ),
    Case(
        "werkzeug",
        "dump_age",
        """
def age_to_header(value=None):
    if value is None:
        return None
    seconds = int(value.total_seconds()) if isinstance(value, timedelta) else int(value)
    if seconds < 0:
        raise ValueError("age cannot be negative")
    return str(seconds)
""",
        "werkzeug/http.py: the if/else as a conditional expression",
    ),
    Case(
        "werkzeug",
        "remove_entity_headers",
        """
def drop_entity_headers(headers, allowed=("expires", "content-location")):
    keep = set()
    for name in allowed:
        keep.add(name.lower())
    kept = []
    for key, value in headers:
        if key.lower() in keep or key.lower() not in _entity_headers:
            kept.append((key, value))
    headers[:] = kept
""",
        "werkzeug/http.py: both comprehensions as loops, is_entity_header inlined, the or's "
        "operands swapped",
    ),
    Case(
        "werkzeug",
        "remove_hop_by_hop_headers",
        '''
def strip_hop_headers(headers):
    """Remove the hop-by-hop headers in place."""
    remaining = []
    for name, val in headers:
        if is_hop_by_hop_header(name):
            continue
        remaining.append((name, val))
    headers[:] = remaining
''',
        "werkzeug/http.py: the comprehension as a loop with continue",
    ),
    Case(
        "werkzeug",
        "is_byte_range_valid",
        """
def valid_byte_range(start, stop, length):
    if start is None and stop is None:
        return length is None or length >= 0
    if start is None or stop is None:
        return False
    if length is None:
        return 0 <= start < stop
    if start >= stop:
        return False
    return 0 <= start < length
""",
        "werkzeug/http.py: the xor on None split into both-None and one-None, elif chain as early "
        "returns",
    ),
    Case(
        "werkzeug",
        "parse_if_range_header",
        """
def read_if_range(header):
    if header:
        when = parse_date(header)
        if when is None:
            tag, _weak = unquote_etag(header)
            return ds.IfRange(tag)
        return ds.IfRange(date=when)
    return ds.IfRange()
""",
        "werkzeug/http.py: the early return turned into an enclosing if, the date test inverted",
    ),
    Case(
        "werkzeug",
        "parse_dict_header",
        """
def header_to_dict(header):
    out = {}
    for entry in parse_list_header(header):
        name, eq, val = entry.partition("=")
        name = name.strip()
        if not name:
            continue
        if eq:
            val = val.strip()
            charset = None
            if name[-1] == "*":
                name = name[:-1]
                found = _charset_value_re.match(val)
                if found:
                    charset, val = found.groups()
                    charset = charset.lower()
                if charset in {"ascii", "us-ascii", "utf-8", "iso-8859-1"}:
                    val = unquote(val, encoding=charset)
            if len(val) >= 2 and val[0] == val[-1] == '"':
                val = val[1:-1]
            out[name] = val
        else:
            out[name] = None
    return out
""",
        "werkzeug/http.py: the no-value continue as an else branch, locals renamed",
    ),
    # -- jinja2/filters.py
    # -----------------------------------------------------------------------------
    Case(
        "jinja2",
        "do_title",
        '''
def titlecase_words(text):
    """Title-case each word, keeping the separators."""
    pieces = []
    for chunk in _word_beginning_split_re.split(soft_str(text)):
        if not chunk:
            continue
        pieces.append(chunk[0].upper() + chunk[1:].lower())
    return "".join(pieces)
''',
        "jinja2/filters.py: the list comprehension as a loop with append and continue",
    ),
    Case(
        "jinja2",
        "do_filesizeformat",
        """
def human_size(value, binary=False):
    size = float(value)
    base = 1000
    names = ["kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"]
    if binary:
        base = 1024
        names = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"]
    if size == 1:
        return "1 Byte"
    if size < base:
        return f"{int(size)} Bytes"
    for power, name in enumerate(names, start=2):
        limit = base**power
        if size < limit:
            return f"{base * size / limit:.1f} {name}"
    return f"{base * size / limit:.1f} {name}"
""",
        "jinja2/filters.py: two literal lists for the per-item conditional, enumerate from 2, "
        "else as early returns",
    ),
    Case(
        "jinja2",
        "do_indent",
        """
def indent_text(text, width=4, first=False, blank=False):
    pad = width if isinstance(width, str) else " " * width
    nl = "\\n"
    if isinstance(text, Markup):
        pad = Markup(pad)
        nl = Markup(nl)
    text += nl
    if not blank:
        rows = text.splitlines()
        out = rows.pop(0)
        if rows:
            shifted = []
            for row in rows:
                shifted.append(pad + row if row else row)
            out += nl + nl.join(shifted)
    else:
        out = (nl + pad).join(text.splitlines())
    if first:
        out = pad + out
    return out
""",
        "jinja2/filters.py: the blank branches swapped, the generator as a loop with append",
    ),
    Case(
        "jinja2",
        "do_truncate",
        """
def shorten(env, text, length=255, killwords=False, end="...", leeway=None):
    leeway = env.policies["truncate.leeway"] if leeway is None else leeway
    assert length >= len(end), f"expected length >= {len(end)}, got {length}"
    assert leeway >= 0, f"expected leeway >= 0, got {leeway}"
    if len(text) > length + leeway:
        head = text[: length - len(end)]
        if not killwords:
            head = head.rsplit(" ", 1)[0]
        return head + end
    return text
""",
        "jinja2/filters.py: the fits test inverted, the two truncations folded into one with an if",
    ),
    Case(
        "jinja2",
        "do_int",
        """
def to_int(value, default=0, base=10):
    try:
        if not isinstance(value, str):
            return int(value)
        return int(value, base)
    except (ValueError, TypeError):
        pass
    try:
        return int(float(value))
    except (ValueError, TypeError):
        return default
""",
        "jinja2/filters.py: the str test inverted, the nested try moved after the first",
    ),
    Case(
        "jinja2",
        "do_batch",
        """
def rows_of(items, size, fill_with=None):
    current = []
    for item in items:
        if len(current) == size:
            yield current
            current = []
        current.append(item)
    if not current:
        return
    if fill_with is not None and len(current) < size:
        current.extend([fill_with] * (size - len(current)))
    yield current
""",
        "jinja2/filters.py: the trailing if as an early return, += as extend",
    ),
    Case(
        "jinja2",
        "sync_do_slice",
        """
def split_columns(items, count, fill_with=None):
    values = list(items)
    per = len(values) // count
    extra = len(values) % count
    shift = 0
    for n in range(count):
        begin = shift + n * per
        if n < extra:
            shift += 1
        chunk = values[begin : shift + (n + 1) * per]
        if n >= extra and fill_with is not None:
            chunk.append(fill_with)
        yield chunk
""",
        "jinja2/filters.py: length inlined, the end index inlined into the slice, the and's "
        "operands swapped",
    ),
    Case(
        "jinja2",
        "do_round",
        """
def round_to(value, precision=0, method="common"):
    if method == "common":
        return round(value, precision)
    if method not in ("ceil", "floor"):
        raise FilterArgumentError("method must be common, ceil or floor")
    scale = 10**precision
    return getattr(math, method)(value * scale) / scale
""",
        "jinja2/filters.py: the common case tested first, the check narrowed after it, the factor "
        "named",
    ),
    Case(
        "jinja2",
        "do_reverse",
        """
def reversed_value(value):
    if not isinstance(value, str):
        try:
            return reversed(value)
        except TypeError:
            pass
        try:
            items = list(value)
        except TypeError as exc:
            raise FilterArgumentError("argument must be iterable") from exc
        items.reverse()
        return items
    return value[::-1]
""",
        "jinja2/filters.py: the str case last, the nested try flattened",
    ),
    Case(
        "jinja2",
        "do_xmlattr",
        """
@pass_eval_context
def html_attributes(eval_ctx, attrs, autospace=True):
    pairs = []
    for name, val in attrs.items():
        if isinstance(val, Undefined) or val is None:
            continue
        if _attr_key_re.search(name):
            raise ValueError(f"Invalid character in attribute name: {name!r}")
        pairs.append(f'{escape(name)}="{escape(val)}"')
    text = " ".join(pairs)
    if autospace and text:
        text = " " + text
    return Markup(text) if eval_ctx.autoescape else text
""",
        "jinja2/filters.py: the or's operands swapped, `is not None` dropped on the match, the "
        "last if as an expression",
    ),
    Case(
        "jinja2",
        "do_dictsort",
        """
def sorted_items(value, case_sensitive=False, by="key", reverse=False):
    if by not in ("key", "value"):
        raise FilterArgumentError('You can only sort by either "key" or "value"')
    index = 0 if by == "key" else 1

    def key(pair):
        field = pair[index]
        if not case_sensitive and isinstance(field, str):
            field = field.lower()
        return field

    return sorted(value.items(), key=key, reverse=reverse)
""",
        "jinja2/filters.py: the if/elif/else as a guard and an expression, ignore_case inlined",
    ),
    Case(
        "jinja2",
        "do_unique",
        """
@pass_environment
def distinct(environment, items, case_sensitive=False, attribute=None):
    post = None if case_sensitive else ignore_case
    key_of = make_attrgetter(environment, attribute, postprocess=post)
    seen = set()
    for item in items:
        marker = key_of(item)
        if marker in seen:
            continue
        seen.add(marker)
        yield item
""",
        "jinja2/filters.py: the membership test inverted into a continue, the postprocess named",
    ),
    Case(
        "jinja2",
        "do_items",
        """
def mapping_pairs(value):
    if isinstance(value, Undefined):
        return
    if isinstance(value, abc.Mapping):
        for pair in value.items():
            yield pair
        return
    raise TypeError("Can only get item pairs from a mapping.")
""",
        "jinja2/filters.py: the type check inverted (raise last), yield from as a loop",
    ),
    Case(
        "jinja2",
        "do_wordwrap",
        """
@pass_environment
def wrap_paragraphs(environment, text, width=79, break_long_words=True, wrapstring=None, break_on_hyphens=True):
    import textwrap

    joiner = environment.newline_sequence if wrapstring is None else wrapstring
    wrapped = []
    for line in text.splitlines():
        pieces = textwrap.wrap(
            line,
            width=width,
            expand_tabs=False,
            replace_whitespace=False,
            break_long_words=break_long_words,
            break_on_hyphens=break_on_hyphens,
        )
        wrapped.append(joiner.join(pieces))
    return joiner.join(wrapped)
""",
        "jinja2/filters.py: the outer comprehension as a loop with append, the default as an "
        "expression",
    ),
    Case(
        "jinja2",
        "_min_or_max",
        """
def _pick_extreme(environment, value, func, case_sensitive, attribute):
    items = iter(value)
    nothing = object()
    first = next(items, nothing)
    if first is nothing:
        return environment.undefined("No aggregated item, sequence was empty.")
    getter = make_attrgetter(environment, attribute, postprocess=None if case_sensitive else ignore_case)
    return func(chain([first], items), key=getter)
""",
        "jinja2/filters.py: try/except StopIteration as next() with a sentinel",
    ),
    Case(
        "werkzeug",
        "parse_etags",
        """
def read_etags(header):
    if not header:
        return ds.ETags()
    strong, weak = [], []
    pos = 0
    while pos < len(header):
        found = _etag_re.match(header, pos)
        if not found:
            break
        weak_marker, quoted, raw = found.groups()
        if raw == "*":
            return ds.ETags(star_tag=True)
        tag = quoted if quoted else raw
        (weak if weak_marker else strong).append(tag)
        pos = found.end()
    return ds.ETags(strong, weak)
""",
        "werkzeug/http.py: the elif as a conditional expression, the if/else appends as a chosen "
        "list",
    ),
    Case(
        "werkzeug",
        "parse_date",
        '''
def to_datetime(header):
    """An HTTP date as an aware datetime, None if it does not parse."""
    if header is None:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(header)
    except (ValueError, TypeError):
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)
''',
        "werkzeug/http.py: the tz test as a conditional expression, the exception tuple reordered",
    ),
    Case(
        "werkzeug",
        "http_date",
        """
def format_http_date(timestamp=None):
    if isinstance(timestamp, datetime):
        return email.utils.format_datetime(_dt_as_utc(timestamp), usegmt=True)
    if isinstance(timestamp, date):
        midnight = datetime.combine(timestamp, time(), tzinfo=timezone.utc)
        return email.utils.format_datetime(midnight, usegmt=True)
    if isinstance(timestamp, struct_time):
        timestamp = mktime(timestamp)
    return email.utils.formatdate(timestamp, usegmt=True)
""",
        "werkzeug/http.py: the nested date/datetime test flattened (datetime first), one return "
        "per case",
    ),
    Case(
        "werkzeug",
        "parse_content_range_header",
        """
def read_content_range(value, on_update=None):
    if value is None:
        return None
    parts = (value or "").strip().split(None, 1)
    if len(parts) != 2:
        return None
    units, rangedef = parts
    rng, slash, length_str = rangedef.partition("/")
    if not slash:
        return None
    length = None
    if length_str != "*":
        try:
            length = _plain_int(length_str)
        except ValueError:
            return None
    if rng == "*":
        if is_byte_range_valid(None, None, length):
            return ds.ContentRange(units, None, None, length, on_update=on_update)
        return None
    if "-" not in rng:
        return None
    start_str, stop_str = rng.split("-", 1)
    try:
        start, stop = _plain_int(start_str), _plain_int(stop_str) + 1
    except ValueError:
        return None
    if not is_byte_range_valid(start, stop, length):
        return None
    return ds.ContentRange(units, start, stop, length, on_update=on_update)
""",
        "werkzeug/http.py: the unpacking's ValueError as a length test, split as partition, the "
        "last test inverted",
    ),
    Case(
        "jinja2",
        "do_urlencode",
        """
def encode_query(value):
    if not isinstance(value, str) and isinstance(value, abc.Iterable):
        pairs = value.items() if isinstance(value, dict) else value
        parts = []
        for key, val in pairs:
            parts.append(url_quote(key, for_qs=True) + "=" + url_quote(val, for_qs=True))
        return "&".join(parts)
    return url_quote(value)
""",
        "jinja2/filters.py: the early return's test negated (the scalar case last), the generator "
        "as a loop",
    ),
    # -- jinja2/utils.py
    # -------------------------------------------------------------------------------
    Case(
        "jinja2",
        "import_string",
        """
def load_object(path, silent=False):
    try:
        if ":" not in path and "." not in path:
            return __import__(path)
        if ":" in path:
            mod, attr = path.split(":", 1)
        else:
            mod, _, attr = path.rpartition(".")
        return getattr(__import__(mod, None, None, [attr]), attr)
    except (AttributeError, ImportError):
        if not silent:
            raise
""",
        "jinja2/utils.py: the plain-module else branch hoisted as the first early return",
    ),
    Case(
        "jinja2",
        "object_type_repr",
        '''
def describe_type(obj):
    """A short description of obj's type for error messages."""
    if obj is Ellipsis:
        return "Ellipsis"
    if obj is None:
        return "None"
    kind = type(obj)
    prefix = "" if kind.__module__ == "builtins" else kind.__module__ + "."
    return f"{prefix}{kind.__name__} object"
''',
        "jinja2/utils.py: the None/Ellipsis branches swapped, the two returns merged with a prefix",
    ),
    Case(
        "jinja2",
        "url_quote",
        """
def quote_for_url(obj, charset="utf-8", for_qs=False):
    if isinstance(obj, str):
        obj = obj.encode(charset)
    elif not isinstance(obj, bytes):
        obj = str(obj).encode(charset)
    quoted = quote_from_bytes(obj, b"" if for_qs else b"/")
    return quoted.replace("%20", "+") if for_qs else quoted
""",
        "jinja2/utils.py: the nested type tests as if/elif, the trailing if as an expression",
    ),
    # -- packaging/utils.py
    # ----------------------------------------------------------------------------
    Case(
        "packaging",
        "canonicalize_version",
        """
def normal_version(version, *, strip_trailing_zero=True):
    if not isinstance(version, str):
        parsed = version
    else:
        try:
            parsed = Version(version)
        except InvalidVersion:
            return version
    out = f"{parsed.epoch}!" if parsed.epoch != 0 else ""
    release = ".".join(map(str, parsed.release))
    if strip_trailing_zero:
        release = re.sub(r"(\\.0)+$", "", release)
    out += release
    if parsed.pre is not None:
        out += "".join(map(str, parsed.pre))
    if parsed.post is not None:
        out += f".post{parsed.post}"
    if parsed.dev is not None:
        out += f".dev{parsed.dev}"
    if parsed.local is not None:
        out += f"+{parsed.local}"
    return out
""",
        "packaging/utils.py: the parts list as string concatenation, generators as map, the type "
        "test inverted",
    ),
    Case(
        "packaging",
        "parse_sdist_filename",
        """
def sdist_name_and_version(filename):
    stem = None
    for suffix in (".tar.gz", ".zip"):
        if filename.endswith(suffix):
            stem = filename[: -len(suffix)]
            break
    if stem is None:
        raise InvalidSdistFilename(
            f"Invalid sdist filename (extension must be '.tar.gz' or '.zip'): {filename}"
        )
    head, dash, tail = stem.rpartition("-")
    if dash == "":
        raise InvalidSdistFilename(f"Invalid sdist filename: {filename}")
    try:
        version = Version(tail)
    except InvalidVersion as exc:
        raise InvalidSdistFilename(f"Invalid sdist filename (invalid version): {filename}") from exc
    return canonicalize_name(head), version
""",
        "packaging/utils.py: the if/elif on suffixes as a loop that breaks, canonicalize_name "
        "moved to the return",
    ),
    Case(
        "packaging",
        "parse_wheel_filename",
        """
def wheel_parts(filename):
    if filename[-4:] != ".whl":
        raise InvalidWheelFilename(f"Invalid wheel filename (extension must be '.whl'): {filename}")
    stem = filename[:-4]
    count = stem.count("-")
    if count != 4 and count != 5:
        raise InvalidWheelFilename(f"Invalid wheel filename (wrong number of parts): {stem}")
    fields = stem.split("-", count - 2)
    project = fields[0]
    if re.match(r"^[\\w\\d._]*$", project, re.UNICODE) is None or "__" in project:
        raise InvalidWheelFilename(f"Invalid project name: {stem}")
    try:
        version = Version(fields[1])
    except InvalidVersion as exc:
        raise InvalidWheelFilename(f"Invalid wheel filename (invalid version): {stem}") from exc
    build = ()
    if count == 5:
        matched = _build_tag_regex.match(fields[2])
        if matched is None:
            raise InvalidWheelFilename(f"Invalid build number: {fields[2]} in '{stem}'")
        build = (int(matched.group(1)), matched.group(2))
    return (canonicalize_name(project), version, build, parse_tag(fields[-1]))
""",
        "packaging/utils.py: `not in (4, 5)` as two tests, the or's operands swapped, the else as "
        "a default",
    ),
    Case(
        "packaging",
        "canonicalize_name",
        '''
def normalized_project(name, *, validate=False):
    """PEP 503 normal form of a project name."""
    if validate:
        if not _validate_regex.match(name):
            raise InvalidName(f"name is invalid: {name!r}")
    collapsed = re.sub(r"[-_.]+", "-", name)
    lowered = collapsed.lower()
    return lowered
''',
        "packaging/utils.py: the and split into nested ifs, the compiled regex inlined as re.sub",
    ),
]

NEAR_MISSES = [
    # -- look-alikes of werkzeug/http.py -----------------------------------------------------------
    Case(
        "werkzeug",
        "",
        """
def quote_value(raw, token_ok=True):
    text = str(raw)
    if text == "":
        return '""'
    if token_ok and _token_chars.issuperset(text):
        return text
    return '"' + text.replace('"', '\\\\"') + '"'
""",
        "like quote_header_value: backslashes are not escaped, only double quotes",
    ),
    Case(
        "werkzeug",
        "",
        """
def strip_single_quotes(value):
    if len(value) < 2 or value[0] != "'" or value[-1] != "'":
        return value
    inner = value[1:-1]
    inner = inner.replace("\\\\\\\\", "\\\\")
    inner = inner.replace("\\\\'", "'")
    return inner
""",
        "like unquote_header_value: single quotes, not double",
    ),
    Case(
        "werkzeug",
        "",
        """
def format_params(main, params):
    parts = [] if main is None else [main]
    for name, val in params.items():
        if val is None:
            parts.append(name)
            continue
        parts.append(name + "=" + quote_header_value(val))
    return ", ".join(parts)
""",
        "like dump_options_header: keeps None keys bare, no `*` case, joined with a comma",
    ),
    Case(
        "werkzeug",
        "",
        """
def join_header_values(values):
    if not isinstance(values, dict):
        out = []
        for v in values:
            out.append(str(v))
        return "; ".join(out)
    out = []
    for k, v in values.items():
        if v is not None:
            out.append(f"{k}={v}")
    return "; ".join(out)
""",
        "like dump_header: no quoting, drops None keys, joined with a semicolon",
    ),
    Case(
        "werkzeug",
        "",
        '''
def split_semicolon_list(header):
    """Items of a semicolon separated header."""
    items = []
    for part in header.split(";"):
        part = part.strip()
        if len(part) >= 2 and part[0] == part[-1] == '"':
            part = part[1:-1]
        items.append(part)
    return items
''',
        "like parse_list_header: splits on semicolons without honouring quoted commas",
    ),
    Case(
        "werkzeug",
        "",
        """
def make_lenient_etag(tag, weak=False):
    tag = tag.replace('"', "")
    quoted = '"' + tag + '"'
    if not weak:
        return quoted
    return "w/" + quoted
""",
        "like quote_etag: strips quotes instead of raising, lower-case weak marker",
    ),
    Case(
        "werkzeug",
        "",
        """
def bare_etag(raw):
    if not raw:
        return None
    raw = raw.strip()
    if raw[:1] == raw[-1:] == '"':
        raw = raw[1:-1]
    if raw.startswith("W/"):
        raw = raw[2:]
    return raw
""",
        "like unquote_etag: returns no weak flag and strips quotes before the weak prefix",
    ),
    Case(
        "werkzeug",
        "",
        """
def age_in_seconds(header=None):
    if not header:
        return 0
    try:
        secs = int(header)
    except ValueError:
        return 0
    if secs < 0:
        return 0
    return timedelta(seconds=secs).total_seconds()
""",
        "like parse_age: 0 for bad input, seconds as a float rather than a timedelta",
    ),
    Case(
        "werkzeug",
        "",
        """
def clamp_age(value=None):
    if value is None:
        return None
    seconds = int(value.total_seconds()) if isinstance(value, timedelta) else int(value)
    if seconds < 0:
        seconds = 0
    return str(seconds)
""",
        "like dump_age: a negative age becomes 0 instead of raising",
    ),
    Case(
        "werkzeug",
        "",
        """
def keep_entity_headers(headers, allowed=("expires", "content-location")):
    keep = set()
    for name in allowed:
        keep.add(name.lower())
    kept = []
    for key, value in headers:
        if key.lower() in keep or key.lower() in _entity_headers:
            kept.append((key, value))
    headers[:] = kept
""",
        "like remove_entity_headers: keeps the entity headers and drops the others",
    ),
    Case(
        "werkzeug",
        "",
        '''
def hop_headers_only(headers):
    """The hop-by-hop headers, as a new list."""
    found = []
    for name, val in headers:
        if not is_hop_by_hop_header(name):
            continue
        found.append((name, val))
    return found
''',
        "like remove_hop_by_hop_headers: returns the hop-by-hop ones, leaves the list alone",
    ),
    Case(
        "werkzeug",
        "",
        """
def inclusive_range_ok(start, stop, length):
    if start is None and stop is None:
        return True
    if start is None or stop is None:
        return False
    if length is None:
        return 0 <= start <= stop
    if start > stop:
        return False
    return 0 <= stop < length
""",
        "like is_byte_range_valid: an inclusive stop, checked against the length instead of the "
        "start",
    ),
    Case(
        "werkzeug",
        "",
        """
def if_range_tag(header):
    if header:
        when = parse_date(header)
        if when is None:
            tag, weak = unquote_etag(header)
            return None if weak else tag
        return None
    return None
""",
        "like parse_if_range_header: returns only a strong tag, no IfRange, dates ignored",
    ),
    Case(
        "werkzeug",
        "",
        """
def header_params_lower(header):
    out = {}
    for entry in header.split(","):
        name, eq, val = entry.partition("=")
        name = name.strip().lower()
        if not name:
            continue
        if eq:
            out[name] = val.strip()
        else:
            out[name] = ""
    return out
""",
        "like parse_dict_header: lower-cased keys, quotes kept, '' for a bare key, no charset",
    ),
    # -- look-alikes of jinja2/filters.py and jinja2/utils.py --------------------------------------
    Case(
        "jinja2",
        "",
        '''
def capitalize_words(text):
    """Upper-case the first letter of each space separated word."""
    pieces = []
    for chunk in soft_str(text).split(" "):
        if not chunk:
            pieces.append(chunk)
            continue
        pieces.append(chunk[0].upper() + chunk[1:])
    return " ".join(pieces)
''',
        "like do_title: splits on spaces only and keeps the rest of each word's case",
    ),
    Case(
        "jinja2",
        "",
        """
def binary_size(value):
    size = float(value)
    names = ["KiB", "MiB", "GiB", "TiB", "PiB"]
    if size < 1024:
        return f"{int(size)} B"
    for power, name in enumerate(names, start=2):
        limit = 1024**power
        if size < limit:
            return f"{1024 * size / limit:.2f} {name}"
    return f"{1024 * size / limit:.2f} {name}"
""",
        "like do_filesizeformat: always binary, 'B' for bytes, two decimals, stops at PiB",
    ),
    Case(
        "jinja2",
        "",
        """
def unindent_text(text, width=4):
    pad = width if isinstance(width, str) else " " * width
    rows = text.splitlines()
    shifted = []
    for row in rows:
        shifted.append(row[len(pad) :] if row.startswith(pad) else row)
    out = "\\n".join(shifted)
    if text.endswith("\\n"):
        out += "\\n"
    return out
""",
        "like do_indent: the opposite, removes one level of indentation from each line",
    ),
    Case(
        "jinja2",
        "",
        """
def shorten_words(text, length=255, end="..."):
    if len(text) > length:
        head = text[:length]
        if " " in head:
            head = head.rsplit(" ", 1)[0]
        return head + end
    return text
""",
        "like do_truncate: no leeway, the end added beyond the length",
    ),
    Case(
        "jinja2",
        "",
        """
def strict_int(value, default=0, base=10):
    try:
        if not isinstance(value, str):
            return int(value)
        return int(value, base)
    except (ValueError, TypeError):
        pass
    return default
""",
        "like do_int: '42.23' gives the default, not 42 (no float fallback)",
    ),
    Case(
        "jinja2",
        "",
        """
def full_rows(items, size):
    current = []
    for item in items:
        current.append(item)
        if len(current) == size:
            yield current
            current = []
    if current:
        return
    yield []
""",
        "like do_batch: drops a short last row, yields an empty row when the rows came out even",
    ),
    Case(
        "jinja2",
        "",
        """
def deal_columns(items, count, fill_with=None):
    values = list(items)
    longest = -(-len(values) // count)
    for n in range(count):
        chunk = values[n::count]
        if fill_with is not None and len(chunk) < longest:
            chunk.append(fill_with)
        yield chunk
""",
        "like sync_do_slice: deals items round-robin (every count-th) instead of contiguous slices",
    ),
    Case(
        "jinja2",
        "",
        """
def round_half_up(value, precision=0, method="common"):
    scale = 10**precision
    if method == "common":
        return math.floor(value * scale + 0.5) / scale
    if method not in ("ceil", "floor"):
        return value
    return getattr(math, method)(value * scale) / scale
""",
        "like do_round: half-up instead of round(), an unknown method returns the value unchanged",
    ),
    Case(
        "jinja2",
        "",
        """
def reversed_list(value):
    if isinstance(value, str):
        return list(value)[::-1]
    try:
        items = list(value)
    except TypeError:
        return []
    items.reverse()
    return items
""",
        "like do_reverse: always a list (a string too), [] for a non-iterable instead of an error",
    ),
    Case(
        "jinja2",
        "",
        """
def raw_attributes(attrs, autospace=True):
    pairs = []
    for name, val in attrs.items():
        if val is None:
            pairs.append(name)
            continue
        pairs.append(f'{name}="{val}"')
    text = " ".join(pairs)
    if autospace and text:
        text = " " + text
    return text
""",
        "like do_xmlattr: no escaping, no key check, None values written as bare attributes",
    ),
    Case(
        "jinja2",
        "",
        """
def sorted_by_value(value, reverse=False):
    def key(pair):
        field = pair[1]
        if isinstance(field, str):
            field = field.upper()
        return field, pair[0]

    return sorted(value.items(), key=key, reverse=reverse)
""",
        "like do_dictsort: by value then key, never by key alone, no argument check",
    ),
    Case(
        "jinja2",
        "",
        """
def last_distinct(items, case_sensitive=False):
    latest = {}
    for item in items:
        marker = item if case_sensitive or not isinstance(item, str) else item.lower()
        latest.pop(marker, None)
        latest[marker] = item
    for item in latest.values():
        yield item
""",
        "like do_unique: keeps the last of equal items, in the order of their last appearance",
    ),
    Case(
        "jinja2",
        "",
        """
def sorted_pairs(value):
    if isinstance(value, Undefined):
        return []
    if isinstance(value, abc.Mapping):
        pairs = []
        for pair in value.items():
            pairs.append(pair)
        return sorted(pairs)
    return list(enumerate(value))
""",
        "like do_items: sorted, a list, and a sequence gives (index, item) pairs instead of an "
        "error",
    ),
    Case(
        "jinja2",
        "",
        """
def wrap_flat(text, width=79, wrapstring="\\n"):
    import textwrap

    pieces = textwrap.wrap(
        text,
        width=width,
        expand_tabs=False,
        replace_whitespace=True,
    )
    return wrapstring.join(pieces)
""",
        "like do_wordwrap: wraps the whole text at once, existing newlines folded into spaces",
    ),
    Case(
        "jinja2",
        "",
        """
def smallest_or_none(values, attribute=None):
    best = None
    for item in values:
        key = item if attribute is None else getattr(item, attribute)
        if best is None or key < best[0]:
            best = (key, item)
    if best is None:
        return None
    return best[1]
""",
        "like _min_or_max: always the minimum, case-sensitive, None for an empty sequence",
    ),
    Case(
        "jinja2",
        "",
        """
def load_dotted(path, silent=False):
    try:
        mod, _, attr = path.rpartition(".")
        if not mod:
            return __import__(path)
        return getattr(__import__(mod, None, None, [attr]), attr)
    except (AttributeError, ImportError):
        if silent:
            return None
        raise ValueError(f"cannot import {path!r}") from None
""",
        "like import_string: no `module:attr` form, a ValueError instead of the import error",
    ),
    Case(
        "jinja2",
        "",
        '''
def qualified_type_name(obj):
    """The dotted name of obj's type."""
    if obj is None:
        return "NoneType"
    kind = type(obj)
    module = kind.__module__
    if module is None:
        return kind.__qualname__
    return f"{module}.{kind.__qualname__}"
''',
        "like object_type_repr: always module-qualified (builtins too), no ' object' suffix",
    ),
    Case(
        "jinja2",
        "",
        """
def quote_path(obj, charset="utf-8"):
    if isinstance(obj, str):
        obj = obj.encode(charset)
    elif not isinstance(obj, bytes):
        obj = str(obj).encode(charset)
    quoted = quote_from_bytes(obj, b"/:")
    return quoted.replace("%2F", "/")
""",
        "like url_quote: keeps ':' as well, never the query-string form with '+'",
    ),
    Case(
        "werkzeug",
        "",
        """
def read_etags_flat(header):
    if not header:
        return []
    tags = []
    for part in header.split(","):
        part = part.strip()
        if part.startswith(("W/", "w/")):
            part = part[2:]
        if part[:1] == part[-1:] == '"':
            part = part[1:-1]
        tags.append(part)
    return tags
""",
        "like parse_etags: one flat list, weakness dropped, '*' kept as a tag, commas inside "
        "quotes split",
    ),
    Case(
        "werkzeug",
        "",
        """
def to_timestamp(header):
    if header is None:
        return 0.0
    try:
        parsed = email.utils.parsedate_to_datetime(header)
    except (ValueError, TypeError):
        return 0.0
    if parsed.tzinfo is None:
        return parsed.timestamp()
    return parsed.timestamp()
""",
        "like parse_date: a float timestamp, 0.0 for bad input, a naive date read as local time",
    ),
    Case(
        "werkzeug",
        "",
        """
def format_iso_date(timestamp=None):
    if timestamp is None:
        timestamp = datetime.now(timezone.utc)
    if isinstance(timestamp, (int, float)):
        timestamp = datetime.fromtimestamp(timestamp, timezone.utc)
    if isinstance(timestamp, datetime):
        return timestamp.astimezone(timezone.utc).isoformat()
    return timestamp.isoformat()
""",
        "like http_date: ISO 8601 text instead of the RFC 7231 HTTP date",
    ),
    Case(
        "werkzeug",
        "",
        """
def read_inclusive_range(value):
    if value is None:
        return None
    parts = value.strip().split(None, 1)
    if len(parts) != 2:
        return None
    units, rangedef = parts
    rng, slash, length_str = rangedef.partition("/")
    length = None if length_str in ("", "*") else int(length_str)
    if rng == "*" or "-" not in rng:
        return units, None, None, length
    start_str, stop_str = rng.split("-", 1)
    return units, int(start_str), int(stop_str), length
""",
        "like parse_content_range_header: a tuple with an inclusive stop, no validity check, "
        "errors raised",
    ),
    Case(
        "jinja2",
        "",
        """
def encode_query_raw(value):
    if not isinstance(value, str) and isinstance(value, abc.Iterable):
        pairs = value.items() if isinstance(value, dict) else value
        parts = []
        for key, val in pairs:
            parts.append(f"{key}={url_quote(val)}")
        return ";".join(parts)
    return str(value)
""",
        "like do_urlencode: keys not quoted, values path-quoted, joined with ';', a scalar not "
        "quoted",
    ),
    # -- look-alikes of packaging/utils.py
    # ----------------------------------------------------------
    Case(
        "packaging",
        "",
        """
def release_only(version):
    if not isinstance(version, str):
        parsed = version
    else:
        try:
            parsed = Version(version)
        except InvalidVersion:
            return ""
    release = ".".join(map(str, parsed.release))
    if parsed.pre is not None:
        release += "".join(map(str, parsed.pre))
    return release
""",
        "like canonicalize_version: trailing zeros kept, epoch/post/dev/local dropped, '' for a "
        "bad version",
    ),
    Case(
        "packaging",
        "",
        """
def sdist_name_first_dash(filename):
    stem = None
    for suffix in (".tar.gz", ".zip", ".tar.bz2"):
        if filename.endswith(suffix):
            stem = filename[: -len(suffix)]
            break
    if stem is None:
        raise ValueError(filename)
    head, dash, tail = stem.partition("-")
    if dash == "":
        raise ValueError(filename)
    return head.lower(), tail
""",
        "like parse_sdist_filename: splits on the first dash, a third suffix, no Version, no "
        "canonical name",
    ),
    Case(
        "packaging",
        "",
        """
def wheel_name_version(filename):
    if filename[-4:] != ".whl":
        raise ValueError(filename)
    stem = filename[:-4]
    fields = stem.split("-")
    if len(fields) < 3:
        raise ValueError(filename)
    project = fields[0].replace("_", "-").lower()
    version = fields[1]
    return project, version
""",
        "like parse_wheel_filename: any part count, no build tag or tags, the version as a string",
    ),
    Case(
        "packaging",
        "",
        '''
def module_name(name, *, validate=False):
    """A project name as an importable module name."""
    if validate:
        if not name.isidentifier():
            raise ValueError(f"name is invalid: {name!r}")
    collapsed = re.sub(r"[-_.]+", "_", name)
    lowered = collapsed.lower()
    return lowered
''',
        "like canonicalize_name: underscores instead of dashes, another validation",
    ),
]

HELDOUT3 = COPIES + NEAR_MISSES
