"""`python -m sidekit_hooks.cli`: the `sidekit` command (bin/sidekit runs it this way)."""

from __future__ import annotations

from sidekit_hooks.cli import main

raise SystemExit(main())
