"""`sidekit install --mcp`: the `sidekit` server in a project's `.mcp.json`, approved in its
settings.

Pure merges (dicts in, dicts out) plus the `.mcp.json` file itself; the settings file is read and
written by `install`/`uninstall` as before. What install adds is recorded (`record["mcp"]` in the
install record), so uninstall takes out exactly that and nothing else:

- `.mcp.json`: `mcpServers.sidekit` (a foreign `sidekit` entry it replaced is put back);
- the settings file: `"sidekit"` in `enabledMcpjsonServers` (Claude Code starts a project's server
  only once approved) and `mcp__sidekit` in `permissions.allow` (one rule for all its tools, instead
  of one Bash rule per command).

Install then uninstall gives back `.mcp.json` byte for byte (or no file, when there was none).
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

from sidekit_hooks.core import safepath, workspace
from sidekit_hooks.core.errors import SidekitError

SERVER = "sidekit"
MAX_MCP_BYTES = 4 << 20  # a .mcp.json larger than this is not read
PERMISSION = "mcp__sidekit"  # every tool of the server
SERVER_ARGS = ("-P", "-m", "sidekit_hooks.cli", "mcp")
HOOKS_ARG = "--hooks"  # `install --warm`: the server also answers hook events (its `hook` tool)
MCP_FILE = ".mcp.json"

Record = dict[str, Any]


def server_entry(python: str, hooks: bool = False) -> dict[str, Any]:
    """The stdio server as Claude Code starts it (in the project folder, the server's project).

    `-P`: started in the project folder, `-m` would put it first on sys.path and run a repository's
    own `sidekit_hooks/` or `argparse.py` instead of sidekit's. `hooks`: with `--hooks` (the warm
    wiring, docs/warm-path.md).
    """
    return {"command": python, "args": [*SERVER_ARGS, *([HOOKS_ARG] if hooks else [])]}


def path_of(project: str) -> str:
    path = os.path.join(project, MCP_FILE)
    real = os.path.realpath(path)
    root = os.path.realpath(project)
    if real != os.path.join(root, MCP_FILE) and not real.startswith(root + os.sep):
        raise SidekitError(
            f"{path} is a link to {real}, outside the project; nothing was changed",
            f"replace the link with a file (rm {path}), then: sidekit install --project {project} "
            "--mcp",
        )
    return path


def install(
    project: str, python: str, record: Record | None, hooks: bool = False
) -> tuple[Record, str]:
    """Add (or update) the server in `.mcp.json` (`hooks`: started with `--hooks`); return the
    record and a line saying what changed."""
    path = path_of(project)
    text, data = _read(path, project)
    record = (
        copy.deepcopy(record)
        if record
        else {"createdFile": text is None, "originalText": text or ""}
    )
    servers = data.get("mcpServers")
    if servers is None:
        servers = data["mcpServers"] = {}
        record.setdefault("createdServers", True)
    elif not isinstance(servers, dict):
        raise SidekitError(
            f'{path}: "mcpServers" is not an object; nothing was changed',
            f"repair it, then: sidekit install --project {project} --mcp",
        )
    entry = server_entry(python, hooks)
    if servers.get(SERVER) == entry:
        record["entry"] = entry
        return record, f"{path}: server '{SERVER}' already there"
    if SERVER in servers and "entry" not in record:
        record["replaced"] = servers[SERVER]
    servers[SERVER] = entry
    record["entry"] = entry
    workspace.atomic_write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return record, f"{path}: added server '{SERVER}' ({python} {' '.join(entry['args'])})"


def uninstall(project: str, record: Record) -> str:
    """Take out what `install` put into `.mcp.json`; a line saying what was done."""
    path = path_of(project)
    text, data = _read(path, project)
    if text is None:
        return f"{path}: not there, nothing to remove"
    servers = data.get("mcpServers")
    if not isinstance(servers, dict) or servers.get(SERVER) != record.get("entry"):
        return f"{path}: server '{SERVER}' is not the one sidekit install wrote; left as it is"
    if "replaced" in record:
        servers[SERVER] = record["replaced"]
    else:
        del servers[SERVER]
    if not servers and record.get("createdServers"):
        del data["mcpServers"]
    original = record.get("originalText") or ""
    if not data and record.get("createdFile"):
        os.unlink(path)
        return f"{path}: removed the file (sidekit install had created it)"
    if original and _same(original, data):
        workspace.atomic_write(path, original)
    else:
        workspace.atomic_write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return f"{path}: removed server '{SERVER}'"


def approve(settings: dict[str, Any], record: Record) -> dict[str, Any]:
    """Settings that start the project's `sidekit` server and allow its tools; `record` notes what
    was added."""
    new = copy.deepcopy(settings)
    _add(new, ["enabledMcpjsonServers"], SERVER, record, "createdEnabled", "enabled")
    _add(new, ["permissions", "allow"], PERMISSION, record, "createdAllow", "allowed")
    return new


def unapprove(settings: dict[str, Any], record: Record) -> dict[str, Any]:
    """Take out exactly what `approve` added."""
    new = copy.deepcopy(settings)
    _remove(
        new, ["enabledMcpjsonServers"], SERVER, record.get("enabled"), record.get("createdEnabled")
    )
    _remove(
        new, ["permissions", "allow"], PERMISSION, record.get("allowed"), record.get("createdAllow")
    )
    if record.get("createdPermissions") and new.get("permissions") == {}:
        del new["permissions"]
    return new


def _add(
    settings: dict[str, Any], keys: list[str], value: str, record: Record, created: str, added: str
) -> None:
    holder = settings
    for key in keys[:-1]:
        if key not in holder:
            holder[key] = {}
            record.setdefault("createdPermissions", True)
        holder = holder[key]
        if not isinstance(holder, dict):
            raise SidekitError(
                f'"{key}" in the settings is not an object; nothing was changed',
                "repair it, then run the same sidekit install again",
            )
    items = holder.get(keys[-1])
    if items is None:
        items = holder[keys[-1]] = []
        record.setdefault(created, True)
    if not isinstance(items, list):
        raise SidekitError(
            f'"{".".join(keys)}" in the settings is not a list; nothing was changed',
            "repair it, then run the same sidekit install again",
        )
    if value not in items:
        items.append(value)
        record[added] = True
    else:
        record.setdefault(added, False)


def _remove(
    settings: dict[str, Any], keys: list[str], value: str, added: object, created: object
) -> None:
    holder: Any = settings
    for key in keys[:-1]:
        holder = holder.get(key) if isinstance(holder, dict) else None
    if not added or not isinstance(holder, dict) or not isinstance(holder.get(keys[-1]), list):
        return
    items = holder[keys[-1]]
    if value in items:
        items.remove(value)
    if not items and created:
        del holder[keys[-1]]


def _read(path: str, project: str) -> tuple[str | None, dict[str, Any]]:
    """(text or None when absent, the JSON object); a clear error when it cannot be used."""
    if os.path.lexists(path) and safepath.project_file(project, MCP_FILE) is None:
        raise SidekitError(
            f"{path} is not a regular file inside the project; nothing was changed",
            f"replace it with a file (rm {path}), then: sidekit install --project {project} --mcp",
        )
    try:  # never blocking (a FIFO swapped in after the check), bounded
        text = safepath.read_inside(project, path, MAX_MCP_BYTES, follow_inside=True).decode(
            "utf-8"
        )
    except FileNotFoundError:
        return None, {}
    except (OSError, UnicodeDecodeError) as exc:
        raise SidekitError(
            f"cannot read {path} ({exc}); nothing was changed", f"chmod u+rw {path}"
        ) from None
    from sidekit_hooks.cli.wiring import files

    return text, files.json_object(path, text, f"sidekit install --project {project} --mcp")


def _same(text: str, data: dict[str, Any]) -> bool:
    try:
        return bool(json.loads(text) == data)
    except ValueError:
        return False


def unsafe_entry(entry: dict[str, Any], project: str) -> str:
    """Why `entry` is not one `install --mcp` writes and doctor may start ("" when it is).

    The entry sits in a file the repository may commit: doctor starts only an interpreter outside
    the project, with exactly the arguments install writes (`-P` keeps the project off its
    sys.path).
    """
    command, args = entry.get("command"), entry.get("args")
    if args not in (list(SERVER_ARGS), [*SERVER_ARGS, HOOKS_ARG]):
        return f"its arguments are {args!r}, not {list(SERVER_ARGS)!r} (an older install, or not sidekit's)"
    if not isinstance(command, str) or not os.path.isabs(command):
        return f"its command {command!r} is not an absolute path to a Python"
    import re

    real, root = os.path.realpath(command), os.path.realpath(project)
    python = re.compile(r"python(\d+(\.\d+)?)?")
    if not (
        python.fullmatch(os.path.basename(command)) and python.fullmatch(os.path.basename(real))
    ):
        # any other program outside the project (`curl -P -m ...`) is one the repository chose for
        # doctor
        return f"its command {command} is not a Python interpreter"
    if (
        real == root
        or real.startswith(root + os.sep)
        or os.path.abspath(command).startswith(root + os.sep)
    ):
        return f"its command {command} lies inside the project"
    return ""


def wired(project: str) -> dict[str, Any] | None:
    """The project's `.mcp.json` entry for the sidekit server, if any (never raises)."""
    raw = safepath.read_project_file(
        project, MCP_FILE, MAX_MCP_BYTES
    )  # a committed FIFO never blocks doctor
    try:
        entry = json.loads(raw or b"")["mcpServers"][SERVER]
    except (ValueError, KeyError, TypeError):
        return None
    return entry if isinstance(entry, dict) else None
