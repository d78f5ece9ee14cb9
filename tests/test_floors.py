"""The house's structure from the code's own imports: no cycles, nothing imports a floor above
it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from sidekit_hooks.core.floors import FLOORS, floor_of

PACKAGE = Path(__file__).resolve().parent.parent / "sidekit_hooks"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every sidekit module `name` imports, TYPE_CHECKING and function-level imports included."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
    return {target for target in found if target in known and target != name}


# A module named in a string is imported all the same: `-p sidekit_hooks.runners.pytest.compact`,
# `__import__`, `spawn_module("sidekit_hooks.pipeline.finish", ...)`, the registry's "module:OBJ"
# entries.
NAMED = re.compile(r"\bsidekit_hooks(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


# Named, not imported, and said so here: each starts a worker in a process of its own (a detached
# `python -P -m`), so the lower floor holds only the name; or it is text written into another file.
NAMED_NOT_IMPORTED = {
    (
        "sidekit_hooks.pipeline.hook_events",
        "sidekit_hooks.pipeline.hook",
    ): "the entry-script template's text",
}


def named_in_strings(source: str, known: set[str]) -> set[str]:
    """Every sidekit module a string constant names (the longest known prefix of each dotted name);
    docstrings and other bare string statements are prose, not names."""
    found: set[str] = set()
    tree = ast.parse(source)
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    for node in ast.walk(tree):
        if id(node) in prose:
            continue
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and "sidekit_hooks." in node.value
        ):
            for dotted in NAMED.findall(node.value):
                parts = dotted.split(".")
                while parts and ".".join(parts) not in known:
                    parts.pop()
                if parts:
                    found.add(".".join(parts))
    return found


def graph(strings: bool = False) -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    edges = {name: imports_of(name, path, known) for name, path in found.items()}
    if strings:
        for name, path in found.items():
            if (
                name == "sidekit_hooks.core.floors"
            ):  # the declaration of the floors names every room
                continue
            named = named_in_strings(path.read_text(encoding="utf-8"), known) - {name}
            edges[name] |= {target for target in named if (name, target) not in NAMED_NOT_IMPORTED}
    return edges


def upward_edges(edges: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{source} (floor {floor_of(source)}) -> {target} (floor {floor_of(target)})"
        for source, targets in edges.items()
        for target in targets
        if floor_of(target) > floor_of(source)
    )


def test_every_module_has_a_floor() -> None:
    assert [name for name in modules() if floor_of(name) < 0] == []


def test_nothing_imports_a_floor_above_it() -> None:
    assert upward_edges(graph(strings=True)) == []


def test_every_named_worker_is_still_named() -> None:
    found = modules()
    named = {
        (source, target)
        for source, target in NAMED_NOT_IMPORTED
        if target in named_in_strings(found[source].read_text(encoding="utf-8"), set(found))
    }
    assert named == set(
        NAMED_NOT_IMPORTED
    )  # a stale exception would hide nothing, but says something false


def test_a_module_named_in_a_string_counts_as_an_import() -> None:
    known = {
        "sidekit_hooks.core.background",
        "sidekit_hooks.cli",
        "sidekit_hooks.runners.pytest.compact",
    }
    planted = 'ARGS = ["-p", "sidekit_hooks.runners.pytest.compact"]\n__import__("sidekit_hooks.cli.commands.x")\n'
    named = named_in_strings(planted, known)
    assert named == {"sidekit_hooks.runners.pytest.compact", "sidekit_hooks.cli"}
    edges = {"sidekit_hooks.core.background": named}
    assert upward_edges(edges) == [
        "sidekit_hooks.core.background (floor 0) -> sidekit_hooks.cli (floor 6)",
        "sidekit_hooks.core.background (floor 0) -> sidekit_hooks.runners.pytest.compact (floor 2)",
    ]


def test_no_import_cycles() -> None:
    edges = graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the stack, 2 done

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    assert cycles == []


def test_the_checker_sees_an_upward_import_and_a_cycle(tmp_path: Path) -> None:
    # The checks above must be able to fail: a planted upward import and a planted cycle are found.
    core = tmp_path / "a.py"
    core.write_text("from sidekit_hooks.cli import main\nimport sidekit_hooks.b\n")
    known = {"sidekit_hooks.cli", "sidekit_hooks.core.a", "sidekit_hooks.b"}
    assert imports_of("sidekit_hooks.core.a", core, known) == {
        "sidekit_hooks.cli",
        "sidekit_hooks.b",
    }
    assert floor_of("sidekit_hooks.cli") > floor_of("sidekit_hooks.core.a")


def test_floors_are_drawn_in_the_architecture_doc() -> None:
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for level, rooms in enumerate(FLOORS):
        line = f"floor {level}: " + ", ".join(room.removeprefix("sidekit_hooks.") for room in rooms)
        assert line in doc
