"""Moved to `sidekit_hooks.core.git_exclude` (the hooks use it when they create `.sidekit/` or
`.runtime/`); these names keep working."""

from sidekit_hooks.core.git_exclude import MAX_POINTER, MAX_UP, exclude_file, in_repository

__all__ = ["MAX_POINTER", "MAX_UP", "exclude_file", "in_repository"]
