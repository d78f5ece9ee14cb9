"""The plugin for a pytest in another environment (`-p sidekit_hooks.runners.pytest.external`).

A module of its own so that, where the `sidekit` entry point is installed as well, pytest registers
two distinct modules; their shared `pytest_configure` installs the recorder only once.
"""

from __future__ import annotations

from sidekit_hooks.runners.pytest.plugin import pytest_configure

__all__ = ["pytest_configure"]
