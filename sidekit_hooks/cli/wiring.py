"""The files `sidekit install`, `uninstall` and `doctor` touch: Claude Code settings, the install
record, backups, the project's .gitignore and CLAUDE.md. (The merge logic itself is `settings.py`.)"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from dataclasses import dataclass
from typing import Any

import sidekit_hooks
from sidekit_hooks.core import workspace
from sidekit_hooks.core.errors import SidekitError

BACKUP_SUFFIX = ".sidekit-backup"
RECORD_FILE = "install.json"
IGNORED = (".sidekit/", ".runtime/", ".claude/*" + BACKUP_SUFFIX)
IGNORE_COMMENT = "# sidekit-hooks: caches, logs, the nudge queue, settings backups"
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
        raise SidekitError("--local names a project's settings.local.json; it does not combine with --user",
                           "drop --local, or use --project DIR --local")
    if user:
        claude = os.path.join(home(), ".claude")
        record = os.path.join(home(), ".config", "sidekit", RECORD_FILE)
        return Target(os.path.join(claude, "settings.json"), "", record, os.path.join(claude, "CLAUDE.md"), "--user")
    root = os.path.abspath(project or workspace.project_dir())
    if not os.path.isdir(root):
        raise SidekitError(f"project folder {root} does not exist", f"mkdir -p {root}, or pass --project DIR")
    name = "settings.local.json" if local else "settings.json"
    flags = f"--project {_quote(root)}" + (" --local" if local else "")
    return Target(os.path.join(root, ".claude", name), root, os.path.join(workspace.state_dir(root), RECORD_FILE),
                  os.path.join(root, "CLAUDE.md"), flags)


def hooks_dir() -> str:
    """The `hooks/` folder of the checkout this package runs from (an editable install)."""
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(sidekit_hooks.__file__))), "hooks")
    if not os.path.isfile(os.path.join(folder, "post_tool_use.py")):
        raise SidekitError(
            "this sidekit is installed without its checkout, so there are no hook scripts to point Claude Code at",
            "git clone the sidekit-hooks repository and run ./install.sh PROJECT_DIR there (or use the plugin form)",
        )
    return folder


def interpreter() -> str:
    """The venv's interpreter as invoked (not symlink-resolved: the venv is found through it)."""
    return os.path.abspath(sys.executable)


def read_settings(path: str, fix: str) -> SettingsFile:
    """The settings as a dict; a clear SidekitError (and nothing changed) when they cannot be used."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return SettingsFile({}, "", False)
    except (OSError, UnicodeDecodeError) as exc:
        raise SidekitError(f"cannot read {path} ({exc}); nothing was changed",
                           f"chmod u+rw {_quote(path)}, then: {fix}") from None
    if not text.strip():
        return SettingsFile({}, text, True)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SidekitError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); nothing was changed",
            f"repair it (python3 -m json.tool {_quote(path)} points at the error), then: {fix}",
        ) from None
    if not isinstance(data, dict):
        raise SidekitError(f"{path} holds JSON but not an object; nothing was changed",
                           f"make it a JSON object ({{...}}), then: {fix}")
    return SettingsFile(data, text, True)


def write_settings(path: str, data: dict[str, Any], before: SettingsFile, text: str = "") -> str:
    """Write the settings atomically in the file's own indentation (or `text`, when given, verbatim);
    return the backup path ('' if none).

    A symlinked settings file (dotfiles) is written through the link, not replaced by a plain file.
    """
    real = os.path.realpath(path)
    backup = ""
    if before.existed:
        backup = path + BACKUP_SUFFIX
        workspace.atomic_write(backup, before.text)
    mode = _mode(real)
    workspace.atomic_write(real, text or json.dumps(data, indent=_indent(before.text), ensure_ascii=False) + "\n")
    if mode is not None:
        os.chmod(real, mode)
    return backup


def remove_settings_file(path: str, before: SettingsFile) -> str:
    """Delete a settings file install created and uninstall emptied; keep a backup of its last text."""
    backup = path + BACKUP_SUFFIX
    workspace.atomic_write(backup, before.text)
    os.unlink(path)
    return backup


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


def _records(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def ensure_gitignore(project: str) -> list[str]:
    """Add the ignore lines the project lacks (once); return what was added."""
    path = os.path.join(project, ".gitignore")
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        text = ""
    present = {_ignore_key(line) for line in text.splitlines()}
    missing = [line for line in IGNORED if _ignore_key(line) not in present]
    if not missing:
        return []
    prefix = "" if not text else ("\n" if text.endswith("\n") else "\n\n")
    workspace.atomic_write(path, text + prefix + "\n".join([IGNORE_COMMENT, *missing]) + "\n")
    return missing


def _ignore_key(line: str) -> str:
    """`.sidekit`, `/.sidekit/` and `.sidekit/*` all ignore the same folder."""
    key = line.strip()
    for tail in ("/**", "/*"):
        key = key.removesuffix(tail)
    return key.strip("/")


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
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return ""


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
