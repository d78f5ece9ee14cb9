"""How many examples a property test draws: fewer in the fast suite, all of them in the full suite's
slow half (CI runs both halves, so CI still searches as deep as before, and the fast suite a
developer runs before every commit stays fast)."""

from __future__ import annotations

from typing import Any

import pytest


def depths(full: int, fast: int) -> list[Any]:
    """`examples` for a property test's parametrize: `fast` in the fast suite, `full` marked slow
    (`pytest --full`, CI's `--full -m slow`)."""
    return [
        pytest.param(fast, id=f"{fast}-examples"),
        pytest.param(full, id=f"{full}-examples", marks=pytest.mark.slow),
    ]
