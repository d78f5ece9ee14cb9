"""The acme team pack the tests share: Spec 4.1's rule (validation errors are 422, not 400), the
text it says, and a handler that breaks it and one that keeps it. Standard library only: the
scenario build scripts import it too, and must write their .jsonl byte for byte."""

from __future__ import annotations

from collections.abc import Sequence

from testing import rule_toml

STATUS_422 = "acme.api.status-422"
MESSAGE = "Spec 4.1: validation errors return HTTP 422, not 400."
SEE = "docs/api-spec.md#validation-errors"
SPEC_NUDGE = f"[sidecar:specs] {MESSAGE}"
BAD = "def reject(reason):\n    return JSONResponse({'error': reason}, status_code=400)\n"
GOOD = BAD.replace("status_code=400", "status_code=422")


def status_422_rule(
    *, see: bool = False, exclude: Sequence[str] = (), boundary: bool = True
) -> str:
    """The rule's `[[rules]]` table as TOML: with its `see` link, an `exclude` list and `\\b` after
    the 400 (so 4000 does not match) as asked."""
    return rule_toml.rule(
        STATUS_422,
        MESSAGE,
        see=SEE if see else "",
        severity="high",
        paths=["api/**/*.py"],
        exclude=exclude,
        added=r"status_code\s*=\s*400" + (r"\b" if boundary else ""),
    )


def pack(name: str, rules: str, header: str = "") -> str:
    """A pack file: `[pack]` with its name and `header` lines, then the rules."""
    return f'[pack]\nname = "{name}"\n{header}\n{rules}'


PACK = pack("acme", status_422_rule())  # sidecar_rules/acme.toml in the lifecycle tests
