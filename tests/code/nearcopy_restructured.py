"""RESTRUCTURED near-copy set (#35), written and committed before any change to the matcher for #35,
and never tuned on: measured only. Project helpers: boltons 24.1.0 (strutils, iterutils) and toolz
1.0.0 (itertoolz, dicttoolz, functoolz, recipes), packages no other near-copy set uses (see
nearcopies.PACKAGES).

Copies (`helper` set) are rewritten the way agents rewrite code: a comprehension turned into a loop
with `append` (or back), `any`/`all` into a loop that returns, a private helper inlined, independent
branches and operands reordered, locals renamed, early returns for `else` branches (or back). Near
misses (`helper` empty) look like a helper and do something else: another operator or constant, a
missing branch, a negated test, another last step.
"""

from __future__ import annotations

from nearcopies import Case

COPIES = [
    # boltons.strutils
    Case(
        "boltons",
        "slugify",
        """
def make_slug(text, delim='_', lower=True, ascii=False):
    if not text:
        return ''
    result = delim.join(split_punct_ws(text)) or delim
    if ascii:
        result = asciify(result)
    if lower:
        result = result.lower()
    return result
""",
        "conditional expression as an early return",
    ),
    Case(
        "boltons",
        "unit_len",
        """
def describe_count(items, noun='item'):
    n = len(items)
    label = cardinalize(noun, n)
    if not n:
        return f'No {label}'
    return f'{n} {label}'
""",
        "the test inverted, branches swapped",
    ),
    Case(
        "boltons",
        "ordinalize",
        """
def ordinal_suffix(number, ext_only=False):
    text = str(number)
    suffix = ''
    if text and text[-1] in string.digits:
        if len(text) >= 2 and text[-2] == '1':
            suffix = 'th'
        else:
            suffix = _ORDINAL_MAP.get(text[-1], 'th')
    return suffix if ext_only else text + suffix
""",
        "try/except IndexError as a length test, the else as a conditional expression",
    ),
    Case(
        "boltons",
        "cardinalize",
        """
def noun_for_count(noun, n):
    if n != 1:
        return pluralize(noun)
    else:
        return noun
""",
        "the test inverted, an else branch",
    ),
    Case(
        "boltons",
        "singularize",
        """
def to_singular(text):
    original, lowered = text, text.strip().lower()
    if not lowered or lowered in _IRR_S2P:
        return original
    irregular = _IRR_P2S.get(lowered)
    if irregular:
        return _match_case(original, irregular)
    if not lowered.endswith('s'):
        return original
    if len(lowered) == 2:
        result = lowered[:-1]
    elif lowered.endswith('ies') and lowered[-4:-3] not in 'aeiou':
        result = lowered[:-3] + 'y'
    elif lowered.endswith('es') and lowered[-3] == 's':
        result = lowered[:-2]
    else:
        result = lowered[:-1]
    return _match_case(original, result)
""",
        "early returns for the first branches, locals renamed",
    ),
    Case(
        "boltons",
        "pluralize",
        """
def to_plural(text):
    original = text
    lowered = text.strip().lower()
    if not lowered or lowered in _IRR_P2S:
        return original
    if _IRR_S2P.get(lowered):
        return _match_case(original, _IRR_S2P[lowered])
    if lowered.endswith('y') and lowered[-2:-1] not in 'aeiou':
        return _match_case(original, lowered[:-1] + 'ies')
    if lowered.endswith('sh') or lowered.endswith('ch') or lowered[-1] == 's':
        return _match_case(original, lowered if lowered.endswith('es') else lowered + 'es')
    return _match_case(original, lowered + 's')
""",
        "one return per branch, the or-operands reordered",
    ),
    Case(
        "boltons",
        "_match_case",
        """
def same_case_as(model, word):
    if not model.strip():
        return word
    if model.lower() == model:
        return word.lower()
    if model.upper() == model:
        return word.upper()
    if model.title() == model:
        return word.title()
    return word
""",
        "elif chain as early returns, parameters renamed",
    ),
    Case(
        "boltons",
        "a10n",
        """
def numeronym(word):
    if len(word) >= 3:
        middle = len(word[1:-1])
        return f'{word[0]}{middle}{word[-1]}'
    return word
""",
        "the guard inverted, a temporary",
    ),
    Case(
        "boltons",
        "strip_ansi",
        """
def remove_ansi_codes(value):
    original_type = None
    if isinstance(value, (bytes, bytearray)):
        original_type = type(value)
        value = value.decode('utf-8')
    result = ANSI_SEQUENCES.sub('', value)
    if original_type and type(result) != original_type:
        result = original_type(result, 'utf-8')
    return result
""",
        "locals renamed, operands of != swapped",
    ),
    Case(
        "boltons",
        "asciify",
        """
def to_ascii_bytes(text, ignore=False):
    try:
        try:
            return text.encode('ascii')
        except UnicodeDecodeError:
            return text.decode('utf-8').encode('ascii')
    except UnicodeEncodeError:
        mode = 'ignore' if ignore else 'replace'
        return unicodedata.normalize('NFKD', text.translate(DEACCENT_MAP)).encode('ascii', mode)
""",
        "temporaries inlined, the mode as a conditional expression",
    ),
    Case(
        "boltons",
        "is_ascii",
        """
def only_ascii(value):
    if isinstance(value, bytes):
        try:
            value.decode('ascii')
        except UnicodeDecodeError:
            return False
        return True
    if isinstance(value, str):
        try:
            value.encode('ascii')
        except UnicodeEncodeError:
            return False
        return True
    raise ValueError('expected text or bytes, not %r' % type(value))
""",
        "independent branches reordered, early returns",
    ),
    Case(
        "boltons",
        "bytes2human",
        """
def human_size(n, digits=0):
    magnitude = abs(n)
    for (size, symbol), (next_size, _next_symbol) in _SIZE_RANGES:
        if magnitude <= next_size:
            break
    value = float(n) / size
    return '{hnbytes:.{ndigits}f}{symbol}'.format(hnbytes=value, ndigits=digits, symbol=symbol)
""",
        "locals renamed",
    ),
    Case(
        "boltons",
        "gzip_bytes",
        """
def compress_bytes(data, compresslevel=6):
    buffer = StringIO()
    with GzipFile(fileobj=buffer, mode='wb', compresslevel=compresslevel) as handle:
        handle.write(data)
    return buffer.getvalue()
""",
        "close() as a with block",
    ),
    Case(
        "boltons",
        "indent",
        """
def indent_lines(text, prefix, newline='\\n', key=bool):
    out = []
    for line in iter_splitlines(text):
        if key(line):
            out.append(prefix + line)
        else:
            out.append(line)
    return newline.join(out)
""",
        "comprehension as a loop with append",
    ),
    Case(
        "boltons",
        "is_uuid",
        """
def looks_like_uuid(value, version=4):
    if isinstance(value, uuid.UUID):
        parsed = value
    else:
        try:
            parsed = uuid.UUID(value)
        except (TypeError, ValueError, AttributeError):
            return False
    return not version or parsed.version == int(version)
""",
        "the test inverted with an else, the last if as a boolean return",
    ),
    Case(
        "boltons",
        "escape_shell_args",
        """
def quote_args(args, sep=' ', style=None):
    style = style or ('cmd' if sys.platform == 'win32' else 'sh')
    if style == 'cmd':
        return args2cmd(args, sep=sep)
    if style == 'sh':
        return args2sh(args, sep=sep)
    raise ValueError("style expected one of 'cmd' or 'sh', not %r" % style)
""",
        "independent branches reordered, the default as an or",
    ),
    Case(
        "boltons",
        "args2sh",
        """
def shell_join(args, sep=' '):
    parts = []
    for arg in args:
        if not arg:
            parts.append("''")
        elif _find_sh_unsafe(arg) is not None:
            parts.append("'" + arg.replace("'", "'\\"'\\"'") + "'")
        else:
            parts.append(arg)
    return ' '.join(parts)
""",
        "continue as elif, two branches reordered",
    ),
    Case(
        "boltons",
        "parse_int_list",
        """
def expand_ranges(text, delim=',', range_delim='-'):
    numbers = []
    for part in text.strip().split(delim):
        if not part:
            continue
        if range_delim in part:
            bounds = [int(b) for b in part.split(range_delim)]
            numbers.extend(range(min(bounds), max(bounds) + 1))
        else:
            numbers.append(int(part))
    return sorted(numbers)
""",
        "map as a comprehension, the empty test first",
    ),
    Case(
        "boltons",
        "int_ranges_from_int_list",
        """
def range_tuples(text, delim=',', range_delim='-'):
    normalized = format_int_list(parse_int_list(text, delim, range_delim))
    if not normalized:
        return ()
    result = []
    for bounds in normalized.split(','):
        if '-' not in bounds:
            result.append((int(bounds), int(bounds)))
        else:
            start, end = bounds.split('-')
            result.append((int(start), int(end)))
    return tuple(result)
""",
        "an early return, the test inverted",
    ),
    Case(
        "boltons",
        "unwrap_text",
        """
def join_paragraphs(text, ending='\\n\\n'):
    paragraphs, current = [], []
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped:
            paragraphs.append(' '.join(current))
            current = []
            continue
        current.append(stripped)
    if current:
        paragraphs.append(' '.join(current))
    return paragraphs if ending is None else ending.join(paragraphs)
""",
        "branches swapped with continue, the last if as a conditional expression",
    ),
    Case(
        "boltons",
        "complement_int_list",
        """
def missing_ints(range_string, range_start=0, range_end=None, delim=',', range_delim='-'):
    present = set(parse_int_list(range_string, delim, range_delim))
    if range_end is None:
        range_end = max(present) + 1 if present else range_start
    wanted = set(range(range_start, range_end))
    return format_int_list(wanted - present, delim, range_delim)
""",
        "two set differences as one range",
    ),
    # boltons.iterutils
    Case(
        "boltons",
        "is_iterable",
        """
def can_iterate(obj):
    try:
        iter(obj)
        return True
    except TypeError:
        return False
""",
        "the return moved into the try",
    ),
    Case(
        "boltons",
        "lstrip_iter",
        """
def drop_leading(iterable, strip_value=None):
    it = iter(iterable)
    for item in it:
        if item == strip_value:
            continue
        yield item
        break
    yield from it
""",
        "the test inverted with continue, the second loop as yield from",
    ),
    Case(
        "boltons",
        "chunked",
        """
def chunks_of(src, size, count=None, **kw):
    pieces = chunked_iter(src, size, **kw)
    if count is not None:
        pieces = itertools.islice(pieces, count)
    return list(pieces)
""",
        "the else folded into one return",
    ),
    Case(
        "boltons",
        "_validate_positive_int",
        """
def _ensure_positive(value, name, strictly_positive=True):
    number = int(value)
    if number < 0:
        raise ValueError('expected a positive integer ' + name)
    if strictly_positive and number == 0:
        raise ValueError('expected a positive integer ' + name)
    return number
""",
        "an or split into two ifs",
    ),
    Case(
        "boltons",
        "xfrange",
        """
def float_range_iter(stop, start=None, step=1.0):
    if not step:
        raise ValueError('step must be non-zero')
    if start is not None:
        start, stop = stop * 1.0, start * 1.0
    else:
        start, stop = 0.0, stop * 1.0
    current = start
    while current < stop:
        yield current
        current += step
""",
        "the branches swapped, the swap written the other way",
    ),
    Case(
        "boltons",
        "frange",
        """
def float_range(stop, start=None, step=1.0):
    if not step:
        raise ValueError('step must be non-zero')
    if start is None:
        start, stop = 0.0, stop * 1.0
    else:
        stop, start = start * 1.0, stop * 1.0
    count = int(math.ceil((stop - start) / step))
    if count <= 0:
        return []
    values = [start]
    for _ in range(1, count):
        values.append(values[-1] + step)
    return values
""",
        "the preallocated list as appends",
    ),
    Case(
        "boltons",
        "unique_iter",
        """
def iter_unique(src, key=None):
    if not is_iterable(src):
        raise TypeError('expected an iterable, not %r' % type(src))
    if isinstance(key, str):
        attr = key
        key = lambda x: getattr(x, attr, x)
    elif key is None:
        key = lambda x: x
    elif not callable(key):
        raise TypeError('"key" expected a string or callable, not %r' % key)
    seen = set()
    for item in src:
        marker = key(item)
        if marker in seen:
            continue
        seen.add(marker)
        yield item
""",
        "the key branches reordered, continue for the nested if",
    ),
    Case(
        "boltons",
        "flatten_iter",
        """
def walk_flat(items):
    for item in items:
        if not isinstance(item, Iterable) or isinstance(item, (str, bytes)):
            yield item
            continue
        yield from walk_flat(item)
""",
        "the test negated, the else as continue",
    ),
    Case(
        "boltons",
        "same",
        """
def all_equal(iterable, ref=_UNSET):
    it = iter(iterable)
    if ref is _UNSET:
        ref = next(it, ref)
    for value in it:
        if value != ref:
            return False
    return True
""",
        "all() as a loop that returns",
    ),
    # toolz
    Case(
        "toolz",
        "accumulate",
        """
def running(binop, seq, initial=no_default):
    it = iter(seq)
    if initial != no_default:
        total = initial
    else:
        try:
            total = next(it)
        except StopIteration:
            return
    yield total
    for item in it:
        total = binop(total, item)
        yield total
""",
        "the test inverted, branches swapped",
    ),
    Case(
        "toolz",
        "groupby",
        """
def group_items(key, seq):
    if not callable(key):
        key = getter(key)
    groups = {}
    for item in seq:
        groups.setdefault(key(item), []).append(item)
    return groups
""",
        "the bound-append trick as setdefault",
    ),
    Case(
        "toolz",
        "unique",
        """
def distinct(seq, key=None):
    seen = set()
    for item in seq:
        marker = item if key is None else key(item)
        if marker not in seen:
            seen.add(marker)
            yield item
""",
        "two loops as one with a conditional expression",
    ),
    Case(
        "toolz",
        "isdistinct",
        """
def all_different(seq):
    if iter(seq) is not seq:
        return len(set(seq)) == len(seq)
    seen = set()
    for item in seq:
        if item in seen:
            return False
        seen.add(item)
    return True
""",
        "the else as an early return, operands swapped",
    ),
    Case(
        "toolz",
        "tail",
        """
def last_n(n, seq):
    try:
        return seq[-n:]
    except (KeyError, TypeError):
        window = collections.deque(seq, n)
        return tuple(window)
""",
        "a temporary, the exceptions reordered",
    ),
    Case(
        "toolz",
        "nth",
        """
def element_at(n, seq):
    if not isinstance(seq, (tuple, list, Sequence)):
        return next(itertools.islice(seq, n, None))
    else:
        return seq[n]
""",
        "the test inverted, branches swapped",
    ),
    Case(
        "toolz",
        "frequencies",
        """
def count_values(seq):
    counts = {}
    for item in seq:
        counts[item] = counts.get(item, 0) + 1
    return counts
""",
        "the defaultdict as dict.get",
    ),
    Case(
        "toolz",
        "reduceby",
        """
def fold_by(key, binop, seq, init=no_default):
    if not callable(key):
        key = getter(key)
    if init != no_default and not callable(init):
        start = init
        init = lambda: start
    result = {}
    for item in seq:
        k = key(item)
        if k in result:
            result[k] = binop(result[k], item)
        elif init == no_default:
            result[k] = item
        else:
            result[k] = binop(init(), item)
    return result
""",
        "independent set-up reordered, the nested ifs as one chain",
    ),
    Case(
        "toolz",
        "count",
        """
def length_of(seq):
    if not hasattr(seq, '__len__'):
        total = 0
        for _ in seq:
            total += 1
        return total
    return len(seq)
""",
        "sum() as a counting loop, branches swapped",
    ),
    Case(
        "toolz",
        "pluck",
        """
def pluck_all(ind, seqs, default=no_default):
    if default == no_default:
        return map(getter(ind), seqs)
    if isinstance(ind, list):
        return (tuple(_get(i, seq, default) for i in ind) for seq in seqs)
    return (_get(ind, seq, default) for seq in seqs)
""",
        "elif as early returns, a temporary inlined",
    ),
    Case(
        "toolz",
        "getter",
        """
def item_getter(index):
    if not isinstance(index, list):
        return operator.itemgetter(index)
    if len(index) == 1:
        only = index[0]
        return lambda x: (x[only],)
    if index:
        return operator.itemgetter(*index)
    return lambda x: ()
""",
        "the outer else as an early return",
    ),
    Case(
        "toolz",
        "merge",
        """
def merge_dicts(*dicts, **kwargs):
    if len(dicts) == 1 and not isinstance(dicts[0], Mapping):
        dicts = dicts[0]
    result = kwargs.get('factory', dict)()
    for mapping in dicts:
        result.update(mapping)
    return result
""",
        "the private factory helper inlined",
    ),
    Case(
        "toolz",
        "merge_with",
        """
def combine_with(func, *dicts, **kwargs):
    if len(dicts) == 1 and not isinstance(dicts[0], Mapping):
        dicts = dicts[0]
    factory = _get_factory(combine_with, kwargs)
    grouped = collections.defaultdict(list)
    for d in dicts:
        for k, v in d.items():
            grouped[k].append(v)
    result = factory()
    for k, values in grouped.items():
        result[k] = func(values)
    return result
""",
        "the bound-append trick as lists",
    ),
    Case(
        "toolz",
        "valmap",
        """
def map_values(func, d, factory=dict):
    result = factory()
    for key, value in d.items():
        result[key] = func(value)
    return result
""",
        "zip/map as a loop",
    ),
    Case(
        "toolz",
        "keymap",
        """
def map_keys(func, d, factory=dict):
    result = factory()
    for key, value in d.items():
        result[func(key)] = value
    return result
""",
        "zip/map as a loop",
    ),
    Case(
        "toolz",
        "valfilter",
        """
def filter_values(predicate, d, factory=dict):
    kept = ((k, v) for k, v in d.items() if predicate(v))
    result = factory()
    result.update(kept)
    return result
""",
        "the loop as a generator",
    ),
    Case(
        "toolz",
        "itemfilter",
        """
def filter_items(predicate, d, factory=dict):
    result = factory()
    for k, v in d.items():
        if not predicate((k, v)):
            continue
        result[k] = v
    return result
""",
        "the item unpacked in the loop, continue",
    ),
    Case(
        "toolz",
        "assoc",
        """
def with_key(d, key, value, factory=dict):
    updated = factory()
    updated.update(d)
    updated[key] = value
    return updated
""",
        "locals renamed",
    ),
    Case(
        "toolz",
        "dissoc",
        """
def without_keys(d, *keys, **kwargs):
    factory = _get_factory(without_keys, kwargs)
    result = factory()
    if len(keys) >= len(d) * .6:
        for k in set(d).difference(keys):
            result[k] = d[k]
    else:
        result.update(d)
        for key in keys:
            result.pop(key, None)
    return result
""",
        "branches swapped, del as pop",
    ),
    Case(
        "toolz",
        "get_in",
        """
def nested_get(keys, coll, default=None, no_default=False):
    try:
        for key in keys:
            coll = coll[key]
        return coll
    except (KeyError, IndexError, TypeError):
        if not no_default:
            return default
        raise
""",
        "reduce(getitem) as a loop, the test inverted",
    ),
    Case(
        "toolz",
        "countby",
        """
def count_by(key, seq):
    if not callable(key):
        key = getter(key)
    counts = collections.defaultdict(int)
    for item in seq:
        counts[key(item)] += 1
    return dict(counts)
""",
        "frequencies() inlined",
    ),
    Case(
        "toolz",
        "thread_first",
        """
def thread_through(val, *forms):
    for form in forms:
        if callable(form):
            val = form(val)
        elif isinstance(form, tuple):
            func, args = form[0], form[1:]
            val = func(val, *args)
    return val
""",
        "the inner function and reduce as a loop",
    ),
    Case(
        "toolz",
        "thread_last",
        """
def thread_into_last(val, *forms):
    for form in forms:
        if isinstance(form, tuple):
            func, args = form[0], form[1:]
            val = func(*args, val)
        elif callable(form):
            val = form(val)
    return val
""",
        "the inner function and reduce as a loop, the branches reordered",
    ),
    Case(
        "toolz",
        "compose",
        """
def compose_all(*funcs):
    if len(funcs) == 1:
        return funcs[0]
    if not funcs:
        return identity
    return Compose(funcs)
""",
        "independent branches reordered, the else dropped",
    ),
    Case(
        "toolz",
        "has_varargs",
        """
def takes_varargs(func, sigspec=None):
    sigspec, rv = _check_sigspec(sigspec, func, _sigs._has_varargs, func)
    if sigspec is None:
        return rv
    for p in sigspec.parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            return True
    return False
""",
        "any() as a loop that returns",
    ),
    Case(
        "toolz",
        "has_keywords",
        """
def accepts_keywords(func, sigspec=None):
    sigspec, rv = _check_sigspec(sigspec, func, _sigs._has_keywords, func)
    if sigspec is None:
        return rv
    for p in sigspec.parameters.values():
        if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) or p.default is not p.empty:
            return True
    return False
""",
        "any() as a loop that returns, the or-operands swapped",
    ),
    Case(
        "toolz",
        "num_required_args",
        """
def required_arg_count(func, sigspec=None):
    sigspec, rv = _check_sigspec(sigspec, func, _sigs._num_required_args, func)
    if sigspec is None:
        return rv
    total = 0
    for p in sigspec.parameters.values():
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.POSITIONAL_ONLY) and p.default is p.empty:
            total += 1
    return total
""",
        "sum() as a counting loop, the and-operands swapped",
    ),
    Case(
        "toolz",
        "random_sample",
        """
def sample_with(prob, seq, random_state=None):
    if not hasattr(random_state, 'random'):
        from random import Random
        random_state = Random(random_state)
    for item in seq:
        if random_state.random() < prob:
            yield item
""",
        "filter(lambda) as a generator loop",
    ),
    Case(
        "toolz",
        "apply",
        """
def call_with(*func_and_args, **kwargs):
    if func_and_args:
        func = func_and_args[0]
        return func(*func_and_args[1:], **kwargs)
    raise TypeError('func argument is required')
""",
        "the guard inverted, a temporary inlined",
    ),
]

NEAR_MISSES = [
    # boltons.strutils look-alikes
    Case(
        "boltons",
        "",
        """
def constant_name(text, delim='_', upper=True):
    if not text:
        return ''
    result = delim.join(split_punct_ws(text)) or delim
    if upper:
        result = result.upper()
    return result
""",
        "upper, not lower: a constant's name, not a slug",
    ),
    Case(
        "boltons",
        "",
        """
def count_phrase(items, noun='item'):
    n = len(items)
    label = cardinalize(noun, n)
    if not n:
        return f'zero {label}'
    return f'{n} {label}'
""",
        "another message for none",
    ),
    Case(
        "boltons",
        "",
        """
def naive_ordinal(number):
    text = str(number)
    suffix = ''
    if text and text[-1] in string.digits:
        suffix = _ORDINAL_MAP.get(text[-1], 'th')
    return text + suffix
""",
        "no teens branch: 11 becomes 11st",
    ),
    Case(
        "boltons",
        "",
        """
def noun_for(noun, n):
    if n > 1:
        return pluralize(noun)
    else:
        return noun
""",
        "> 1 rather than != 1: zero stays singular",
    ),
    Case(
        "boltons",
        "",
        """
def strip_plural(word):
    original, lowered = word, word.strip().lower()
    if not lowered.endswith('s'):
        return original
    if lowered.endswith('ies'):
        result = lowered[:-3] + 'y'
    else:
        result = lowered[:-1]
    return _match_case(original, result)
""",
        "no irregular words, no -ses, no vowel test",
    ),
    Case(
        "boltons",
        "",
        """
def add_plural(word):
    original, lowered = word, word.strip().lower()
    if not lowered:
        return original
    if lowered.endswith('s') or lowered.endswith('x'):
        result = lowered + 'es'
    else:
        result = lowered + 's'
    return _match_case(original, result)
""",
        "no irregular words, no -ies, -x instead of -ch/-sh",
    ),
    Case(
        "boltons",
        "",
        """
def case_of(model, word):
    if model.isupper():
        return word.upper()
    if model.islower():
        return word.lower()
    return word.capitalize()
""",
        "capitalize as the fallback, no blank test",
    ),
    Case(
        "boltons",
        "",
        """
def short_numeronym(word):
    if len(word) >= 4:
        middle = len(word[2:-1])
        return f'{word[:2]}{middle}{word[-1]}'
    return word
""",
        "keeps two leading letters",
    ),
    Case(
        "boltons",
        "",
        """
def count_ansi_codes(value):
    if isinstance(value, (bytes, bytearray)):
        value = value.decode('utf-8')
    found = ANSI_SEQUENCES.findall(value)
    return len(found)
""",
        "counts the codes, does not strip them",
    ),
    Case(
        "boltons",
        "",
        """
def to_ascii_entities(text):
    try:
        return text.encode('ascii')
    except UnicodeEncodeError:
        return unicodedata.normalize('NFKC', text).encode('ascii', 'xmlcharrefreplace')
""",
        "NFKC and character references, no deaccenting",
    ),
    Case(
        "boltons",
        "",
        """
def is_utf8(value):
    if isinstance(value, bytes):
        try:
            value.decode('utf-8')
        except UnicodeDecodeError:
            return False
        return True
    if isinstance(value, str):
        return True
    raise ValueError('expected text or bytes, not %r' % type(value))
""",
        "UTF-8, not ASCII",
    ),
    Case(
        "boltons",
        "",
        """
def size_unit(n):
    magnitude = abs(n)
    for (size, symbol), (next_size, _next_symbol) in _SIZE_RANGES:
        if magnitude <= next_size:
            break
    return symbol
""",
        "only the unit symbol",
    ),
    Case(
        "boltons",
        "",
        """
def decompress_bytes(data):
    buffer = StringIO(data)
    with GzipFile(fileobj=buffer, mode='rb') as handle:
        content = handle.read()
    return content
""",
        "decompresses",
    ),
    Case(
        "boltons",
        "",
        """
def prefix_first(text, prefix, newline='\\n'):
    out = []
    for number, line in enumerate(iter_splitlines(text)):
        if number == 0:
            out.append(prefix + line)
        else:
            out.append(line)
    return newline.join(out)
""",
        "only the first line",
    ),
    Case(
        "boltons",
        "",
        """
def parse_uuid(value):
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(value)
    except (TypeError, ValueError, AttributeError):
        return None
""",
        "returns the UUID, no version check",
    ),
    Case(
        "boltons",
        "",
        """
def shell_style(style=None):
    style = style or ('cmd' if sys.platform == 'win32' else 'sh')
    if style not in ('cmd', 'sh'):
        raise ValueError("style expected one of 'cmd' or 'sh', not %r" % style)
    return style
""",
        "validates the style, escapes nothing",
    ),
    Case(
        "boltons",
        "",
        """
def dquote_join(args, sep=' '):
    parts = []
    for arg in args:
        if not arg:
            parts.append('""')
        elif _find_sh_unsafe(arg) is not None:
            parts.append('"' + arg.replace('"', '\\\\"') + '"')
        else:
            parts.append(arg)
    return sep.join(parts)
""",
        "double quotes, backslash escapes",
    ),
    Case(
        "boltons",
        "",
        """
def parse_bounds(text, delim=',', range_delim='-'):
    bounds = []
    for part in text.strip().split(delim):
        if not part:
            continue
        if range_delim in part:
            low, high = part.split(range_delim)
            bounds.append((int(low), int(high)))
        else:
            bounds.append((int(part), int(part)))
    return bounds
""",
        "pairs in input order, not expanded, not sorted, not merged",
    ),
    Case(
        "boltons",
        "",
        """
def count_in_ranges(text, delim=',', range_delim='-'):
    total = 0
    for part in text.strip().split(delim):
        if range_delim in part:
            low, high = part.split(range_delim)
            total += int(high) - int(low) + 1
        elif part:
            total += 1
    return total
""",
        "a count, duplicates counted twice",
    ),
    Case(
        "boltons",
        "",
        """
def paragraphs(text):
    found, current = [], []
    for raw in text.splitlines():
        if raw.strip():
            current.append(raw)
        elif current:
            found.append('\\n'.join(current))
            current = []
    if current:
        found.append('\\n'.join(current))
    return found
""",
        "keeps the line breaks and the indentation",
    ),
    Case(
        "boltons",
        "",
        """
def ints_within(range_string, range_start=0, range_end=None, delim=',', range_delim='-'):
    present = set(parse_int_list(range_string, delim, range_delim))
    if range_end is None:
        range_end = max(present) + 1 if present else range_start
    wanted = set(range(range_start, range_end))
    return format_int_list(wanted & present, delim, range_delim)
""",
        "intersection, not complement",
    ),
    # boltons.iterutils look-alikes
    Case(
        "boltons",
        "",
        """
def is_sized(obj):
    try:
        len(obj)
        return True
    except TypeError:
        return False
""",
        "len, not iter",
    ),
    Case(
        "boltons",
        "",
        """
def drop_value(iterable, strip_value=None):
    it = iter(iterable)
    for item in it:
        if item == strip_value:
            continue
        yield item
""",
        "drops the value everywhere, not only in front",
    ),
    Case(
        "boltons",
        "",
        """
def first_chunk(src, size, **kw):
    pieces = chunked_iter(src, size, **kw)
    first = next(pieces, None)
    if first is None:
        return []
    return list(first)
""",
        "only the first chunk",
    ),
    Case(
        "boltons",
        "",
        """
def _ensure_nonnegative_float(value, name):
    number = float(value)
    if number < 0:
        raise ValueError('expected a non-negative number ' + name)
    return number
""",
        "a float, zero allowed",
    ),
    Case(
        "boltons",
        "",
        """
def float_countdown(start, stop=0.0, step=1.0):
    if not step:
        raise ValueError('step must be non-zero')
    current = start * 1.0
    while current > stop:
        yield current
        current -= step
""",
        "counts down",
    ),
    Case(
        "boltons",
        "",
        """
def evenly_spaced(start, stop, count):
    if count <= 0:
        return []
    if count == 1:
        return [float(start)]
    step = (stop - start) / (count - 1)
    values = [float(start)]
    for _ in range(1, count):
        values.append(values[-1] + step)
    return values
""",
        "a given count with the stop included (linspace)",
    ),
    Case(
        "boltons",
        "",
        """
def iter_repeated(src, key=None):
    if not is_iterable(src):
        raise TypeError('expected an iterable, not %r' % type(src))
    if key is None:
        key = lambda x: x
    seen = set()
    for item in src:
        marker = key(item)
        if marker in seen:
            yield item
        seen.add(marker)
""",
        "yields the repeats, not the first of each",
    ),
    Case(
        "boltons",
        "",
        """
def flatten_once(items):
    for item in items:
        if isinstance(item, Iterable) and not isinstance(item, (str, bytes)):
            yield from item
        else:
            yield item
""",
        "one level only: no recursion",
    ),
    Case(
        "boltons",
        "",
        """
def any_equal(iterable, ref=_UNSET):
    it = iter(iterable)
    if ref is _UNSET:
        ref = next(it, ref)
    for value in it:
        if value == ref:
            return True
    return False
""",
        "any, not all",
    ),
    # toolz look-alikes
    Case(
        "toolz",
        "",
        """
def fold(binop, seq, initial=no_default):
    it = iter(seq)
    if initial != no_default:
        total = initial
    else:
        total = next(it)
    for item in it:
        total = binop(total, item)
    return total
""",
        "returns the last value only (reduce)",
    ),
    Case(
        "toolz",
        "",
        """
def index_by(key, seq):
    if not callable(key):
        key = getter(key)
    found = {}
    for item in seq:
        found[key(item)] = item
    return found
""",
        "keeps the last item per key, not a list",
    ),
    Case(
        "toolz",
        "",
        """
def distinct_keys(seq, key=None):
    seen = set()
    for item in seq:
        marker = item if key is None else key(item)
        if marker not in seen:
            seen.add(marker)
            yield marker
""",
        "yields the keys, not the items",
    ),
    Case(
        "toolz",
        "",
        """
def has_repeats(seq):
    if iter(seq) is not seq:
        return len(set(seq)) < len(seq)
    seen = set()
    for item in seq:
        if item in seen:
            return True
        seen.add(item)
    return False
""",
        "the negation",
    ),
    Case(
        "toolz",
        "",
        """
def first_n(n, seq):
    try:
        return seq[:n]
    except (KeyError, TypeError):
        window = itertools.islice(seq, n)
        return tuple(window)
""",
        "the head, not the tail",
    ),
    Case(
        "toolz",
        "",
        """
def nth_last(n, seq):
    if not isinstance(seq, (tuple, list, Sequence)):
        return collections.deque(seq, n + 1)[0]
    else:
        return seq[-n - 1]
""",
        "counts from the end",
    ),
    Case(
        "toolz",
        "",
        """
def first_positions(seq):
    positions = {}
    for index, item in enumerate(seq):
        if item not in positions:
            positions[item] = index
    return positions
""",
        "where each value first appears, not how often",
    ),
    Case(
        "toolz",
        "",
        """
def map_by(key, func, seq):
    if not callable(key):
        key = getter(key)
    result = {}
    for item in seq:
        k = key(item)
        if k not in result:
            result[k] = func(item)
    return result
""",
        "the first item per key mapped, no reduction",
    ),
    Case(
        "toolz",
        "",
        """
def count_true(seq):
    if not hasattr(seq, '__len__'):
        seq = list(seq)
    total = 0
    for item in seq:
        if item:
            total += 1
    return total
""",
        "counts the truthy items only",
    ),
    Case(
        "toolz",
        "",
        """
def attr_getter(names):
    if not isinstance(names, list):
        return operator.attrgetter(names)
    if len(names) == 1:
        only = names[0]
        return lambda x: (getattr(x, only),)
    if names:
        return operator.attrgetter(*names)
    return lambda x: ()
""",
        "attributes, not items",
    ),
    Case(
        "toolz",
        "",
        """
def merge_missing(*dicts, **kwargs):
    if len(dicts) == 1 and not isinstance(dicts[0], Mapping):
        dicts = dicts[0]
    result = kwargs.get('factory', dict)()
    for mapping in dicts:
        for k, v in mapping.items():
            result.setdefault(k, v)
    return result
""",
        "the first value wins, not the last",
    ),
    Case(
        "toolz",
        "",
        """
def map_pairs_to_values(func, d, factory=dict):
    result = factory()
    for key, value in d.items():
        result[key] = func(key, value)
    return result
""",
        "the function gets the key too",
    ),
    Case(
        "toolz",
        "",
        """
def reject_values(predicate, d, factory=dict):
    result = factory()
    for k, v in d.items():
        if not predicate(v):
            result[k] = v
    return result
""",
        "keeps what the predicate rejects",
    ),
    Case(
        "toolz",
        "",
        """
def with_default(d, key, value, factory=dict):
    updated = factory()
    updated.update(d)
    updated.setdefault(key, value)
    return updated
""",
        "does not overwrite an existing key",
    ),
    Case(
        "toolz",
        "",
        """
def only_keys(d, *keys, **kwargs):
    factory = _get_factory(only_keys, kwargs)
    result = factory()
    for key in keys:
        if key in d:
            result[key] = d[key]
    return result
""",
        "keeps the keys instead of removing them",
    ),
    Case(
        "toolz",
        "",
        """
def has_path(keys, coll):
    try:
        for key in keys:
            coll = coll[key]
        return True
    except (KeyError, IndexError, TypeError):
        return False
""",
        "whether the path exists, not its value",
    ),
    Case(
        "toolz",
        "",
        """
def sum_by(key, seq):
    if not callable(key):
        key = getter(key)
    totals = collections.defaultdict(int)
    for item in seq:
        totals[key(item)] += item
    return dict(totals)
""",
        "sums the items, does not count them",
    ),
    Case(
        "toolz",
        "",
        """
def thread_steps(val, *forms):
    steps = []
    for form in forms:
        if callable(form):
            val = form(val)
        elif isinstance(form, tuple):
            val = form[0](val, *form[1:])
        steps.append(val)
    return steps
""",
        "every intermediate value, not the last",
    ),
    Case(
        "toolz",
        "",
        """
def takes_kwargs(func, sigspec=None):
    sigspec, rv = _check_sigspec(sigspec, func, _sigs._has_keywords, func)
    if sigspec is None:
        return rv
    for p in sigspec.parameters.values():
        if p.kind == p.VAR_KEYWORD:
            return True
    return False
""",
        "only **kwargs, not keyword-only or defaulted parameters",
    ),
    Case(
        "toolz",
        "",
        """
def optional_arg_count(func, sigspec=None):
    sigspec, rv = _check_sigspec(sigspec, func, _sigs._num_required_args, func)
    if sigspec is None:
        return rv
    total = 0
    for p in sigspec.parameters.values():
        if p.default is not p.empty:
            total += 1
    return total
""",
        "counts the optional parameters",
    ),
    Case(
        "toolz",
        "",
        """
def sample_count(prob, seq, random_state=None):
    if not hasattr(random_state, 'random'):
        from random import Random
        random_state = Random(random_state)
    return sum(1 for _ in seq if random_state.random() < prob)
""",
        "how many would be sampled",
    ),
    Case(
        "toolz",
        "",
        """
def compose_nonempty(*funcs):
    if len(funcs) == 1:
        return funcs[0]
    if not funcs:
        raise TypeError('compose needs at least one function')
    return Compose(funcs)
""",
        "raises on no function rather than returning identity",
    ),
]

RESTRUCTURED = COPIES + NEAR_MISSES
