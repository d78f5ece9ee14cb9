"""The project function a pytest failure is about, when the failure stops in test code.

A failing `assert` or `self.assertEqual` has no frame in the code under test: its innermost project
frame is the assertion line in the test file, so a broken function fails as many clusters as there
are assert lines that check it (Unidecode 1.3.8 with one planted bug: 14 clusters at `tests/`, none
at the broken module). Go's and js's failures are placed at the function their test calls
(runners/go/subject.py, runners/js/subject.py); here the test's own frame says it without a text
scan: the names the test's code loads up to the failing line (`f(`, `module.f(`, `self.f(` for a
function the test class binds) are looked up in that frame, and the first one on the failing line
(else the nearest before it) that is a function defined in the project outside test code places the
failure at its `def`. `checks` keeps the test's spot:
`"at":"unidecode/__init__.py:35","checks":"unidecode, asserted at tests/test_x.py:105"`.

Nothing of the repository runs for it: globals and locals are read as dictionaries, attributes with
`inspect.getattr_static` (no property, no `__getattr__`), functions by their code object's file and
first line. Nothing found: the failure is left as it was.
"""

from __future__ import annotations

from sidekit_hooks.status.clusters import in_test_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType
    from typing import Any

# (the test's code: file, first line, name; the failing line) -> the loads on or before it, nearest
# first
_LOADS: dict[tuple[str, int, str, int], list[tuple[int, str, tuple[str, ...]]]] = {}
LOADS_KEPT = 2048
ATTRIBUTE_LOADS = frozenset({"LOAD_ATTR", "LOAD_METHOD"})
OWNER_LOADS = frozenset({"LOAD_FAST", "LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF"})
MAX_CHAIN = 4  # names in one dotted load that are followed (`self.make`, `pkg.text.slug`)


def resolve(
    failure: dict[str, Any],
    frame: Any,
    line: int,
    root: str,
    where: Callable[[str, str], tuple[str, bool]],
) -> dict[str, Any]:
    """`failure` placed at the project function its test called, when it stopped in test code
    (`frame`, the innermost project frame, at `line` of its file); else unchanged. `where(path,
    root)` is the plugin's (display path, inside the project)."""
    spot = str(failure.get("frame", ""))
    if not spot or spot != failure.get("at") or not in_test_code(spot):
        return failure
    try:
        found = _subject(frame, line, root, where)
    # a frame that cannot be read leaves the failure where it stopped
    except Exception:  # noqa: BLE001
        return failure
    if found is None:
        return failure
    name, at = found
    return dict(failure, at=at, frame=at, checks=f"{name}, asserted at {spot}")


def _subject(
    frame: Any, line: int, root: str, where: Callable[[str, str], tuple[str, bool]]
) -> tuple[str, str] | None:
    code = frame.f_code
    for _, how, names in _loads(code, line):
        function = _lookup(frame, how, names)
        if function is None:
            continue
        path, mine = where(function.__code__.co_filename, root)
        if mine and not in_test_code(path):
            return names[-1], f"{path}:{function.__code__.co_firstlineno}"
    return None


def _loads(code: CodeType, line: int) -> list[tuple[int, str, tuple[str, ...]]]:
    """The names the code loads up to `line`: those on `line` first, in order, then the earlier
    ones, nearest first. A global or local alone (`f`), or an owner and its attribute (`self.f`,
    `mod.f`)."""
    key = (code.co_filename, code.co_firstlineno, code.co_name, line)
    if key in _LOADS:
        return _LOADS[key]
    import dis

    instructions = list(dis.get_instructions(code))
    # a call written over several lines fails at its first: the lines of what starts there are its
    # own
    last = max(
        [
            i.positions.end_lineno or line
            for i in instructions
            if i.positions and i.positions.lineno == line
        ]
        or [line]
    )
    found: list[tuple[int, str, tuple[str, ...]]] = []
    owner: tuple[str, tuple[str, ...]] | None = None  # (how, names) the next attribute load extends
    for instruction in instructions:
        at = instruction.positions.lineno if instruction.positions else None
        if at is None or at > last:
            owner = None
            continue
        at = min(at, line)  # within the failing statement: on its line
        name = str(instruction.argval)
        if instruction.opname in OWNER_LOADS:
            owner = (
                "global" if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") else "local",
                (name,),
            )
            found.append((at, *owner))
        elif (
            instruction.opname in ATTRIBUTE_LOADS
            and owner is not None
            and len(owner[1]) < MAX_CHAIN
        ):
            owner = (owner[0], (*owner[1], name))  # `pkg.text.slug`: each link looked up in turn
            found.append((at, *owner))
        else:
            owner = None
    on_line = [load for load in found if load[0] == line]
    before = [load for load in reversed(found) if load[0] < line]
    ordered = on_line + before
    if len(_LOADS) < LOADS_KEPT:
        _LOADS[key] = ordered
    return ordered


def _lookup(frame: Any, how: str, names: tuple[str, ...]) -> Any:
    """The project function `names` loads in `frame`, read without running anything, or None."""
    import inspect
    import types

    space = frame.f_globals if how == "global" else frame.f_locals
    value = space.get(names[0]) if isinstance(space, dict) else None
    for attribute in names[1:]:
        if value is None:
            return None
        value = inspect.getattr_static(value, attribute, None)
    if isinstance(value, (staticmethod, classmethod, types.MethodType)):
        value = value.__func__
    return value if isinstance(value, types.FunctionType) else None


def forget() -> None:
    """Drop what was read (tests; a long-lived process that loads new code)."""
    _LOADS.clear()
