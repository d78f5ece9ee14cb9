"""Runner tests: `slow` marks the ones that build real projects fetched at test time (CI runs them)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: builds a real project with its own toolchain (go, cargo, mvn)")
