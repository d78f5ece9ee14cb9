"""The files `sidekit install`, `uninstall` and `doctor` touch: Claude Code settings, the install
record, backups, the project's .gitignore and CLAUDE.md. (The merge logic itself is
`settings.py`.)"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import sys
from dataclasses import dataclass
from typing import Any

import sidekit_hooks
from sidekit_hooks.core import gitignore, safepath, workspace
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.pipeline import hook_events

BACKUP_SUFFIX = gitignore.BACKUP_SUFFIX
RECORD_FILE = "install.json"
MAX_FILE_BYTES = 16 << 20  # a settings file, .gitignore or CLAUDE.md larger than this is not read
CLAUDE_MD_BEGIN = "<!-- sidekit-hooks:begin (sidekit install --claude-md; sidekit uninstall --claude-md removes it) -->"
CLAUDE_MD_END = "<!-- sidekit-hooks:end -->"
CLAUDE_MD_BODY = """\
## sidekit: compact answers instead of raw tools

`sidekit` answers in one line of JSON, a fraction of the tokens of raw output. Reach for it first:
- Test status: `sidekit status` (`--since N` to ask "anything new?"), not a pytest run just to look.
- Run tests: `sidekit test [PATHS]`, or `sidekit test --select` for only what your change needs, not bare `pytest`.
- Why a test fails: `sidekit failures [TEST_ID]` (`--stacks` for tracebacks).
- Which tests a change needs: `sidekit select`.
- Where a name is defined: `sidekit symbol NAME`; where it is used: `sidekit usages NAME`, not `grep -rn`.
Lines starting `[sidecar:...]` in hook context come from sidekit: facts about this repo's rules.
"""
CLAUDE_MD_MCP = """\
The same answers are MCP tools here (server `sidekit`), with no shell quoting: `status`, `test`,
`failures`, `select`, `tests_for`, `blast_radius`, `symbol`, `usages`, `scope_show`, `scope_set`.
Prefer them to the Bash commands.
"""


@dataclass(frozen=True)
class Target:
    """Which settings file a command works on, and where its side files live."""

    settings: str  # absolute path of the settings file
    project: str  # the project folder; '' for --user
    record: str  # the install record (one JSON map for every settings file it covers)
    claude_md: str  # the CLAUDE.md that --claude-md edits
    flags: str  # the scope flags, to repeat in fix commands


@dataclass(frozen=True)
class SettingsFile:
    data: dict[str, Any]
    text: str  # '' when the file does not exist
    existed: bool


def home() -> str:
    return os.path.expanduser("~")


def target_of(project: str | None, user: bool, local: bool) -> Target:
    if user and local:
        raise SidekitError(
            "--local names a project's settings.local.json; it does not combine with --user",
            "drop --local, or use --project DIR --local",
        )
    if user:
        claude = os.path.join(home(), ".claude")
        record = os.path.join(home(), ".config", "sidekit", RECORD_FILE)
        return Target(
            os.path.join(claude, "settings.json"),
            "",
            record,
            os.path.join(claude, "CLAUDE.md"),
            "--user",
        )
    root = os.path.abspath(project or workspace.project_dir())
    if not os.path.isdir(root):
        raise SidekitError(
            f"project folder {root} does not exist", f"mkdir -p {root}, or pass --project DIR"
        )
    name = "settings.local.json" if local else "settings.json"
    flags = f"--project {_quote(root)}" + (" --local" if local else "")
    for folder in (workspace.STATE_DIR, ".claude"):  # checked before anything is written
        path = os.path.join(root, folder)
        if os.path.lexists(path) and not os.path.isdir(path):
            raise SidekitError(
                f"{path} exists but is not a folder; nothing was changed",
                f"move it away (mv {_quote(path)} {_quote(path + '.old')}), then: sidekit install "
                f"{flags}",
            )
    return Target(
        os.path.join(root, ".claude", name),
        root,
        os.path.join(workspace.state_dir(root), RECORD_FILE),
        os.path.join(root, "CLAUDE.md"),
        flags,
    )


@dataclass(frozen=True)
class HookScripts:
    """Where the hook entry scripts `install` points Claude Code at live, and how they are
    started."""

    folder: str
    flags: str  # the interpreter's options before the script


def hook_scripts() -> HookScripts:
    """The checkout's `hooks/` (an editable install: `-S`, as always), else the entries the package
    itself carries (pip, pipx, uv tool: no checkout anywhere; `-I -S`, see hook_events.PACKAGED)."""
    package = os.path.dirname(os.path.abspath(sidekit_hooks.__file__))
    checkout = os.path.join(os.path.dirname(package), "hooks")
    if os.path.isfile(os.path.join(checkout, "post_tool_use.py")):
        return HookScripts(checkout, "-S")
    packaged = os.path.join(package, hook_events.PACKAGED)
    if not os.path.isfile(os.path.join(packaged, "post_tool_use.py")):
        raise SidekitError(
            f"this sidekit's hook scripts are missing ({packaged} has no post_tool_use.py); "
            "nothing was changed",
            f"reinstall it: {shlex.quote(interpreter())} -m pip install --force-reinstall "
            "sidekit-hooks "
            "(pipx reinstall sidekit-hooks, or uv tool install --reinstall sidekit-hooks)",
        )
    return HookScripts(packaged, "-I -S")


def hooks_dir() -> str:
    """The folder of the hook entry scripts (hook_scripts)."""
    return hook_scripts().folder


def interpreter() -> str:
    """The venv's interpreter as invoked (not symlink-resolved: the venv is found through it)."""
    return os.path.abspath(sys.executable)


def read_settings(path: str, fix: str) -> SettingsFile:
    """The settings as a dict; a clear SidekitError (and nothing changed) when they cannot be
    used."""
    try:
        text = _read_raw(path, missing=None)  # CRLF stays CRLF
    except FileNotFoundError:
        return SettingsFile({}, "", False)
    except (OSError, UnicodeDecodeError) as exc:
        raise SidekitError(
            f"cannot read {path} ({exc}); nothing was changed",
            f"chmod u+rw {_quote(path)}, then: {fix}",
        ) from None
    return SettingsFile(json_object(path, text, fix), text, True)


def json_object(path: str, text: str, fix: str) -> dict[str, Any]:
    """The JSON object a config file holds ({} for a blank one); a clear SidekitError when it is not
    one. `fix`: the command that finishes the job once the file is repaired."""
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SidekitError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "nothing was changed",
            f"repair it (python3 -m json.tool {_quote(path)} points at the error), then: {fix}",
        ) from None
    if not isinstance(data, dict):
        raise SidekitError(
            f"{path} holds JSON but not an object; nothing was changed",
            f"make it a JSON object ({{...}}), then: {fix}",
        )
    return data


def check_writable(path: str, project: str, fix: str) -> None:
    """Refuse, before anything is written, a settings file sidekit must not replace or write
    through.

    A symlink (dotfiles) is written through to its target, the user's own choice when they run
    install; a dangling one is refused rather than replaced by a file. A read-only file stays as the
    user made it.
    """
    if os.path.islink(path):
        real = os.path.realpath(path)
        if not os.path.exists(real):
            raise SidekitError(
                f"{path} is a symlink to {real}, which does not exist; nothing was changed",
                f"create the target or replace the link with a file, then: {fix}",
            )
    mode = _mode(os.path.realpath(path))
    # The permission bits, not os.access: root may write anything, yet a read-only file means "leave
    # it".
    if mode is not None and not mode & 0o222:
        raise SidekitError(
            f"{path} is read-only; nothing was changed", f"chmod u+w {_quote(path)}, then: {fix}"
        )


def write_settings(
    path: str,
    data: dict[str, Any],
    before: SettingsFile,
    text: str | None = None,
    backup: bool = True,
) -> str:
    """Write the settings atomically in the file's own indentation and line endings (or `text`, when
    given, verbatim); return the backup path ('' if none).

    A symlinked settings file (dotfiles) is written through the link, not replaced by a plain file.
    """
    real = os.path.realpath(path)
    kept = ""
    if before.existed and backup:
        kept = path + BACKUP_SUFFIX
        workspace.atomic_write(kept, before.text)
    mode = _mode(real)
    if text is None:
        text = json.dumps(data, indent=_indent(before.text), ensure_ascii=False) + "\n"
        if "\r\n" in before.text:  # the file's own line endings (CRLF from a Windows editor)
            text = text.replace("\n", "\r\n")
    workspace.atomic_write(real, text)
    if mode is not None:
        os.chmod(real, mode)
    return kept


def own_folders(target: Target) -> list[str]:
    """The folders install may create for `target`, deepest first: those of the settings file and of
    the record, and their parents up to (not including) the project folder, or the home folder for
    --user."""
    stop = (target.project or home()).rstrip(os.sep) + os.sep
    found: list[str] = []
    for leaf in (os.path.dirname(target.settings), os.path.dirname(target.record)):
        folder = leaf
        while folder.startswith(stop) and folder not in found:
            found.append(folder)
            folder = os.path.dirname(folder)
    return found


def missing_folders(target: Target) -> list[str]:
    """Those of `own_folders` that do not exist yet (install is about to create them)."""
    return [folder for folder in own_folders(target) if not os.path.lexists(folder)]


def remove_created_folders(target: Target, created: object) -> list[str]:
    """Remove the folders the record says install created, when they are empty again; returns them.

    Only folders install can create for this target are candidates, so a record a repository commits
    cannot name any other; a folder that holds anything (a hook's logs, the user's files) stays."""
    if not isinstance(created, list):
        return []
    removed: list[str] = []
    for folder in own_folders(target):  # deepest first
        if folder in created and os.path.isdir(folder) and not os.path.islink(folder):
            try:
                os.rmdir(folder)
            except OSError:
                continue
            removed.append(folder)
    return removed


def remove_backup(path: str) -> bool:
    """Remove the backup install kept of `path` (uninstall takes away what install wrote)."""
    try:
        os.unlink(path + BACKUP_SUFFIX)
    except OSError:
        return False
    return True


def remove_settings_file(path: str) -> None:
    """Delete a settings file install created and uninstall emptied."""
    os.unlink(path)


def load_record(target: Target) -> dict[str, Any] | None:
    """What install wrote into this settings file, or None when no install here left a record."""
    entry = _records(target.record).get(target.settings)
    return entry if isinstance(entry, dict) else None


def save_record(target: Target, record: dict[str, Any] | None) -> None:
    records = _records(target.record)
    if record is None:
        if target.settings not in records:
            return
        del records[target.settings]
    else:
        records[target.settings] = record
    if not records and os.path.exists(target.record):
        os.unlink(target.record)
        return
    if records:
        workspace.atomic_write(target.record, json.dumps(records, indent=2) + "\n")


def has_records(target: Target) -> bool:
    """Whether any install (another settings file of this project) is still recorded."""
    return bool(_records(target.record))


def _records(path: str) -> dict[str, Any]:
    try:
        data = json.loads(safepath.read_regular(path, MAX_FILE_BYTES))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def add_claude_md(path: str, mcp: bool = False) -> bool:
    """Append the sidekit block to CLAUDE.md unless it is there; True when it was added.

    `mcp`: the project's .mcp.json wires `sidekit mcp`, so the block names its tools too.
    """
    text = _read_text(path)
    if CLAUDE_MD_BEGIN.split(" (")[0] in text:
        return False
    prefix = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    workspace.atomic_write(path, text + prefix + claude_md_block(mcp))
    return True


def remove_claude_md(path: str) -> bool:
    """Take the sidekit block (and the blank line add_claude_md put before it) out of CLAUDE.md."""
    text = _read_text(path)
    begin = text.find(CLAUDE_MD_BEGIN.split(" (")[0])
    end = text.find(CLAUDE_MD_END, begin)
    if begin < 0 or end < 0:
        return False
    end += len(CLAUDE_MD_END)
    head, tail = text[:begin], text[end:].removeprefix("\n")
    if tail == "" and head.endswith("\n\n"):
        head = head[:-1]
    remaining = head + tail
    if remaining.strip():
        workspace.atomic_write(path, remaining)
    else:
        os.unlink(path)
    return True


def claude_md_block(mcp: bool = False) -> str:
    return f"{CLAUDE_MD_BEGIN}\n{CLAUDE_MD_BODY}{CLAUDE_MD_MCP if mcp else ''}{CLAUDE_MD_END}\n"


def has_claude_md_block(path: str) -> bool:
    return CLAUDE_MD_BEGIN.split(" (")[0] in _read_text(path)


def _read_text(path: str) -> str:
    """The text with its line endings made `\n`, as `open()` reads it ('' when there is no file)."""
    return _read_raw(path).replace("\r\n", "\n").replace("\r", "\n")


def _read_raw(path: str, missing: str | None = "") -> str:
    """The text as it is on disk: CRLF stays CRLF (a file sidekit gives back must keep its endings).
    A regular file only, never blocking, at most MAX_FILE_BYTES (UnsafePath, TooLarge: OSErrors);
    `missing` when there is no file (None: FileNotFoundError)."""
    try:
        return safepath.read_regular(path, MAX_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        if missing is None:
            raise
        return missing


def _indent(text: str) -> int | str:
    """The indentation a settings file already uses (2 spaces for a new one)."""
    match = re.search(r"^([ \t]+)\S", text, re.MULTILINE)
    return match.group(1) if match else 2


def _mode(path: str) -> int | None:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None


def _quote(path: str) -> str:
    import shlex

    return shlex.quote(path)
