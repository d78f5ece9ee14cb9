"""The canonical body and the features of `code.rewrites` (#35): each rewrite an agent makes gives the
same canonical tokens as the code it rewrites; a change of behaviour does not."""

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
        "def f(v):\n    if v is None:\n        return 'none'\n    if v == '':\n        return 'empty'\n    return 'text'\n",
        "def g(v):\n    if v is None:\n        return 'none'\n    return 'text'\n",
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
        "c:.setdefault",  # not `.append`: filling a collection is what a comprehension does too
        "c:@a1",  # the key function passed in, called
        "c:SELF",  # recursion, whatever the function is called
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
        "def f(check, items):\n    for item in items:\n        try:\n            check(item)\n        except ValueError:\n            continue\n        yield item\n"
    )
    failed = features(
        "def g(check, items):\n    for item in items:\n        try:\n            check(item)\n        except ValueError:\n            yield item\n"
    )
    assert "k:Yield" in kept and "k:Yield@except" in failed
    assert near_copies.swapped(set(failed), set(kept))


def test_a_replaced_step_an_added_call_or_a_dropped_recursion_is_other_behaviour() -> None:
    lower = {"c:.lower", "c:.strip", "l:'-'"}
    assert near_copies.swapped({"c:.upper", "c:.strip", "l:'-'"}, lower)
    assert not near_copies.swapped(lower | {"c:.replace"}, lower)  # a step added
    assert not near_copies.swapped(lower | {"l:0"}, lower - {"l:'-'"} | {"l:1"})  # small numbers are incidental
    assert near_copies.dropped_work({"c:.strip"}, {"c:.strip", "c:SELF"}, set())  # the recursion left out
    assert near_copies.dropped_work({"c:.strip", "c:reformat"}, {"c:.strip"}, set())  # work the helper lacks
    # the helper's own helper inlined: its calls are in the added function, so nothing is dropped
    assert not near_copies.dropped_work({"c:.upper", "l:0"}, {"c:uppercase", "l:0"}, {"c:.upper"})


def test_the_docstring_counts_only_when_both_have_one() -> None:
    code = {"c:.strip", "c:.lower", "l:'-'"}
    assert near_copies.overlap(code, code | {"d:slug", "d:title", "d:lower"}) == 1.0
    assert near_copies.overlap(code | {"d:other"}, code | {"d:slug"}) < 1.0
