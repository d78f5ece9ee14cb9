"""Building the function index (see `code.functions`): in the background, or in the foreground for
`python -m sidekit_hooks.code.functions build PROJECT`. Never imported by a hook.
"""

from __future__ import annotations

import ast
import os
import sys
import time
from typing import Any

from sidekit_hooks.code import near_copies, rewrites
from sidekit_hooks.code.functions import (
    BEHAVIOUR,
    FEATURES,
    MAX_FILE_BYTES,
    MAX_FILES,
    ORPHAN_AFTER,
    ORPHAN_MAX_BYTES,
    PRUNE_AFTER,
    SKIP_DIRS,
    VERSION,
    analyze,
    cache_dir,
    code_lines,
    index_path,
    indexable,
    load,
    local_index_dir,
    lock_path,
    parse,
)
from sidekit_hooks.core import background, fastjson, safepath, workspace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.functions import Entry


def python_files(project: str) -> list[str]:
    """Project-relative paths of the .py files worth indexing (no hidden, vendored or built
    dirs)."""
    found: list[str] = []
    for folder, dirs, files in os.walk(project):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and d not in SKIP_DIRS and not d.endswith(".egg-info")
        )
        for name in sorted(files):
            if name.endswith(".py") and safepath.project_file(
                project, _relative(folder, name, project)
            ):
                found.append(
                    os.path.relpath(os.path.join(folder, name), project).replace(os.sep, "/")
                )
                if len(found) >= MAX_FILES:
                    return found
    return found


def _relative(folder: str, name: str, project: str) -> str:
    return os.path.relpath(os.path.join(folder, name), project)


def build(project: str, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """A fresh index; files whose mtime and size match `previous` are reused, not re-parsed."""
    old_files: dict[str, Any] = (previous or {}).get("files", {})
    reusable = (previous or {}).get(
        "behaviour"
    ) == BEHAVIOUR  # entries made by an older normaliser are redone
    files: dict[str, Any] = {}
    for rel in python_files(project):
        stat = safepath.project_file(project, rel)
        if stat is None:
            continue
        old = old_files.get(rel) if reusable else None
        if (
            isinstance(old, dict)
            and old.get("m") == stat.st_mtime_ns
            and old.get("s") == stat.st_size
        ):
            files[rel] = old
            continue
        entries: list[Entry] = []
        if stat.st_size <= MAX_FILE_BYTES:
            data = safepath.read_project_file(project, rel, MAX_FILE_BYTES)
            if data is None:
                continue
            entries = extract(data.decode("utf-8", "replace"))
        files[rel] = {"m": stat.st_mtime_ns, "s": stat.st_size, "f": entries}
    link_callees(files)
    return {
        "version": VERSION,
        "behaviour": BEHAVIOUR,
        "project": os.path.abspath(project),
        "built": round(time.time(), 3),
        "files": files,
    }


def link_callees(files: dict[str, Any]) -> None:
    """Give each entry the features of the project helpers it calls (its ninth field): an agent who
    inlines a private helper copies the pair, and the pair is what its copy must be compared with.
    One level, helpers of the same file first; done here so that a hook only compares."""
    by_name: dict[str, str] = {}
    for record in files.values():
        for entry in record["f"]:
            if len(entry) > FEATURES:
                by_name.setdefault(entry[0], entry[FEATURES])
    for record in files.values():
        local = {entry[0]: entry[FEATURES] for entry in record["f"] if len(entry) > FEATURES}
        for entry in record["f"]:
            if len(entry) <= FEATURES:
                continue
            called = [
                f[2:] for f in entry[FEATURES].split() if f.startswith("c:") and f[2:] != entry[0]
            ]
            extra: set[str] = set()
            for name in called:
                text = local.get(name, by_name.get(name))
                if (
                    text
                ):  # what an inlined helper brings: its calls, constants, operators, outside names
                    extra.update(f for f in text.split() if f.startswith(near_copies.INLINED))
            del entry[FEATURES + 1 :]
            entry.append(" ".join(sorted(extra)))


def refresh(project: str, prune: bool = True) -> bool:
    """Bring the on-disk index up to date under a lock. False when another refresh holds the lock.

    `prune=False`: leave the cache's other entries alone (a hook building a tiny index inline)."""
    lock = lock_path(project)
    if not os.path.isdir(project):
        return False  # gone (a throw-away project removed under us): recreate nothing
    if not background.take_lock(lock):
        return False
    try:
        index = build(project, load(project))
        target = index_path(project)
        in_project = not target.startswith(cache_dir() + os.sep)
        if not in_project or os.path.isdir(
            os.path.dirname(target)
        ):  # re-checked: never recreate the project
            workspace.atomic_write(target, fastjson.dumps(index))
        if prune:
            prune_cache()
    finally:
        background.release_lock(lock)
    return True


def prune_cache(now: float | None = None) -> int:
    """Delete cache entries of projects that are gone, or that nobody refreshed for PRUNE_AFTER
    seconds.

    Throw-away projects (tests, `sidekit demo`) leave small entries behind; an entry idle for an
    hour whose project folder no longer exists goes. Returns how many entries were deleted.
    """
    now = time.time() if now is None else now
    removed = 0
    try:
        names = os.listdir(cache_dir())
    except OSError:
        return 0
    for name in names:
        path = os.path.join(cache_dir(), name)
        try:
            if not name.endswith(".json"):
                continue
            stat = os.stat(path)
            idle = now - stat.st_mtime
            if idle > PRUNE_AFTER or (
                idle > ORPHAN_AFTER and stat.st_size < ORPHAN_MAX_BYTES and orphaned(path)
            ):
                os.unlink(path)
                removed += 1
        except OSError:
            continue
    return removed


def orphaned(path: str) -> bool:
    """A cache entry whose project folder no longer exists."""
    try:
        project = fastjson.loads(safepath.read_bytes(path, safepath.MAX_STATE).decode()).get(
            "project"
        )
    except (OSError, ValueError, AttributeError):
        return True
    return isinstance(project, str) and not os.path.isdir(project)


def extract(source: str) -> list[Entry]:
    """Index entries for the module-level functions of one file's source ([] if it does not
    parse)."""
    import _ast

    tree = parse(source)
    if tree is None:
        return []
    entries: list[Entry] = []
    source_lines = source.splitlines()
    for node in tree.body:
        if isinstance(node, (_ast.FunctionDef, _ast.AsyncFunctionDef)) and indexable(node.name):
            lines = code_lines("\n".join(source_lines[node.lineno - 1 : node.end_lineno]))
            sig = signature(node)
            try:  # a pathologically nested body (thousands of `+`) is left out, not the whole index
                canonical, features = (
                    rewrites.canonical(node),
                    rewrites.features(node),
                )  # before `analyze` renames
                tokens, outside = analyze(node)
            except RecursionError:
                continue
            entries.append(
                [
                    node.name,
                    node.lineno,
                    sig,
                    lines,
                    " ".join(tokens),
                    " ".join(outside),
                    " ".join(canonical),
                    " ".join(features),
                ]
            )
    return entries


def signature(node: ast.FunctionDef | ast.AsyncFunctionDef, limit: int = 60) -> str:
    """`name(a, b, *rest, **options)`: parameter names only, cut at `limit` characters."""
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    if args.vararg:
        names.append("*" + args.vararg.arg)
    elif args.kwonlyargs:
        names.append("*")
    names += [a.arg for a in args.kwonlyargs]
    if args.kwarg:
        names.append("**" + args.kwarg.arg)
    text = f"{node.name}({', '.join(names)})"
    return text if len(text) <= limit else text[: limit - 4] + "...)"


def main(argv: list[str] | None = None) -> int:
    """`python -m sidekit_hooks.code.functions refresh|build PROJECT` (refresh is what hooks start)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in ("refresh", "build"):
        print(
            "usage: python -m sidekit_hooks.code.functions refresh|build PROJECT", file=sys.stderr
        )
        return 2
    project = os.path.abspath(args[1])
    if args[0] == "build":  # in the foreground, into the project's .sidekit/index/ (created)
        index = build(project)
        safepath.makedirs(local_index_dir(project))
        workspace.atomic_write(index_path(project), fastjson.dumps(index))
        count = sum(len(f["f"]) for f in index["files"].values())
        print(f"indexed {count} functions in {len(index['files'])} files -> {index_path(project)}")
        return 0
    try:
        refresh(project)
    # a background worker logs and exits; nobody waits for it
    except Exception as exc:  # noqa: BLE001
        from sidekit_hooks.core import hooklog

        if os.path.isdir(workspace.state_dir(project)):
            hooklog.error(project, "background", "function-index", exc)
    return 0


if __name__ == "__main__":
    background.wall_clock_cap()
    raise SystemExit(main())
