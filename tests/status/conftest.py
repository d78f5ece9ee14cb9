"""The `suite` fixture: a throw-away project for the status tests (see statusutil.Suite)."""

from __future__ import annotations

from pathlib import Path

import pytest
from statusutil import REPO, Suite


@pytest.fixture
def suite(project: Path, clean_env: dict[str, str]) -> Suite:
    env = {k: v for k, v in clean_env.items() if not k.startswith(("PYTEST_", "SIDEKIT_"))}
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return Suite(project, env)

