"""The set the #35 normaliser and thresholds were chosen on (a tuning set, apart from the held-out
nearcopy_restructured.py): restructured copies and look-alikes of more-itertools 10.5.0 recipes."""

from __future__ import annotations

from nearcopies import Case

REWRITES_TUNING = [
    Case(
        "more_itertools",
        "tail",
        """
def last_items(n, iterable):
    if not isinstance(iterable, Sized):
        for item in iter(deque(iterable, maxlen=n)):
            yield item
    else:
        for item in islice(iterable, max(0, len(iterable) - n), None):
            yield item
""",
        "yield from as loops, the test inverted",
    ),
    Case(
        "more_itertools",
        "consume",
        """
def exhaust(iterator, n=None):
    if n is not None:
        next(islice(iterator, n, n), None)
    else:
        deque(iterator, maxlen=0)
""",
        "the test inverted, branches swapped",
    ),
    Case(
        "more_itertools",
        "repeatfunc",
        """
def call_repeatedly(func, times=None, *args):
    if times is not None:
        return starmap(func, repeat(args, times))
    else:
        return starmap(func, repeat(args))
""",
        "branches swapped, an else",
    ),
    Case(
        "more_itertools",
        "grouper",
        """
def groups_of(iterable, n, incomplete='fill', fillvalue=None):
    args = [iter(iterable)] * n
    if incomplete == 'ignore':
        return zip(*args)
    if incomplete == 'fill':
        return zip_longest(*args, fillvalue=fillvalue)
    if incomplete == 'strict':
        return _zip_equal(*args)
    raise ValueError('Expected fill, strict, or ignore')
""",
        "independent branches reordered",
    ),
    Case(
        "more_itertools",
        "random_combination",
        """
def pick_combination(iterable, r):
    pool = tuple(iterable)
    indices = sorted(sample(range(len(pool)), r))
    chosen = []
    for i in indices:
        chosen.append(pool[i])
    return tuple(chosen)
""",
        "a generator as a loop with append, a temporary inlined",
    ),
    Case(
        "more_itertools",
        "_sliding_window_deque",
        """
def windows(iterable, n):
    source = iter(iterable)
    current = deque(islice(source, n - 1), maxlen=n)
    for value in source:
        current.append(value)
        yield tuple(current)
""",
        "locals renamed",
    ),
    Case(
        "more_itertools",
        "_batched",
        """
def batches(iterable, n, *, strict=False):
    if n < 1:
        raise ValueError('n must be at least one')
    it = iter(iterable)
    while True:
        batch = tuple(islice(it, n))
        if not batch:
            return
        if len(batch) != n and strict:
            raise ValueError('batched(): incomplete batch')
        yield batch
""",
        "the walrus as a loop that returns, operands swapped",
    ),
    Case(
        "more_itertools",
        "totient",
        """
def euler_phi(n):
    result = n
    for prime in set(factor(n)):
        result = result - result // prime
    return result
""",
        "an augmented assignment spelled out, a temporary",
    ),
    Case(
        "more_itertools",
        "polynomial_derivative",
        """
def derivative(coefficients):
    n = len(coefficients)
    result = []
    for c, power in zip(coefficients, reversed(range(1, n))):
        result.append(c * power)
    return result
""",
        "map(mul) as a loop with append",
    ),
    Case(
        "more_itertools",
        "_zip_equal_generator",
        """
def zip_checked(iterables):
    for combo in zip_longest(*iterables, fillvalue=_marker):
        if any(val is _marker for val in combo):
            raise UnequalIterablesError()
        yield combo
""",
        "a loop that raises as any()",
    ),
    # look-alikes
    Case(
        "more_itertools",
        "",
        """
def head_items(n, iterable):
    if not isinstance(iterable, Sized):
        for item in islice(iterable, n):
            yield item
    else:
        for item in islice(iterable, 0, min(n, len(iterable))):
            yield item
""",
        "the head, not the tail",
    ),
    Case(
        "more_itertools",
        "",
        """
def groups_strict(iterable, n):
    args = [iter(iterable)] * n
    if n < 1:
        raise ValueError('Expected a positive size')
    return _zip_equal(*args)
""",
        "only the strict mode",
    ),
    Case(
        "more_itertools",
        "random_permutation",
        """
def pick_permutation(iterable, r=None):
    pool = tuple(iterable)
    if r is None:
        r = len(pool)
    chosen = []
    for item in sample(pool, r):
        chosen.append(item)
    return tuple(chosen)
""",
        "the conditional expression as an if, the generator as a loop with append (first written "
        "as a\n"
        "look-alike of random_combination; it repeats random_permutation)",
    ),
    Case(
        "more_itertools",
        "",
        """
def windows_padded(iterable, n, fill=None):
    source = iter(iterable)
    current = deque([fill] * n, maxlen=n)
    for value in source:
        current.append(value)
        yield tuple(current)
""",
        "padded in front, a window per item",
    ),
    Case(
        "more_itertools",
        "",
        """
def batches_padded(iterable, n, fill=None):
    if n < 1:
        raise ValueError('n must be at least one')
    it = iter(iterable)
    while True:
        batch = tuple(islice(it, n))
        if not batch:
            return
        yield batch + (fill,) * (n - len(batch))
""",
        "pads the last batch",
    ),
    Case(
        "more_itertools",
        "",
        """
def distinct_prime_count(n):
    result = 0
    for prime in set(factor(n)):
        result = result + 1
    return result
""",
        "counts the primes",
    ),
    Case(
        "more_itertools",
        "",
        """
def antiderivative(coefficients):
    n = len(coefficients)
    result = []
    for c, power in zip(coefficients, reversed(range(1, n + 1))):
        result.append(c / power)
    result.append(0)
    return result
""",
        "integrates",
    ),
    Case(
        "more_itertools",
        "",
        """
def zip_until_short(iterables):
    for combo in zip_longest(*iterables, fillvalue=_marker):
        if any(val is _marker for val in combo):
            return
        yield combo
""",
        "stops instead of raising",
    ),
    Case(
        "more_itertools",
        "",
        """
def exhaust_count(iterator, n=None):
    if n is not None:
        return len(list(islice(iterator, n)))
    else:
        return len(list(iterator))
""",
        "counts what it consumes",
    ),
    Case(
        "more_itertools",
        "",
        """
def call_until(func, sentinel, *args):
    if sentinel is not None:
        return iter(lambda: func(*args), sentinel)
    else:
        return starmap(func, repeat(args))
""",
        "stops at a sentinel",
    ),
    Case(
        "more_itertools",
        "first",
        """
def first_or(iterable, default=_marker):
    it = iter(iterable)
    for value in it:
        return value
    if default is not _marker:
        return default
    raise ValueError('first() was called on an empty iterable, and no default value was provided.')
""",
        "the negated test with its branches swapped",
    ),
    Case(
        "more_itertools",
        "split_into",
        """
def chunks_by_sizes(iterable, sizes):
    it = iter(iterable)
    for size in sizes:
        if size is not None:
            yield list(islice(it, size))
        else:
            yield list(it)
            return
""",
        "the negated test with its branches swapped",
    ),
    Case(
        "more_itertools",
        "distribute",
        """
def spread(n, iterable):
    if n < 1:
        raise ValueError('n must be at least 1')
    parts = []
    for index, it in enumerate(tee(iterable, n)):
        parts.append(islice(it, index, None, n))
    return parts
""",
        "the comprehension as a loop with append, a temporary inlined",
    ),
    Case(
        "more_itertools",
        "always_iterable",
        """
def as_iterable(obj, base_type=(str, bytes)):
    if obj is None:
        return iter(())
    if base_type is not None and isinstance(obj, base_type):
        return iter((obj,))
    try:
        it = iter(obj)
    except TypeError:
        return iter((obj,))
    return it
""",
        "the return moved out of the try",
    ),
    Case(
        "more_itertools",
        "map_except",
        """
def map_skipping(function, iterable, *exceptions):
    for item in iterable:
        try:
            result = function(item)
        except exceptions:
            continue
        yield result
""",
        "pass as continue, a temporary",
    ),
    Case(
        "more_itertools",
        "filter_except",
        """
def valid_items(validator, iterable, *exceptions):
    for item in iterable:
        try:
            validator(item)
        except exceptions:
            continue
        yield item
""",
        "the try's else as the statement after it",
    ),
    Case(
        "more_itertools",
        "product_index",
        """
def index_in_product(element, *args):
    index = 0
    for x, pool in zip_longest(element, args, fillvalue=_marker):
        if pool is _marker or x is _marker:
            raise ValueError('element is not a product of args')
        options = tuple(pool)
        index = options.index(x) + index * len(options)
    return index
""",
        "operands reordered, a local renamed",
    ),
    Case(
        "more_itertools",
        "join_mappings",
        """
def merge_fields(**field_to_map):
    result = {}
    for field_name, mapping in field_to_map.items():
        for key, value in mapping.items():
            result.setdefault(key, {})[field_name] = value
    return result
""",
        "defaultdict as setdefault",
    ),
    Case(
        "more_itertools",
        "value_chain",
        """
def flatten_values(*args):
    for value in args:
        if not isinstance(value, (str, bytes)):
            try:
                yield from value
            except TypeError:
                yield value
        else:
            yield value
""",
        "continue as an else, the test negated",
    ),
    Case(
        "more_itertools",
        "count_cycle",
        """
def numbered_cycles(iterable, n=None):
    items = tuple(iterable)
    if not items:
        return iter(())
    if n is None:
        counter = count()
    else:
        counter = range(n)
    return ((i, item) for i in counter for item in items)
""",
        "the conditional expression as an if",
    ),
    Case(
        "more_itertools",
        "",
        """
def last_or(iterable, default=_marker):
    value = _marker
    for value in iterable:
        pass
    if value is not _marker:
        return value
    if default is not _marker:
        return default
    raise ValueError('last() was called on an empty iterable, and no default value was provided.')
""",
        "the last item, not the first",
    ),
    Case(
        "more_itertools",
        "",
        """
def chunks_with_rest(iterable, sizes):
    it = iter(iterable)
    for size in sizes:
        yield list(islice(it, size))
    rest = list(it)
    if rest:
        yield rest
""",
        "yields what is left over",
    ),
    Case(
        "more_itertools",
        "",
        """
def spread_contiguous(n, iterable):
    if n < 1:
        raise ValueError('n must be at least 1')
    items = list(iterable)
    size, extra = divmod(len(items), n)
    parts = []
    for index in range(n):
        start = index * size + min(index, extra)
        parts.append(items[start:start + size + (index < extra)])
    return parts
""",
        "contiguous slices, not every n-th item",
    ),
    Case(
        "more_itertools",
        "",
        """
def as_list(obj, base_type=(str, bytes)):
    if obj is None:
        return []
    if base_type is not None and isinstance(obj, base_type):
        return [obj]
    try:
        return list(obj)
    except TypeError:
        return [obj]
""",
        "a list, and the items read at once",
    ),
    Case(
        "more_itertools",
        "",
        """
def failing_items(validator, iterable, *exceptions):
    for item in iterable:
        try:
            validator(item)
        except exceptions:
            yield item
""",
        "yields the items that fail",
    ),
    Case(
        "more_itertools",
        "",
        """
def index_in_product_reversed(element, *args):
    index = 0
    for x, pool in zip_longest(reversed(element), reversed(args), fillvalue=_marker):
        if pool is _marker or x is _marker:
            raise ValueError('element is not a product of args')
        options = tuple(pool)
        index = options.index(x) + index * len(options)
    return index
""",
        "the last argument is the most significant",
    ),
    Case(
        "more_itertools",
        "",
        """
def merge_last_field(**field_to_map):
    result = {}
    for field_name, mapping in field_to_map.items():
        for key, value in mapping.items():
            result[key] = value
    return result
""",
        "keeps the last value per key, not every field",
    ),
    Case(
        "more_itertools",
        "",
        """
def strings_only(*args):
    for value in args:
        if not isinstance(value, (str, bytes)):
            continue
        yield value
""",
        "drops what is not a string",
    ),
]
