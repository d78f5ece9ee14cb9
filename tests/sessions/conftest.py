"""The session corpus belongs to the full suite: it plays whole sessions in the real CLI (minutes, not seconds)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: the full suite only (real CLI, whole sessions, the package registry)")
