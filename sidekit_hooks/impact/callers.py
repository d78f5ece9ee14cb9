"""Which test files call into a file: they reference a function or method it defines (by bare name,
from the code index; a name used but not resolved to this file still counts, so the answer leans
wide)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.index import Index

CALLABLE_KINDS = ("function", "method")


def test_files_calling(index: Index, path: str, test_files: set[str]) -> set[str]:
    """The members of `test_files` that reference a function or method `path` defines."""
    names = {
        s.qualname.rsplit(".", 1)[-1]
        for s in index.definitions_in(path)
        if s.kind in CALLABLE_KINDS
    }
    return {site for name in names for site, _ in index.references(name) if site in test_files}
