"""The compiled rule packs of a project, kept in `.sidekit/rules-snapshot.json`. Standard library
only.

Every event stats the pack files of the four layers (a few `listdir`/`stat` calls) and compares them
with what the snapshot recorded; only a changed pack is recompiled, so an edit is seen by the very
next event and an unchanged project never pays for TOML. A broken pack is kept in the snapshot with
its error (the other packs still apply), logged for `sidekit doctor`, and reported to the user once:
when it is compiled, which happens again only when the file changes.

    snapshot.current(project)            # {"rules": [...], "policy": {...}, "packs": [...], "broken": [...]}
"""

from __future__ import annotations

import os
import time

from sidekit_hooks import __version__
from sidekit_hooks.core import budget, fastjson, hooklog, safepath, workspace
from sidekit_hooks.rules import LAYERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypedDict

    class PackRecord(TypedDict):
        """One pack file as compiled (or why it could not be)."""

        path: str
        file: str  # as shown to people: project-relative, ~/ or <builtin>/
        layer: str  # builtin | user | project | local
        stat: Any  # the fingerprint that says whether it changed
        name: str
        error: str  # "" when it compiled
        rules: list[dict[str, Any]]
        policy: dict[str, Any]

    class Snapshot(TypedDict, total=False):
        """`.sidekit/rules-snapshot.json`: every layer merged, what the hook reads with fastjson."""

        format: int
        sidekit: str  # the version that wrote it; another version rebuilds it
        files: list[list[Any]]  # [layer, path, fingerprint] of every pack file read
        rules: list[dict[str, Any]]  # the merged, enabled-or-not rules, later layers winning by id
        policy: dict[str, Any]  # the merged [policy] table
        broken: list[dict[str, str]]  # {"file", "error"} of packs that did not compile
        packs: list[PackRecord]
        engine: str  # the interpreter the precompiled regex code is for
        sre: dict[str, Any]  # precompiled regex code by pattern


FORMAT = 1  # bump when the compiled form changes: older snapshots are rebuilt
SNAPSHOT_FILE = "rules-snapshot.json"
PACK_DIR = "sidecar_rules"
LOCAL_DIR = os.path.join(".sidekit", "rules")
PROJECT_LAYERS = ("project", "local")  # packs the repository holds: read only from inside it
# A hook compiles changed packs for at most this long; the rest is compiled by the next events
# (the snapshot is saved with what is done), so a huge change never costs one event its deadline.
COMPILE_BUDGET = 0.2  # seconds; what a hook passes as `compile_budget` to `current`
BACKGROUND_BYTES = (
    32 * 1024
)  # a changed pack this big is compiled by a background worker, not the hook
COMPILE_LOCK = "rules-compile.lock"
MAX_SNAPSHOT_BYTES = 4 << 20  # the compiled snapshot every event reads
MAX_TOTAL_BYTES = (
    256 * 1024
)  # the user, project and local packs together (one full-size pack); past it, packs are skipped


def builtin_dir() -> str:
    """The packs shipped inside the package (the repo's top-level `sidecar_rules/` links here)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), PACK_DIR)


def user_dir() -> str:
    """`~/.config/sidekit/rules/` (`$XDG_CONFIG_HOME/sidekit/rules/` when that is set)."""
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(config, "sidekit", "rules")


def layer_dirs(project: str) -> list[tuple[str, str]]:
    """(layer, folder) in override order. The project layer is skipped when it *is* the built-in
    one."""
    dirs = [
        ("builtin", builtin_dir()),
        ("user", user_dir()),
        ("project", os.path.join(project, PACK_DIR)),
        ("local", os.path.join(project, LOCAL_DIR)),
    ]
    builtin = os.path.realpath(dirs[0][1])
    return [
        (layer, path)
        for layer, path in dirs
        if layer == "builtin" or os.path.realpath(path) != builtin
    ]


PROJECT_LAYERS = (
    "project",
    "local",
)  # what the repository holds: read only from inside it (docs/settings.md)


def pack_files(project: str) -> list[tuple[str, str]]:
    """(layer, path) of every `*.toml` pack, layer by layer, by file name within a layer.

    The project's and the local layer are the repository's: a pack folder or file that a link leads
    out of the project is not read (nor anything but a regular file), so a clone cannot make sidekit
    read, and say, a file elsewhere on the machine."""
    found = []
    for layer, folder in layer_dirs(project):
        contained = layer in PROJECT_LAYERS
        if contained and os.path.islink(folder) and not safepath.inside(folder, project):
            continue
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if not name.endswith(".toml") or name.startswith("."):
                continue
            path = os.path.join(folder, name)
            if contained and not _own_pack(path, project):
                continue
            found.append((layer, path))
    return found


def refused_packs(project: str) -> list[str]:
    """The project's and local pack files (or folders) that are not read: linked out of the project,
    or not regular files (for doctor, which says how to mend each)."""
    refused = []
    for layer, folder in layer_dirs(project):
        if layer not in PROJECT_LAYERS:
            continue
        if os.path.islink(folder) and not safepath.inside(folder, project):
            refused.append(folder)
            continue
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        refused += [
            os.path.join(folder, name)
            for name in names
            if name.endswith(".toml")
            and not name.startswith(".")
            and not _own_pack(os.path.join(folder, name), project)
        ]
    return refused


def _own_pack(path: str, project: str) -> bool:
    """A regular file inside the project (through a link too, if it stays inside)."""
    import stat

    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    if stat.S_ISLNK(mode):
        return safepath.inside(path, project) and os.path.isfile(path)
    return stat.S_ISREG(mode)


def fingerprint(path: str) -> list[int]:
    """What tells a changed file from an unchanged one without reading it: mtime, size, inode."""
    try:
        info = os.stat(path)
    except OSError:
        return []
    return [info.st_mtime_ns, info.st_size, info.st_ino]


def display_path(path: str, project: str) -> str:
    """How errors name a pack: project-relative, `<builtin>/x.toml`, or `~/...`."""
    builtin = builtin_dir()
    if path.startswith(builtin + os.sep):
        return "<builtin>/" + path[len(builtin) + 1 :]
    if project and path.startswith(project.rstrip(os.sep) + os.sep):
        return path[len(project.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if home != "/" and path.startswith(home + os.sep) else path


# project -> (pack fingerprints, snapshot): the rules detector and the policy read it in the same
# hook.
_loaded: dict[str, tuple[list[list[Any]], Snapshot]] = {}


def current(
    project: str,
    notify: Callable[[str], None] | None = None,
    event_name: str = "rules",
    compile_budget: float = float("inf"),
) -> Snapshot:
    """The project's snapshot, recompiling what changed since it was written (and saving it)."""
    entries = [(layer, path, fingerprint(path)) for layer, path in pack_files(project)]
    files = [list(entry) for entry in entries]  # as the JSON snapshot holds them
    if project in _loaded and _loaded[project][0] == files:
        return _loaded[project][1]
    snap = _refresh(project, entries, files, notify, event_name, compile_budget)
    _loaded[project] = (files, snap)
    return snap


def _refresh(
    project: str,
    entries: list[tuple[str, str, Any]],
    files: list[list[Any]],
    notify: Callable[[str], None] | None,
    event_name: str,
    compile_budget: float = float("inf"),
) -> Snapshot:
    """Recompile what changed. With a `compile_budget` (a hook: COMPILE_BUDGET) the work stops there
    and big packs go to a background worker; the CLI and the worker compile everything at once."""
    started = time.monotonic()
    path = os.path.join(workspace.state_dir(project), SNAPSHOT_FILE)
    old = read(path)
    same_build = (
        old.get("format") == FORMAT
        and old.get("sidekit") == __version__
        and isinstance(old.get("packs"), list)
    )
    if same_build and old.get("files") == files:
        return old
    reusable = (
        {pack["path"]: pack for pack in old["packs"] if isinstance(pack, dict) and "path" in pack}
        if same_build
        else {}
    )
    packs: list[PackRecord] = []
    complete = True
    total = 0
    for layer, pack_path, stat in entries:
        total += stat[1] if layer != "builtin" and len(stat) > 1 else 0
        previous = reusable.get(pack_path)
        if previous is not None and previous["stat"] == stat and previous["layer"] == layer:
            packs.append(previous)
            continue
        if time.monotonic() - started > compile_budget:
            complete = False  # the next event goes on from here
            continue
        if (
            compile_budget != float("inf")
            and len(stat) > 1
            and stat[1] > BACKGROUND_BYTES
            and total <= MAX_TOTAL_BYTES
        ):
            complete = False  # too big to compile within one hook's share: a worker does it, once
            _compile_in_background(project)
            continue
        budget.doing(f"compiling pack {display_path(pack_path, project)}")
        pack = (
            over_budget(pack_path, layer, stat, project, total)
            if total > MAX_TOTAL_BYTES
            else build_pack(pack_path, layer, stat, project)
        )
        packs.append(pack)
        if pack["error"]:
            _report_broken(project, event_name, pack, notify)
    rules, policy = merge(packs)
    code = precompile(rules, old, started + compile_budget)
    complete = complete and code.pop("complete")
    snap: Snapshot = {
        "format": FORMAT,
        "sidekit": __version__,
        "files": files if complete else [],
        "rules": rules,
        "policy": policy,
        "broken": [{"file": p["file"], "error": p["error"]} for p in packs if p["error"]],
        "packs": packs,
        "engine": code["engine"],
        "sre": code["sre"],
    }
    data = fastjson.dumps(snap)
    if (
        len(data) > MAX_SNAPSHOT_BYTES
    ):  # every event reads it: past the cap, the regexes compile lazily instead
        snap["sre"] = {}
        data = fastjson.dumps(snap)
    try:
        workspace.atomic_write(path, data)
    except OSError as exc:  # a read-only project still gets its rules, compiled per event
        hooklog.error(project, event_name, "rules", f"cannot save the rules snapshot: {exc}")
    return snap


def _compile_in_background(project: str) -> None:
    """Start one detached worker (per project, by lock) that compiles every pack without a time
    budget."""
    from sidekit_hooks.core import background

    lock = os.path.join(workspace.state_dir(project), COMPILE_LOCK)
    try:
        if background.take_lock(lock, stale_after=60):
            background.spawn_module("sidekit_hooks.rules.snapshot", ["compile", project, lock])
    except OSError as exc:
        hooklog.error(project, "rules", "compile", f"cannot start the background compile: {exc}")


def main(argv: list[str] | None = None) -> int:
    """`python -S -m sidekit_hooks.rules.snapshot compile PROJECT LOCK`: the background compile."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3 or args[0] != "compile":
        print("usage: python -m sidekit_hooks.rules.snapshot compile PROJECT LOCK", file=sys.stderr)
        return 2
    from sidekit_hooks.core import background

    try:
        current(args[1])
    # a background worker logs and exits; nobody waits for it
    except Exception as exc:  # noqa: BLE001
        hooklog.error(args[1], "background", "rules", exc)
    finally:
        background.release_lock(args[2])
    return 0


def over_budget(path: str, layer: str, stat: list[int], project: str, total: int) -> PackRecord:
    """A pack past the total size cap: recorded as broken, never compiled."""
    display = display_path(path, project)
    error = (
        f"{display}: the packs together are {total // 1024} KB, over the "
        f"{MAX_TOTAL_BYTES // 1024} KB every "
        "tool call can afford; this pack is skipped\n  fix: trim or remove packs (sidekit rules "
        "list shows them)"
    )
    return {
        "path": path,
        "file": display,
        "layer": layer,
        "stat": stat,
        "name": "",
        "error": error,
        "rules": [],
        "policy": {},
    }


def precompile(
    rules: list[dict[str, Any]], old: Snapshot, until: float = float("inf")
) -> dict[str, Any]:
    """The engine code of every regex of the active rules (see `sre`), reusing what `old` had. Past
    `until` the rest is left for the next event (`complete` is False); `match` compiles those
    itself."""
    from sidekit_hooks.rules import sre

    known = old.get("sre", {}) if old.get("engine") == sre.ENGINE else {}
    code: dict[str, Any] = {}
    complete = True
    for rule in rules:
        for key in ("added", "absent", "command", "output"):
            pattern = rule["when"].get(key)
            if pattern is not None and pattern not in code:
                entry = known.get(pattern)
                if entry is None:
                    if time.monotonic() > until:
                        complete = False
                        continue
                    entry = sre.assemble(pattern)
                if entry is not None:
                    code[pattern] = entry
    return {"engine": sre.ENGINE, "sre": code, "complete": complete}


def read(path: str) -> Snapshot:
    """The saved snapshot, or {} when there is none or it is unreadable (then it is rebuilt)."""
    try:
        snap = fastjson.loads(safepath.read_bytes(safepath.check(path), 64 << 20).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return snap if isinstance(snap, dict) else {}  # type: ignore[return-value]  # a checked JSON object


def build_pack(path: str, layer: str, stat: list[int], project: str) -> PackRecord:
    """One pack file compiled, or recorded with its first error."""
    from sidekit_hooks.rules import compiler

    display = display_path(path, project)
    record: PackRecord = {
        "path": path,
        "file": display,
        "layer": layer,
        "stat": stat,
        "name": "",
        "error": "",
        "rules": [],
        "policy": {},
    }
    text = ""
    try:
        text, data = compiler.read_toml(path, project if layer in PROJECT_LAYERS else "")
        compiled = compiler.compile_pack(data, {"file": display, "layer": layer})
    except compiler.PackError as exc:
        record["error"] = compiler.render(exc.problems[0], display, text)
        return record
    except OSError as exc:
        record["error"] = (
            f"{display}: cannot read the pack ({exc.strerror or exc})\n  fix: check the file's "
            "permissions"
        )
        return record
    # a pack the checks missed must not take the other packs down
    except Exception as exc:  # noqa: BLE001
        record["error"] = (
            f"{display}: cannot compile the pack ({type(exc).__name__}: {exc})\n  fix: sidekit "
            f"rules lint {display}"
        )
        return record
    record["name"], record["rules"], record["policy"] = (
        compiled["name"],
        compiled["rules"],
        compiled["policy"],
    )
    return record


def merge(packs: list[PackRecord]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Layer the packs: a later rule replaces an earlier one with its id; `enabled = false` removes
    it.

    `[policy]` tables merge key by key, later layers winning (nested tables merge the same way).
    """
    active: dict[str, dict[str, Any]] = {}
    policy: dict[str, Any] = {}
    for pack in packs:
        if pack["error"]:
            continue
        _deep_update(policy, pack["policy"])
        for rule in pack["rules"]:
            active.pop(rule["id"], None)
            if rule["enabled"]:
                active[rule["id"]] = rule
    return list(active.values()), policy


def _deep_update(into: dict[str, Any], update: dict[str, Any]) -> None:
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _deep_update(into[key], value)
        else:
            into[key] = value


def _report_broken(
    project: str, event_name: str, pack: PackRecord, notify: Callable[[str], None] | None
) -> None:
    """Log it for `sidekit doctor` and tell the user, once per broken version of the file, even when
    parallel tool calls run several hooks that all find it at the same moment."""
    first_line = pack["error"].splitlines()[0]
    if not _first_to_report(project, pack):
        return
    hooklog.error(project, event_name, f"rules:{pack['file']}", pack["error"])
    if notify is not None:
        target = "" if pack["file"].startswith("<") else f" {pack['file']}"
        notify(
            f"sidekit: a broken rule pack was skipped (the others still apply): {first_line}; "
            f"details: sidekit rules lint{target}"
        )


NOTIFIED_DIR = "rules-notified"
MAX_NOTIFIED = 64


def _first_to_report(project: str, pack: PackRecord) -> bool:
    """Claim the report with an O_EXCL marker named after the file and its fingerprint."""
    import zlib

    folder = os.path.join(workspace.log_dir(project), NOTIFIED_DIR)
    name = f"{zlib.crc32(repr((pack['path'], pack['stat'])).encode('utf-8', 'replace')):08x}"
    try:
        safepath.makedirs(folder, project)
        os.close(os.open(os.path.join(folder, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except FileExistsError:
        return False
    except OSError:
        return True  # cannot keep a marker (read-only project): better said again than never
    _prune(folder)
    return True


def _prune(folder: str) -> None:
    try:
        names = os.listdir(folder)
        if len(names) > MAX_NOTIFIED:
            own = [
                n for n in names if len(n) == 8 and all(c in "0123456789abcdef" for c in n)
            ]  # only our markers
            paths = sorted((os.path.join(folder, n) for n in own), key=os.path.getmtime)
            for path in paths[: len(paths) - MAX_NOTIFIED]:
                os.unlink(path)
    except OSError:
        pass


def broken(project: str) -> list[dict[str, str]]:
    """The packs that are skipped because they are broken (for `sidekit doctor`): file and error."""
    return list(current(project)["broken"])


__all__ = ["LAYERS", "broken", "current", "merge", "pack_files"]


if __name__ == "__main__":
    from sidekit_hooks.core import background

    background.wall_clock_cap()
    raise SystemExit(main())
