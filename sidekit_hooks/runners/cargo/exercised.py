"""The crate function a `cargo test` run's stackless failures share, found from the run and
the sources.

An `assert_eq!` panics where it is written: in the test's own body, in a test helper, or in a macro
the test file defines (`assert_width!`, heck's `t!`), so every failing test is its own cluster at
its own line of test code (unicode-width's one planted bug: 24 clusters, one per line of
`tests/tests.rs`). Such a failure is placed at the crate function the failing tests exercise, as
JUnit's (runners/junit/subject.py) and pytest's (runners/pytest/exercised.py) are:

- A text scan of the project's `.rs` files (comments blanked, string and char literals kept as
  `""` and `''`, the rows of `static` tables skipped) finds each `fn` (`Type::name` inside an
  `impl`), each `macro_rules!` and the calls in their bodies, and what is test code: a file under
  `tests/`, a `#[cfg(test)]` module, a `#[test]` function. A macro's call is read as its body with
  the call's arguments in place of its parameters, so `assert_width!("x", 1, 1)` calls
  `"x".width()`; a test a macro writes (`t!(test1: "CamelCase" => ...)` at a module's top level) is
  that call.
- Calls are resolved by name: `path::f(` to the `f` of that module (a type's `Type::f`), `f(` and a
  function handed on by name (`transform(s, lowercase, ..)`) to the file's own `f` else every free
  `f`, `.f(` to every method `f`, narrowed by the receiver's type when it is a literal
  (`"x".width()` is `str`'s, `'x'.width()` is `char`'s) or a tuple struct built in place
  (`AsSnakeCase(s).to_string()` is that type's `Display::fmt`).
- A failing test exercises what its calls reach up to its failing line (the whole body when the
  panic is elsewhere, in a helper), six calls deep; a passing test what its whole body reaches; a
  failure that panicked in crate code (humantime's overflow in `two_digits`) keeps its frame and
  counts from the function it panicked in. runners/suspects.py names the most suspicious function
  (Ochiai, of equals the nearest to the tests); a function whose body is one call to another that
  the run's verdicts cannot tell from it (a trait method that forwards, `fn width(&self) {
  tables::str_width(self) }`) hands its failures to the one it forwards to, where the code that can
  break is. A failure placed in a function where others of the run panicked goes to their line.

The failure keeps its spot in `checks` ("str_width, exercised by test_str, asserted at
tests/tests.rs:28"). Nothing of the repository runs; the sources are read within MAX_TOTAL_BYTES
and MAX_SECONDS (past them nothing moves), and only when the run's failures panicked at two spots
or more. This runs where cargo's answer is made (cargo_tee.sh starts `run.py --place` only then,
see cargo_answer.awk) and in the cache's writer (adapter.parse): standard library only, under
`python -I -S`.
"""

from __future__ import annotations

import re

from sidekit_hooks.status.clusters import in_test_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 6
MAX_FILES = 3000
MAX_FILE_BYTES = 4 << 20  # unicode-width's generated tables.rs is 1.5 MB
# On the run's path (the answer waits for it): past these, the failures stay where they panicked.
# Measured: unicode-width's 1.5 MB in about 0.2 s.
MAX_TOTAL_BYTES = 16 << 20
MAX_SECONDS = 2.0
MACRO_DEPTH = 3  # a macro's body calling another macro, read in place this many times
SKIP = frozenset({"target", "node_modules", ".git", ".sidekit", "vendor"})

# A comment, a string (raw, byte) or a char literal; a lifetime (`'a`) is none of them. One left open
# runs to the end of the file: one scan, never a retry from every quote inside it.
LITERAL = re.compile(
    r"//[^\n]*|/\*(?:.*?\*/|.*)|b?r(#*)\"(?:.*?\"\1|.*)|b?\"(?:[^\"\\]|\\.)*(?:\"|\Z)"
    r"|b?'(?:[^'\\\n]|\\[^\n]+?)'",
    re.S,
)
TOKEN = re.compile(
    r"(?P<brace>[{}])|(?P<semi>;)"
    r"|(?P<attr>#!?\[\s*(?:test|cfg\s*\(\s*test\s*\)|[\w:]+::test)\s*[\](])"
    r"|\bmacro_rules!\s*(?P<macro>\w+)"
    r"|\bfn\s+(?P<fn>\w+)"
    r"|\bmod\s+(?P<mod>\w+)"
    r"|\b(?P<impl>impl|trait)\b"
    r"|(?:(?P<recv>\"\"|''|\$\w+|\b\w+)\s*)?\.\s*(?P<method>[A-Za-z_]\w*)\s*(?:::\s*<[^<>]*>\s*)?\("
    r"|\b(?P<path>(?:[A-Za-z_]\w*\s*(?:<[^<>]*>)?\s*::\s*){0,8})(?P<call>[A-Za-z_]\w*)"
    r"\s*(?:(?P<bang>!)\s*(?=[(\[{])|\()"
    r"|\b(?P<ref>[A-Za-z_]\w*)\s*(?=[,)])"
)
STR_TYPES = frozenset({"str", "String", "&str", "Cow"})
KEYWORDS = frozenset(
    "if while for match return loop in as let mut ref move else unsafe where fn impl mod use pub "
    "struct enum trait type const static crate self super Self dyn async await box".split()
)

Node = tuple[str, str]  # (project file, `f`, `Type::f` or `name!`)


class Function:
    """A `fn` with a body, or a `macro_rules!`: where it is, and the calls in its body."""

    __slots__ = ("path", "name", "owner", "line", "end", "calls", "test", "params", "separators")

    def __init__(self, path: str, name: str, owner: str, line: int) -> None:
        self.path, self.name, self.owner, self.line = path, name, owner, line
        self.end = line
        # (line, kind, qualifier or receiver, name, arguments): kind "fn", "method" or "macro"
        self.calls: list[tuple[int, str, str, str, str]] = []
        self.test = False  # a `#[test]`, or declared in test code
        self.params: list[str] = []  # a macro's first rule: its parameters, in order
        self.separators: list[str] = []  # the tokens between them

    @property
    def qualname(self) -> str:
        if self.name.endswith("!"):
            return self.name
        return f"{self.owner}::{self.name}" if self.owner else self.name


class Generated:
    """A macro call at a module's top level that writes an item named by its first word (a test)."""

    __slots__ = ("path", "module", "item", "line", "call")

    def __init__(self, path: str, module: str, item: str, line: int, call: tuple[Any, ...]) -> None:
        self.path, self.module, self.item, self.line, self.call = path, module, item, line, call


class SourceFile:
    """One `.rs` file: its functions (with their module path) and what of it is test code."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.functions: list[tuple[str, Function]] = []  # (module path in the crate, function)
        self.generated: list[Generated] = []
        self.test_lines: list[tuple[int, int]] = []  # `#[cfg(test)]` modules and `#[test]` fns
        self.file_modules: set[str] = set()  # `mod x;`
        self.displays: set[str] = set()  # types this file implements `Display` for

    def in_test(self, line: int) -> bool:
        return any(start <= line <= end for start, end in self.test_lines)


def without_tables(text: str) -> str:
    """`text` with the rows of its `static`/`const` arrays (`static T: [u8; 9] = [` to `];`) as
    empty lines: generated tables hold no calls, and a regular expression over their megabytes is
    most of a scan's time (unicode-width's tables.rs)."""
    if "] = [" not in text:
        return text
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line.endswith("] = [") and not line.rstrip().endswith("] = ["):
            continue
        head = line.lstrip().removeprefix("pub ").removeprefix("pub(crate) ")
        if not head.startswith(("static ", "const ")):
            continue
        while index < len(lines) and not lines[index].lstrip().startswith("]"):
            lines[index] = ""
            index += 1
    return "\n".join(lines)


def blanked(text: str) -> str:
    """`text` with comments as spaces and literals as `""` or `''`, its lines kept."""

    def keep(found: re.Match[str]) -> str:
        matched = found.group(0)
        lines = "\n" * matched.count("\n")
        if matched.startswith("/"):
            return lines or " "
        return ("''" if matched.endswith("'") else '""') + lines

    return LITERAL.sub(keep, text)


def module_path(path: str) -> str:
    """The module a file is in its crate: `src/a/b.rs` is `a::b`, `src/a/mod.rs` is `a`; a crate's
    root (`src/lib.rs`, `src/main.rs`, `src/bin/x.rs`, `tests/x.rs`, `tests/x/main.rs`) is ``."""
    parts = path.split("/")
    for anchor in ("src", "tests", "benches", "examples"):
        if anchor in parts:
            anchored = anchor
            parts = parts[len(parts) - parts[::-1].index(anchor) :]
            break
    else:
        return ""
    if anchored != "src" or parts[:1] == ["bin"]:
        parts = parts[1:]  # below a target's own root (`tests/x.rs`, `tests/x/main.rs`)
    if not parts:
        return ""
    last = parts[-1].removesuffix(".rs")
    inner = parts[:-1] if last in ("mod", "main", "lib") else [*parts[:-1], last]
    return "::".join(inner)


class OutOfTime(Exception):
    """MAX_SECONDS passed while reading or following calls: nothing moves."""


def _in_time(deadline: float | None) -> None:
    import time

    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime


def read_file(path: str, text: str, deadline: float | None = None) -> SourceFile:
    """The functions, macros and test code of one file."""
    source = SourceFile(path)
    code = blanked(without_tables(text))
    starts = [0]
    for found in re.finditer("\n", code):
        starts.append(found.end())

    def line_of(offset: int) -> int:
        low, high = 0, len(starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low + 1

    test_file = in_test_code(path)
    base = module_path(path)
    # the open braces: (kind, payload); kind: "mod", "impl", "fn", "macro", "block"
    stack: list[tuple[str, Any]] = []
    pending: tuple[str, Any] | None = None
    attribute = ""  # `test` or `cfg` just read, for the next item
    for count, found in enumerate(TOKEN.finditer(code)):
        if count % 64 == 0:  # each token may follow a macro call 20,000 characters
            _in_time(deadline)  # a file made to be slow to read stops here
        kind = found.lastgroup
        body = next((item for k, item in reversed(stack) if k in ("fn", "macro")), None)
        if found.group("brace") == "{":
            if pending is not None:
                stack.append(pending)
                if pending[0] in ("fn", "macro"):
                    function = pending[1]
                    source.functions.append((_module(stack, base), function))
                if pending[0] == "mod" and pending[1][1]:
                    source.test_lines.append((line_of(found.start()), -1))
                pending = None
            else:
                stack.append(("block", None))
            continue
        if found.group("brace") == "}":
            if stack:
                closed, item = stack.pop()
                line = line_of(found.start())
                if closed in ("fn", "macro"):
                    item.end = line
                    if item.test:
                        source.test_lines.append((item.line, line))
                elif closed == "mod" and item[1]:
                    opened = next(i for i, r in enumerate(source.test_lines) if r[1] == -1)
                    source.test_lines[opened] = (source.test_lines[opened][0], line)
            continue
        if kind == "semi":
            if pending is not None and pending[0] == "mod":
                source.file_modules.add(pending[1][0])
            if pending is not None and pending[0] in ("mod", "fn"):
                pending = None  # `mod x;`, a trait's `fn f();`
            attribute = ""
            continue
        if kind == "attr":
            attribute = "cfg" if "cfg" in found.group("attr") else "test"
            continue
        if kind == "mod" and body is None:
            pending = ("mod", (found.group("mod"), attribute == "cfg"))
            attribute = ""
            continue
        if kind == "impl" and body is None and (pending is None or pending[0] != "fn"):
            header = code[found.end() : found.end() + 1000].partition("{")[0]
            owner = _impl_type(header) if found.group("impl") == "impl" else _trait_name(header)
            if found.group("impl") == "impl" and re.search(r"\bDisplay\s+for\b", header):
                source.displays.add(owner)
            pending = ("impl", owner)
            continue
        if kind == "fn":
            owner = next((item for k, item in reversed(stack) if k == "impl"), "")
            function = Function(path, found.group("fn"), owner, line_of(found.start()))
            function.test = (
                attribute == "test" or test_file or source.in_test(function.line) or _in_test(stack)
            )
            pending, attribute = ("fn", function), ""
            continue
        if kind == "macro":
            macro = Function(path, found.group("macro") + "!", "", line_of(found.start()))
            macro.test = test_file or _in_test(stack)
            rule = _first_rule(code, found.end())
            macro.params, macro.separators = rule
            pending = ("macro", macro)
            continue
        call = _call(found, code)
        if call is None:
            continue
        if body is not None:
            body.calls.append((line_of(found.start()), *call))
        elif call[0] == "macro" and call[3]:  # a top-level macro call: the item it writes
            first = re.match(r"\s*(\w+)", call[3])
            if first:
                line = line_of(found.start())
                module = _module(stack, base)
                source.generated.append(
                    Generated(path, module, first.group(1), line, (line, *call))
                )
    return source


def _module(stack: list[tuple[str, Any]], base: str) -> str:
    inline = [item[0] for kind, item in stack if kind == "mod"]
    return "::".join(part for part in [base, *inline] if part)


def _in_test(stack: list[tuple[str, Any]]) -> bool:
    return any(kind == "mod" and item[1] for kind, item in stack)


def _impl_type(header: str) -> str:
    """The type an `impl` header is for: `impl<T> fmt::Display for AsSnakeCase<T>` is
    `AsSnakeCase`, `impl UnicodeWidthStr for str` is `str`."""
    header = re.sub(r"<[^<>]*(?:<[^<>]*>[^<>]*)*>", "", header)
    header = header.split(" where ", 1)[0]
    target = header.rsplit(" for ", 1)[-1].strip().lstrip("&").strip()
    target = target.removeprefix("mut ").strip()
    word = re.findall(r"[A-Za-z_]\w*", target)
    return word[-1] if word else ""


def _trait_name(header: str) -> str:
    word = re.match(r"\s*(\w+)", header)
    return word.group(1) if word else ""


def _first_rule(code: str, start: int) -> tuple[list[str], list[str]]:
    """A `macro_rules!`'s first matcher: its `$name`s and the tokens between them."""
    opened = code.find("(", start)
    brace = code.find("{", start)
    if opened < 0 or brace < 0 or opened < brace:
        return [], []
    first = code.find("(", brace)
    if first < 0:
        return [], []
    matcher = _balanced(code, first)
    params = re.findall(r"\$(\w+)\s*:\s*\w+", matcher)
    between = re.split(r"\$\w+\s*:\s*\w+", matcher)[1:-1]
    return params, [piece.strip() for piece in between]


def _built(code: str, dot: int) -> str:
    """`Name(` when the receiver before the `.` at `dot` is a call of a capitalised name (a tuple
    struct built in place: `AsSnakeCase(self).to_string()`), else ''."""
    index = dot - 1
    while index >= 0 and code[index].isspace():
        index -= 1
    if index < 0 or code[index] != ")":
        return ""
    depth = 0
    for back in range(index, max(-1, index - 2000), -1):
        depth += {")": 1, "(": -1}.get(code[back], 0)
        if depth == 0:
            name = re.search(r"([A-Z]\w*)\s*$", code[max(0, back - 100) : back])
            return name.group(1) + "(" if name else ""
    return ""


def _balanced(code: str, opened: int) -> str:
    """The text inside the bracket at `opened` and its match."""
    depth = 0
    for index in range(opened, min(len(code), opened + 20_000)):
        char = code[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return code[opened + 1 : index]
    return ""


def _call(found: re.Match[str], code: str) -> tuple[str, str, str, str] | None:
    """(kind, qualifier or receiver, name, a macro call's arguments) of one call token."""
    if found.group("method"):
        receiver = found.group("recv") or _built(code, found.start())
        return "method", receiver, found.group("method"), ""
    if found.group("ref"):  # a function handed on by name (`transform(s, lowercase, ..)`)
        name = found.group("ref")
        return None if name in KEYWORDS else ("ref", "", name, "")
    name = found.group("call")
    if not name or name in KEYWORDS:
        return None
    path = re.sub(r"\s+|<[^<>]*>", "", found.group("path") or "").removesuffix("::")
    if found.group("bang"):
        return "macro", path, name, _balanced(code, found.end())
    return "fn", path, name, ""


class Graph:
    """The crate functions and macros of the project, by node, with what each call may reach."""

    def __init__(self, files: list[SourceFile], deadline: float | None = None) -> None:
        self.deadline = deadline
        self.files = {f.path: f for f in files}
        self.functions: dict[Node, Function] = {}
        self.modules: dict[Node, str] = {}
        self.by_name: dict[str, list[Node]] = {}
        self.displays: set[str] = set()
        for source in files:
            self.displays |= source.displays
            for module, function in source.functions:
                node = (source.path, function.qualname)
                if node in self.functions:  # the same name twice in one file (cfg'd twins)
                    continue
                self.functions[node] = function
                self.modules[node] = module
                self.by_name.setdefault(function.name, []).append(node)
        self._callees: dict[Node, list[Node]] = {}

    def in_test(self, path: str, line: int) -> bool:
        """Whether `path:line` is test code: a test folder's file, a `#[cfg(test)]` module, a
        `#[test]` function (a file not read counts by its path alone)."""
        source = self.files.get(path)
        return in_test_code(path) or (source is not None and source.in_test(line))

    def enclosing(self, path: str, line: int) -> Node | None:
        """The crate function whose body holds `path:line`, the innermost."""
        source = self.files.get(path)
        holding = [
            function
            for _, function in (source.functions if source else ())
            if function.line <= line <= function.end and not function.name.endswith("!")
        ]
        if not holding:
            return None
        function = max(holding, key=lambda f: f.line)
        return (function.path, function.qualname)

    def is_test(self, node: Node) -> bool:
        return self.functions[node].test or in_test_code(node[0])

    def resolve(self, path: str, call: tuple[Any, ...], depth: int = 0) -> list[Node]:
        """The nodes one call in `path` may reach (a macro's: what its body calls, the call's
        arguments in place of its parameters)."""
        _, kind, qualifier, name, arguments = call
        if kind == "macro":
            return self._expand(path, name, arguments, depth)
        if kind == "method":
            return self._method(qualifier, name)
        if kind == "ref":
            named = [n for n in self.by_name.get(name, ()) if not self.functions[n].owner]
            return [n for n in named if n[0] == path] or named
        candidates = [n for n in self.by_name.get(name, ()) if not self.functions[n].owner]
        if qualifier:
            head = qualifier.rsplit("::", 1)[-1]
            owned = [n for n in self.by_name.get(name, ()) if self.functions[n].owner == head]
            if head == "Self":
                owned = [
                    n
                    for n in self.by_name.get(name, ())
                    if n[0] == path and self.functions[n].owner
                ]
            if owned:
                return owned
            moduled = [n for n in candidates if self.modules[n].rsplit("::", 1)[-1] == head]
            return moduled or ([] if head[:1].isupper() or head == "std" else candidates)
        own = [n for n in candidates if n[0] == path]
        if not candidates and name in self.displays:  # `format!("{}", AsKebabCase(s))`
            return [n for n in self.by_name.get("fmt", ()) if self.functions[n].owner == name]
        return own or candidates

    def _method(self, receiver: str, name: str) -> list[Node]:
        methods = [n for n in self.by_name.get(name, ()) if self.functions[n].owner]
        wanted = _receiver_type(receiver)
        if wanted == "str":
            typed = [n for n in methods if self.functions[n].owner in STR_TYPES]
        elif wanted:
            typed = [n for n in methods if self.functions[n].owner == wanted]
            if not typed and name == "to_string" and wanted in self.displays:
                typed = [
                    n for n in self.by_name.get("fmt", ()) if self.functions[n].owner == wanted
                ]
        else:
            typed = []
        return typed or methods

    def _expand(self, path: str, name: str, arguments: str, depth: int) -> list[Node]:
        macros = self.by_name.get(name + "!", ())
        macro = next((n for n in macros if n[0] == path), next(iter(macros), None))
        if macro is None or depth >= MACRO_DEPTH:
            return []
        function = self.functions[macro]
        bound = _bind(function.params, function.separators, arguments)
        reached: list[Node] = []
        for call in function.calls:
            line, kind, qualifier, callee, inner = call
            if kind == "method" and qualifier.startswith("$"):
                qualifier = re.sub(r"\s+", "", bound.get(qualifier[1:], ""))
            reached += self.resolve(path, (line, kind, qualifier, callee, inner), depth + 1)
        return reached

    def callees(self, node: Node) -> list[Node]:
        if node not in self._callees:
            _in_time(self.deadline)
            function = self.functions[node]
            self._callees[node] = [
                target
                for call in function.calls
                for target in self.resolve(node[0], call)
                if target != node
            ]
        return self._callees[node]

    def reach(self, start: list[Node]) -> dict[Node, int]:
        """Each crate function (not test code) reachable from `start`, with its distance."""
        from sidekit_hooks.runners import suspects

        seen = suspects.reach(start, self.callees, MAX_DEPTH)
        return {node: depth for node, depth in seen.items() if not self.is_test(node)}

    def starts(
        self, calls: list[tuple[Any, ...]], path: str, upto: int | None = None
    ) -> list[Node]:
        return [
            target
            for call in calls
            if upto is None or call[0] <= upto
            for target in self.resolve(path, call)
        ]

    def forwards_to(self, node: Node) -> Node | None:
        """The one crate function `node`'s body calls, when that call is all it does."""
        function = self.functions[node]
        if function.end - function.line > 3 or len(function.calls) != 1:
            return None
        targets = [t for t in self.callees(node) if not self.is_test(t)]
        return targets[0] if len(set(targets)) == 1 else None

    def test(self, test: str) -> tuple[Function | None, Generated | None]:
        """The test function of a libtest id (`src/lib.rs::tables::tests::t`), or the top-level
        macro call that writes it."""
        label, _, rest = test.partition("::")
        names = rest.split("::")
        module, name = "::".join(names[:-1]), names[-1]
        folder = label.rsplit("/", 1)[0] if "/" in label else ""
        if "/tests/" in f"/{label}":  # an integration test: its file (and a folder of its name)
            stem = label.removesuffix(".rs").removesuffix("/main")
            in_crate = [p for p in self.files if p == label or p.startswith(stem + "/")]
        else:
            in_crate = [p for p in self.files if p.startswith(folder + "/")]
        found = [
            (self.modules[(p, f.qualname)], f)
            for p in in_crate
            for _, f in self.files[p].functions
            if f.name == name and f.test and not f.name.endswith("!")
        ]
        exact = [f for m, f in found if _same_module(m, module)]
        if len(exact) == 1 or (exact and len({f.path for f in exact}) == 1):
            return exact[0], None
        written = [
            g
            for p in in_crate
            for g in self.files[p].generated
            if g.item == name and _same_module(g.module, module)
        ]
        return None, (written[0] if written else None)


def _same_module(found: str, wanted: str) -> bool:
    """Whether a function's module is the test id's (`date::test`), which may lack a workspace
    member's or a file's own prefix."""
    return not wanted or found == wanted or found.endswith("::" + wanted)


def _receiver_type(receiver: str) -> str:
    if receiver == '""':
        return "str"
    if receiver == "''":
        return "char"
    built = re.match(r"([A-Z]\w*)\(", receiver)
    return built.group(1) if built else ""


def _bind(params: list[str], separators: list[str], arguments: str) -> dict[str, str]:
    """A macro's parameters bound to one call's arguments, split at its separators (top level
    only; `$(,)?` and other repetitions read as a comma)."""
    bound: dict[str, str] = {}
    rest = arguments
    for param, separator in zip(params, [*separators, ","], strict=False):
        token = separator.split()[0] if separator.split() else ","
        token = "," if token.startswith("$") else token
        cut = _top_level(rest, token)
        if cut < 0:
            bound[param] = rest.strip()
            break
        bound[param] = rest[:cut].strip()
        rest = rest[cut + len(token) :]
    return bound


def _top_level(text: str, separator: str) -> int:
    depth = 0
    for index, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0 and text.startswith(separator, index):
            return index
    return -1


def project_graph(root: str) -> Graph | None:
    """The graph of the project's `.rs` files (regular files, no links), or None when they are
    over MAX_TOTAL_BYTES or reading them takes over MAX_SECONDS."""
    import time

    from sidekit_hooks.runners import suspects

    deadline = time.monotonic() + MAX_SECONDS
    limits = (MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES)
    sources = suspects.read_sources(root, ".rs", SKIP, deadline, limits)
    if sources is None:
        return None
    try:
        files = [read_file(rel, text, deadline) for rel, text in sources]
    except OutOfTime:
        return None
    if time.monotonic() > deadline:
        return None
    return Graph(files, deadline)


def place(tests: dict[str, dict[str, Any]], root: str) -> None:
    """Place, in place, each failure of the run that panicked in test code at the crate function
    the failing tests exercise (see the module's docstring)."""
    panicked = {
        test: str(entry["f"]["at"])
        for test, entry in tests.items()
        if entry.get("o") == "failed"
        and isinstance(entry.get("f"), dict)
        and str(entry["f"].get("at", "")).rpartition(":")[2].isdigit()
    }
    if len(panicked) < 2 or len(set(panicked.values())) < 2:
        return  # one failure, or all at one spot: nothing to share
    graph = project_graph(root)
    if graph is None:
        return
    try:
        placed = _placements(tests, panicked, graph, root)
    except OutOfTime:
        return  # past MAX_SECONDS following calls (a repository made to be slow): nothing moves
    for test, (at, checks) in placed.items():
        tests[test]["f"]["at"], tests[test]["f"]["checks"] = at, checks


def _placements(
    tests: dict[str, dict[str, Any]], panicked: dict[str, str], graph: Graph, root: str
) -> dict[str, tuple[str, str]]:
    """test -> (at, checks) for each failure in test code the run's failing tests place."""
    failing: dict[str, dict[Node, int]] = {}  # the failures to place
    framed: dict[str, dict[Node, int]] = {}  # those that panicked in crate code: evidence only
    passing: list[dict[Node, int]] = []
    examples = DocExamples(root)
    for test, entry in tests.items():
        at = panicked.get(test, "")
        where, _, number = at.rpartition(":")
        inside = graph.enclosing(where, int(number)) if at else None
        doc = "::doc " in test
        if at and not graph.in_test(where, int(number)) and (inside is not None or not doc):
            if inside is not None:
                framed[test] = graph.reach([inside])
            continue  # a panic in crate code keeps its frame
        function, written = (None, None) if doc else graph.test(test)
        if function is not None:
            path, calls = function.path, function.calls
        elif written is not None:
            path, calls = written.path, [written.call]
        elif doc and (example := examples.calls(test)) is not None:
            path, calls = test.partition("::doc ")[0], example
        else:
            continue
        if at:
            line = int(number)
            own = function is not None and where == path and function.line <= line <= function.end
            failing[test] = graph.reach(graph.starts(calls, path, line if own else None))
        elif entry.get("o") == "passed":
            passing.append(graph.reach(graph.starts(calls, path)))
    if not failing:
        return {}
    from sidekit_hooks.runners import suspects

    total = sum(1 for e in tests.values() if e.get("o") == "failed")
    evidence = {**framed, **failing}
    placed: dict[str, tuple[str, str]] = {}
    for test, node in suspects.assign(evidence, passing, total).items():
        if test not in failing:
            continue
        function = graph.functions[_forwarded(graph, node, list(evidence.values()), passing)]
        name = test.rpartition("::")[2]
        checks = f"{function.qualname}, exercised by {name}, asserted at {panicked[test]}"
        placed[test] = (_spot(function, [panicked[t] for t in framed]), checks)
    return placed


class DocExamples:
    """The code of a doc test (`src/lib.rs::doc add (line 41)`): the example in the doc comment
    whose fence is at that line. rustdoc numbers a doc test's panic from the example's own first
    line (`src/lib.rs:8`), so a doc test's panic at a line no crate function holds is its own."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._lines: dict[str, list[str]] = {}

    def calls(self, test: str) -> list[tuple[Any, ...]] | None:
        path, _, what = test.partition("::doc ")
        fence = re.search(r"\(line (\d+)\)$", what)
        lines = self._read(path)
        if not fence or not 0 < int(fence.group(1)) <= len(lines):
            return None
        code: list[str] = []
        for line in lines[int(fence.group(1)) :]:
            text = line.strip()
            prefix = next((p for p in ("///", "//!") if text.startswith(p)), "")
            if not prefix or text[len(prefix) :].strip().startswith("```"):
                break
            code.append(text[len(prefix) :].removeprefix(" ").removeprefix("# "))
        body = read_file(path, "fn example() {\n" + "\n".join(code) + "\n}\n").functions
        return body[0][1].calls if body else None

    def _read(self, path: str) -> list[str]:
        if path not in self._lines:
            from sidekit_hooks.core import safepath

            try:
                data = safepath.read_inside(self.root, path, MAX_FILE_BYTES)
            except (OSError, ValueError):
                data = b""
            self._lines[path] = data.decode("utf-8", "replace").splitlines()
        return self._lines[path]


def _spot(function: Function, framed: list[str]) -> str:
    """Where a failure placed in `function` goes: the line in it where most of the run's
    crate-code panics are (one cause, one cluster), else its `fn` line."""
    from collections import Counter

    inside = Counter(
        at
        for at in framed
        if at.rpartition(":")[0] == function.path
        and function.line <= int(at.rpartition(":")[2]) <= function.end
    )
    return inside.most_common(1)[0][0] if inside else f"{function.path}:{function.line}"


def _forwarded(
    graph: Graph, node: Node, failing: list[dict[Node, int]], passing: list[dict[Node, int]]
) -> Node:
    """`node`, or the function it forwards to when every test that reaches one reaches the other
    (no verdict tells them apart), followed down."""
    for _ in range(MAX_DEPTH):
        target = graph.forwards_to(node)
        if target is None:
            return node
        for reaches in [*failing, *passing]:
            if (node in reaches) != (target in reaches):
                return node
        node = target
    return node
