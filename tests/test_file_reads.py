"""Every file a hook-path module reads goes through core/safepath (#31 Deliver 6).

A repository can put a FIFO (the reader blocks for ever), a link to /dev/zero (the read never ends)
or a link out of the project under any name sidekit reads: package.json, pyproject.toml, go.mod, a
report, a pack, a file under `.sidekit/`. safepath's readers open without blocking, accept regular
files only, stop at a size limit and refuse links that lead out. This test reads the AST of every
module a hook or a worker imports (every floor but the CLI's and pack authoring's) and fails on a
read that goes around them: a builtin `open()` for reading, `Path.read_text()` / `.read_bytes()`,
`io.open`, or an `os.open` for reading without O_NONBLOCK. The few reads that are not of a
repository file are listed in ALLOWED, each with its reason; a new entry needs one too.
"""

from __future__ import annotations

import ast
from pathlib import Path

from sidekit_hooks.core.floors import floor_of
from testing.parsed import parsed

PACKAGE = Path(__file__).resolve().parents[1] / "sidekit_hooks"
CLI_ONLY = ("sidekit_hooks.cli", "sidekit_hooks.rules.authoring")
KERNEL_FILES = ("/proc/",)  # the kernel's own files: no repository can put anything there
# (module, function) -> why its read need not go through safepath
ALLOWED = {
    (
        "sidekit_hooks.pipeline.hook_events",
        "_write",
    ): "`--write`, a developer's command: the checkout's own hooks.json",
    (
        "sidekit_hooks.nudges.city",
        "__enter__",
    ): "Gas City's lock file, for flock only: O_RDWR never blocks, nothing read",
}


def hook_path_modules() -> dict[str, Path]:
    """Every module of the package a hook or a worker may import: all but the CLI's."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if not name.startswith(CLI_ONLY) and floor_of(name) >= 0:
            found[name] = path
    return found


def bare_reads(source: str) -> list[tuple[str, int, str]]:
    """(enclosing function, line, what) of each read in `source` that does not go through
    safepath."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = (
                child.name
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
                else function
            )
            if isinstance(child, ast.Call):
                what = _bare_read(child)
                if what:
                    found.append((function, child.lineno, what))
            visit(child, inner)

    visit(parsed(source), "<module>")
    return found


def _bare_read(call: ast.Call) -> str:
    """What kind of read around safepath this call is ('' for none)."""
    func = call.func
    first = call.args[0] if call.args else None
    if _kernel_file(first):
        return ""
    if isinstance(func, ast.Name) and func.id == "open":
        return "" if _writes_only(call) or _an_fd(first) else "open() for reading"
    if not isinstance(func, ast.Attribute):
        return ""
    owner = func.value.id if isinstance(func.value, ast.Name) else ""
    if func.attr in ("read_text", "read_bytes") and owner != "safepath":
        return f".{func.attr}()"
    if func.attr == "open" and owner == "io":
        return "io.open()"
    if func.attr == "open" and owner == "os":
        flags = ast.unparse(call.args[1]) if len(call.args) > 1 else ""
        if isinstance(first, ast.Attribute) and first.attr == "devnull":
            return ""
        reads = "O_RDONLY" in flags or "O_RDWR" in flags
        if reads and "NONBLOCK" not in flags and "O_DIRECTORY" not in flags:
            return "os.open() for reading without O_NONBLOCK"
    return ""


def _writes_only(call: ast.Call) -> bool:
    """Whether an open() call's mode writes and never reads ("w", "x", "a", with "b" or not)."""
    mode = (
        call.args[1]
        if len(call.args) > 1
        else next((k.value for k in call.keywords if k.arg == "mode"), None)
    )
    text = mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else "r"
    return "r" not in text and "+" not in text


def _an_fd(node: ast.expr | None) -> bool:
    """An open() of a file descriptor that a safepath opener returned
    (`open(safepath.open_append(p))`)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and ast.unparse(node.func.value) == "safepath"
    )


def _kernel_file(node: ast.expr | None) -> bool:
    """A path written in the code that starts with /proc/ (a literal, or an f-string's literal
    head)."""
    head = node.values[0] if isinstance(node, ast.JoinedStr) and node.values else node
    return (
        isinstance(head, ast.Constant)
        and isinstance(head.value, str)
        and head.value.startswith(KERNEL_FILES)
    )


def test_every_hook_path_read_goes_through_safepath() -> None:
    modules = hook_path_modules()
    assert "sidekit_hooks.runners.js.command" in modules and "sidekit_hooks.cli" not in modules
    found = [
        f"{name}:{line} in {function}(): {what}"
        for name, path in modules.items()
        for function, line, what in bare_reads(path.read_text(encoding="utf-8"))
        if (name, function) not in ALLOWED
    ]
    assert found == [], (
        "read these through sidekit_hooks.core.safepath (or add an ALLOWED entry with its reason)"
    )


def test_every_allowed_read_is_still_there() -> None:
    modules = hook_path_modules()
    reads = {
        (name, function)
        for name, path in modules.items()
        for function, _, _ in bare_reads(path.read_text())
    }
    assert set(ALLOWED) <= reads, set(ALLOWED) - reads


def test_the_scan_sees_each_way_around_safepath() -> None:
    source = """
import io, os
from pathlib import Path

def config(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()

def text(path):
    return Path(path).read_text()

def raw(path):
    return io.open(path, "rb").read()

def low(path):
    return os.read(os.open(path, os.O_RDONLY), 10)

def fine(path, fd):
    safepath.read_bytes(path)
    safepath.read_inside(".", path, 10)
    open(path, "w").close()
    open(path, "xb").close()
    open(safepath.open_append(path), "a").close()
    open("/proc/self/stat", "rb").read()
    open(f"/proc/{fd}/stat", "rb").read()
    os.open(path, os.O_RDONLY | safepath.NONBLOCK)
    os.open(path, os.O_WRONLY | os.O_CREAT)
    os.open(os.devnull, os.O_RDWR)
    os.open(path, os.O_RDONLY | os.O_DIRECTORY)
"""
    assert bare_reads(source) == [
        ("config", 6, "open() for reading"),
        ("text", 10, ".read_text()"),
        ("raw", 13, "io.open()"),
        ("low", 16, "os.open() for reading without O_NONBLOCK"),
    ]
