"""What a Python function does, in a form the rewrites agents make leave alone (#35).

A copy an agent writes is rarely the helper's text: a comprehension becomes a loop with `append`, an
`any()` a loop that returns, an `else` an early return, a private helper is inlined, independent
branches and operands come in another order, the locals get other names. The token comparison of
`functions.best_match` sees those as different code. Here a function becomes two things that stay
put:

* `canonical(node)`: its body as tokens after undoing those rewrites: loops that collect, count or
  test (`for ... append/yield/add`, `total += 1`, `if ...: return True`) and the comprehensions,
  `sum()`, `any()`/`all()` they stand for give the same tokens; an `if` whose branch ends in a
  return keeps no `else`; a negated test with two short branches is made positive (branches
  swapped); a conditional expression is an `if`; runs of guard clauses and the operands of
  `and`/`or`/`==`/`is` are sorted; parameters are `a0, a1...` by position, every other local is `v`.
* `features(node)`: evidence that survives any of those rewrites: the names called and read from
  outside (`c:len`, `c:.strip`, `n:_IRR_S2P`), the constants (`l:'th'`), the operators with
  negations folded (`o:Eq` for `!=` too, `o:Lt` for `>` too), which parameter flows into which call
  (`f:a1>c:getter`), what is returned (`r:c:_match_case`, `r:l:True`), and the docstring's words
  (`d:plural`).

Both are strings of space-free tokens, stored in the function index by the background build and
compared by `code.near_copies` (which knows nothing of Python): a hook never normalises the index,
only the one function just added. Only the C `_ast` module is used (the `ast` module costs a hook ~3
ms).
"""

from __future__ import annotations

import _ast
import builtins

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast

    Function = ast.FunctionDef | ast.AsyncFunctionDef

KINDS = {"YieldFrom": "Yield"}
FILLERS = frozenset(
    {"append", "add", "extend", "insert"}
)  # fill a collection: a comprehension's loop
TESTS = frozenset({"any", "all", "bool", "isinstance", "callable", "hasattr", "issubclass"})
SWAPPED_KINDS = ()  # what a statement does that no rewrite takes away: try, raise, yield...
MAX_STRING = 24  # string constants are cut here, as in the token body
ENDS = (_ast.Return, _ast.Raise, _ast.Continue, _ast.Break)
NEGATED = {_ast.NotEq: "Eq", _ast.IsNot: "Is", _ast.NotIn: "In"}
MIRRORED = {_ast.Gt: "Lt", _ast.GtE: "LtE"}  # `a > b` is `b < a`
# As evidence, an order comparison is one kind: `if n < x: continue` is `if x <= n:` once negated
ORDERS = {_ast.Lt: "Ord", _ast.LtE: "Ord", _ast.Gt: "Ord", _ast.GtE: "Ord"}
COMMUTATIVE = (_ast.Mult, _ast.BitAnd, _ast.BitOr, _ast.BitXor)
COLLECTORS = frozenset({"append", "add"})
# Builtins whose argument says where the work starts (a rewrite keeps it): `iter(xs)`, `sorted(xs)`
FLOWING = frozenset(
    {"iter", "sorted", "reversed", "set", "frozenset", "dict", "list", "tuple", "enumerate", "zip"}
)
EMPTY = frozenset({"list", "set", "dict", "tuple"})
DEFAULTING = frozenset({"defaultdict", "Counter"})  # dicts whose missing keys start empty
# What a dict that fills itself is made with, as evidence: `defaultdict(list)` then `d[k].append(v)`
# is `d.setdefault(k, []).append(v)`
ALIASES = {
    "c:.setdefault": "c:defaultdict",
    "c:.defaultdict": "c:defaultdict",
    "c:Counter": "c:defaultdict",
}


def constant(value: object) -> str:
    text = repr(value[:MAX_STRING] if isinstance(value, str) else value)
    return "_".join(text.split())  # tokens are stored space-separated: none may hold a space


class Normaliser:
    """Tokens of one function's canonical body (see the module docstring)."""

    def __init__(self, node: Function) -> None:
        self.name = node.name
        self.params = parameters(node)
        nodes = walk(node.body)  # once: every fact below is read from this list
        renamed, renaming = aliases(nodes, self.params)
        self.params.update(renamed)
        local = set(self.params) | assigned(nodes)
        # `key = getter(key)`: an argument taken as it comes or made into what is wanted
        renaming |= {
            id(sub)
            for sub in nodes
            if isinstance(sub, _ast.Assign) and coercion(sub, self.params, local)
        }
        self.local = set(self.params) | assigned(nodes)
        self.inline = temporaries(nodes, set(self.params))
        self.pending: dict[
            str, list[str]
        ] = {}  # accumulators filled by a loop: their comprehension
        self.reads: dict[str, int] = {}
        for sub in nodes:
            if isinstance(sub, _ast.Name) and isinstance(sub.ctx, _ast.Load):
                self.reads[sub.id] = self.reads.get(sub.id, 0) + 1
        self.parts, self.unpacked, self.skipped = unpacking(nodes)
        self.emitters, emitting = emitters(node.body, nodes)
        self.last = id(node.body[-1])
        self.skipped |= emitting  # `found = []` ... `return found`: a generator's yields
        self.skipped |= renaming  # `node = root`: nothing left to say once `node` is `root`
        self.out: list[str] = []

    # -- statements ----------------------------------------------------------------------------

    def block(self, statements: list[ast.stmt]) -> None:
        statements = self.flatten(list(statements))
        index = 0
        while index < len(statements):
            statement = statements[index]
            rest = statements[index + 1 :]
            if self.test_loop(statement, rest):
                index += 2
                continue
            if self.accumulated(statement, rest):
                index += 2
                continue
            if guard(statement):  # a run of guard clauses: independent, so their order says nothing
                run = [statement]
                while index + len(run) < len(statements) and guard(statements[index + len(run)]):
                    run.append(statements[index + len(run)])
                parts = []
                for item in run:
                    parts.append(self.capture(lambda item=item: self.statement(item)))
                for part in sorted(parts):
                    self.out.extend(part)
                index += len(run)
                continue
            self.statement(statement)
            index += 1

    def flatten(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        """Early returns for `else` branches; a conditional expression as an `if`; a negated test
        with two short branches made positive."""
        result: list[ast.stmt] = []
        for index, statement in enumerate(statements):
            rest = statements[index + 1 :]
            if isinstance(statement, _ast.Return) and isinstance(statement.value, _ast.IfExp):
                value = statement.value
                branch = _ast.If(test=value.test, body=[_ast.Return(value=value.body)], orelse=[])
                return result + self.flatten([branch, _ast.Return(value=value.orelse), *rest])
            if (
                isinstance(statement, _ast.Try)
                and rest
                and not statement.finalbody
                and all(ends(handler.body) for handler in statement.handlers)
            ):  # `try: a / except: return x` then `b` is `try: a; b / except: return x`
                body = [*statement.body, *statement.orelse, *rest]
                moved = _ast.Try(body=body, handlers=statement.handlers, orelse=[], finalbody=[])
                return result + [moved]
            if isinstance(statement, _ast.If):
                body, orelse = statement.body, statement.orelse
                if ends(body) and orelse:
                    branch = _ast.If(test=statement.test, body=body, orelse=[])
                    return result + self.flatten([branch, *orelse, *rest])
                if (
                    negative(statement.test)
                    and not orelse
                    and ends(body)
                    and one_statement(rest)
                    and ends(rest)
                ):
                    return result + [
                        _ast.If(test=positive(statement.test), body=rest, orelse=[]),
                        *body,
                    ]
                if negative(statement.test) and orelse and not ends(body):
                    swapped = _ast.If(test=positive(statement.test), body=orelse, orelse=body)
                    if ends(orelse) and not negative(
                        swapped.test
                    ):  # now an early exit: flattened as one
                        return result + self.flatten([swapped, *rest])
                    result.append(swapped)
                    continue
            result.append(statement)
        return result

    def statement(self, node: ast.stmt) -> None:
        out = self.out
        if id(node) in self.skipped:
            return  # the unpacking of a loop variable: written in the loop's target
        node = increment(node)
        if id(node) == self.last and isinstance(node, _ast.Return) and sequence(node.value):
            self.any(node.value)  # `return [f(x) for x in xs]` at the end: what a generator yields
            return
        if self.emitters and isinstance(node, _ast.Expr) and collector_of(node) in self.emitters:
            kind, element = collected(node)
            if kind == "Collect":
                node = _ast.Expr(value=_ast.Yield(value=element[0]))  # `found.append(x)`: `yield x`
        if isinstance(node, _ast.If):
            out.append("If")
            self.expr(node.test)
            self.block(node.body)
            if node.orelse:
                out.append("Else")
                self.block(node.orelse)
            out.append("End")
        elif isinstance(node, (_ast.For, _ast.AsyncFor)):
            if not self.collecting_loop(node):
                out.append("For")
                self.expr(node.target)
                self.expr(node.iter)
                self.block(loop_body(node.body, self.skipped))
                if node.orelse:
                    out.append("Else")
                    self.block(node.orelse)
                out.append("End")
        elif (
            isinstance(node, _ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], _ast.Name)
            and node.targets[0].id in self.inline
        ):
            return  # a temporary used once: its value is written where it is read
        elif isinstance(node, _ast.AugAssign) and isinstance(node.target, _ast.Name):
            out += [
                "Assign",
                "v" if node.target.id not in self.params else self.params[node.target.id],
                "BinOp",
            ]
            self.any(node.target)
            out.append(type(node.op).__name__)
            self.any(node.value)
        elif isinstance(node, _ast.Assign) and empty(node.value):
            out.append("Init")  # `found = []`: what a comprehension does not need
        elif (
            isinstance(node, _ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.value, _ast.IfExp)
        ):
            value = node.value
            target = node.targets[0]
            self.block(
                [
                    _ast.If(
                        test=value.test,
                        body=[_ast.Assign(targets=[target], value=value.body)],
                        orelse=[_ast.Assign(targets=[target], value=value.orelse)],
                    )
                ]
            )
        elif (
            isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef))
            and len(body_of(node)) == 1
            and isinstance(body_of(node)[0], _ast.Return)
        ):  # `def key(x): return x.name` is `key = lambda x: x.name`
            returned = body_of(node)[0]
            assert isinstance(returned, _ast.Return)
            out.append("Assign")
            self.any(_ast.Name(id=node.name, ctx=_ast.Store()))
            out.append("Lambda")
            self.any(node.args)
            self.any(returned.value)
        elif isinstance(node, _ast.Try) and (
            node.orelse or any(skips(h.body) for h in node.handlers)
        ):
            # `try: a / except: pass / else: b` is `try: a; b / except: pass`; in a loop, a handler
            # that ends in `continue` skips the same rest as one that passes
            handlers = [
                _ast.ExceptHandler(
                    type=h.type,
                    name=h.name,
                    body=[*h.body[:-1], _ast.Pass()] if skips(h.body) else h.body,
                )
                for h in node.handlers
            ]
            self.statement(
                _ast.Try(
                    body=[*node.body, *node.orelse],
                    handlers=handlers,
                    orelse=[],
                    finalbody=node.finalbody,
                )
            )
        elif isinstance(node, _ast.Expr) and isinstance(node.value, _ast.YieldFrom):
            out += ["Collect", "For", "v"]
            self.expr(node.value.value)
            out += ["Elt", "v"]
        else:
            out.append(type(node).__name__)
            for field in node._fields:
                part = getattr(node, field, None)
                if isinstance(part, list) and part and isinstance(part[0], _ast.stmt):
                    self.block(part)
                elif field != "type_comment":
                    self.any(part)

    def collecting_loop(self, node: ast.For | ast.AsyncFor) -> bool:
        """`for x in xs: [if c:] found.append(e) / yield e / d[k] = e / n += 1` as the
        comprehension, dict comprehension or `sum(1 for ...)` it stands for."""
        body = loop_body(node.body, self.skipped)
        test: ast.expr | None = None
        if (
            len(body) == 1
            and isinstance(body[0], _ast.If)
            and not body[0].orelse
            and len(body[0].body) == 1
        ):
            test, body = body[0].test, body[0].body
        if len(body) != 1 or node.orelse:
            return False
        kind, element = collected(body[0])
        if not kind:
            return False
        self.comprehension(kind, node.target, node.iter, test, element)
        return True

    def accumulated(self, node: ast.stmt, rest: list[ast.stmt]) -> bool:
        """`found = []` then a loop that appends to `found`: the comprehension, written where
        `found` is next read (`return found` is `return [... for ...]`); likewise a count from `n =
        0`."""
        if not (
            isinstance(node, _ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], _ast.Name)
            and empty(node.value)
            and rest
            and isinstance(rest[0], (_ast.For, _ast.AsyncFor))
        ):
            return False
        name = node.targets[0].id
        loop = rest[0]
        if name in self.emitters or collector(loop, self.skipped) != name:
            return False
        tokens = self.capture(lambda: self.collecting_loop(loop))
        if not tokens:
            return False
        inside = sum(1 for sub in walk(loop) if isinstance(sub, _ast.Name) and sub.id == name)
        if (
            self.reads.get(name, 0) - inside <= 1
        ):  # read once after the loop: where the comprehension goes
            self.pending[name] = tokens
        else:  # read again and again: kept as the local the comprehension is assigned to
            self.out += ["Assign", "v", *tokens]
        return True

    def comprehension(
        self,
        kind: str,
        target: ast.expr,
        source: ast.expr,
        test: ast.expr | None,
        element: list[ast.expr],
    ) -> None:
        self.out += [kind, "For"]
        self.expr(target)
        self.expr(source)
        if test is not None:
            self.out.append("If")
            self.expr(test)
        self.out.append("Elt")
        for item in element:
            self.expr(item)

    def test_loop(self, node: ast.stmt, rest: list[ast.stmt]) -> bool:
        """`for x in xs: if c: return True` then `return False`: `return any(c for x in xs)` (and
        all)."""
        parts = tested(node, rest)
        if parts is None:
            return False
        kind, test = parts
        assert isinstance(node, _ast.For)
        self.out.append("Return")
        self.comprehension(kind, node.target, node.iter, None, [test])
        return True

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, node: object) -> None:
        self.any(node)

    def any(self, node: object) -> None:
        out = self.out
        if isinstance(node, list):
            for item in node:
                self.any(item)
        elif isinstance(node, _ast.Name):
            if isinstance(node.ctx, _ast.Load) and node.id in self.pending:
                out.extend(self.pending.pop(node.id))
                return
            if isinstance(node.ctx, _ast.Load) and node.id in self.inline:
                value = self.inline.pop(node.id)  # once: a temporary is read once
                self.any(value)
                self.inline[node.id] = value
                return
            if (
                node.id in self.unpacked
            ):  # `for item in d.items(): k, v = item`: the loop over `k, v`
                self.any(_ast.Tuple(elts=self.unpacked[node.id], ctx=node.ctx))
                return
            if node.id == self.name:
                out.append("SELF")
            elif node.id in self.params:
                out.append(self.params[node.id])
            elif node.id in self.parts:
                out.append(self.parts[node.id])
            else:
                out.append(
                    "v" if node.id in self.local else node.id
                )  # one name for every local: a rename or a reorder keeps it
        elif isinstance(node, _ast.Constant):
            out.append(constant(node.value))
        elif isinstance(node, _ast.Attribute):
            self.any(node.value)
            out.append("." + node.attr)
        elif isinstance(node, _ast.arg):
            out.append(self.params.get(node.arg, "v"))
        elif isinstance(node, (_ast.ListComp, _ast.SetComp, _ast.GeneratorExp, _ast.DictComp)):
            self.generators(node)
        elif isinstance(node, _ast.Call) and self.folded_call(node):
            return
        elif isinstance(node, _ast.Call) and conversion(node, self.local):
            self.any(node.args[0])  # `return dict(counts)` is `return counts`
        elif (
            isinstance(node, _ast.Call)
            and isinstance(node.func, _ast.Attribute)
            and node.func.attr == "setdefault"
            and len(node.args) == 2
        ):  # `d.setdefault(k, [])` is the `d[k]` of a dict whose missing keys start empty
            self.any(_ast.Subscript(value=node.func.value, slice=node.args[0], ctx=_ast.Load()))
        elif isinstance(node, _ast.BoolOp):
            out += ["BoolOp", type(node.op).__name__]
            for part in sorted(
                self.capture(lambda value=value: self.any(value)) for value in node.values
            ):
                out.extend(part)
        elif (
            isinstance(node, _ast.Compare)
            and len(node.ops) == 1
            and type(node.ops[0]) in (_ast.Eq, _ast.NotEq, _ast.Is, _ast.IsNot)
        ):
            out += ["Compare", type(node.ops[0]).__name__]
            sides = sorted(
                (
                    self.capture(lambda: self.any(node.left)),
                    self.capture(lambda: self.any(node.comparators[0])),
                )
            )
            out.extend(sides[0] + sides[1])
        elif (
            isinstance(node, _ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in MIRRORED
        ):
            out += ["Compare", MIRRORED[type(node.ops[0])]]
            self.any(node.comparators[0])
            self.any(node.left)
        elif (
            isinstance(node, _ast.Compare)
            and len(node.ops) == 1
            and type(node.ops[0]) in (_ast.Lt, _ast.LtE)
        ):
            out += [
                "Compare",
                type(node.ops[0]).__name__,
            ]  # as a mirrored `>` is written: `n > x` is `x < n`
            self.any(node.left)
            self.any(node.comparators[0])
        elif isinstance(node, _ast.BinOp) and isinstance(node.op, COMMUTATIVE):
            out += ["BinOp", type(node.op).__name__]
            for part in sorted(
                (
                    self.capture(lambda: self.any(node.left)),
                    self.capture(lambda: self.any(node.right)),
                )
            ):
                out.extend(part)
        elif isinstance(node, _ast.ExceptHandler):
            out.append("ExceptHandler")
            self.any(node.type)
            self.block(node.body)  # normalised as any block is
        elif isinstance(node, _ast.IfExp):
            out.append("If")
            self.any(node.test)
            self.any(node.body)
            out.append("Else")
            self.any(node.orelse)
            out.append("End")
        elif isinstance(node, _ast.AST) and not isinstance(
            node, (_ast.expr_context, _ast.operator, _ast.cmpop, _ast.boolop, _ast.unaryop)
        ):
            out.append(type(node).__name__)
            for field in node._fields:
                attribute = getattr(node, field, None)
                if isinstance(attribute, str):
                    out.append(attribute)
                elif field != "type_comment":
                    self.any(attribute)
        elif isinstance(node, _ast.AST):
            out.append(type(node).__name__)

    def generators(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
    ) -> None:
        kind = "Collect"
        element: list[ast.expr] = (
            [node.key, node.value] if isinstance(node, _ast.DictComp) else [node.elt]
        )
        first = node.generators[0]
        test: ast.expr | None = None
        if len(first.ifs) == 1:
            test = first.ifs[0]
        elif first.ifs:
            test = _ast.BoolOp(op=_ast.And(), values=list(first.ifs))
        self.comprehension(kind, first.target, first.iter, test, element)
        for extra in node.generators[1:]:
            self.out.append("For")
            self.any(extra.target)
            self.any(extra.iter)
            self.any(extra.ifs)

    def folded_call(self, node: ast.Call) -> bool:
        """`any(...)`, `all(...)`, `sum(1 for ...)` over a generator: the loop tokens they stand
        for; `map(f, xs)` and `filter(f, xs)`: the comprehensions they stand for."""
        func = node.func
        if (
            isinstance(func, _ast.Name)
            and func.id in ("map", "filter")
            and func.id not in self.local
            and len(node.args) == 2
            and not node.keywords
        ):
            item = _ast.Name(
                id="_item_", ctx=_ast.Load()
            )  # the loop variable the comprehension would have
            self.local.add(item.id)
            call: ast.expr = _ast.Call(func=node.args[0], args=[item], keywords=[])
            function = node.args[0]
            if (
                isinstance(function, _ast.Lambda)
                and len(function.args.args) == 1
                and not function.args.vararg
            ):
                item = _ast.Name(
                    id=function.args.args[0].arg, ctx=_ast.Load()
                )  # `lambda x: x.y`: `x.y`
                call = function.body
            if func.id == "map":
                self.comprehension("Collect", item, node.args[1], None, [call])
            else:
                self.comprehension("Collect", item, node.args[1], call, [item])
            return True
        if not (isinstance(func, _ast.Name) and len(node.args) == 1 and not node.keywords):
            return False
        argument = node.args[0]
        if (
            not isinstance(argument, (_ast.GeneratorExp, _ast.ListComp))
            or len(argument.generators) != 1
        ):
            return False
        first = argument.generators[0]
        test = first.ifs[0] if len(first.ifs) == 1 else None
        if len(first.ifs) > 1:
            return False
        if func.id in ("any", "all") and func.id not in self.local:
            self.comprehension(func.id.title(), first.target, first.iter, test, [argument.elt])
            return True
        if func.id == "sum" and isinstance(argument.elt, _ast.Constant) and argument.elt.value == 1:
            self.comprehension("Count", first.target, first.iter, test, [])
            return True
        return False

    def capture(self, emit: object) -> list[str]:
        saved, self.out = self.out, []
        try:
            emit()  # type: ignore[operator]
            return self.out
        finally:
            self.out = saved


def tested(node: ast.stmt, rest: list[ast.stmt]) -> tuple[str, ast.expr] | None:
    """("Any", test) for `for x in xs: if test: return True` then `return False`; ("All", ...) for
    the loop that returns False; else None."""
    if not (isinstance(node, _ast.For) and len(node.body) == 1 and rest and not node.orelse):
        return None
    inner, last = node.body[0], rest[0]
    if not (isinstance(inner, _ast.If) and not inner.orelse and len(inner.body) == 1):
        return None
    found = inner.body[0]
    if not (isinstance(found, _ast.Return) and isinstance(last, _ast.Return)):
        return None
    if not (isinstance(found.value, _ast.Constant) and isinstance(last.value, _ast.Constant)):
        return None
    if found.value.value is True and last.value.value is False:
        return "Any", inner.test
    if found.value.value is False and last.value.value is True:
        return "All", negate(inner.test)
    return None


def loop_body(body: list[ast.stmt], skipped: set[int] | None = None) -> list[ast.stmt]:
    """A loop body with `if c: continue` then the rest written `if not c: rest`: the same loop;
    without the `skipped` statements (a loop variable's unpacking), in the body or in an `if` of the
    body."""
    if skipped:
        body = [
            _ast.If(test=s.test, body=[b for b in s.body if id(b) not in skipped], orelse=s.orelse)
            if isinstance(s, _ast.If) and any(id(b) in skipped for b in s.body)
            else s
            for s in body
            if id(s) not in skipped
        ]
    for index, statement in enumerate(body):
        if (
            isinstance(statement, _ast.If)
            and not statement.orelse
            and statement.body
            and isinstance(statement.body[-1], _ast.Continue)
            and index + 1 < len(body)
        ):
            rest = loop_body(body[index + 1 :])
            if len(statement.body) == 1:
                return [*body[:index], _ast.If(test=negate(statement.test), body=rest, orelse=[])]
            # `if c: a; continue` then `b`: `if c: a else: b`
            return [
                *body[:index],
                _ast.If(test=statement.test, body=statement.body[:-1], orelse=rest),
            ]
    return body


def aliases(nodes: list[ast.AST], params: dict[str, str]) -> tuple[dict[str, str], set[int]]:
    """Locals that only take over a parameter (`node = root` then only `node` is used): the
    parameter, as a copy that walks `root` itself would write it."""
    loads: dict[str, int] = {}
    stores: dict[str, int] = {}
    for node in nodes:
        if isinstance(node, _ast.Name):
            counts = loads if isinstance(node.ctx, _ast.Load) else stores
            counts[node.id] = counts.get(node.id, 0) + 1
    found: dict[str, str] = {}
    assignments: set[int] = set()
    for node in nodes:
        if (
            isinstance(node, _ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], _ast.Name)
            and isinstance(node.value, _ast.Name)
            and node.value.id in params
            and node.targets[0].id not in params
            and loads.get(node.value.id) == 1
            and not stores.get(node.value.id)
        ):
            found[node.targets[0].id] = params[node.value.id]
            assignments.add(id(node))
    return found, assignments


def unpacking(nodes: list[ast.AST]) -> tuple[dict[str, str], dict[str, list[ast.expr]], set[int]]:
    """Facts about tuples among `nodes` (a walked body): which locals are which element of an
    unpacked tuple (`k, v` of `for k, v in d.items()` are `t0`, `t1`: a body that uses `v` is not
    one that uses `k`, though both are locals); which loop variables are unpacked by an assignment
    (`item` of `for item in xs: k, v = item`, written as the loop over `k, v`), and those
    assignments."""
    parts: dict[str, str] = {}
    unpacked: dict[str, list[ast.expr]] = {}
    skipped: set[int] = set()
    looped: set[str] = set()
    targets: list[ast.expr] = []
    for node in nodes:
        if isinstance(node, (_ast.For, _ast.AsyncFor, _ast.comprehension)):
            targets.append(node.target)
            if isinstance(node.target, _ast.Name):
                looped.add(node.target.id)
        elif isinstance(node, _ast.Assign) and len(node.targets) == 1:
            targets.append(node.targets[0])
    for node in nodes:
        if (
            isinstance(node, _ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], _ast.Tuple)
            and isinstance(node.value, _ast.Name)
            and node.value.id in looped
            and node.value.id not in unpacked
            and all(isinstance(element, _ast.Name) for element in node.targets[0].elts)
        ):
            unpacked[node.value.id] = node.targets[0].elts
            skipped.add(id(node))
    for target in targets:
        if isinstance(target, _ast.Tuple):
            for position, element in enumerate(target.elts):
                if isinstance(element, _ast.Name):
                    parts.setdefault(element.id, f"t{position}")
    return parts, unpacked, skipped


def one_statement(rest: list[ast.stmt]) -> bool:
    """A single statement, counting a loop that returns and its final return (`any()`) as one."""
    return len(rest) == 1 or (len(rest) == 2 and tested(rest[0], rest[1:]) is not None)


def temporaries(nodes: list[ast.AST], params: set[str]) -> dict[str, ast.expr]:
    """Locals assigned once (`name = value`) and read once, among `nodes` (a walked body): an agent
    inlines them or introduces them at will, so their value is written where they are read."""
    stores: dict[str, int] = {}
    loads: dict[str, int] = {}
    values: dict[str, ast.expr] = {}
    for node in nodes:
        if isinstance(node, _ast.Name):
            counts = stores if isinstance(node.ctx, _ast.Store) else loads
            counts[node.id] = counts.get(node.id, 0) + 1
        elif (
            isinstance(node, _ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], _ast.Name)
        ):
            values[node.targets[0].id] = node.value
        elif isinstance(node, (_ast.For, _ast.AsyncFor, _ast.While, _ast.comprehension)):
            for name in walk(node.target if not isinstance(node, _ast.While) else []):
                if isinstance(name, _ast.Name):
                    stores[name.id] = stores.get(name.id, 0) + 2  # a loop variable is no temporary
    return {
        name: value
        for name, value in values.items()
        if name not in params
        and stores.get(name) == 1
        and loads.get(name) == 1
        and not empty(value)
    }


def collector(loop: ast.For | ast.AsyncFor, skipped: set[int]) -> str:
    """The local a collecting loop fills (`found` of `found.append(x)`, `d` of `d[k] = v`, `n` of
    `n += 1`), or ""."""
    body = loop_body(loop.body, skipped)
    if (
        len(body) == 1
        and isinstance(body[0], _ast.If)
        and len(body[0].body) == 1
        and not body[0].orelse
    ):
        body = body[0].body
    if len(body) != 1:
        return ""
    statement = body[0]
    if isinstance(statement, _ast.If) and len(statement.body) == len(statement.orelse) == 1:
        filled = {collector_of(statement.body[0]), collector_of(statement.orelse[0])}
        return filled.pop() if len(filled) == 1 else ""
    return collector_of(statement)


def collector_of(statement: ast.stmt) -> str:
    """The local one statement fills (`found.append(x)`, `d[k] = v`, `n += 1`, `d[k] += 1`), or
    ""."""
    statement = increment(statement)
    target: ast.expr | None = None
    if isinstance(statement, _ast.Expr) and isinstance(statement.value, _ast.Call):
        func = statement.value.func
        target = func.value if isinstance(func, _ast.Attribute) else None
    elif (
        isinstance(statement, _ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], _ast.Subscript)
    ):
        target = statement.targets[0].value
    elif isinstance(statement, _ast.AugAssign):
        target = (
            statement.target.value
            if isinstance(statement.target, _ast.Subscript)
            else statement.target
        )
    return target.id if isinstance(target, _ast.Name) else ""


def increment(statement: ast.stmt) -> ast.stmt:
    """`d[k] = d.get(k, 0) + 1` as the `d[k] += 1` of a dict whose missing keys start at 0."""
    if not (isinstance(statement, _ast.Assign) and len(statement.targets) == 1):
        return statement
    target, value = statement.targets[0], statement.value
    if not (
        isinstance(target, _ast.Subscript)
        and isinstance(target.value, _ast.Name)
        and isinstance(value, _ast.BinOp)
        and isinstance(value.op, _ast.Add)
        and isinstance(value.left, _ast.Call)
        and isinstance(value.left.func, _ast.Attribute)
        and value.left.func.attr == "get"
        and isinstance(value.left.func.value, _ast.Name)
        and value.left.func.value.id == target.value.id
        and len(value.left.args) == 2
        and isinstance(value.left.args[1], _ast.Constant)
        and value.left.args[1].value == 0
    ):
        return statement
    return _ast.AugAssign(target=target, op=_ast.Add(), value=value.right)


def collected(statement: ast.stmt) -> tuple[str, list[ast.expr]]:
    """What one loop-body statement collects: ("Collect", [element]) for `xs.append(e)`,
    `xs.add(e)`, `yield e`; ("Collect", [key, value]) for `d[k] = e`; ("Count", []) for `n += 1`;
    ("", []). `if c: xs.append(a) else: xs.append(b)` collects `a if c else b`."""
    statement = increment(statement)
    if isinstance(statement, _ast.If) and len(statement.body) == len(statement.orelse) == 1:
        kind, then = collected(statement.body[0])
        other_kind, otherwise = collected(statement.orelse[0])
        if kind == other_kind == "Collect" and len(then) == len(otherwise) == 1:
            return kind, [_ast.IfExp(test=statement.test, body=then[0], orelse=otherwise[0])]
        return "", []
    if isinstance(statement, _ast.Expr):
        value = statement.value
        if isinstance(value, _ast.Yield) and value.value is not None:
            return "Collect", [value.value]
        if (
            isinstance(value, _ast.Call)
            and isinstance(value.func, _ast.Attribute)
            and value.func.attr in COLLECTORS
            and len(value.args) == 1
        ):
            return "Collect", [value.args[0]]
    if isinstance(statement, _ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, _ast.Subscript):
            return "Collect", [target.slice, statement.value]
    if (
        isinstance(statement, _ast.AugAssign)
        and isinstance(statement.op, _ast.Add)
        and isinstance(statement.value, _ast.Constant)
        and statement.value.value == 1
    ):
        return "Count", []
    return "", []


def parameters(node: Function) -> dict[str, str]:
    """Parameter name -> `a0`, `a1`... by position (positional, *args, keyword-only, **kwargs)."""
    args = node.args
    params = [*args.posonlyargs, *args.args]
    if args.vararg:
        params.append(args.vararg)
    params += args.kwonlyargs
    if args.kwarg:
        params.append(args.kwarg)
    return {a.arg: f"a{i}" for i, a in enumerate(params)}


def assigned(nodes: list[ast.AST]) -> set[str]:
    """The local names bound among `nodes` (a walked body)."""
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, _ast.Name) and isinstance(node.ctx, _ast.Store):
            names.add(node.id)
        elif isinstance(node, _ast.arg):
            names.add(node.arg)
        elif isinstance(node, _ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (_ast.Import, _ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def walk(root: object) -> list[ast.AST]:
    found: list[ast.AST] = []
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, _ast.AST):
            found.append(item)
            stack.extend(reversed([getattr(item, field, None) for field in item._fields]))
    return found


def ends(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ENDS)


def guard(statement: ast.stmt) -> bool:
    return isinstance(statement, _ast.If) and not statement.orelse and ends(statement.body)


def negative(test: ast.expr) -> bool:
    if isinstance(test, _ast.UnaryOp) and isinstance(test.op, _ast.Not):
        return True
    return isinstance(test, _ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in NEGATED


def positive(test: ast.expr) -> ast.expr:
    """The test without its negation (`not x` -> `x`, `a != b` -> `a == b`)."""
    if isinstance(test, _ast.UnaryOp) and isinstance(test.op, _ast.Not):
        return test.operand
    if isinstance(test, _ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in NEGATED:
        flipped = {_ast.NotEq: _ast.Eq, _ast.IsNot: _ast.Is, _ast.NotIn: _ast.In}[type(test.ops[0])]
        return _ast.Compare(left=test.left, ops=[flipped()], comparators=test.comparators)
    return test


def negate(test: ast.expr) -> ast.expr:
    if negative(test):
        return positive(test)
    if (
        isinstance(test, _ast.Compare)
        and len(test.ops) == 1
        and type(test.ops[0]) in (_ast.Eq, _ast.Is, _ast.In)
    ):
        flipped = {_ast.Eq: _ast.NotEq, _ast.Is: _ast.IsNot, _ast.In: _ast.NotIn}[type(test.ops[0])]
        return _ast.Compare(left=test.left, ops=[flipped()], comparators=test.comparators)
    return _ast.UnaryOp(op=_ast.Not(), operand=test)


def empty(value: ast.expr) -> bool:
    """`[]`, `{}`, `set()`, `0`: the start of a collecting or counting loop."""
    if isinstance(value, (_ast.List, _ast.Dict, _ast.Set, _ast.Tuple)):
        return not (value.keys if isinstance(value, _ast.Dict) else value.elts)
    if isinstance(value, _ast.Constant):
        return value.value == 0 and not isinstance(value.value, bool)
    if not isinstance(value, _ast.Call) or value.keywords:
        return False
    func = value.func
    name = (
        func.id
        if isinstance(func, _ast.Name)
        else func.attr
        if isinstance(func, _ast.Attribute)
        else ""
    )
    if name in DEFAULTING:  # `defaultdict(list)`: an empty dict that fills itself
        return len(value.args) <= 1
    return isinstance(func, _ast.Name) and name in EMPTY and not value.args


def canonical(node: Function) -> list[str]:
    """The canonical body tokens of a function (docstring dropped)."""
    normaliser = Normaliser(node)
    normaliser.block(body_of(node))
    return normaliser.out


def body_of(node: Function) -> list[ast.stmt]:
    body = list(node.body)
    if (
        body
        and isinstance(body[0], _ast.Expr)
        and isinstance(body[0].value, _ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        return body[1:]
    return body


def docstring(node: Function) -> str:
    body = node.body
    if body and isinstance(body[0], _ast.Expr) and isinstance(body[0].value, _ast.Constant):
        value = body[0].value.value
        return value if isinstance(value, str) else ""
    return ""


def call_name(func: ast.expr, local: set[str]) -> str:
    if isinstance(func, _ast.Name):
        return "" if func.id in local else func.id
    if isinstance(func, _ast.Attribute):
        return "." + func.attr
    return ""


def features(node: Function) -> list[str]:
    """Rewrite-proof evidence of what a function does (see the module docstring), sorted,
    deduplicated."""
    params = parameters(node)
    nodes = walk(body_of(node))
    local = set(params) | assigned(nodes)
    found: set[str] = set()
    sources: dict[str, set[str]] = {name: {position} for name, position in params.items()}
    called = {id(sub.func) for sub in nodes if isinstance(sub, _ast.Call)}
    # what happens when an exception is caught (`yield item` there, or after the `try`) is behaviour
    handled = {
        id(sub)
        for handler in nodes
        if isinstance(handler, _ast.ExceptHandler)
        for sub in walk(handler.body)
    }
    output = emitters(body_of(node), nodes)[
        0
    ]  # the list returned at the end: what a generator yields
    for sub in nodes:
        if isinstance(sub, _ast.Call) and conversion(sub, local):
            continue  # `dict(counts)` of a local: the same items handed back in another container
        if isinstance(sub, _ast.Call):
            name = call_name(sub.func, local)
            name = "SELF" if name == node.name else name  # recursion, whatever the copy is called
            if not name and isinstance(sub.func, _ast.Name) and sub.func.id in params:
                name = "@" + params[sub.func.id]  # a function passed in, called: `func(item)`
            elif (
                not name
                and isinstance(sub.func, _ast.Name)
                and len(sources.get(sub.func.id, ())) == 1
            ):
                name = "@" + next(iter(sources[sub.func.id]))  # through a local: `key_func = key`
            arguments = [*sub.args, *(k.value for k in sub.keywords)]
            func = sub.func
            if any(isinstance(argument, _ast.Starred) for argument in sub.args):
                found.add("k:Starred")  # `func(*item)` is not `func(**item)`
            if any(keyword.arg is None for keyword in sub.keywords):
                found.add("k:DoubleStarred")
            if isinstance(func, _ast.Attribute) and func.attr in FILLERS:
                filled = func.value.id if isinstance(func.value, _ast.Name) else ""
                if id(sub) in handled and filled in output:
                    found.add(
                        "k:Yield@except"
                    )  # output made when an exception is caught, as by a yield
                for argument in arguments:  # `found.append(x)`: found now holds what x is made from
                    if filled:
                        sources.setdefault(filled, set()).update(origins(argument, sources))
            elif name and hasattr(builtins, name):
                found.add(
                    "b:" + name
                )  # `len`, `any`, `map`, `sorted`: what a rewrite adds or removes
                if (
                    name in FLOWING
                ):  # `iter(xs)`, `sorted(xs)`: which parameter the work starts from
                    for argument in arguments:
                        for origin in inputs(argument, sources):
                            found.add(f"f:{origin}>{name}")
            elif (
                name
            ):  # a project helper, a library function, a method: work, and what flows into it
                found.add("c:" + name)
                receiver = [func.value] if isinstance(func, _ast.Attribute) else []
                for argument in [*receiver, *arguments]:
                    for origin in inputs(argument, sources):
                        found.add(f"f:{origin}>{name}")
        elif isinstance(sub, _ast.Slice) and backwards(sub):
            found.add("b:reversed")  # `text[::-1]` is `reversed(text)`
        elif isinstance(sub, _ast.Attribute):
            if sub.attr not in FILLERS:
                found.add("c:." + sub.attr)
        elif (
            isinstance(sub, _ast.Name)
            and isinstance(sub.ctx, _ast.Load)
            and sub.id not in local
            and sub.id != node.name
        ):
            if not hasattr(builtins, sub.id) and id(sub) not in called:
                found.add("n:" + sub.id)
        elif (
            isinstance(sub, _ast.Constant)
            and not isinstance(sub.value, bool)
            and sub.value is not None
        ):
            found.add("l:" + constant(sub.value))
        elif isinstance(sub, (_ast.BinOp, _ast.AugAssign)):
            found.add("o:" + type(sub.op).__name__)
        elif isinstance(sub, _ast.Compare):
            for op in sub.ops:
                operator = type(op)
                found.add("o:" + NEGATED.get(operator, ORDERS.get(operator, operator.__name__)))
        elif (
            isinstance(sub, (_ast.Assign, _ast.AugAssign, _ast.AnnAssign)) and sub.value is not None
        ):
            targets = sub.targets if isinstance(sub, _ast.Assign) else [sub.target]
            coerced = coercion(sub, params, local)
            if coerced:  # `func = make_func(func)`: a copy may take the argument as it comes
                found.add("p:" + coerced)
            flows = origins(sub.value, sources)
            for target in targets:
                for name_node in walk(target):
                    if isinstance(name_node, _ast.Name):
                        sources.setdefault(name_node.id, set()).update(flows)
        elif isinstance(sub, (_ast.For, _ast.comprehension)):
            flows = origins(sub.iter, sources)
            for name_node in walk(sub.target):
                if isinstance(name_node, _ast.Name):
                    sources.setdefault(name_node.id, set()).update(flows)
        elif isinstance(
            sub, (_ast.Try, _ast.Raise, _ast.Yield, _ast.YieldFrom, _ast.Delete, _ast.With)
        ):
            what = KINDS.get(type(sub).__name__, type(sub).__name__)
            found.add("k:" + what + ("@except" if id(sub) in handled else ""))
        if isinstance(sub, (_ast.Yield, _ast.YieldFrom)) and sub.value is not None:
            found.update(
                "r:" + origin for origin in origins(sub.value, sources)
            )  # a generator's output
            if isinstance(sub.value, _ast.Tuple):
                found.add(f"r:tuple{len(sub.value.elts)}")
        if isinstance(sub, _ast.Return) and sub.value is not None:
            found.update(
                "r:" + kind.replace(f"c:{node.name}", "c:SELF")
                for kind in returned(sub.value, local, sources)
            )
    found = {ALIASES.get(feature, feature) for feature in found}
    for word in docstring(node).lower().replace("_", " ").split()[:40]:
        word = "".join(c for c in word if c.isalpha())
        if len(word) >= 4:
            found.add("d:" + stem(word))
    return sorted(found)


def sequence(value: ast.expr | None) -> bool:
    """A list or generator comprehension, `map(...)` or `filter(...)`: items one after the other."""
    if isinstance(value, (_ast.ListComp, _ast.GeneratorExp)):
        return True
    return (
        isinstance(value, _ast.Call)
        and isinstance(value.func, _ast.Name)
        and value.func.id in ("map", "filter")
        and len(value.args) == 2
    )


def emitters(body: list[ast.stmt], nodes: list[ast.AST]) -> tuple[set[str], set[int]]:
    """Lists a function fills with `append` alone and returns at its end (`found = []` ... `return
    found`): the same as a generator's yields. Their names, and the ids of their start and
    return."""
    if not (body and isinstance(body[-1], _ast.Return) and isinstance(body[-1].value, _ast.Name)):
        return set(), set()
    name = body[-1].value.id
    start = next(
        (
            statement
            for statement in body
            if isinstance(statement, _ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], _ast.Name)
            and statement.targets[0].id == name
            and isinstance(statement.value, _ast.List)
            and not statement.value.elts
        ),
        None,
    )
    if start is None:
        return set(), set()
    appends = reads = stores = 0
    for node in nodes:
        if isinstance(node, _ast.Name) and node.id == name:
            if isinstance(node.ctx, _ast.Load):
                reads += 1
            else:
                stores += 1
        elif (
            isinstance(node, _ast.Call)
            and isinstance(node.func, _ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, _ast.Name)
            and node.func.value.id == name
            and len(node.args) == 1
        ):
            appends += 1
    if stores != 1 or not appends or reads != appends + 1:
        return set(), set()
    return {name}, {id(start), id(body[-1])}


def skips(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], _ast.Continue)


def backwards(node: ast.Slice) -> bool:
    """`[::-1]`: a whole sequence, reversed."""
    step = node.step
    return (
        node.lower is None
        and node.upper is None
        and isinstance(step, _ast.UnaryOp)
        and isinstance(step.op, _ast.USub)
        and isinstance(step.operand, _ast.Constant)
        and step.operand.value == 1
    )


def coercion(
    node: ast.Assign | ast.AugAssign | ast.AnnAssign, params: dict[str, str], local: set[str]
) -> str:
    """The helper a parameter is passed through and assigned back to (`key = getter(key)`), or
    ""."""
    value = node.value
    if not (
        isinstance(node, _ast.Assign) and len(node.targets) == 1 and isinstance(value, _ast.Call)
    ):
        return ""
    target = node.targets[0]
    if not (isinstance(target, _ast.Name) and target.id in params):
        return ""
    if not any(
        isinstance(argument, _ast.Name) and argument.id == target.id for argument in value.args
    ):
        return ""
    name = call_name(value.func, local)
    # a project helper's (`make_func`): a builtin or a method (`int(n)`, `uuid.UUID(s)`) checks the
    # input
    return name if name and not name.startswith(".") and not hasattr(builtins, name) else ""


def origins(node: ast.expr, sources: dict[str, set[str]]) -> set[str]:
    """The parameters (`a0`...) a value is computed from, through locals assigned from them."""
    flows: set[str] = set()
    for sub in walk(node):
        if isinstance(sub, _ast.Name):
            flows.update(sources.get(sub.id, ()))
        elif (
            isinstance(sub, _ast.Call)
            and isinstance(sub.func, _ast.Name)
            and len(sources.get(sub.func.id, ())) == 1
        ):
            flows.add(
                "@" + next(iter(sources[sub.func.id]))
            )  # what a function passed in gives back
    return flows


def inputs(node: ast.expr, sources: dict[str, set[str]]) -> set[str]:
    """The parameters a value is computed from (`origins` without the results of functions passed
    in: what flows into a call is the data, the function that made it is said by its own call)."""
    return {origin for origin in origins(node, sources) if origin[0] != "@"}


def returned(value: ast.expr, local: set[str], sources: dict[str, set[str]]) -> list[str]:
    """What a return gives back: a constant, a call's result, a parameter (or a value made from
    one). A test (`any(...)`, `a == b`, `not x`) gives back True or False, as the loop it stands for
    does."""
    if boolean(value):
        return ["l:True", "l:False"]
    if isinstance(value, _ast.Constant):
        return ["l:" + constant(value.value)]
    if isinstance(value, _ast.Call) and conversion(value, local):
        value = value.args[0]
    if isinstance(value, _ast.Call):
        name = call_name(value.func, local)
        return ["c:" + name] if name else []
    if isinstance(value, _ast.Name):
        return sorted(sources.get(value.id, ()))
    if isinstance(value, _ast.Tuple):  # how many things come back: a rewrite keeps that
        return [f"tuple{len(value.elts)}"]
    return []


def conversion(call: ast.Call, local: set[str]) -> bool:
    """`dict(counts)`: a local (a `defaultdict`) handed back as a plain dict of the same items."""
    func = call.func
    return (
        isinstance(func, _ast.Name)
        and func.id == "dict"
        and func.id not in local
        and len(call.args) == 1
        and not call.keywords
        and isinstance(call.args[0], _ast.Name)
        and call.args[0].id in local
    )


def boolean(value: ast.expr) -> bool:
    if isinstance(value, (_ast.Compare, _ast.BoolOp)) or (
        isinstance(value, _ast.UnaryOp) and isinstance(value.op, _ast.Not)
    ):
        return True
    return (
        isinstance(value, _ast.Call)
        and isinstance(value.func, _ast.Name)
        and value.func.id in TESTS
    )


def stem(word: str) -> str:
    for suffix in ("ies", "es", "ing", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word
