"""Third-party packages from the hot path, for the rare detector that truly needs one.

Hooks run as `python -S` (no site-packages: faster start, and nothing third-party sneaks in). A
detector that needs e.g. rapidfuzz calls `enable_site_packages()` first, only on the events that
need it.
"""

from __future__ import annotations

import sys


def enable_site_packages() -> None:
    """Add the interpreter's site-packages (and its .pth entries) to sys.path, once."""
    if sys.flags.no_site and "site" not in sys.modules:
        import site

        site.main()
