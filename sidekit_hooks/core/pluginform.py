"""The plugin form's side of a hook: is this a plugin session, is the project set up, what to tell
once.

`pipeline/plugin_setup.py` does the setup itself (in a detached worker it starts); this module
holds what a hook and that worker both read, at a stat or a small read each. Standard library only (hook hot
path).
"""

from __future__ import annotations

import os

from sidekit_hooks.core import fastjson, safepath, workspace

# under .sidekit/: {"version", "root"} once a plugin set the project up
DONE_FILE = "plugin-setup.json"
SAY_FILE = "plugin-setup.say"  # under .sidekit/: the one line for the user, until a hook claims it
LOCK_FILE = "plugin-setup.lock"
VERSION = 1  # bump when the setup learns something new: projects set up before get it once more


def plugin_root(environ: dict[str, str] | None = None) -> str:
    """The plugin's folder when this hook runs in the plugin form (Claude Code sets it), else ""."""
    env = os.environ if environ is None else environ
    return env.get("CLAUDE_PLUGIN_ROOT", "")


def done_path(project: str) -> str:
    return os.path.join(workspace.state_dir(project), DONE_FILE)


def setup_needed(project: str, root: str) -> bool:
    """Whether this project was not set up by this plugin (at this setup version) yet: one small
    read."""
    try:
        data = fastjson.loads(safepath.read_bytes(done_path(project)).decode("utf-8", "replace"))
    except (OSError, ValueError):
        return True
    return not (
        isinstance(data, dict) and data.get("version") == VERSION and data.get("root") == root
    )


def claim_notice(project: str) -> str:
    """The setup's line for the user, claimed by rename so that exactly one hook says it; "" when
    none."""
    path = os.path.join(workspace.state_dir(project), SAY_FILE)
    if not os.path.exists(path):
        return ""
    taken = f"{path}.said-{os.getpid()}"
    try:
        os.rename(path, taken)
    except OSError:
        return ""
    try:
        return safepath.read_bytes(taken).decode("utf-8", "replace").strip()[:1000]
    except OSError:
        return ""
    finally:
        try:
            os.unlink(taken)
        except OSError:
            pass
