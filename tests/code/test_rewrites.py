"""The canonical body and the features of `code.rewrites` (#35): each rewrite an agent makes gives
the same canonical tokens as the code it rewrites; a change of behaviour does not."""

from __future__ import annotations

import textwrap

import pytest

from sidekit_hooks.code import functions, near_copies, rewrites


def canonical(source: str) -> list[str]:
    node = functions.parse_function(textwrap.dedent(source))
    assert node is not None
    return rewrites.canonical(node)


def features(source: str) -> list[str]:
    node = functions.parse_function(textwrap.dedent(source))
    assert node is not None
    return rewrites.features(node)


SAME = [
    (  # a comprehension and a loop with append, into a local then returned
        """
        def f(items, key):
            return [key(item) for item in items if item]
        """,
        """
        def g(values, fn):
            found = []
            for value in values:
                if value:
                    found.append(fn(value))
            return found
        """,
    ),
    (  # any() and a loop that returns
        """
        def f(items):
            return any(item.ready for item in items)
        """,
        """
        def g(items):
            for item in items:
                if item.ready:
                    return True
            return False
        """,
    ),
    (  # all() and a loop that returns False on the negated test
        """
        def f(items, ref):
            return all(item == ref for item in items)
        """,
        """
        def g(items, ref):
            for item in items:
                if item != ref:
                    return False
            return True
        """,
    ),
    (  # sum(1 for ...) and a counting loop
        """
        def f(items):
            return sum(1 for item in items if item.ok)
        """,
        """
        def g(items):
            total = 0
            for item in items:
                if item.ok:
                    total += 1
            return total
        """,
    ),
    (  # an else branch and an early return; a conditional expression
        """
        def f(n, word):
            if n == 1:
                return word
            else:
                return plural(word)
        """,
        """
        def g(n, word):
            return word if n == 1 else plural(word)
        """,
    ),
    (  # a negated test with its branches swapped
        """
        def f(n, word):
            if n == 1:
                return word
            return plural(word)
        """,
        """
        def g(n, word):
            if n != 1:
                return plural(word)
            return word
        """,
    ),
    (  # independent guard clauses reordered, operands of `or` and `==` swapped
        """
        def f(value):
            if value is None or value == '':
                return 'empty'
            if isinstance(value, bytes):
                return 'bytes'
            return 'text'
        """,
        """
        def g(value):
            if isinstance(value, bytes):
                return 'bytes'
            if '' == value or value is None:
                return 'empty'
            return 'text'
        """,
    ),
    (  # a temporary inlined; yield from and a loop that yields
        """
        def f(items):
            cleaned = normalise(items)
            yield from cleaned
        """,
        """
        def g(items):
            for item in normalise(items):
                yield item
        """,
    ),
    (  # map() and a generator expression
        """
        def f(func, items):
            return map(func, items)
        """,
        """
        def g(func, items):
            return (func(item) for item in items)
        """,
    ),
    (  # filter() over a lambda and the comprehension
        """
        def f(items, limit):
            return filter(lambda item: item.size < limit, items)
        """,
        """
        def g(items, limit):
            return (item for item in items if item.size < limit)
        """,
    ),
    (  # `if c: continue` then the rest, and `if not c:` around the rest
        """
        def f(items, seen):
            for item in items:
                if item in seen:
                    continue
                seen.add(item)
                yield item
        """,
        """
        def g(items, seen):
            for item in items:
                if item not in seen:
                    seen.add(item)
                    yield item
        """,
    ),
    (  # `if c: a; continue` then `b`, and an if/else with the test negated
        """
        def f(items, pred):
            for item in items:
                if pred(item):
                    log(item)
                    continue
                keep(item)
        """,
        """
        def g(items, pred):
            for item in items:
                if not pred(item):
                    keep(item)
                else:
                    log(item)
        """,
    ),
    (  # an if/else that appends both ways, and a conditional element
        """
        def f(lines, prefix, key):
            out = []
            for line in lines:
                if key(line):
                    out.append(prefix + line)
                else:
                    out.append(line)
            return out
        """,
        """
        def g(lines, prefix, key):
            return [prefix + line if key(line) else line for line in lines]
        """,
    ),
    (  # a one-line inner function and a lambda
        """
        def f(items, key):
            if key is None:
                def key(x):
                    return x
            return sorted(items, key=key)
        """,
        """
        def g(items, key):
            if key is None:
                key = lambda x: x
            return sorted(items, key=key)
        """,
    ),
    (  # a loop variable unpacked in the body, and a tuple target
        """
        def f(pred, d):
            kept = {}
            for item in d.items():
                if pred(item):
                    k, v = item
                    kept[k] = v
            return kept
        """,
        """
        def g(pred, d):
            return {k: v for k, v in d.items() if pred((k, v))}
        """,
    ),
    (  # a local that only takes over a parameter
        """
        def f(coll, path, default):
            for key in path:
                try:
                    coll = coll[key]
                except KeyError:
                    return default
            return coll
        """,
        """
        def g(coll, path, default):
            node = coll
            for key in path:
                try:
                    node = node[key]
                except KeyError:
                    return default
            return node
        """,
    ),
    (  # an argument made into what is wanted by a project helper, or taken as it comes
        """
        def f(key, items):
            key = make_func(key)
            return [key(item) for item in items]
        """,
        """
        def g(key, items):
            return [key(item) for item in items]
        """,
    ),
    (  # try/else, and the code after a handler that continues
        """
        def f(check, items):
            for item in items:
                try:
                    check(item)
                except ValueError:
                    pass
                else:
                    yield item
        """,
        """
        def g(check, items):
            for item in items:
                try:
                    check(item)
                except ValueError:
                    continue
                yield item
        """,
    ),
    (  # a generator, and a list filled by append and returned at the end
        """
        def f(items, pred):
            for item in items:
                if pred(item):
                    yield item
                    log(item)
        """,
        """
        def g(items, pred):
            found = []
            for item in items:
                if pred(item):
                    found.append(item)
                    log(item)
            return found
        """,
    ),
    (  # a dict whose missing keys start at 0, and dict.get(k, 0) + 1
        """
        def f(items):
            counts = defaultdict(int)
            for item in items:
                counts[item.kind] += 1
            return dict(counts)
        """,
        """
        def g(items):
            counts = {}
            for item in items:
                counts[item.kind] = counts.get(item.kind, 0) + 1
            return counts
        """,
    ),
    (  # setdefault and a defaultdict of lists
        """
        def f(items, key):
            groups = {}
            for item in items:
                groups.setdefault(key(item), []).append(item)
            return groups
        """,
        """
        def g(items, key):
            groups = collections.defaultdict(list)
            for item in items:
                groups[key(item)].append(item)
            return dict(groups)
        """,
    ),
    (  # a conditional assignment with its test negated
        """
        def f(items, key):
            for item in items:
                marker = key(item) if key is not None else item
                emit(marker, seen.add(marker))
        """,
        """
        def g(items, key):
            for item in items:
                if key is None:
                    marker = item
                else:
                    marker = key(item)
                emit(marker, seen.add(marker))
        """,
    ),
]


@pytest.mark.parametrize(("original", "rewritten"), SAME)
def test_agents_rewrites_give_the_same_canonical_body(original: str, rewritten: str) -> None:
    assert canonical(rewritten) == canonical(original)


DIFFERENT = [
    (  # another operator
        "def f(n, word):\n    if n == 1:\n        return word\n    return plural(word)\n",
        "def g(n, word):\n    if n > 1:\n        return plural(word)\n    return word\n",
    ),
    (  # any for all
        "def f(items):\n    return any(item.ready for item in items)\n",
        "def g(items):\n    return all(item.ready for item in items)\n",
    ),
    (  # a missing branch
        "def f(v):\n    if v is None:\n        return 'none'\n    if v == '':\n        return "
        "'empty'\n    return 'text'\n",
        "def g(v):\n    if v is None:\n        return 'none'\n    return 'text'\n",
    ),
    (  # the values filtered, not the keys: both locals, at other places of the unpacked pair
        "def f(pred, d):\n    return {k: v for k, v in d.items() if pred(v)}\n",
        "def g(pred, d):\n    return {k: v for k, v in d.items() if pred(k)}\n",
    ),
]


@pytest.mark.parametrize(("original", "lookalike"), DIFFERENT)
def test_other_behaviour_gives_another_canonical_body(original: str, lookalike: str) -> None:
    assert canonical(lookalike) != canonical(original)


def test_features_are_the_evidence_a_rewrite_keeps() -> None:
    found = features(
        '''
        def f(items, key):
            """Group the items by key."""
            groups = {}
            for item in items:
                groups.setdefault(key(item), []).append(item)
            if len(groups) > LIMIT:
                raise ValueError('too many groups')
            return f(groups, key)
        '''
    )
    assert found == [
        "b:ValueError",  # a builtin: what a rewrite may add or drop on its own
        "b:len",
        "c:@a1",  # the key function passed in, called
        "c:SELF",  # recursion, whatever the function is called
        # `.setdefault`, as a defaultdict fills itself; not `.append`, as a comprehension
        "c:defaultdict",
        "d:group",
        "d:item",  # "items" and "item", stemmed
        "f:a0>.setdefault",  # the items (through the loop variable) flow into these calls...
        "f:a0>@a1",
        "f:a1>.setdefault",  # ...and the key function's result
        "f:a1>SELF",
        "k:Raise",
        "l:'too_many_groups'",  # stored space-free
        "n:LIMIT",
        "o:Ord",  # `>` and `<` are one kind: a negated test turns one into the other
        "r:c:SELF",
    ]


def test_what_is_done_in_an_exception_handler_is_told_apart() -> None:
    kept = features(
        "def f(check, items):\n    for item in items:\n        try:\n            check(item)\n    "
        "    except ValueError:\n            continue\n        yield item\n"
    )
    failed = features(
        "def g(check, items):\n    for item in items:\n        try:\n            check(item)\n    "
        "    except ValueError:\n            yield item\n"
    )
    assert "k:Yield" in kept and "k:Yield@except" in failed
    assert near_copies.swapped(set(failed), set(kept))


def test_a_replaced_step_an_added_call_or_a_dropped_recursion_is_other_behaviour() -> None:
    lower = {"c:.lower", "c:.strip", "l:'-'"}
    assert near_copies.swapped({"c:.upper", "c:.strip", "l:'-'"}, lower)
    assert not near_copies.swapped(lower | {"c:.replace"}, lower)  # a step added
    assert not near_copies.swapped(
        lower | {"l:0"}, lower - {"l:'-'"} | {"l:1"}
    )  # small numbers are incidental
    assert near_copies.dropped_work(
        {"c:.strip"}, {"c:.strip", "c:SELF"}, set()
    )  # the recursion left out
    assert near_copies.dropped_work(
        {"c:.strip", "c:reformat"}, {"c:.strip"}, set()
    )  # work the helper lacks
    # the helper's own helper inlined: its calls are in the added function, so nothing is dropped
    assert not near_copies.dropped_work({"c:.upper", "l:0"}, {"c:uppercase", "l:0"}, {"c:.upper"})


def test_the_docstring_counts_only_when_both_have_one() -> None:
    code = {"c:.strip", "c:.lower", "l:'-'"}
    assert near_copies.overlap(code, code | {"d:slug", "d:title", "d:lower"}) == 1.0
    assert near_copies.overlap(code | {"d:other"}, code | {"d:slug"}) < 1.0


def test_a_loop_that_counts_where_the_helper_collects_is_other_behaviour() -> None:
    count = canonical("def f(items, p):\n    return sum(1 for item in items if item < p)\n")
    kept = canonical("def g(items, p):\n    return filter(lambda item: item < p, items)\n")
    every = canonical(
        "def h(items, p):\n    for item in items:\n        if item >= p:\n            return "
        "False\n    return True\n"
    )
    some = canonical("def k(items, p):\n    return any(item < p for item in items)\n")
    assert near_copies.other_aggregate(count, kept) and near_copies.other_aggregate(every, some)
    assert not near_copies.other_aggregate(
        kept, kept + ["Collect"]
    )  # one more comprehension: no swap


def test_ordering_or_bounding_on_one_side_only_is_other_behaviour() -> None:
    ordered = set(features("def f(fn, xs):\n    return [y for y in sorted(map(fn, xs)) if y]\n"))
    kept = set(features("def g(fn, xs):\n    return [y for y in map(fn, xs) if y]\n"))
    assert near_copies.one_sided(kept, ordered, ordered)
    assert not near_copies.one_sided(
        kept, kept, kept | {"b:sorted"}
    )  # inlined from a helper it calls
    backwards = set(features("def h(text):\n    return ''.join(text[::-1])\n"))
    reversing = set(features("def k(text):\n    return ''.join(reversed(text))\n"))
    assert "b:reversed" in backwards and not near_copies.one_sided(backwards, reversing, reversing)
    assert near_copies.one_sided(
        backwards, set(features("def m(text):\n    return ''.join(text)\n")), set()
    )
    # an identity test left out is not enough: a copy may drop a mode (`if ending is None: return
    # ...`)
    checked = set(
        features("def n(fn, xs):\n    return [y for y in map(fn, xs) if y is not None]\n")
    )
    assert not near_copies.one_sided(kept, checked, checked)


def test_unpacking_into_positional_or_keyword_arguments_is_told_apart() -> None:
    starred = set(features("def f(func, items):\n    return [func(*item) for item in items]\n"))
    keywords = set(features("def g(func, items):\n    return [func(**item) for item in items]\n"))
    assert "k:Starred" in starred and "k:DoubleStarred" in keywords
    assert near_copies.swapped(starred, keywords)


def test_output_made_in_an_exception_handler_is_told_apart_in_a_list_too() -> None:
    skipped = features(
        "def f(fn, items):\n    out = []\n    for item in items:\n        try:\n            "
        "out.append(fn(item))\n"
        "        except ValueError:\n            pass\n    return out\n"
    )
    replaced = features(
        "def g(fn, items):\n    out = []\n    for item in items:\n        try:\n            "
        "out.append(fn(item))\n"
        "        except ValueError:\n            out.append(None)\n    return out\n"
    )
    assert "k:Yield@except" in replaced and "k:Yield@except" not in skipped
    assert near_copies.one_sided(set(replaced), set(skipped), set(skipped))


def test_flows_into_builtins_and_out_of_yields_are_evidence() -> None:
    found = features(
        "def f(iterable, value):\n    it = iter(iterable)\n    for item in it:\n        yield "
        "item\n"
    )
    assert "f:a0>iter" in found and "r:a0" in found


def test_a_test_negated_and_nothing_else_is_the_opposite_condition() -> None:
    keep = canonical(
        "def f(pred, items):\n    for x in items:\n        yield x\n        if not pred(x):\n     "
        "       break\n"
    )
    stop = canonical(
        "def g(pred, items):\n    for x in items:\n        yield x\n        if pred(x):\n         "
        "   break\n"
    )
    assert near_copies.other_condition(keep, stop) and not near_copies.other_condition(keep, keep)
    found = canonical(
        "def h(fn, xs):\n    for x in xs:\n        y = fn(x)\n        if y is not None:\n         "
        "   yield y, y\n"
    )
    missing = canonical(
        "def k(fn, xs):\n    for x in xs:\n        y = fn(x)\n        if y is None:\n            "
        "yield y, y\n"
    )
    assert near_copies.other_condition(found, missing)


def test_giving_back_what_a_function_passed_in_returns_is_a_map_not_a_filter() -> None:
    mapped = set(
        features(
            "def f(fn, xs):\n    for x in xs:\n        y = fn(x)\n        if y:\n            "
            "yield y\n"
        )
    )
    kept = set(
        features(
            "def g(fn, xs):\n    for x in xs:\n        y = fn(x)\n        if y:\n            "
            "yield x\n"
        )
    )
    assert "r:@a0" in mapped and "r:@a0" not in kept
    assert near_copies.one_sided(kept, mapped, mapped) and not near_copies.one_sided(
        mapped, mapped, mapped
    )


def test_how_many_things_come_back_is_kept_by_a_rewrite() -> None:
    three = set(
        features(
            "def f(seq, n):\n    for i in range(n):\n        yield seq[:i], seq[i:i + n], seq[i + "
            "n:]\n"
        )
    )
    two = set(
        features("def g(seq, n):\n    for i in range(n):\n        yield seq[:i], seq[i:i + n]\n")
    )
    assert "r:tuple3" in three and "r:tuple2" in two
    assert near_copies.swapped(two, three)


def test_a_comparison_made_strict_or_loose_and_nothing_else_is_another_condition() -> None:
    strict = canonical("def f(xs, n):\n    return [x for x in xs if x < n]\n")
    loose = canonical("def g(xs, n):\n    return [x for x in xs if x <= n]\n")
    mirrored = canonical("def h(xs, n):\n    return [x for x in xs if n > x]\n")
    assert near_copies.other_condition(strict, loose) and strict == mirrored
