"""What a test needs from the machine (a toolchain, the package index, a browser): one rule for all.

On a developer's machine a missing need skips the test, saying why and how to get it. In CI (`CI`
set, as `.ci/run` is run) the machines have every toolchain and the package index, so a missing need
is a failure: a promised part of the suite must never vanish in silence. The only parts CI may leave
out are the ones no CI machine can have (`not_run_here`): they are still listed, by the conftest's
"not run" section at the end of every run.
"""

from __future__ import annotations

import os
import shutil
from typing import NoReturn

import pytest

CI_ENV = "CI"
NOT_RUN_PREFIX = "not run here: "  # the conftest lists every skip with this prefix under "not run"


def in_ci() -> bool:
    return os.environ.get(CI_ENV, "").strip().lower() not in ("", "0", "false", "no")


def missing(reason: str, fix: str) -> NoReturn:
    """Skip (`reason`; to run it: `fix`), or fail under CI, where the need is always met."""
    if in_ci():
        pytest.fail(f"{reason}; CI is set, so this test must run here ({fix})", pytrace=False)
    pytest.skip(f"{reason} (to run it: {fix})")


def program(name: str, fix: str = "") -> str:
    """The path of `name` on PATH; else `missing`."""
    found = shutil.which(name)
    if not found:
        missing(f"{name} is not installed", fix or f"install {name}")
    return str(found)


def not_run_here(reason: str) -> NoReturn:
    """Skip, in CI too, a test that needs what no CI machine has (say it in `reason`); listed as not
    run."""
    pytest.skip(NOT_RUN_PREFIX + reason)
