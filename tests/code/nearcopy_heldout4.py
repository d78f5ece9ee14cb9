"""FOURTH HELD-OUT near-copy set (#35), written by a helper who never read the matcher, its rewrites
or its vetoes, never ran it on these cases, and committed them before any rule change: measure it,
never tune on it. Project helpers: validators 0.35.0 (card.py, finance.py, iban.py, cron.py,
between.py, uuid.py, country.py, ip_address.py, hostname.py, url.py, i18n/es.py, i18n/fi.py,
i18n/fr.py, crypto_addresses/btc_address.py, crypto_addresses/trx_address.py), tornado 6.4.1
(httputil.py, escape.py, util.py) and urllib3 2.2.3 (util/util.py, util/url.py, util/ssl_.py,
util/ssl_match_hostname.py, util/request.py, fields.py, filepost.py), packages no other near-copy
set, session or scenario uses.

To plug in, add PACKAGES below to the packages the near-copy test lays into its projects (same
shape as nearcopies.PACKAGES: pinned requirement, wheel members).

Copies (`helper` set) are rewritten the way coding agents re-implement a helper a project already
has, two to four rewrites each: a comprehension or generator turned into a loop with `append` or
`+=` (or back), `any`/`all` into a loop that returns (or back), a private helper or module constant
inlined, independent branches and operands reordered, locals renamed, early returns for `else`
branches (or back), a new name and docstring. Each keeps the helper's behaviour (the truth value,
where the helper's falsy answer is a None or a validator's failure object). Each `why` starts with
the original's file. Near misses (`helper` empty) look like one of those helpers and behave
otherwise (another condition, another separator, another answer on an edge case); each `why` starts
with "like ", names the helper it resembles and the difference.
"""

from __future__ import annotations

from nearcopies import Case

PACKAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "validators": (
        "validators==0.35.0",
        (
            "validators/card.py",
            "validators/finance.py",
            "validators/iban.py",
            "validators/cron.py",
            "validators/between.py",
            "validators/uuid.py",
            "validators/country.py",
            "validators/ip_address.py",
            "validators/hostname.py",
            "validators/url.py",
            "validators/i18n/es.py",
            "validators/i18n/fi.py",
            "validators/i18n/fr.py",
            "validators/crypto_addresses/btc_address.py",
            "validators/crypto_addresses/trx_address.py",
        ),
    ),
    "tornado": ("tornado==6.4.1", ("tornado/httputil.py", "tornado/escape.py", "tornado/util.py")),
    "urllib3": (
        "urllib3==2.2.3",
        (
            "urllib3/util/util.py",
            "urllib3/util/url.py",
            "urllib3/util/ssl_.py",
            "urllib3/util/ssl_match_hostname.py",
            "urllib3/util/request.py",
            "urllib3/fields.py",
            "urllib3/filepost.py",
        ),
    ),
}

COPIES = [
    # -- validators ------------------------------------------------------------------------------
    Case(
        "validators",
        "card_number",
        r'''
def luhn_valid(number):
    """True when the digits of a card number pass the Luhn check."""
    if not number:
        return False
    try:
        digits = [int(ch) for ch in number]
    except ValueError:
        return False
    total = sum(digits[-1::-2])
    for d in digits[-2::-2]:
        tens, units = divmod(d * 2, 10)
        total += tens + units
    return total % 10 == 0
''',
        "validators/card.py: map as a comprehension, the generator sum as a loop with +=, "
        "2 * d as d * 2, the try narrowed to the conversion",
    ),
    Case(
        "validators",
        "mastercard",
        r'''
def is_mastercard_number(number):
    """A Mastercard number: Luhn-valid, 16 digits, a known prefix."""
    if not card_number(number):
        return False
    if len(number) != 16:
        return False
    prefixes = re.compile(r"^(51|52|53|54|55|22|23|24|25|26|27)")
    return prefixes.match(number)
''',
        "validators/card.py: the and chain split into early returns, the pattern renamed",
    ),
    Case(
        "validators",
        "_cusip_checksum",
        r"""
def cusip_digits_ok(code):
    total = 0
    for pos in range(9):
        ch = code[pos]
        if ch == "*":
            v = 36
        elif ch == "@":
            v = 37
        elif ch == "#":
            v = 38
        elif "0" <= ch <= "9":
            v = ord(ch) - ord("0")
        elif "a" <= ch <= "z":
            v = ord(ch) - ord("a") + 10
        elif "A" <= ch <= "Z":
            v = ord(ch) - ord("A") + 10
        else:
            return False
        if pos % 2 == 1:
            v *= 2
        total += v // 10 + v % 10
    return total % 10 == 0
""",
        "validators/finance.py: the independent character branches reordered, comparisons "
        "chained, idx & 1 as pos % 2 == 1, val += val as v *= 2, locals renamed",
    ),
    Case(
        "validators",
        "sedol",
        r'''
def sedol_code_ok(code):
    """Seven characters, no vowels, weighted sum divisible by ten."""
    if len(code) != 7:
        return False
    total = 0
    for ch, weight in zip(code, (1, 3, 1, 7, 3, 9, 1)):
        if "0" <= ch <= "9":
            total += (ord(ch) - ord("0")) * weight
        elif "A" <= ch <= "Z" and ch not in "AEIOU":
            total += (10 + ord(ch) - ord("A")) * weight
        else:
            return False
    return total % 10 == 0
''',
        "validators/finance.py: the weights list inlined into a zip, the vowel check folded into "
        "the letter branch, the index loop over range(7) as a loop over pairs",
    ),
    Case(
        "validators",
        "_mod_check",
        r'''
def iban_mod97_ok(code):
    """The IBAN mod-97 test: country and check digits moved to the end."""
    moved = code[4:] + code[:4]
    digits = ""
    for ch in moved:
        if ch.isdigit():
            digits += ch
        else:
            digits += str(ord(ch) - ord("A") + 10)
    return int(digits) % 97 == 1
''',
        "validators/iban.py: _char_value inlined, the join of a generator as a loop with +=",
    ),
    Case(
        "validators",
        "_validate_cron_component",
        r'''
def cron_field_ok(field, low, high):
    """One field of a cron line within [low, high]: *, N, */N, N/N, A-B or a list."""
    if field.isdecimal():
        return low <= int(field) <= high
    if field == "*":
        return True
    if "/" in field:
        pieces = field.split("/")
        if len(pieces) != 2 or not pieces[1].isdecimal() or int(pieces[1]) < 1:
            return False
        return pieces[0] == "*" or (pieces[0].isdecimal() and low <= int(pieces[0]) <= high)
    if "-" in field:
        pieces = field.split("-")
        if len(pieces) != 2 or not (pieces[0].isdecimal() and pieces[1].isdecimal()):
            return False
        first, last = int(pieces[0]), int(pieces[1])
        return first <= last and low <= first <= high and low <= last <= high
    if "," in field:
        return all(cron_field_ok(item, low, high) for item in field.split(","))
    return False
''',
        "validators/cron.py: the * and decimal branches swapped, the loop that returns as all(), "
        "the step's * case joined with or, operands of the range check reordered",
    ),
    Case(
        "validators",
        "cron",
        r"""
def valid_cron_line(line):
    if not line:
        return False
    try:
        minute, hour, day, month, weekday = line.strip().split()
    except ValueError as err:
        raise ValueError("Badly formatted cron string") from err
    limits = [(minute, 0, 59), (hour, 0, 23), (day, 1, 31), (month, 1, 12), (weekday, 0, 6)]
    for part, low, high in limits:
        if not _validate_cron_component(part, low, high):
            return False
    return True
""",
        "validators/cron.py: five repeated ifs as a loop over a table, locals renamed",
    ),
    Case(
        "validators",
        "between",
        r'''
def in_bounds(value, *, min_val=None, max_val=None):
    """Whether value lies between the optional bounds."""
    if value is None:
        return False
    low = AbsMin() if min_val is None else min_val
    high = AbsMax() if max_val is None else max_val
    try:
        inverted = low > high
    except TypeError as err:
        raise TypeError("Comparison type mismatch") from err
    if inverted:
        raise ValueError("`min_val` cannot be greater than `max_val`")
    return low <= value <= high
''',
        "validators/between.py: the defaults as conditional expressions in the other order, the "
        "raise moved out of the try, bounds renamed",
    ),
    Case(
        "validators",
        "uuid",
        r"""
def looks_like_uuid(value):
    if isinstance(value, UUID):
        return True
    if not value:
        return False
    try:
        parsed = UUID(value)
    except ValueError:
        return False
    return parsed or re.match(r"^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$", value)
""",
        "validators/uuid.py: the UUID check moved before the empty check, the parse taken out "
        "of the returned or",
    ),
    Case(
        "validators",
        "_nif_nie_validation",
        r'''
def dni_letter_matches(code, letter_digits):
    """The control letter of a Spanish NIF or NIE."""
    if len(code) == 9:
        code = code.upper()
        body = letter_digits.get(code[0], code[0]) + code[1:8]
        if not body.isdigit():
            return False
        return "TRWAGMYFPDXBNJZSQVHLCKE"[int(body) % 23] == code[8]
    return False
''',
        "validators/i18n/es.py: the length guard as an if around the body, the table inlined, "
        "the and split, the comparison's operands swapped",
    ),
    Case(
        "validators",
        "es_cif",
        r"""
def spanish_cif_ok(code):
    if not code or len(code) != 9:
        return False
    code = code.upper()
    kind, body, control = code[0], code[1:8], code[8]
    if not body.isdigit():
        return False
    total = 0
    for pos, ch in enumerate(body):
        if pos % 2:
            total += int(ch)
        else:
            total += sum(int(d) for d in str(int(ch) * 2))
    check = (10 - total % 10) % 10
    letter = "JABCDEFGHI"[check]
    if kind in "PSQW":
        return letter == control
    if kind in "ABEH":
        return str(check) == control
    if kind in "CDFGJNRUV":
        return control in {str(check), letter}
    return False
""",
        "validators/i18n/es.py: the generator sum as a loop, its conditional expression as "
        "if/else, the letter and number branches swapped, the last conditional as an if",
    ),
    Case(
        "validators",
        "fi_business_id",
        r"""
def finnish_company_id_ok(value):
    if not value or not re.match(_business_id_pattern(), value):
        return False
    total = 0
    for weight, digit in zip((7, 9, 10, 5, 8, 4, 2), value[:7]):
        total += int(digit) * weight
    remainder = total % 11
    check = int(value[8])
    return remainder == check == 0 or 11 - remainder == check
""",
        "validators/i18n/fi.py: the two guards joined, the weighted sum as a loop, the or's "
        "operands swapped, factors inlined",
    ),
    Case(
        "validators",
        "fi_ssn",
        r'''
def finnish_ssn_ok(value, *, allow_temporal_ssn=True):
    """A Finnish personal identity code with a valid check mark."""
    if not value:
        return False
    marks = "0123456789ABCDEFHJKLMNPRSTUVWXY"
    found = re.match(_ssn_pattern(marks), value)
    if found is None:
        return False
    serial = int(found.group("serial"))
    if serial < 2:
        return False
    if serial > 899 and not allow_temporal_ssn:
        return False
    number = int(found.group("date") + found.group("serial"))
    return marks[number % len(marks)] == found.group("checksum")
''',
        "validators/i18n/fi.py: the walrus as an assignment, the and chain as early returns, "
        "groupdict as group",
    ),
    Case(
        "validators",
        "fr_department",
        r"""
def french_department_ok(value):
    if not value:
        return False
    if isinstance(value, str):
        if value == "2A" or value == "2B":
            return True
        try:
            value = int(value)
        except ValueError:
            return False
    return 971 <= value <= 976 or 1 <= value <= 19 or 21 <= value <= 95
""",
        "validators/i18n/fr.py: the tuple membership as an or, the ranges reordered",
    ),
    Case(
        "validators",
        "_get_code_type",
        r'''
def iso_code_kind(code):
    """Which ISO 3166 form a country code has."""
    if code.isalpha() and len(code) in (2, 3):
        return "alpha2" if len(code) == 2 else "alpha3"
    if code.isdecimal():
        return "numeric"
    return "invalid"
''',
        "validators/country.py: the alpha branch first (the two exclude each other), the nested "
        "length ifs as one condition and a conditional expression",
    ),
    Case(
        "validators",
        "currency",
        r"""
def is_currency_code(value, *, skip_symbols=True, ignore_case=False):
    if not value:
        return False
    if value in _currency_symbols and not skip_symbols:
        return True
    if len(value) != 3:
        return False
    if ignore_case:
        value = value.upper()
    return value in _currency_iso4217
""",
        "validators/country.py: the and's operands swapped, the conditional expression as an "
        "upper-casing if",
    ),
    Case(
        "validators",
        "_check_private_ip",
        r"""
def private_range_agrees(address, want_private):
    if want_private is None:
        return True
    reserved = False
    for prefix in ("10.", "192.168.", "169.254.", "127.", "0.0.0.0"):
        if address.startswith(prefix):
            reserved = True
            break
    if not reserved:
        reserved = bool(
            re.match(r"^172\.(?:1[6-9]|2\d|3[0-1])\.", address)
            or re.match(r"^(?:22[4-9]|23[0-9]|24[0-9]|25[0-5])\.", address)
        )
    return want_private if reserved else not want_private
""",
        "validators/ip_address.py: any() as a loop with break, the big condition split, the "
        "if/return pair as a conditional expression",
    ),
    Case(
        "validators",
        "_port_validator",
        r'''
def host_without_port(value):
    """The host of host:port (brackets dropped for IPv6), or None."""
    if value.count("]:") == 1:
        host, port = value.rsplit(":", 1)
        if _port_regex().match(":" + port):
            return host.lstrip("[").rstrip("]")
    if value.count(":") != 1:
        return None
    host, port = value.rsplit(":", 1)
    if not _port_regex().match(":" + port):
        return None
    return host
''',
        "validators/hostname.py: the second block's conditions negated into early returns, "
        "f-strings as concatenation, locals renamed",
    ),
    Case(
        "validators",
        "_validate_old_btc_address",
        r"""
def legacy_btc_checksum_ok(addr):
    if not 25 <= len(addr) < 35:
        return False
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    number = 0
    for ch in addr:
        number = number * 58 + alphabet.index(ch)
    raw = number.to_bytes(25, "big")
    return sha256(sha256(raw[:-4]).digest()).digest()[:4] == raw[-4:]
""",
        "validators/crypto_addresses/btc_address.py: _decode_base58 inlined (its sum of powers "
        "as a loop), range membership as a chained comparison, the comparison's sides swapped",
    ),
    Case(
        "validators",
        "_validate_trx_checksum_address",
        r'''
def tron_checksum_ok(addr):
    """A base58 TRON address whose double-SHA256 checksum holds."""
    if len(addr) != 34:
        return False
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    try:
        number = 0
        for ch in addr:
            number = number * 58 + alphabet.index(ch)
        raw = number.to_bytes(25, byteorder="big")
    except ValueError:
        return False
    if raw[0] != 0x41 or len(raw) != 25:
        return False
    digest = hashlib.sha256(hashlib.sha256(raw[:-4]).digest()).digest()
    return raw[-4:] == digest[:4]
''',
        "validators/crypto_addresses/trx_address.py: _base58_decode inlined, the or's operands "
        "swapped, locals renamed",
    ),
    Case(
        "validators",
        "_validate_auth_segment",
        r"""
def credentials_part_ok(segment):
    if not segment:
        return True
    colons = segment.count(":")
    if colons == 0:
        return _username_regex().match(segment)
    if colons > 1:
        return _username_regex().match(unquote(segment))
    user, secret = segment.rsplit(":", 1)
    if not _username_regex().match(user):
        return False
    for bad in ("/", "?", "#", "@"):
        if bad in secret:
            return False
    return True
""",
        "validators/url.py: the colon branches swapped, the walrus as a local, all() as a loop "
        "that returns",
    ),
    # -- tornado ---------------------------------------------------------------------------------
    Case(
        "tornado",
        "url_concat",
        r'''
def with_query_args(url, args):
    """The url with args appended to its query string."""
    if args is None:
        return url
    parts = urlparse(url)
    if not isinstance(args, (dict, list, tuple)):
        raise TypeError(
            "'args' parameter should be dict, list or tuple. Not {0}".format(type(args))
        )
    query = parse_qsl(parts.query, keep_blank_values=True)
    query.extend(args.items() if isinstance(args, dict) else args)
    return urlunparse((parts[0], parts[1], parts[2], parts[3], urlencode(query), parts[5]))
''',
        "tornado/httputil.py: the else raise turned into a guard first, the two extend branches "
        "joined by a conditional expression, the final query inlined",
    ),
    Case(
        "tornado",
        "_parse_request_range",
        r"""
def byte_range(header):
    unit, _, spec = header.partition("=")
    if unit.strip() != "bytes":
        return None
    first, _, last = spec.strip().partition("-")
    try:
        start = _int_or_none(first)
        end = _int_or_none(last)
    except ValueError:
        return None
    if end is None:
        return (start, end)
    if start is not None:
        return (start, end + 1)
    if end != 0:
        return (-end, None)
    return (start, end)
""",
        "tornado/httputil.py: the nested ifs flattened into early returns, the strips moved "
        "into their uses, locals renamed",
    ),
    Case(
        "tornado",
        "format_timestamp",
        r'''
def http_date(ts):
    """An HTTP date (RFC 1123, GMT) for a number, time tuple or datetime."""
    if isinstance(ts, datetime.datetime):
        seconds = calendar.timegm(ts.utctimetuple())
    elif isinstance(ts, (tuple, time.struct_time)):
        seconds = calendar.timegm(ts)
    elif isinstance(ts, (int, float)):
        seconds = ts
    else:
        raise TypeError("unknown timestamp type: %r" % ts)
    return email.utils.formatdate(seconds, usegmt=True)
''',
        "tornado/httputil.py: the independent type branches in reverse order, time_num renamed",
    ),
    Case(
        "tornado",
        "parse_request_start_line",
        r"""
def split_request_line(line):
    pieces = line.split(" ")
    if len(pieces) != 3:
        raise HTTPInputError("Malformed HTTP request line")
    method, path, version = pieces
    if _http_version_re.match(version) is None:
        raise HTTPInputError("Malformed HTTP version in HTTP Request-Line: %r" % version)
    return RequestStartLine(method, path, version)
""",
        "tornado/httputil.py: the unpacking's ValueError as a length check, not-match as is None",
    ),
    Case(
        "tornado",
        "_parse_header",
        r'''
def header_value_and_params(line):
    """Split a Content-Type like header into its value and a dict of parameters."""
    pieces = _parseparam(";" + line)
    main = next(pieces)
    raw = [("Dummy", "value")]
    for piece in pieces:
        name, eq, value = piece.partition("=")
        if not eq:
            continue
        raw.append((name.strip().lower(), native_str(value.strip())))
    decoded = email.utils.decode_params(raw)[1:]
    params = {}
    for name, encoded in decoded:
        text = email.utils.collapse_rfc2231_value(encoded)
        if len(text) >= 2 and text[0] == text[-1] == '"':
            text = text[1:-1]
        params[name] = text
    return main, params
''',
        "tornado/httputil.py: find and slicing as partition, the if as a continue, pop(0) as a "
        "slice, the quote check chained, locals renamed",
    ),
    Case(
        "tornado",
        "_encode_header",
        r"""
def render_header(key, params):
    if not params:
        return key
    pieces = [key]
    pieces += [k if v is None else "%s=%s" % (k, v) for k, v in sorted(params.items())]
    return "; ".join(pieces)
""",
        "tornado/httputil.py: the loop with append and if/else as a comprehension with a "
        "conditional expression",
    ),
    Case(
        "tornado",
        "encode_username_password",
        r'''
def basic_auth_bytes(user, secret):
    """user:password as bytes, both NFC-normalised first."""
    if isinstance(secret, str):
        secret = unicodedata.normalize("NFC", secret)
    if isinstance(user, str):
        user = unicodedata.normalize("NFC", user)
    return utf8(user) + b":" + utf8(secret)
''',
        "tornado/httputil.py: unicode_type inlined as str, the two independent ifs swapped, "
        "parameters renamed",
    ),
    Case(
        "tornado",
        "parse_cookie",
        r"""
def cookie_pairs(header):
    jar = {}
    for chunk in header.split(";"):
        name, sep, val = chunk.partition("=")
        if not sep:
            name, val = "", chunk
        name = name.strip()
        val = val.strip()
        if name or val:
            jar[name] = _unquote_cookie(val)
    return jar
""",
        "tornado/httputil.py: the membership test and split as partition, str() wrappers "
        "dropped, locals renamed",
    ),
    Case(
        "tornado",
        "parse_qs_bytes",
        r'''
def query_as_bytes(qs, keep_blank_values=False, strict_parsing=False):
    """parse_qs whose values are latin-1 bytes."""
    text = qs.decode("latin1") if isinstance(qs, bytes) else qs
    parsed = urllib.parse.parse_qs(
        text, keep_blank_values, strict_parsing, encoding="latin1", errors="strict"
    )
    return {key: [item.encode("latin1") for item in values] for key, values in parsed.items()}
''',
        "tornado/escape.py: the loop filling a dict as a dict comprehension, the decode as a "
        "conditional expression",
    ),
    Case(
        "tornado",
        "recursive_unicode",
        r"""
def decode_nested(obj):
    if isinstance(obj, bytes):
        return to_unicode(obj)
    if isinstance(obj, list):
        return [decode_nested(item) for item in obj]
    if isinstance(obj, tuple):
        return tuple(decode_nested(item) for item in obj)
    if isinstance(obj, dict):
        return {decode_nested(k): decode_nested(v) for k, v in obj.items()}
    return obj
""",
        "tornado/escape.py: the disjoint type branches reordered, elif/else as early returns, "
        "dict() and list() of generators as comprehensions",
    ),
    Case(
        "tornado",
        "import_object",
        r'''
def load_dotted(name):
    """The object a dotted name refers to, importing its module."""
    if "." not in name:
        return __import__(name)
    module_path, _, attr = name.rpartition(".")
    module = __import__(module_path, fromlist=[attr])
    if not hasattr(module, attr):
        raise ImportError("No module named %s" % attr)
    return getattr(module, attr)
''',
        "tornado/util.py: count == 0 as not in, split and join as rpartition, try/except "
        "AttributeError as hasattr",
    ),
    Case(
        "tornado",
        "_websocket_mask_python",
        r"""
def apply_ws_mask(mask, payload):
    key = array.array("B", mask)
    out = array.array("B", payload)
    for pos, byte in enumerate(out):
        out[pos] = byte ^ key[pos % 4]
    return out.tobytes()
""",
        "tornado/util.py: range(len()) as enumerate, the xor's operands swapped, locals renamed",
    ),
    Case(
        "tornado",
        "url_unescape",
        r'''
def unquote_url(value, encoding="utf-8", plus=True):
    """Decode a URL-escaped value: bytes when encoding is None, else str."""
    if encoding is not None:
        unquote = urllib.parse.unquote_plus if plus else urllib.parse.unquote
        return unquote(to_basestring(value), encoding=encoding)
    if plus:
        value = to_basestring(value).replace("+", " ")
    return urllib.parse.unquote_to_bytes(value)
''',
        "tornado/escape.py: the condition negated so the else branch comes first as an early "
        "return",
    ),
    Case(
        "tornado",
        "utf8",
        r"""
def as_utf8_bytes(value):
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, type(None))):
        return value
    raise TypeError("Expected bytes, unicode, or None; got %r" % type(value))
""",
        "tornado/escape.py: _UTF8_TYPES and unicode_type inlined, the branches reordered into "
        "positive tests",
    ),
    # -- urllib3 ---------------------------------------------------------------------------------
    Case(
        "urllib3",
        "to_bytes",
        r'''
def ensure_bytes(x, encoding=None, errors=None):
    """x as bytes, encoding text with the given codec."""
    if isinstance(x, str):
        if encoding or errors:
            return x.encode(encoding or "utf-8", errors=errors or "strict")
        return x.encode()
    if isinstance(x, bytes):
        return x
    raise TypeError(f"not expecting type {type(x).__name__}")
''',
        "urllib3/util/util.py: the str case first with the encoding nested in it, the negated "
        "test as a raise at the end",
    ),
    Case(
        "urllib3",
        "to_str",
        r"""
def ensure_text(data, encoding=None, errors=None):
    if not isinstance(data, (str, bytes)):
        raise TypeError(f"not expecting type {type(data).__name__}")
    if isinstance(data, str):
        return data
    if not (encoding or errors):
        return data.decode()
    return data.decode(encoding or "utf-8", errors=errors or "strict")
""",
        "urllib3/util/util.py: the type check first, the last two returns swapped with the "
        "condition negated, x renamed",
    ),
    Case(
        "urllib3",
        "_remove_path_dot_segments",
        r'''
def collapse_dot_segments(path):
    """Resolve . and .. in a URL path (RFC 3986, 5.2.4)."""
    kept = []
    for part in path.split("/"):
        if part == "..":
            if kept:
                kept.pop()
        elif part != ".":
            kept.append(part)
    if path.startswith("/") and (not kept or kept[0]):
        kept.insert(0, "")
    if path.endswith(("/.", "/..")):
        kept.append("")
    return "/".join(kept)
''',
        "urllib3/util/url.py: the continue and the two branches reordered into one if/elif, "
        "locals renamed, the split inlined",
    ),
    Case(
        "urllib3",
        "resolve_cert_reqs",
        r"""
def cert_mode(candidate):
    if candidate is None:
        return CERT_REQUIRED
    if not isinstance(candidate, str):
        return candidate
    found = getattr(ssl, candidate, None)
    if found is not None:
        return found
    return getattr(ssl, "CERT_" + candidate)
""",
        "urllib3/util/ssl_.py: the str test negated into an early return, the fallback as an "
        "early return",
    ),
    Case(
        "urllib3",
        "is_ipaddress",
        r'''
def is_ip_literal(host):
    """Whether host is an IPv4 or IPv6 address rather than a name."""
    text = host.decode("ascii") if isinstance(host, bytes) else host
    if _IPV4_RE.match(text):
        return True
    return _BRACELESS_IPV6_ADDRZ_RE.match(text) is not None
''',
        "urllib3/util/ssl_.py: the decode as a conditional expression, bool(a or b) as an early "
        "return and is not None",
    ),
    Case(
        "urllib3",
        "_dnsname_match",
        r"""
def dns_name_matches(pattern, host, max_wildcards=1):
    if not pattern:
        return False
    first, *rest = pattern.split(".")
    stars = first.count("*")
    if stars > max_wildcards:
        raise CertificateError("too many wildcards in certificate DNS name: " + repr(pattern))
    if stars == 0:
        return pattern.lower() == host.lower()
    if first == "*":
        head = "[^.]+"
    elif first.startswith("xn--") or host.startswith("xn--"):
        head = re.escape(first)
    else:
        head = re.escape(first).replace(r"\*", "[^.]*")
    regex = r"\.".join([head] + [re.escape(part) for part in rest])
    return re.compile(r"\A" + regex + r"\Z", re.IGNORECASE).match(host)
""",
        "urllib3/util/ssl_match_hostname.py: the list of patterns built with appends as a "
        "starred unpacking and a comprehension, locals renamed",
    ),
    Case(
        "urllib3",
        "format_multipart_header_param",
        r'''
def multipart_param(name, value):
    """name="value" for a multipart header, newlines and quotes percent-encoded."""
    text = value.decode("utf-8") if isinstance(value, bytes) else value
    for ch, code in (("\n", "%0A"), ("\r", "%0D"), ('"', "%22")):
        text = text.replace(ch, code)
    return f'{name}="{text}"'
''',
        "urllib3/fields.py: the translate table as a loop of replaces, the decode as a "
        "conditional expression",
    ),
    Case(
        "urllib3",
        "iter_field_objects",
        r"""
def field_objects(fields):
    items = fields.items() if isinstance(fields, typing.Mapping) else fields
    for item in items:
        if not isinstance(item, RequestField):
            item = RequestField.from_tuples(*item)
        yield item
""",
        "urllib3/filepost.py: if/else as a conditional expression, the two yields as one",
    ),
    Case(
        "urllib3",
        "make_headers",
        r"""
def request_headers(
    keep_alive=None,
    accept_encoding=None,
    user_agent=None,
    basic_auth=None,
    proxy_basic_auth=None,
    disable_cache=None,
):
    headers = {}
    if accept_encoding:
        if isinstance(accept_encoding, list):
            accept_encoding = ",".join(accept_encoding)
        elif not isinstance(accept_encoding, str):
            accept_encoding = ACCEPT_ENCODING
        headers["accept-encoding"] = accept_encoding
    if user_agent:
        headers["user-agent"] = user_agent
    if keep_alive:
        headers["connection"] = "keep-alive"
    for key, creds in (("authorization", basic_auth), ("proxy-authorization", proxy_basic_auth)):
        if creds:
            headers[key] = "Basic " + b64encode(creds.encode("latin-1")).decode()
    if disable_cache:
        headers["cache-control"] = "no-cache"
    return headers
""",
        "urllib3/util/request.py: the str branch's pass dropped, the two auth headers as a loop "
        "over pairs, f-strings as concatenation",
    ),
    Case(
        "urllib3",
        "set_file_position",
        r'''
def remember_body_position(body, pos):
    """Rewind to pos, or record where the body starts (a marker when tell fails)."""
    if pos is not None:
        rewind_body(body, pos)
        return pos
    if getattr(body, "tell", None) is None:
        return pos
    try:
        return body.tell()
    except OSError:
        return _FAILEDTELL
''',
        "urllib3/util/request.py: the elif and the final return as early returns",
    ),
]

NEAR_MISSES = [
    # -- look-alikes of validators -----------------------------------------------------------------
    Case(
        "validators",
        "",
        r'''
def digit_sum_valid(number):
    """True when the digits of a number add up to a multiple of ten."""
    if not number:
        return False
    try:
        digits = [int(ch) for ch in number]
    except ValueError:
        return False
    total = 0
    for d in digits:
        total += d
    return total % 10 == 0
''',
        "like card_number: a plain digit sum, no doubling of every second digit",
    ),
    Case(
        "validators",
        "",
        r'''
def is_classic_mastercard(number):
    """A Mastercard number from the 51-55 range only."""
    if not card_number(number):
        return False
    if len(number) != 16:
        return False
    return re.match(r"^5[1-5]", number)
''',
        "like mastercard: leaves out the 22-27 range",
    ),
    Case(
        "validators",
        "",
        r"""
def cusip_plain_ok(code):
    total = 0
    for pos in range(9):
        ch = code[pos]
        if "0" <= ch <= "9":
            v = ord(ch) - ord("0")
        elif "A" <= ch <= "Z":
            v = ord(ch) - ord("A") + 10
        else:
            return False
        if pos % 2 == 1:
            v *= 2
        total += v // 10 + v % 10
    return total % 10 == 0
""",
        "like _cusip_checksum: rejects lower case and the *, @ and # characters",
    ),
    Case(
        "validators",
        "",
        r"""
def sedol_loose_ok(code):
    if len(code) != 7:
        return False
    total = 0
    for ch, weight in zip(code, (1, 3, 1, 7, 3, 9, 1)):
        if "0" <= ch <= "9":
            total += (ord(ch) - ord("0")) * weight
        elif "A" <= ch <= "Z":
            total += (10 + ord(ch) - ord("A")) * weight
        else:
            return False
    return total % 10 == 0
""",
        "like sedol: accepts vowels",
    ),
    Case(
        "validators",
        "",
        r'''
def account_mod97_ok(code):
    """The mod-97 test on the code as written."""
    digits = ""
    for ch in code:
        if ch.isdigit():
            digits += ch
        else:
            digits += str(ord(ch) - ord("A") + 10)
    return int(digits) % 97 == 1
''',
        "like _mod_check: does not move the country code and check digits to the end",
    ),
    Case(
        "validators",
        "",
        r"""
def cron_field_lenient(field, low, high):
    if field == "*":
        return True
    if field.isdecimal():
        return low <= int(field) <= high
    if "/" in field:
        pieces = field.split("/")
        if len(pieces) != 2 or not pieces[1].isdecimal():
            return False
        return pieces[0] == "*" or (pieces[0].isdecimal() and low <= int(pieces[0]) <= high)
    if "-" in field:
        pieces = field.split("-")
        if len(pieces) != 2 or not (pieces[0].isdecimal() and pieces[1].isdecimal()):
            return False
        return low <= int(pieces[0]) <= high and low <= int(pieces[1]) <= high
    return False
""",
        "like _validate_cron_component: accepts a step of 0 and reversed ranges, no lists",
    ),
    Case(
        "validators",
        "",
        r"""
def valid_quartz_line(line):
    if not line:
        return False
    try:
        second, minute, hour, day, month, weekday = line.strip().split()
    except ValueError as err:
        raise ValueError("Badly formatted cron string") from err
    limits = [(second, 0, 59), (minute, 0, 59), (hour, 0, 23), (day, 1, 31), (month, 1, 12)]
    for part, low, high in limits + [(weekday, 1, 7)]:
        if not _validate_cron_component(part, low, high):
            return False
    return True
""",
        "like cron: six fields with seconds first, weekdays 1-7",
    ),
    Case(
        "validators",
        "",
        r'''
def strictly_between(value, *, min_val=None, max_val=None):
    """Whether value lies strictly inside the optional bounds."""
    if value is None:
        return False
    low = AbsMin() if min_val is None else min_val
    high = AbsMax() if max_val is None else max_val
    if low > high:
        raise ValueError("`min_val` cannot be greater than `max_val`")
    return low < value < high
''',
        "like between: exclusive bounds, and a type mismatch is not turned into its own error",
    ),
    Case(
        "validators",
        "",
        r"""
def looks_like_uuid4(value):
    if isinstance(value, UUID):
        return value.version == 4
    if not value:
        return False
    try:
        parsed = UUID(value)
    except ValueError:
        return False
    return parsed.version == 4
""",
        "like uuid: only version 4 UUIDs pass",
    ),
    Case(
        "validators",
        "",
        r'''
def dni_letter_first(code, letter_digits):
    """A NIF written with its control letter in front."""
    if len(code) == 9:
        code = code.upper()
        body = letter_digits.get(code[1], code[1]) + code[2:9]
        if not body.isdigit():
            return False
        return "TRWAGMYFPDXBNJZSQVHLCKE"[int(body) % 23] == code[0]
    return False
''',
        "like _nif_nie_validation: reads the control letter from the front",
    ),
    Case(
        "validators",
        "",
        r"""
def spanish_cif_numeric_only(code):
    if not code or len(code) != 9:
        return False
    code = code.upper()
    body, control = code[1:8], code[8]
    if not body.isdigit():
        return False
    total = 0
    for pos, ch in enumerate(body):
        if pos % 2:
            total += sum(int(d) for d in str(int(ch) * 2))
        else:
            total += int(ch)
    check = (10 - total % 10) % 10
    return str(check) == control
""",
        "like es_cif: doubles the odd positions, never accepts a control letter",
    ),
    Case(
        "validators",
        "",
        r"""
def finnish_company_id_loose(value):
    if not value or not re.match(_business_id_pattern(), value):
        return False
    total = 0
    for weight, digit in zip((7, 9, 10, 5, 8, 4, 2), value[:7]):
        total += int(digit) * weight
    return total % 11 == int(value[8])
""",
        "like fi_business_id: compares the remainder itself, not 11 minus it",
    ),
    Case(
        "validators",
        "",
        r'''
def finnish_ssn_shape_ok(value, *, allow_temporal_ssn=True):
    """A Finnish personal identity code of the right shape."""
    if not value:
        return False
    marks = "0123456789ABCDEFHJKLMNPRSTUVWXY"
    found = re.match(_ssn_pattern(marks), value)
    if found is None:
        return False
    serial = int(found.group("serial"))
    if serial > 899 and not allow_temporal_ssn:
        return False
    return serial >= 1
''',
        "like fi_ssn: does not check the check mark, accepts serial 001",
    ),
    Case(
        "validators",
        "",
        r"""
def metropolitan_department_ok(value):
    if not value:
        return False
    if isinstance(value, str):
        if value == "2A" or value == "2B":
            return True
        try:
            value = int(value)
        except ValueError:
            return False
    return 1 <= value <= 95
""",
        "like fr_department: accepts 20, rejects the overseas departments",
    ),
    Case(
        "validators",
        "",
        r'''
def iso_code_kind_padded(code):
    """Which ISO 3166 form a country code has."""
    if code.isalpha() and len(code) in (2, 3):
        return "alpha2" if len(code) == 2 else "alpha3"
    if code.isdecimal() and len(code) == 3:
        return "numeric"
    return "invalid"
''',
        "like _get_code_type: a numeric code must have three digits",
    ),
    Case(
        "validators",
        "",
        r"""
def is_currency_or_symbol(value, *, ignore_case=False):
    if not value:
        return False
    if value in _currency_symbols:
        return True
    if ignore_case:
        value = value.upper()
    return value in _currency_iso4217
""",
        "like currency: always accepts symbols and skips the length check",
    ),
    Case(
        "validators",
        "",
        r"""
def rfc1918_agrees(address, want_private):
    if want_private is None:
        return False
    reserved = False
    for prefix in ("10.", "192.168."):
        if address.startswith(prefix):
            reserved = True
            break
    if not reserved:
        reserved = bool(re.match(r"^172\.(?:1[6-9]|2\d|3[0-1])\.", address))
    return want_private if reserved else not want_private
""",
        "like _check_private_ip: only the RFC 1918 ranges, and False when no preference is given",
    ),
    Case(
        "validators",
        "",
        r'''
def port_of_host(value):
    """The port of host:port as a number, or None."""
    if value.count(":") != 1:
        return None
    host, port = value.rsplit(":", 1)
    if not _port_regex().match(":" + port):
        return None
    return int(port)
''',
        "like _port_validator: returns the port, not the host, and ignores IPv6",
    ),
    Case(
        "validators",
        "",
        r"""
def legacy_btc_single_hash_ok(addr):
    if not 25 <= len(addr) < 35:
        return False
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    number = 0
    for ch in addr:
        number = number * 58 + alphabet.index(ch)
    raw = number.to_bytes(25, "big")
    return sha256(raw[:-4]).digest()[:4] == raw[-4:]
""",
        "like _validate_old_btc_address: one SHA-256 round instead of two",
    ),
    Case(
        "validators",
        "",
        r"""
def p2pkh_checksum_ok(addr):
    if len(addr) != 34:
        return False
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    try:
        number = 0
        for ch in addr:
            number = number * 58 + alphabet.index(ch)
        raw = number.to_bytes(25, byteorder="big")
    except ValueError:
        return False
    if raw[0] != 0x00:
        return False
    digest = hashlib.sha256(hashlib.sha256(raw[:-4]).digest()).digest()
    return raw[-4:] == digest[:4]
""",
        "like _validate_trx_checksum_address: version byte 0x00, not TRON's 0x41",
    ),
    Case(
        "validators",
        "",
        r"""
def credentials_part_simple(segment):
    if not segment:
        return True
    user, _, secret = segment.partition(":")
    if not _username_regex().match(user):
        return False
    for bad in ("/", "?", "#"):
        if bad in secret:
            return False
    return True
""",
        "like _validate_auth_segment: splits at the first colon, allows @ in the password",
    ),
    # -- look-alikes of tornado ------------------------------------------------------------------
    Case(
        "tornado",
        "",
        r'''
def replace_query_args(url, args):
    """The url with its query string replaced by args."""
    if args is None:
        return url
    parts = urlparse(url)
    if not isinstance(args, (dict, list, tuple)):
        raise TypeError("args should be dict, list or tuple")
    query = list(args.items()) if isinstance(args, dict) else list(args)
    return urlunparse((parts[0], parts[1], parts[2], parts[3], urlencode(query), parts[5]))
''',
        "like url_concat: drops the url's own query instead of extending it",
    ),
    Case(
        "tornado",
        "",
        r"""
def byte_range_exclusive(header):
    unit, _, spec = header.partition("=")
    if unit.strip() != "bytes":
        return None
    first, _, last = spec.strip().partition("-")
    try:
        start = _int_or_none(first)
        end = _int_or_none(last)
    except ValueError:
        return None
    if start is None and end is not None:
        return (0, end)
    return (start, end)
""",
        "like _parse_request_range: the end is not made exclusive and a suffix range counts from 0",
    ),
    Case(
        "tornado",
        "",
        r"""
def local_http_date(ts):
    if isinstance(ts, datetime.datetime):
        seconds = time.mktime(ts.timetuple())
    elif isinstance(ts, (tuple, time.struct_time)):
        seconds = time.mktime(ts)
    elif isinstance(ts, (int, float)):
        seconds = ts
    else:
        raise TypeError("unknown timestamp type: %r" % ts)
    return email.utils.formatdate(seconds, localtime=True)
""",
        "like format_timestamp: reads tuples as local time and prints local time, not GMT",
    ),
    Case(
        "tornado",
        "",
        r"""
def split_request_line_lenient(line):
    pieces = line.split()
    if len(pieces) == 2:
        pieces.append("HTTP/1.0")
    if len(pieces) != 3:
        raise HTTPInputError("Malformed HTTP request line")
    method, path, version = pieces
    return RequestStartLine(method, path, version)
""",
        "like parse_request_start_line: splits on any whitespace, defaults the version, never "
        "checks it",
    ),
    Case(
        "tornado",
        "",
        r"""
def header_value_and_raw_params(line):
    pieces = line.split(";")
    main = pieces[0].strip()
    params = {}
    for piece in pieces[1:]:
        name, eq, value = piece.partition("=")
        if not eq:
            continue
        params[name.strip().lower()] = value.strip()
    return main, params
""",
        "like _parse_header: splits on every semicolon, keeps quotes, no RFC 2231 decoding",
    ),
    Case(
        "tornado",
        "",
        r"""
def render_header_unsorted(key, params):
    if not params:
        return key
    pieces = [key]
    pieces += ["%s=%s" % (k, v) for k, v in params.items() if v is not None]
    return ", ".join(pieces)
""",
        "like _encode_header: keeps the given order, drops None values, joins with a comma",
    ),
    Case(
        "tornado",
        "",
        r"""
def basic_auth_compat_bytes(user, secret):
    if isinstance(secret, str):
        secret = unicodedata.normalize("NFKC", secret)
    if isinstance(user, str):
        user = unicodedata.normalize("NFKC", user)
    return user.encode("latin-1") + b":" + secret.encode("latin-1")
""",
        "like encode_username_password: NFKC and latin-1 instead of NFC and UTF-8, str only",
    ),
    Case(
        "tornado",
        "",
        r"""
def cookie_pairs_named(header):
    jar = {}
    for chunk in header.split(";"):
        name, sep, val = chunk.partition("=")
        if not sep:
            continue
        name = name.strip()
        if name:
            jar[name] = val.strip()
    return jar
""",
        "like parse_cookie: skips chunks without a name or =, does not unquote values",
    ),
    Case(
        "tornado",
        "",
        r'''
def query_last_values(qs, keep_blank_values=False):
    """parse_qs keeping each key's last value, as UTF-8 bytes."""
    text = qs.decode("utf-8") if isinstance(qs, bytes) else qs
    parsed = urllib.parse.parse_qs(text, keep_blank_values)
    return {key: values[-1].encode("utf-8") for key, values in parsed.items()}
''',
        "like parse_qs_bytes: UTF-8, and one value per key instead of a list",
    ),
    Case(
        "tornado",
        "",
        r"""
def decode_nested_values(obj):
    if isinstance(obj, bytes):
        return to_unicode(obj)
    if isinstance(obj, list):
        return [decode_nested_values(item) for item in obj]
    if isinstance(obj, dict):
        return {k: decode_nested_values(v) for k, v in obj.items()}
    return obj
""",
        "like recursive_unicode: leaves dict keys and tuples undecoded",
    ),
    Case(
        "tornado",
        "",
        r'''
def load_module_or_none(name):
    """The module a dotted name refers to, or None."""
    if "." not in name:
        return __import__(name)
    module_path, _, attr = name.rpartition(".")
    try:
        return __import__(name, fromlist=[attr])
    except ImportError:
        return None
''',
        "like import_object: imports the whole name as a module and answers None on failure",
    ),
    Case(
        "tornado",
        "",
        r"""
def apply_add_mask(mask, payload):
    key = array.array("B", mask)
    out = array.array("B", payload)
    for pos, byte in enumerate(out):
        out[pos] = (byte + key[pos % 4]) % 256
    return out.tobytes()
""",
        "like _websocket_mask_python: adds the mask instead of xor-ing it",
    ),
    Case(
        "tornado",
        "",
        r"""
def unquote_url_text(value, encoding="utf-8", plus=True):
    if encoding is None:
        encoding = "latin-1"
    if plus:
        value = to_basestring(value).replace("+", " ")
    return urllib.parse.unquote(to_basestring(value), encoding=encoding)
""",
        "like url_unescape: always returns text, latin-1 when no encoding is given",
    ),
    Case(
        "tornado",
        "",
        r"""
def as_utf8_bytes_or_empty(value):
    if value is None:
        return b""
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, bytes):
        return value
    raise TypeError("Expected bytes, unicode, or None; got %r" % type(value))
""",
        "like utf8: None becomes empty bytes",
    ),
    # -- look-alikes of urllib3 ------------------------------------------------------------------
    Case(
        "urllib3",
        "",
        r"""
def coerce_bytes(x, encoding=None, errors=None):
    if isinstance(x, bytes):
        return x
    if not isinstance(x, str):
        x = str(x)
    if encoding or errors:
        return x.encode(encoding or "utf-8", errors=errors or "strict")
    return x.encode()
""",
        "like to_bytes: converts other types with str() instead of raising",
    ),
    Case(
        "urllib3",
        "",
        r"""
def ensure_text_lenient(data, encoding=None, errors=None):
    if not isinstance(data, (str, bytes)):
        raise TypeError(f"not expecting type {type(data).__name__}")
    if isinstance(data, str):
        return data
    return data.decode(encoding or "utf-8", errors=errors or "replace")
""",
        "like to_str: undecodable bytes are replaced instead of raising",
    ),
    Case(
        "urllib3",
        "",
        r'''
def drop_dot_segments(path):
    """Remove . and .. segments from a URL path."""
    kept = []
    for part in path.split("/"):
        if part in (".", ".."):
            continue
        kept.append(part)
    if path.startswith("/") and (not kept or kept[0]):
        kept.insert(0, "")
    return "/".join(kept)
''',
        "like _remove_path_dot_segments: .. is dropped without removing its parent, no "
        "trailing slash",
    ),
    Case(
        "urllib3",
        "",
        r"""
def cert_mode_lenient(candidate):
    if candidate is None:
        return CERT_NONE
    if not isinstance(candidate, str):
        return candidate
    found = getattr(ssl, candidate, None)
    if found is not None:
        return found
    return getattr(ssl, "CERT_" + candidate)
""",
        "like resolve_cert_reqs: no verification by default",
    ),
    Case(
        "urllib3",
        "",
        r'''
def is_ipv4_literal(host):
    """Whether host is a dotted IPv4 address."""
    text = host.decode("ascii") if isinstance(host, bytes) else host
    if _IPV4_RE.match(text):
        return True
    return False
''',
        "like is_ipaddress: IPv6 addresses are not recognised",
    ),
    Case(
        "urllib3",
        "",
        r"""
def dns_name_matches_deep(pattern, host, max_wildcards=1):
    if not pattern:
        return False
    first, *rest = pattern.split(".")
    stars = first.count("*")
    if stars > max_wildcards:
        raise CertificateError("too many wildcards in certificate DNS name: " + repr(pattern))
    if stars == 0:
        return pattern == host
    head = re.escape(first).replace(r"\*", ".*")
    regex = r"\.".join([head] + [re.escape(part) for part in rest])
    return re.compile(r"\A" + regex + r"\Z").match(host)
""",
        "like _dnsname_match: a wildcard spans dots, the match is case sensitive, no IDNA rule",
    ),
    Case(
        "urllib3",
        "",
        r"""
def multipart_param_escaped(name, value):
    text = value.decode("utf-8") if isinstance(value, bytes) else value
    for ch, code in (("\\", "\\\\"), ('"', '\\"')):
        text = text.replace(ch, code)
    return f'{name}="{text}"'
""",
        "like format_multipart_header_param: backslash-escapes quotes, leaves newlines",
    ),
    Case(
        "urllib3",
        "",
        r"""
def sorted_field_objects(fields):
    items = sorted(fields.items()) if isinstance(fields, typing.Mapping) else fields
    for item in items:
        if isinstance(item, RequestField):
            continue
        yield RequestField.from_tuples(*item)
""",
        "like iter_field_objects: sorts mappings by name and skips ready-made fields",
    ),
    Case(
        "urllib3",
        "",
        r"""
def request_headers_titled(keep_alive=None, user_agent=None, basic_auth=None):
    headers = {}
    if user_agent:
        headers["User-Agent"] = user_agent
    if keep_alive:
        headers["Connection"] = "keep-alive"
    else:
        headers["Connection"] = "close"
    if basic_auth:
        headers["Authorization"] = "Basic " + b64encode(basic_auth.encode("utf-8")).decode()
    return headers
""",
        "like make_headers: title-case names, Connection: close when not kept alive, UTF-8 "
        "credentials",
    ),
    Case(
        "urllib3",
        "",
        r"""
def body_position_or_none(body, pos):
    if pos is not None:
        rewind_body(body, pos)
        return pos
    if getattr(body, "tell", None) is None:
        return None
    try:
        return body.tell()
    except OSError:
        return None
""",
        "like set_file_position: a failed tell() answers None, not the failure marker",
    ),
]

HELDOUT4 = COPIES + NEAR_MISSES
