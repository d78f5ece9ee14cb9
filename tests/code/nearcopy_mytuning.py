"""Tuning cases for #35's second pass (restructured copies), written by hand to choose the
normaliser's rules on, never measured as held out. Project helpers: more_itertools 10.5.0
(`more.py`, `recipes.py`), already the #35 rules' first tuning package. Copies are rewritten as
agents rewrite code; near misses look alike and do something else."""

from __future__ import annotations

from nearcopies import Case

COPIES = [
    Case(
        "more_itertools",
        "filter_map",
        """
def keep_results(fn, items):
    out = []
    for thing in items:
        value = fn(thing)
        if value is None:
            continue
        out.append(value)
    return out
""",
        "a generator as a list built by a loop, continue for the nested if",
    ),
    Case(
        "more_itertools",
        "takewhile_inclusive",
        """
def take_until_fails(pred, items):
    for element in items:
        yield element
        if pred(element):
            continue
        break
""",
        "the break behind a continue",
    ),
    Case(
        "more_itertools",
        "windowed_complete",
        """
def split_around(items, width):
    if width < 0:
        raise ValueError('n must be >= 0')
    seq = tuple(items)
    total = len(seq)
    if width > total:
        raise ValueError('n must be <= len(seq)')
    return [(seq[:i], seq[i:i + width], seq[i + width:]) for i in range(total - width + 1)]
""",
        "the loop as a list comprehension, temporaries inlined",
    ),
    Case(
        "more_itertools",
        "duplicates_everseen",
        """
def repeated_items(iterable, key=None):
    seen_set = set()
    seen_list = []
    for element in iterable:
        k = element if key is None else key(element)
        try:
            if k in seen_set:
                yield element
            else:
                seen_set.add(k)
        except TypeError:
            if k in seen_list:
                yield element
            else:
                seen_list.append(k)
""",
        "branches swapped, the flag inlined",
    ),
    Case(
        "more_itertools",
        "all_unique",
        """
def no_repeats(iterable, key=None):
    seen = set()
    seen_list = []
    items = map(key, iterable) if key else iterable
    for item in items:
        try:
            if item in seen:
                return False
            seen.add(item)
        except TypeError:
            if item in seen_list:
                return False
            seen_list.append(item)
    return True
""",
        "bound methods called directly, the iterable named",
    ),
    Case(
        "more_itertools",
        "repeat_last",
        """
def then_repeat_last(iterable, default=None):
    last_item = _marker
    for last_item in iterable:
        yield last_item
    if last_item is _marker:
        final = default
    else:
        final = last_item
    yield from repeat(final)
""",
        "the conditional expression as an if/else",
    ),
    Case(
        "more_itertools",
        "rstrip",
        """
def strip_trailing(iterable, pred):
    pending = []
    for x in iterable:
        if not pred(x):
            yield from pending
            pending.clear()
            yield x
        else:
            pending.append(x)
""",
        "the test negated, branches swapped, bound methods inlined",
    ),
    Case(
        "more_itertools",
        "nth_product",
        """
def product_at(index, *args):
    pools = [tuple(arg) for arg in reversed(args)]
    sizes = [len(pool) for pool in pools]
    total = reduce(mul, sizes)
    if index < 0:
        index += total
    if not 0 <= index < total:
        raise IndexError
    picked = []
    for pool, size in zip(pools, sizes):
        picked.append(pool[index % size])
        index //= size
    return tuple(reversed(picked))
""",
        "map as comprehensions",
    ),
    Case(
        "more_itertools",
        "permutation_index",
        """
def rank_of_permutation(element, iterable):
    pool = list(iterable)
    index = 0
    for i, x in zip(range(len(pool), -1, -1), element):
        position = pool.index(x)
        index = index * i + position
        pool.pop(position)
    return index
""",
        "independent set-up reordered, del as pop",
    ),
    Case(
        "more_itertools",
        "map_reduce",
        """
def bucket_and_reduce(iterable, keyfunc, valuefunc=None, reducefunc=None):
    if valuefunc is None:
        valuefunc = lambda x: x
    ret = defaultdict(list)
    for item in iterable:
        ret[keyfunc(item)].append(valuefunc(item))
    if reducefunc is not None:
        for key, value_list in ret.items():
            ret[key] = reducefunc(value_list)
    ret.default_factory = None
    return ret
""",
        "temporaries inlined, the conditional expression as an if",
    ),
    Case(
        "more_itertools",
        "split_before",
        """
def chunks_starting_at(iterable, pred, maxsplit=-1):
    if maxsplit == 0:
        yield list(iterable)
        return
    buf = []
    it = iter(iterable)
    for item in it:
        if buf and pred(item):
            yield buf
            if maxsplit == 1:
                yield [item] + list(it)
                return
            maxsplit -= 1
            buf = []
        buf.append(item)
    if buf:
        yield buf
""",
        "the operands of and reordered, independent statements reordered",
    ),
    Case(
        "more_itertools",
        "circular_shifts",
        """
def rotations(iterable, steps=1):
    buffer = deque(iterable)
    if not steps:
        raise ValueError('Steps should be a non-zero integer')
    buffer.rotate(steps)
    n = len(buffer) // math.gcd(len(buffer), -steps)
    for _ in range(n):
        buffer.rotate(-steps)
        yield tuple(buffer)
""",
        "steps == 0 as not steps, repeat as range, the negation inlined",
    ),
    Case(
        "more_itertools",
        "zip_offset",
        """
def zip_shifted(*iterables, offsets, longest=False, fillvalue=None):
    if len(iterables) != len(offsets):
        raise ValueError("Number of iterables and offsets didn't match")
    staggered = []
    for it, n in zip(iterables, offsets):
        if n > 0:
            staggered.append(islice(it, n, None))
        elif n < 0:
            staggered.append(chain(repeat(fillvalue, -n), it))
        else:
            staggered.append(it)
    if not longest:
        return zip(*staggered)
    return zip_longest(*staggered, fillvalue=fillvalue)
""",
        "independent branches reordered, the final if inverted",
    ),
    Case(
        "more_itertools",
        "substrings",
        """
def all_substrings(iterable):
    seq = []
    for item in iter(iterable):
        seq.append(item)
        yield (item,)
    seq = tuple(seq)
    size = len(seq)
    for n in range(2, size + 1):
        yield from (seq[i:i + n] for i in range(size - n + 1))
""",
        "the inner loop as yield from a generator",
    ),
    Case(
        "more_itertools",
        "divide",
        """
def split_evenly(n, iterable):
    if n < 1:
        raise ValueError('n must be at least 1')
    try:
        iterable[:0]
        seq = iterable
    except TypeError:
        seq = tuple(iterable)
    q, r = divmod(len(seq), n)
    parts = []
    stop = 0
    for i in range(1, n + 1):
        start = stop
        if i <= r:
            stop += q + 1
        else:
            stop += q
        parts.append(iter(seq[start:stop]))
    return parts
""",
        "try/else folded into the try, the conditional expression as an if",
    ),
    Case(
        "more_itertools",
        "windowed_complete",
        """
def windows_with_context(iterable, n):
    if n < 0:
        raise ValueError('n must be >= 0')
    seq = tuple(iterable)
    size = len(seq)
    if n > size:
        raise ValueError('n must be <= len(seq)')
    for start in range(size - n + 1):
        yield seq[:start], seq[start:start + n], seq[start + n:]
""",
        "temporaries inlined",
    ),
]

NEAR_MISSES = [
    Case(
        "more_itertools",
        "",
        """
def keep_truthy_results(fn, items):
    out = []
    for thing in items:
        value = fn(thing)
        if value:
            out.append(value)
    return out
""",
        "drops falsy results, not only None",
    ),
    Case(
        "more_itertools",
        "",
        """
def take_while_ok(pred, items):
    for element in items:
        if not pred(element):
            break
        yield element
""",
        "stops before the failing item (takewhile), not after it",
    ),
    Case(
        "more_itertools",
        "",
        """
def first_repeats(iterable, key=None):
    seen = set()
    reported = set()
    for element in iterable:
        k = element if key is None else key(element)
        if k in seen and k not in reported:
            reported.add(k)
            yield element
        seen.add(k)
""",
        "each duplicate once only",
    ),
    Case(
        "more_itertools",
        "",
        """
def any_repeats(iterable, key=None):
    seen = set()
    items = map(key, iterable) if key else iterable
    for item in items:
        if item in seen:
            return True
        seen.add(item)
    return False
""",
        "the opposite answer",
    ),
    Case(
        "more_itertools",
        "",
        """
def then_repeat_default(iterable, default=None):
    last_item = _marker
    for last_item in iterable:
        yield last_item
    yield from repeat(default)
""",
        "repeats the default, never the last item",
    ),
    Case(
        "more_itertools",
        "",
        """
def strip_leading(iterable, pred):
    started = False
    for x in iterable:
        if started or not pred(x):
            started = True
            yield x
""",
        "strips from the start",
    ),
    Case(
        "more_itertools",
        "",
        """
def product_count(*args):
    pools = [tuple(arg) for arg in reversed(args)]
    sizes = [len(pool) for pool in pools]
    total = reduce(mul, sizes)
    if total < 0:
        raise IndexError
    return total
""",
        "how many products, not one of them",
    ),
    Case(
        "more_itertools",
        "",
        """
def group_values(iterable, keyfunc, valuefunc=None):
    if valuefunc is None:
        valuefunc = lambda x: x
    ret = {}
    for item in iterable:
        ret[keyfunc(item)] = valuefunc(item)
    return ret
""",
        "keeps the last value per key, no lists",
    ),
    Case(
        "more_itertools",
        "",
        """
def chunks_ending_at(iterable, pred, maxsplit=-1):
    if maxsplit == 0:
        yield list(iterable)
        return
    buf = []
    it = iter(iterable)
    for item in it:
        buf.append(item)
        if pred(item) and buf:
            yield buf
            if maxsplit == 1:
                yield list(it)
                return
            buf = []
            maxsplit -= 1
    if buf:
        yield buf
""",
        "splits after the item (split_after)",
    ),
    Case(
        "more_itertools",
        "",
        """
def rotations_left(iterable):
    buffer = deque(iterable)
    out = []
    for _ in range(len(buffer)):
        out.append(tuple(buffer))
        buffer.rotate(-1)
    return out
""",
        "starts with the unrotated input, one step at a time",
    ),
    Case(
        "more_itertools",
        "",
        """
def zip_shifted_left(*iterables, offsets, fillvalue=None):
    if len(iterables) != len(offsets):
        raise ValueError("Number of iterables and offsets didn't match")
    staggered = []
    for it, n in zip(iterables, offsets):
        if n > 0:
            staggered.append(chain(repeat(fillvalue, n), it))
        else:
            staggered.append(it)
    return zip(*staggered)
""",
        "pads instead of skipping, negative offsets ignored",
    ),
    Case(
        "more_itertools",
        "",
        """
def prefixes(iterable):
    seq = tuple(iterable)
    size = len(seq)
    for n in range(1, size + 1):
        yield seq[:n]
    for n in range(1, size):
        yield seq[n:]
""",
        "prefixes and suffixes, not every substring",
    ),
    Case(
        "more_itertools",
        "",
        """
def split_into_sizes(n, iterable):
    if n < 1:
        raise ValueError('n must be at least 1')
    seq = tuple(iterable)
    parts = []
    for start in range(0, len(seq), n):
        parts.append(iter(seq[start:start + n]))
    return parts
""",
        "chunks of size n, not n parts",
    ),
    Case(
        "more_itertools",
        "",
        """
def trailing_windows(iterable, n):
    if n < 0:
        raise ValueError('n must be >= 0')
    seq = tuple(iterable)
    size = len(seq)
    if n > size:
        raise ValueError('n must be <= len(seq)')
    for start in range(size - n + 1):
        yield seq[start:start + n]
""",
        "the windows alone, without what comes before and after",
    ),
    Case(
        "more_itertools",
        "",
        """
def index_of_permutation_desc(element, iterable):
    index = 0
    pool = sorted(iterable, reverse=True)
    for i, x in zip(range(len(pool), -1, -1), element):
        r = pool.index(x)
        index = index * i + r
        del pool[r]
    return index
""",
        "ranks against the pool sorted descending",
    ),
    Case(
        "more_itertools",
        "",
        """
def unique_everseen_list(iterable, key=None):
    seen = set()
    result = []
    for element in iterable:
        k = element if key is None else key(element)
        if k not in seen:
            seen.add(k)
            result.append(element)
    return result
""",
        "the unique items, not the duplicates",
    ),
]

COPIES_2 = [
    Case(
        "more_itertools",
        "split_at",
        """
def split_on(iterable, pred, maxsplit=-1, keep_separator=False):
    if maxsplit == 0:
        yield list(iterable)
        return
    buf = []
    it = iter(iterable)
    for item in it:
        if not pred(item):
            buf.append(item)
            continue
        yield buf
        if keep_separator:
            yield [item]
        if maxsplit == 1:
            yield list(it)
            return
        buf = []
        maxsplit -= 1
    yield buf
""",
        "the test negated with continue for the else",
    ),
    Case(
        "more_itertools",
        "map_if",
        """
def apply_where(iterable, pred, func, func_else=lambda x: x):
    for item in iterable:
        if pred(item):
            yield func(item)
        else:
            yield func_else(item)
""",
        "the conditional expression as an if/else of yields",
    ),
    Case(
        "more_itertools",
        "filter_except",
        """
def valid_only(validator, iterable, *exceptions):
    kept = []
    for item in iterable:
        try:
            validator(item)
        except exceptions:
            continue
        kept.append(item)
    return kept
""",
        "a list for the generator, the else as code after the try",
    ),
    Case(
        "more_itertools",
        "value_chain",
        """
def chain_values(*args):
    for value in args:
        if not isinstance(value, (str, bytes)):
            try:
                yield from value
            except TypeError:
                yield value
        else:
            yield value
""",
        "the guard with continue as an if/else, negated",
    ),
    Case(
        "more_itertools",
        "join_mappings",
        """
def merge_by_key(**field_to_map):
    ret = {}
    for field_name, mapping in field_to_map.items():
        for key, value in mapping.items():
            ret.setdefault(key, {})[field_name] = value
    return ret
""",
        "the defaultdict as setdefault",
    ),
    Case(
        "more_itertools",
        "first",
        """
def first_item(iterable, default=_marker):
    for item in iterable:
        return item
    if default is not _marker:
        return default
    raise ValueError('first() was called on an empty iterable, and no default value was provided.')
""",
        "the guard inverted",
    ),
    Case(
        "more_itertools",
        "unique_in_window",
        """
def unique_recent(iterable, n, key=None):
    if n <= 0:
        raise ValueError('n must be greater than 0')
    window = deque(maxlen=n)
    counts = defaultdict(int)
    for item in iterable:
        if len(window) == n:
            oldest = window[0]
            if counts[oldest] > 1:
                counts[oldest] -= 1
            else:
                del counts[oldest]
        k = item if key is None else key(item)
        if k not in counts:
            yield item
        counts[k] += 1
        window.append(k)
""",
        "branches swapped, the flag inlined",
    ),
    Case(
        "more_itertools",
        "doublestarmap",
        """
def call_with_kwargs(func, iterable):
    results = []
    for item in iterable:
        results.append(func(**item))
    return results
""",
        "the generator as a list built in a loop",
    ),
]

NEAR_MISSES_2 = [
    Case(
        "more_itertools",
        "",
        """
def split_keeping_separators(iterable, pred):
    buf = []
    for item in iterable:
        if pred(item):
            if buf:
                yield buf
            buf = [item]
        else:
            buf.append(item)
    if buf:
        yield buf
""",
        "the separator starts the next chunk",
    ),
    Case(
        "more_itertools",
        "",
        """
def apply_unless(iterable, pred, func):
    for item in iterable:
        if not pred(item):
            yield func(item)
        else:
            yield item
""",
        "applies the function where the predicate fails",
    ),
    Case(
        "more_itertools",
        "",
        """
def invalid_only(validator, iterable, *exceptions):
    rejected = []
    for item in iterable:
        try:
            validator(item)
        except exceptions:
            rejected.append(item)
    return rejected
""",
        "keeps the items that fail",
    ),
    Case(
        "more_itertools",
        "",
        """
def flatten_strings(*args):
    for value in args:
        if isinstance(value, (str, bytes)):
            yield from value
            continue
        yield value
""",
        "splits the strings into characters",
    ),
    Case(
        "more_itertools",
        "",
        """
def last_item(iterable, default=_marker):
    item = _marker
    for item in iterable:
        pass
    if item is not _marker:
        return item
    if default is _marker:
        raise ValueError('last() was called on an empty iterable, and no default value was provided.')
    return default
""",
        "the last item, not the first",
    ),
    Case(
        "more_itertools",
        "",
        """
def seen_in_window(iterable, n):
    if n <= 0:
        raise ValueError('n must be greater than 0')
    window = deque(maxlen=n)
    for item in iterable:
        if item in window:
            yield item
        window.append(item)
""",
        "the repeats within the window",
    ),
    Case(
        "more_itertools",
        "",
        """
def call_each_with(func, iterable):
    results = []
    for item in iterable:
        results.append(func(*item))
    return results
""",
        "positional unpacking, not keywords (starmap)",
    ),
    Case(
        "more_itertools",
        "",
        """
def map_all_errors(function, iterable, *exceptions):
    out = []
    for item in iterable:
        try:
            out.append(function(item))
        except exceptions:
            out.append(None)
    return out
""",
        "None for a failure instead of leaving it out",
    ),
]

NEAR_MISSES_3 = [
    Case(
        "more_itertools",
        "",
        """
def failures_of(fn, items):
    for thing in items:
        value = fn(thing)
        if value is None:
            yield thing
""",
        "a negated test: the items whose result is None",
    ),
    Case(
        "more_itertools",
        "",
        """
def take_while_not(pred, items):
    for element in items:
        yield element
        if pred(element):
            break
""",
        "a negated test: stops at the first item that passes",
    ),
    Case(
        "more_itertools",
        "",
        """
def all_equal_items(iterable, key=None):
    seen = set()
    items = map(key, iterable) if key else iterable
    for item in items:
        seen.add(item)
        if len(seen) > 1:
            return False
    return True
""",
        "all equal, not all distinct",
    ),
    Case(
        "more_itertools",
        "",
        """
def rotations_right(iterable, steps=1):
    buffer = deque(iterable)
    if steps == 0:
        raise ValueError('Steps should be a non-zero integer')
    n = len(buffer) // math.gcd(len(buffer), steps)
    for _ in range(n):
        yield tuple(buffer)
        buffer.rotate(steps)
""",
        "yields before rotating: the input comes first",
    ),
    Case(
        "more_itertools",
        "",
        """
def product_at_reversed(index, *args):
    pools = [tuple(arg) for arg in args]
    sizes = [len(pool) for pool in pools]
    total = reduce(mul, sizes)
    if index < 0:
        index += total
    if not 0 <= index < total:
        raise IndexError
    picked = []
    for pool, size in zip(pools, sizes):
        picked.append(pool[index % size])
        index //= size
    return tuple(picked)
""",
        "the pools not reversed: another order of products",
    ),
    Case(
        "more_itertools",
        "",
        """
def windows_before(iterable, n):
    if n < 0:
        raise ValueError('n must be >= 0')
    seq = tuple(iterable)
    size = len(seq)
    if n > size:
        raise ValueError('n must be <= len(seq)')
    for start in range(size - n + 1):
        yield seq[:start], seq[start:start + n]
""",
        "a missing part: no tail",
    ),
    Case(
        "more_itertools",
        "",
        """
def split_evenly_floor(n, iterable):
    if n < 1:
        raise ValueError('n must be at least 1')
    seq = tuple(iterable)
    q, r = divmod(len(seq), n)
    parts = []
    stop = 0
    for i in range(1, n + 1):
        start = stop
        stop += q
        parts.append(iter(seq[start:stop]))
    return parts
""",
        "a missing branch: the remainder is dropped",
    ),
    Case(
        "more_itertools",
        "",
        """
def map_if_else(iterable, pred, func, func_else=lambda x: x):
    for item in iterable:
        if pred(item):
            yield func_else(item)
        else:
            yield func(item)
""",
        "the branches swapped without negating the test",
    ),
]

MYTUNING = COPIES + COPIES_2 + NEAR_MISSES + NEAR_MISSES_2 + NEAR_MISSES_3
