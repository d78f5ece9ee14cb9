"""Regexes compiled once, when a pack is compiled, and rebuilt by the hook without `import re`.

`import re` costs the hook ~8 ms and `re.compile` ~1 ms per pattern (its parser is pure Python),
paid on every event for every rule that applies. The snapshot stores the engine's code for each
pattern instead; the hook hands it to `_sre.compile` (which validates it), and falls back to
`re.compile` when the interpreter differs from the one that compiled the snapshot or anything at all
goes wrong.
"""

from __future__ import annotations

import _sre
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern
    from typing import Any

MULTILINE = 8  # re.MULTILINE, without importing re
ENGINE = f"{sys.implementation.name}-{sys.version_info[0]}.{sys.version_info[1]}/{_sre.MAGIC}/{_sre.CODESIZE}"


def assemble(pattern: str, flags: int = MULTILINE) -> list[Any] | None:
    """What `_sre.compile` needs for `pattern`, as JSON-able data (None if it cannot be had)."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        return [
            flags | parsed.state.flags,
            list(code),
            parsed.state.groups - 1,
            groupindex,
            indexgroup,
        ]
    except Exception:  # noqa: BLE001 - an optimisation only: the hook then uses re.compile
        return None


def load(pattern: str, entry: list[Any]) -> Pattern[str] | None:
    """The compiled pattern from `assemble`'s data, or None when it does not fit this
    interpreter."""
    try:
        flags, code, groups, groupindex, indexgroup = entry
        return _sre.compile(pattern, flags, code, groups, groupindex, tuple(indexgroup))  # type: ignore[no-any-return]
    except Exception:  # noqa: BLE001
        return None
