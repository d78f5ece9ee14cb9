"""Is NAME defined in the workspace's code, as far as the indexes already built know? For the hook.

`sidekit usages NAME` and `sidekit symbol NAME` answer well only for a name the code defines (a
function, class, method or module-level name); a grep for a parameter, a dict key or a word in a
docstring is better served by grep itself. This reads what is already on disk, read-only, and never
builds anything: the AST index (`.sidekit/code/index.sqlite`, every definition), else the function
index (module-level functions). Standard library only; sqlite3 is imported only when its file
exists.
"""

from __future__ import annotations

import os

from sidekit_hooks.code import INDEX_FILE
from sidekit_hooks.core import workspace


def defines(project: str, name: str) -> bool | None:
    """True/False when an index says whether NAME is defined; None when no index is built yet."""
    found = _in_ast_index(project, name)
    if found is not None:
        return found
    return _in_function_index(project, name)


def _in_ast_index(project: str, name: str) -> bool | None:
    path = os.path.join(workspace.state_dir(project), INDEX_FILE)
    if not os.path.isfile(path):
        return None
    import sqlite3

    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.05)
        try:
            return (
                db.execute("SELECT 1 FROM defs WHERE name = ? LIMIT 1", (name,)).fetchone()
                is not None
            )
        finally:
            db.close()
    except sqlite3.Error:
        return None


def _in_function_index(project: str, name: str) -> bool | None:
    from sidekit_hooks.code import functions

    index = functions.load(project)
    if not index:
        return None
    files = index.get("files")
    if not isinstance(files, dict):
        return None
    return any(
        isinstance(record, dict)
        and any(entry and entry[0] == name for entry in record.get("f", []))
        for record in files.values()
    )
