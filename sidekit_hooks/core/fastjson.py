"""JSON for the hook hot path without `import json`.

`json` pulls in `re` and `enum` (about 10 ms of a hook's start on a slow machine); the C scanner and
string encoder underneath it do not. Same results as json.loads / compact json.dumps for the
payload shapes a hook reads and writes; falls back to `json` where `_json` is missing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:
    import _json
except ImportError:  # pragma: no cover - other interpreters
    _json = None  # type: ignore[assignment]


def _constant(name: str) -> float:
    return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


class _ScanContext:
    """The attributes `_json.make_scanner` reads from a JSONDecoder."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = staticmethod(_constant)
    memo: dict[str, str] = {}


_scan = _json.make_scanner(_ScanContext()) if _json is not None else None  # type: ignore[arg-type]
_WHITESPACE = " \t\n\r"


def loads(text: str) -> Any:
    """Decode one JSON document; ValueError (as json.JSONDecodeError is) on anything else."""
    if _scan is None:
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except (StopIteration, SystemError):
        # The C scanner reports errors through `json.decoder`, which it looks up in sys.modules but
        # never imports (a SystemError when absent). Malformed input is rare: let `json` say what is
        # wrong.
        import json

        return json.loads(text)
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data after the JSON document at {end}")
    return value


def dumps(value: Any) -> str:
    """Compact JSON (no spaces, UTF-8 kept), like json.dumps(..., separators=(",", ":"),
    ensure_ascii=False)."""
    if _json is None:
        import json

        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return _encode(value)


def _encode(value: Any) -> str:
    if isinstance(value, str):
        return _json.encode_basestring(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(int(value))
    if isinstance(value, dict):
        return "{" + ",".join(f"{_encode(str(k))}:{_encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_encode(v) for v in value) + "]"
    return _encode(str(value))


def dumps_as_json(value: Any) -> str:
    """Exactly `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`: the same C encoder
    (made per call, as `json` does: its circular-reference markers start empty), without importing
    `json` and the `re` it pulls in. What that encoder refuses goes to `json`, which raises as it
    would."""
    if _json is not None:
        try:
            encode = _json.make_encoder(
                {}, _not_encodable, _json.encode_basestring, None, ":", ",", False, False, True
            )
            return "".join(encode(value, 0))
        except (TypeError, ValueError, RecursionError):
            pass
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _not_encodable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# nesting a hook payload may have; deeper parts become null (no real payload comes close)
MAX_DEPTH = 64


def loads_bounded(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """`loads`, except that containers nested deeper than `max_depth` are replaced by null.

    The C scanner recurses per level: a 1,000-deep `tool_response` raises RecursionError, and every
    recursive walk over a few hundred levels would too. The text is cut (a pass in Python) only when
    the scanner gives up; otherwise the decoded value is pruned, which costs one step per container.
    """
    try:
        value = loads(text)
    except RecursionError:
        value = loads(_cut(text, max_depth))
    return _prune(value, max_depth)


def _prune(value: Any, max_depth: int) -> Any:
    """Replace, in place, every container deeper than `max_depth` by None (iteratively: no
    recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        items = (
            node.items()
            if isinstance(node, dict)
            else enumerate(node)
            if isinstance(node, list)
            else ()
        )
        for key, child in list(items):
            if isinstance(child, (dict, list)):
                if depth >= max_depth:
                    node[key] = None
                else:
                    stack.append((child, depth + 1))
    return value


def _cut(text: str, max_depth: int) -> str:
    out = []
    depth = 0
    keep_from = 0
    in_string = escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth == max_depth + 1:
                out.append(text[keep_from:index])
                out.append("null")
        elif char in "]}":
            if depth == max_depth + 1:
                keep_from = index + 1
            depth -= 1
    if depth <= max_depth:
        out.append(text[keep_from:])
    return "".join(out)


def encodable(text: str) -> bool:
    """Whether the text can be written as UTF-8 (no lone surrogate, as `\\ud800` or an undecodable
    argument leaves one)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
