"""What a language module declares for the index builder (`build`): plain data, no tree-sitter."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


class Spec:
    """One language as the index reads it. Node types are tree-sitter's names for that grammar.

    - `identifiers`: leaf nodes that name something; each is a reference unless it sits in a binding
      position, `(parent node type, field name)` in `bindings` (a declaration's own name, a
      parameter, an import alias): the same split as Python's Load and Store names.
    - `definitions`: node type -> kind (function, method, class, interface, struct, type, enum,
      trait, const, variable) for what can be addressed from outside; found at the top level and
      inside `containers` (a class body, an impl block), never inside a function (`functions`).
    - `skipped`: nodes with no code inside (comments, plain strings): not descended into.
    - `imports`: node type -> the field holding what it imports.
    """

    __slots__ = (
        "id",
        "package",
        "grammar",
        "identifiers",
        "bindings",
        "definitions",
        "containers",
        "functions",
        "skipped",
        "imports",
        "qualifier",
        "members",
    )

    def __init__(
        self,
        id: str,
        package: str,
        grammar: Callable[[str], object],
        identifiers: frozenset[str],
        bindings: frozenset[tuple[str, str]],
        definitions: dict[str, str],
        containers: frozenset[str],
        functions: frozenset[str],
        skipped: frozenset[str],
        imports: dict[str, str],
        qualifier: Callable[[object, bytes], str] | None = None,
        members: frozenset[tuple[str, str]] = frozenset(),
    ) -> None:
        self.id = id
        self.package = package  # the wheel on PyPI that brings the grammar (doctor's fix names it)
        # path -> the tree-sitter language capsule (TSX and TS differ by suffix)
        self.grammar = grammar
        self.identifiers = identifiers
        self.bindings = bindings
        self.definitions = definitions
        self.containers = containers
        self.functions = functions
        self.skipped = skipped
        self.imports = imports
        # (a definition node, the source) -> the container name a definition outside any container
        # still belongs to: a Go method's receiver type, a Rust impl's type.
        self.qualifier = qualifier
        # (parent node type, field name) where a plain identifier names a member, as a property does
        # in TypeScript: Java's `obj.field` and `obj.method()`. In a normalised body it reads
        # `.name`, never a local (`this.name = name` keeps the field apart from the parameter) nor
        # an outside name.
        self.members = members
